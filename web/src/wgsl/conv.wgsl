// SPDX-License-Identifier: BSD-2-Clause
// The (transposed) convolutions, one invocation per output element:
// acc = the sum of its taps' products, formed modulo 2^64 (the layer's
// bound keeps every partial sum within i64, so the residue is the sum),
// then Y = round_shift(acc · M[o], shift) + B[o], the product exact in
// 128 bits. A one-dimensional layer is a two-dimensional one of kernel
// height 1 (docs/wgsl.md, "The kernels"). Where the layer's input A is
// below 2^31 (AM[P.slot], the A the runner reduced), each input is an i32
// cut into a 16-bit limb and a signed high limb, whose products with the
// 16-bit weights are exact i32s summed into two 64-bit sums.
//
// Tiled (a tensor past the device's buffer limits, docs/wgsl.md "Memory
// and limits"): X is the input's elements [x0, x1), Y the output's
// [e0, e0 + n); a pass sums the channels whose elements X holds, adds the
// sum the earlier passes left in Y (mode bit 0) and requantises after the
// last (mode bit 1). Sums modulo 2^64 in any order are the same residue.

struct Conv {
  cin: u32, cout: u32, kh: u32, kw: u32,
  sh: u32, sw: u32, ph: u32, pw: u32,
  ih: u32, iw: u32, oh: u32, ow: u32,
  shift: u32, n: u32, pad0: u32, slot: u32,
  e0: u32, x0: u32, x1: u32, mode: u32,
}

@group(0) @binding(0) var<uniform> P: Conv;
@group(0) @binding(1) var<storage, read> X: array<i64>;
@group(0) @binding(2) var<storage, read_write> Y: array<i64>;
@group(0) @binding(3) var<storage, read> W: array<i32>;
@group(0) @binding(4) var<storage, read> MB: array<i64>;  // mult[cout], then bias[cout]
@group(0) @binding(5) var<storage, read> AM: array<i64>;  // each layer's input A

// Whether the layer's input fits i32 (A < 2^31): the limb sums apply.
fn narrow() -> bool {
  let a = AM[P.slot];
  return a.y == 0u && a.x < 0x80000000u;
}

// a + p modulo 2^64, p an i32: p's high word is its sign.
fn add_i32(a: i64, p: i32) -> i64 {
  let lo = a.x + u32(p);
  return i64(lo, a.y + u32(p >> 31u) + carry(lo, a.x));
}

// The limb sums' total: low + high · 2^16, modulo 2^64.
fn limbs(l: i64, h: i64) -> i64 {
  return add64(l, i64(h.x << 16u, (h.y << 16u) | (h.x >> 16u)));
}

// One tap's sum over the input channels X holds, modulo 2^64: the tap's
// input is element p of channel 0 and weight w0, the next channel xstep
// and wstep on. fast: the limb sums (inputs below 2^31, 16-bit weights),
// else the 64-bit products.
fn channels(p: u32, w0: u32, xstep: u32, wstep: u32, fast: bool) -> i64 {
  // The channels c with x0 <= c·xstep + p < x1.
  var c0 = 0u;
  if (P.x0 > p) { c0 = (P.x0 - p + xstep - 1u) / xstep; }
  var c1 = 0u;
  if (P.x1 > p) { c1 = min(P.cin, (P.x1 - p + xstep - 1u) / xstep); }
  var xi = c0 * xstep + p - P.x0;
  var wi = w0 + c0 * wstep;
  if (fast) {
    var lo = i64(0u, 0u);
    var hi = i64(0u, 0u);
    for (var i = c0; i < c1; i++) {
      let x = i32(X[xi].x);
      let w = W[wi];
      lo = add_i32(lo, (x & 0xffff) * w);
      hi = add_i32(hi, (x >> 16u) * w);
      xi += xstep;
      wi += wstep;
    }
    return limbs(lo, hi);
  }
  var acc = i64(0u, 0u);
  for (var i = c0; i < c1; i++) {
    acc = add64(acc, mul64_i32(X[xi], W[wi]));
    xi += xstep;
    wi += wstep;
  }
  return acc;
}

fn requantise(acc: i64, o: u32) -> i64 {
  return add64(round_shift128(mul64s(acc, MB[o]), P.shift), MB[P.cout + o]);
}

