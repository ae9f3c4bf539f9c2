// SPDX-License-Identifier: BSD-2-Clause
// A, the largest |x| of a layer's input (|-2^63| = 2^63, unsigned), in
// two passes: each workgroup's largest of its 64·16 elements into
// partial[base + g] (a tensor in chunks: each chunk's partials from its
// base on), then one workgroup's largest of those into amax[slot].

struct Amax {
  n: u32, slot: u32, base: u32, pad1: u32,
}

@group(0) @binding(0) var<uniform> P: Amax;
@group(0) @binding(1) var<storage, read> X: array<i64>;
@group(0) @binding(2) var<storage, read_write> partial: array<i64>;
@group(0) @binding(3) var<storage, read_write> amax: array<i64>;

var<workgroup> best: array<i64, 64>;

fn max64u(a: i64, b: i64) -> i64 { return select(a, b, lt64u(a, b)); }

// Leaves the workgroup's largest in best[0].
fn reduce(lid: u32) {
  for (var s = 32u; s > 0u; s = s >> 1u) {
    workgroupBarrier();
    if (lid < s) { best[lid] = max64u(best[lid], best[lid + s]); }
  }
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn amax_partial(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
  let g = wg.y * nwg.x + wg.x;
  var m = i64(0u, 0u);
  for (var k = 0u; k < 16u; k++) {
    let e = (g * 16u + k) * 64u + lid;
    if (e < P.n) { m = max64u(m, abs64(X[e])); }
  }
  best[lid] = m;
  reduce(lid);
  if (lid == 0u) { partial[P.base + g] = best[0]; }
}

// P.n here: the count of partials.
@compute @workgroup_size(64)
fn amax_final(@builtin(local_invocation_index) lid: u32) {
  var m = i64(0u, 0u);
  for (var e = lid; e < P.n; e += 64u) { m = max64u(m, partial[e]); }
  best[lid] = m;
  reduce(lid);
  if (lid == 0u) { amax[P.slot] = best[0]; }
}
