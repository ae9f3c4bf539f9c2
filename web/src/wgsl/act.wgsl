// SPDX-License-Identifier: BSD-2-Clause
// ReLU and leaky ReLU, one invocation per element: max(x, 0); x when
// x >= 0, else floor(x · slope / 2^lshift), the product exact in 128 bits.

struct Act {
  n: u32, lshift: u32, slope_lo: u32, slope_hi: u32,
}

@group(0) @binding(0) var<uniform> P: Act;
@group(0) @binding(1) var<storage, read> X: array<i64>;
@group(0) @binding(2) var<storage, read_write> Y: array<i64>;

@compute @workgroup_size(64)
fn relu(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let e = element(wg, nwg, lid);
  if (e >= P.n) { return; }
  let x = X[e];
  Y[e] = select(x, i64(0u, 0u), is_neg64(x));
}

@compute @workgroup_size(64)
fn leaky(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
  let e = element(wg, nwg, lid);
  if (e >= P.n) { return; }
  let x = X[e];
  if (!is_neg64(x)) {
    Y[e] = x;
    return;
  }
  Y[e] = shr128_low(mul64s(x, i64(P.slope_lo, P.slope_hi)), P.lshift);
}
