// SPDX-License-Identifier: BSD-2-Clause
// libwai's integer arithmetic in WGSL's 32-bit integers
// (docs/wgsl.md, "The arithmetic"). An i64 is vec2<u32>(low, high) in two's
// complement, the bytes of a little-endian int64; a 128-bit value is
// vec4<u32>, lowest word first. u32 arithmetic wraps (mod 2^32, defined),
// so every helper here computes exactly modulo 2^64 or 2^128; the layer's
// exactness bound (docs/integer-operators.md) is what makes the residue
// the true value. No float anywhere.

alias i64 = vec2<u32>;
alias u128 = vec4<u32>;

fn carry(sum: u32, a: u32) -> u32 { return select(0u, 1u, sum < a); }

fn add64(a: i64, b: i64) -> i64 {
  let lo = a.x + b.x;
  return i64(lo, a.y + b.y + carry(lo, a.x));
}

fn neg64(a: i64) -> i64 {
  let lo = ~a.x + 1u;
  return i64(lo, ~a.y + select(0u, 1u, lo == 0u));
}

fn is_neg64(a: i64) -> bool { return (a.y >> 31u) != 0u; }

// |a| as an unsigned 64-bit value (|-2^63| = 2^63).
fn abs64(a: i64) -> i64 { return select(a, neg64(a), is_neg64(a)); }

fn sext32(v: i32) -> i64 { return i64(u32(v), select(0u, 0xffffffffu, v < 0)); }

// a < b as unsigned 64-bit values.
fn lt64u(a: i64, b: i64) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// The full product of two u32: four 16-bit products, each below 2^32.
fn mul32(a: u32, b: u32) -> i64 {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let mid = p01 + a1 * b0;
  let lo = p00 + (mid << 16u);
  return i64(lo, a1 * b1 + (mid >> 16u) + select(0u, 0x10000u, mid < p01) + carry(lo, p00));
}

// a · w modulo 2^64, w signed 32-bit: the low 64 bits of a · sext(w).
fn mul64_i32(a: i64, w: i32) -> i64 {
  let wu = u32(w);
  var p = mul32(a.x, wu);
  p.y = p.y + a.y * wu;
  // sext(w)'s high word is 2^32 - 1 when w < 0: adds a.x · (2^32 - 1) · 2^32.
  if (w < 0) { p.y = p.y - a.x; }
  return p;
}

fn add128(a: u128, b: u128) -> u128 {
  let w0 = a.x + b.x;
  let c0 = carry(w0, a.x);
  let s1 = a.y + b.y;
  let w1 = s1 + c0;
  let c1 = carry(s1, a.y) + carry(w1, s1);
  let s2 = a.z + b.z;
  let w2 = s2 + c1;
  let c2 = carry(s2, a.z) + carry(w2, s2);
  return u128(w0, w1, w2, a.w + b.w + c2);
}

fn neg128(a: u128) -> u128 { return add128(~a, u128(1u, 0u, 0u, 0u)); }

fn is_neg128(a: u128) -> bool { return (a.w >> 31u) != 0u; }

// The full product of two unsigned 64-bit values.
fn mul64u(a: i64, b: i64) -> u128 {
  let p0 = mul32(a.x, b.x);
  let p1 = mul32(a.x, b.y);
  let p2 = mul32(a.y, b.x);
  let p3 = mul32(a.y, b.y);
  let r = add128(u128(p0.x, p0.y, p3.x, p3.y), u128(0u, p1.x, p1.y, 0u));
  return add128(r, u128(0u, p2.x, p2.y, 0u));
}

// The exact signed product of two i64.
fn mul64s(a: i64, b: i64) -> u128 {
  let p = mul64u(abs64(a), abs64(b));
  return select(p, neg128(p), is_neg64(a) != is_neg64(b));
}

// a · g modulo 2^128 for a < 2^127 unsigned and g signed 32-bit.
fn mul128_i32(a: u128, g: i32) -> u128 {
  let m = u32(abs(g));  // |g| <= 2^31: abs(-2^31) wraps to 2^31 as u32, exact
  let p0 = mul32(a.x, m);
  let p1 = mul32(a.y, m);
  let p2 = mul32(a.z, m);
  let p3 = a.w * m;
  var r = add128(u128(p0.x, p0.y, p2.x, p2.y), u128(0u, p1.x, p1.y, 0u));
  r.w = r.w + p3;
  return select(r, neg128(r), g < 0);
}