// Output element e's sum so far: this pass's, plus the earlier passes'.
fn so_far(sum: i64, local: u32) -> i64 {
  if ((P.mode & 1u) != 0u) { return add64(sum, Y[local]); }
  return sum;
}

// Y[local] = the layer's output after the last pass, else the sum so far.
fn store(local: u32, acc: i64, o: u32) {
  if ((P.mode & 2u) != 0u) { Y[local] = requantise(acc, o); } else { Y[local] = acc; }
}

// Convolution: W [cout][cin][kh][kw], input rows oy·sh + ky - ph. The taps
// outside, the channels inside: a tap's position is found once.
@compute @workgroup_size(64)
fn conv(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let local = element(wg, nwg, lid);
  if (local >= P.n) { return; }
  let e = P.e0 + local;
  let ox = e % P.ow;
  let oy = (e / P.ow) % P.oh;
  let o = e / (P.ow * P.oh);
  let xstep = P.ih * P.iw;
  let wstep = P.kh * P.kw;
  let fast = narrow();
  var acc = i64(0u, 0u);
  for (var ky = 0u; ky < P.kh; ky++) {
    let ry = oy * P.sh + ky;
    if (ry < P.ph || ry - P.ph >= P.ih) { continue; }
    for (var kx = 0u; kx < P.kw; kx++) {
      let rx = ox * P.sw + kx;
      if (rx < P.pw || rx - P.pw >= P.iw) { continue; }
      acc = add64(acc, channels((ry - P.ph) * P.iw + rx - P.pw, o * P.cin * wstep + ky * P.kw + kx,
                                xstep, wstep, fast));
    }
  }
  store(local, so_far(acc, local), o);
}

// Transposed convolution: W [cin][cout][kh][kw]; output (oy, ox) is
// (uy, ux) = (oy + ph, ox + pw) of the uncropped plane, which input
// (iy, ix) reaches through tap (uy - iy·sh, ux - ix·sw): the taps
// congruent to uy modulo sh, from uy mod sh up; the channels inside.
fn gather_t(o: u32, oy: u32, ox: u32, fast: bool) -> i64 {
  let uy = oy + P.ph;
  let ux = ox + P.pw;
  let xstep = P.ih * P.iw;
  let wstep = P.cout * P.kh * P.kw;
  var acc = i64(0u, 0u);
  for (var ky = uy % P.sh; ky < P.kh && ky <= uy; ky += P.sh) {
    let iy = (uy - ky) / P.sh;
    if (iy >= P.ih) { continue; }
    for (var kx = ux % P.sw; kx < P.kw && kx <= ux; kx += P.sw) {
      let ix = (ux - kx) / P.sw;
      if (ix >= P.iw) { continue; }
      acc = add64(acc, channels(iy * P.iw + ix, (o * P.kh + ky) * P.kw + kx, xstep, wstep, fast));
    }
  }
  return acc;
}

@compute @workgroup_size(64)
fn conv_t(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
  let local = element(wg, nwg, lid);
  if (local >= P.n) { return; }
  let e = P.e0 + local;
  let ox = e % P.ow;
  let oy = (e / P.ow) % P.oh;
  let o = e / (P.ow * P.oh);
  store(local, so_far(gather_t(o, oy, ox, narrow()), local), o);
}

// int_synth's transposed convolution (docs/int_synth.md): W is i32, MB
// holds the biases (sign-extended), P.shift is the layer's (0..127) and
// P.pad0 its ReLU. acc + bias is within i64 (the set's certificate), so
// the sum modulo 2^64 is exact; floor((acc + bias) / 2^shift) by words
// with the sign extended (a shift of 64 or more leaves 0 or -1).
@compute @workgroup_size(64)
fn synth_t(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
  let local = element(wg, nwg, lid);
  if (local >= P.n) { return; }
  let e = P.e0 + local;
  let ox = e % P.ow;
  let oy = (e / P.ow) % P.oh;
  let o = e / (P.ow * P.oh);
  let acc = so_far(gather_t(o, oy, ox, false), local);  // i32 weights: no limb sums
  if ((P.mode & 2u) == 0u) {
    Y[local] = acc;
    return;
  }
  let v = add64(acc, MB[o]);
  let s = select(0u, 0xffffffffu, is_neg64(v));
  var y = shr128_low(u128(v.x, v.y, s, s), P.shift);
  if (P.pad0 != 0u && is_neg64(y)) { y = i64(0u, 0u); }
  Y[local] = y;
}
