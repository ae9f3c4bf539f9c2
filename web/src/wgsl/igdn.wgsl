// SPDX-License-Identifier: BSD-2-Clause
// The inverse GDN, one invocation per position and block of channels: for
// each channel i, n = beta[i] + floor(sum_j gamma[i][j] · X[j]^2 / 2^gf), formed
// exactly (the sum modulo 2^128, which the bound A^2 · G_i <= 2^127 - 1
// makes exact; n in 129 bits), r = isqrt(max(n, 0)), then
// Y = round_shift(X[i] · r, afrac) (docs/wgsl.md, "The kernels").
//
// Tiled (docs/wgsl.md, "Memory and limits"): X is the input's elements
// [x0, x1), Y and XO the output's and the input's [e0, e0 + ny) (the two
// tensors have one shape), ACC the sums of Y's elements; a pass adds the
// channels j X holds, to the sums ACC holds (mode bit 0), and finishes
// after the last (mode bit 1). Sums modulo 2^128 in any order are one
// residue.

struct Igdn {
  c: u32, positions: u32, gf: u32, afrac: u32,
  n: u32, e0: u32, ny: u32, blk0: u32,
  x0: u32, x1: u32, mode: u32, pad0: u32,
}

@group(0) @binding(0) var<uniform> P: Igdn;
@group(0) @binding(1) var<storage, read> X: array<i64>;
@group(0) @binding(2) var<storage, read_write> Y: array<i64>;
@group(0) @binding(3) var<storage, read> G: array<i32>;   // gamma [c][c]
@group(0) @binding(4) var<storage, read> B: array<i64>;   // beta [c]
@group(0) @binding(5) var<storage, read> XO: array<i64>;  // X[i] of Y's elements
@group(0) @binding(6) var<storage, read_write> ACC: array<u128>;

// Each invocation takes one position and IB channels i: every square X[j]^2
// is formed once for the IB sums that use it.
const IB = 8u;

// Y[i] at position pos (Y's element local) from its sum (the rest of the
// layer's formula).
fn finish(i: u32, local: u32, sum: u128) -> i64 {
  // n = beta + floor(sum / 2^gf): a positive n is below 2^128 (the sum is
  // below 2^127 and |beta| below 2^63), so only its sign needs the 129th bit.
  let f = shr128(sum, P.gf);
  let b = B[i];
  let bw = select(0u, 0xffffffffu, is_neg64(b));
  let n = add128(f, u128(b.x, b.y, bw, bw));
  // The sign of the 129-bit sum: f's and beta's where they agree, else the
  // 128-bit sum's (no carry out then).
  let fneg = is_neg128(f);
  var neg = is_neg128(n);
  if (fneg == is_neg64(b)) { neg = fneg; }
  var r = i64(0u, 0u);
  if (!neg && (n.x | n.y | n.z | n.w) != 0u) {
    if ((n.y | n.z | n.w) == 0u) {
      r = i64(isqrt32(n.x), 0u);
    } else {
      r = isqrt128(n);
    }
  }
  // r may pass 2^63 (it is below 2^64): X · r by magnitudes, then the sign.
  let x = XO[local];
  let p = mul64u(abs64(x), r);
  return round_shift128(select(p, neg128(p), is_neg64(x)), P.afrac);
}

// Whether channel i at position pos is one of Y's elements.
fn held(i: u32, pos: u32) -> bool {
  let e = i * P.positions + pos;
  return e >= P.e0 && e - P.e0 < P.ny;
}

// P.n here: positions · the blocks from blk0 on that Y's elements meet.
@compute @workgroup_size(64)
fn igdn(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let e = element(wg, nwg, lid);
  if (e >= P.n) { return; }
  let pos = e % P.positions;
  let i0 = (P.blk0 + e / P.positions) * IB;
  if (i0 >= P.c) { return; }
  let count = min(IB, P.c - i0);
  var sums: array<u128, 8>;
  for (var k = 0u; k < IB; k++) {
    sums[k] = u128(0u, 0u, 0u, 0u);
    if ((P.mode & 1u) != 0u && k < count && held(i0 + k, pos)) {
      sums[k] = ACC[(i0 + k) * P.positions + pos - P.e0];
    }
  }
  // The channels j with x0 <= j·positions + pos < x1.
  var j0 = 0u;
  if (P.x0 > pos) { j0 = (P.x0 - pos + P.positions - 1u) / P.positions; }
  var j1 = 0u;
  if (P.x1 > pos) { j1 = min(P.c, (P.x1 - pos + P.positions - 1u) / P.positions); }
  for (var j = j0; j < j1; j++) {
    let m = abs64(X[j * P.positions + pos - P.x0]);
    let sq = mul64u(m, m);
    for (var k = 0u; k < count; k++) {
      sums[k] = add128(sums[k], mul128_i32(sq, G[(i0 + k) * P.c + j]));
    }
  }
  for (var k = 0u; k < count; k++) {
    let i = i0 + k;
    if (!held(i, pos)) { continue; }
    let local = i * P.positions + pos - P.e0;
    if ((P.mode & 2u) != 0u) { Y[local] = finish(i, local, sums[k]); } else { ACC[local] = sums[k]; }
  }
}