// Word k of v sign-extended past 128 bits (k >= 0).
fn word128(v: u128, k: u32) -> u32 {
  if (k >= 4u) { return select(0u, 0xffffffffu, is_neg128(v)); }
  return v[k];
}

// The low 64 bits of floor(v / 2^s), v signed 128-bit, 0 <= s < 128.
fn shr128_low(v: u128, s: u32) -> i64 {
  let k = s >> 5u;
  let r = s & 31u;
  let w0 = word128(v, k);
  let w1 = word128(v, k + 1u);
  let w2 = word128(v, k + 2u);
  if (r == 0u) { return i64(w0, w1); }
  return i64((w0 >> r) | (w1 << (32u - r)), (w1 >> r) | (w2 << (32u - r)));
}

// round_shift(v, s) of docs/integer-operators.md, low 64 bits: floor plus
// bit s - 1 of v (halves towards +inf), v itself for s = 0.
fn round_shift128(v: u128, s: u32) -> i64 {
  if (s == 0u) { return i64(v.x, v.y); }
  let b = s - 1u;
  let bit = (word128(v, b >> 5u) >> (b & 31u)) & 1u;
  return add64(shr128_low(v, s), i64(bit, 0u));
}

// The 128-bit floor(v / 2^s), v signed, 0 <= s < 128.
fn shr128(v: u128, s: u32) -> u128 {
  let lo = shr128_low(v, s);
  let hi = shr128_low(v, s + 64u);
  return u128(lo.x, lo.y, hi.x, hi.y);
}

// isqrt(n) for n < 2^32: the largest r with r·r <= n, digit by digit.
fn isqrt32(n0: u32) -> u32 {
  var n = n0;
  var r = 0u;
  var bit = 1u << 30u;
  while (bit > n) { bit = bit >> 2u; }
  while (bit != 0u) {
    if (n >= r + bit) {
      n = n - (r + bit);
      r = (r >> 1u) + bit;
    } else {
      r = r >> 1u;
    }
    bit = bit >> 2u;
  }
  return r;
}

fn ge128(a: u128, b: u128) -> bool {
  if (a.w != b.w) { return a.w > b.w; }
  if (a.z != b.z) { return a.z > b.z; }
  if (a.y != b.y) { return a.y > b.y; }
  return a.x >= b.x;
}

fn shr128u(a: u128, s: u32) -> u128 {
  // s is 1 or 2 here: the digit steps.
  return u128((a.x >> s) | (a.y << (32u - s)), (a.y >> s) | (a.z << (32u - s)),
              (a.z >> s) | (a.w << (32u - s)), a.w >> s);
}

// isqrt(n) for n < 2^128 unsigned, the same digit steps on 128-bit words.
fn isqrt128(n0: u128) -> i64 {
  var n = n0;
  var r = u128(0u, 0u, 0u, 0u);
  // The largest power of 4 at most n: from n's highest set bit.
  var top = 0u;
  for (var k = 3i; k >= 0; k = k - 1) {
    if (n[k] != 0u) { top = u32(k) * 32u + 31u - countLeadingZeros(n[k]); break; }
  }
  top = top & ~1u;
  var bit = u128(0u, 0u, 0u, 0u);
  bit[top >> 5u] = 1u << (top & 31u);
  loop {
    let t = add128(r, bit);
    if (ge128(n, t)) {
      n = add128(n, neg128(t));
      r = add128(shr128u(r, 1u), bit);
    } else {
      r = shr128u(r, 1u);
    }
    if (bit.x == 1u && bit.y == 0u && bit.z == 0u && bit.w == 0u) { break; }
    bit = shr128u(bit, 2u);
  }
  return i64(r.x, r.y);
}

// The invocation's element: one per output, 64 to a workgroup, workgroups
// laid out over two dimensions (65535 at most in each).
fn element(wg: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
  return (wg.y * nwg.x + wg.x) * 64u + lid;
}
