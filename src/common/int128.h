/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact 128-bit integers on every target libwai builds for. i386 and wasm32
 * have no __int128, and the layer arithmetic (design: integer-arithmetic.md)
 * forms 128-bit products, so the portable form below (two uint64 halves) is
 * the one the library relies on; where the compiler has __int128, the two
 * 64x64 multiplies may use it (WAI_INT128_NATIVE), and the tests hold the
 * two equal.
 *
 * Everything is computed in uint64_t, whose arithmetic is modular, so no
 * operation here has undefined behaviour: wai_i128 is two's complement in
 * two halves, add/sub/neg wrap modulo 2^128 (exact whenever the true result
 * fits), and conversions to int64_t go through wai_u64_to_i64, which never
 * relies on implementation-defined narrowing. */
#ifndef WAI_COMMON_INT128_H
#define WAI_COMMON_INT128_H

#include <stdint.h>

typedef struct wai_u128 {
    uint64_t lo, hi;
} wai_u128;

/* Two's complement: the value is hi*2^64 + lo, minus 2^128 when hi's top bit
 * is set. Range [-2^127, 2^127 - 1]. */
typedef struct wai_i128 {
    uint64_t lo, hi;
} wai_i128;

#if defined(__SIZEOF_INT128__) && !defined(WAI_INT128_PORTABLE_ONLY)
#define WAI_INT128_NATIVE 1
__extension__ typedef unsigned __int128 wai_native_u128;
__extension__ typedef __int128 wai_native_i128;
#else
#define WAI_INT128_NATIVE 0
#endif

/* ---- 64-bit helpers ----------------------------------------------------- */

/* |v| as u64: 2^63 for INT64_MIN. */
static inline uint64_t wai_abs_i64(int64_t v) {
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* The int64_t whose two's complement bits are u (no implementation-defined
 * narrowing: values above INT64_MAX are rebuilt from their complement). */
static inline int64_t wai_u64_to_i64(uint64_t u) {
    if (u <= (uint64_t)INT64_MAX) return (int64_t)u;
    return -(int64_t)(~u) - 1;
}

/* ---- construction and conversion ------------------------------------------ */

static inline wai_u128 wai_u128_make(uint64_t hi, uint64_t lo) {
    wai_u128 r;
    r.lo = lo;
    r.hi = hi;
    return r;
}

static inline wai_i128 wai_i128_make(uint64_t hi, uint64_t lo) {
    wai_i128 r;
    r.lo = lo;
    r.hi = hi;
    return r;
}

static inline wai_u128 wai_u128_from_u64(uint64_t v) { return wai_u128_make(0, v); }

static inline wai_i128 wai_i128_from_i64(int64_t v) {
    return wai_i128_make(v < 0 ? UINT64_MAX : 0, (uint64_t)v);
}

/* Reinterpretations of the same 128 bits. */
static inline wai_u128 wai_i128_bits(wai_i128 v) { return wai_u128_make(v.hi, v.lo); }
static inline wai_i128 wai_u128_bits(wai_u128 v) { return wai_i128_make(v.hi, v.lo); }

static inline int wai_i128_is_neg(wai_i128 v) { return (int)(v.hi >> 63); }

static inline int wai_u128_is_zero(wai_u128 v) { return (v.hi | v.lo) == 0; }

/* 1 when v is in [-2^63, 2^63 - 1]. */
static inline int wai_i128_fits_i64(wai_i128 v) {
    return v.hi == ((v.lo >> 63) ? UINT64_MAX : 0);
}

/* The low 64 bits as int64_t: v itself when wai_i128_fits_i64(v). */
static inline int64_t wai_i128_to_i64(wai_i128 v) { return wai_u64_to_i64(v.lo); }

/* ---- add, sub, neg (modulo 2^128) --------------------------------------- */

static inline wai_u128 wai_u128_add(wai_u128 a, wai_u128 b) {
    uint64_t lo = a.lo + b.lo;
    return wai_u128_make(a.hi + b.hi + (lo < a.lo), lo);
}

static inline wai_u128 wai_u128_sub(wai_u128 a, wai_u128 b) {
    return wai_u128_make(a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo);
}

static inline wai_i128 wai_i128_add(wai_i128 a, wai_i128 b) {
    return wai_u128_bits(wai_u128_add(wai_i128_bits(a), wai_i128_bits(b)));
}

static inline wai_i128 wai_i128_sub(wai_i128 a, wai_i128 b) {
    return wai_u128_bits(wai_u128_sub(wai_i128_bits(a), wai_i128_bits(b)));
}

/* -v; -(-2^127) wraps to -2^127. */
static inline wai_i128 wai_i128_neg(wai_i128 v) {
    return wai_i128_sub(wai_i128_make(0, 0), v);
}

/* |v| as u128 (2^127 for -2^127, which u128 holds). */
static inline wai_u128 wai_i128_abs(wai_i128 v) {
    return wai_i128_bits(wai_i128_is_neg(v) ? wai_i128_neg(v) : v);
}

/* ---- compare: -1, 0 or 1 -------------------------------------------------- */

static inline int wai_u128_cmp(wai_u128 a, wai_u128 b) {
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

static inline int wai_i128_cmp(wai_i128 a, wai_i128 b) {
    /* Flipping the sign bit maps signed order onto unsigned order. */
    const uint64_t s = (uint64_t)1 << 63;
    return wai_u128_cmp(wai_u128_make(a.hi ^ s, a.lo), wai_u128_make(b.hi ^ s, b.lo));
}

/* ---- multiply --------------------------------------------------------------- */

/* The full product of two u64, from four 32x32 products (no __int128). */
static inline wai_u128 wai_u128_mul_u64_portable(uint64_t a, uint64_t b) {
    const uint64_t m32 = 0xffffffffu;
    uint64_t a0 = a & m32, a1 = a >> 32, b0 = b & m32, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* Each addend < 2^32, so mid < 3 * 2^32: no carry is lost. */
    uint64_t mid = (p00 >> 32) + (p01 & m32) + (p10 & m32);
    return wai_u128_make(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32),
                         (mid << 32) | (p00 & m32));
}

/* The full product of two i64 (|a*b| <= 2^126, so it always fits): the
 * unsigned product of the bit patterns, with the high half corrected for
 * each negative factor (a = ua - 2^64 when a < 0). */
static inline wai_i128 wai_i128_mul_i64_portable(int64_t a, int64_t b) {
    wai_u128 p = wai_u128_mul_u64_portable((uint64_t)a, (uint64_t)b);
    uint64_t hi = p.hi;
    if (a < 0) hi -= (uint64_t)b;
    if (b < 0) hi -= (uint64_t)a;
    return wai_i128_make(hi, p.lo);
}

#if WAI_INT128_NATIVE
static inline wai_u128 wai_u128_mul_u64_native(uint64_t a, uint64_t b) {
    wai_native_u128 p = (wai_native_u128)a * b;
    return wai_u128_make((uint64_t)(p >> 64), (uint64_t)p);
}

static inline wai_i128 wai_i128_mul_i64_native(int64_t a, int64_t b) {
    wai_native_i128 p = (wai_native_i128)a * b;
    wai_native_u128 u = (wai_native_u128)p;
    return wai_i128_make((uint64_t)(u >> 64), (uint64_t)u);
}
#define wai_u128_mul_u64 wai_u128_mul_u64_native
#define wai_i128_mul_i64 wai_i128_mul_i64_native
#else
#define wai_u128_mul_u64 wai_u128_mul_u64_portable
#define wai_i128_mul_i64 wai_i128_mul_i64_portable
#endif

/* a * b for i64 a and u64 b, exactly: |a * b| < 2^63 * 2^64 = 2^127. */
static inline wai_i128 wai_i128_mul_i64_u64(int64_t a, uint64_t b) {
    wai_i128 m = wai_u128_bits(wai_u128_mul_u64(wai_abs_i64(a), b));
    return a < 0 ? wai_i128_neg(m) : m;
}

/* a * b for u128 a and u64 b: returns 1 and writes *out when the exact
 * product fits 128 bits, else 0 (and *out is untouched). */
static inline int wai_u128_mul_u64_checked(wai_u128 a, uint64_t b, wai_u128 *out) {
    wai_u128 lo = wai_u128_mul_u64(a.lo, b);
    wai_u128 hi = wai_u128_mul_u64(a.hi, b);
    uint64_t top = lo.hi + hi.lo;
    if (hi.hi != 0 || top < lo.hi) return 0;
    *out = wai_u128_make(top, lo.lo);
    return 1;
}

/* a * b modulo 2^128 (for signed values: exact whenever the product fits). */
static inline wai_u128 wai_u128_mul_wrap(wai_u128 a, wai_u128 b) {
    wai_u128 p = wai_u128_mul_u64(a.lo, b.lo);
    return wai_u128_make(p.hi + a.lo * b.hi + a.hi * b.lo, p.lo);
}

/* ---- shifts: any s (s >= 128 gives 0, or the sign for sar) ----------------- */

static inline wai_u128 wai_u128_shl(wai_u128 a, unsigned s) {
    if (s == 0) return a;
    if (s < 64) return wai_u128_make((a.hi << s) | (a.lo >> (64 - s)), a.lo << s);
    if (s < 128) return wai_u128_make(a.lo << (s - 64), 0);
    return wai_u128_make(0, 0);
}

static inline wai_u128 wai_u128_shr(wai_u128 a, unsigned s) {
    if (s == 0) return a;
    if (s < 64) return wai_u128_make(a.hi >> s, (a.lo >> s) | (a.hi << (64 - s)));
    if (s < 128) return wai_u128_make(0, a.hi >> (s - 64));
    return wai_u128_make(0, 0);
}

/* Arithmetic right shift = floor(v / 2^s). The sign is filled in by hand:
 * C leaves >> of a negative signed value implementation-defined. */
static inline wai_i128 wai_i128_sar(wai_i128 v, unsigned s) {
    uint64_t fill = wai_i128_is_neg(v) ? UINT64_MAX : 0;
    if (s == 0) return v;
    if (s < 64)
        return wai_i128_make((v.hi >> s) | (fill << (64 - s)), (v.lo >> s) | (v.hi << (64 - s)));
    if (s == 64) return wai_i128_make(fill, v.hi);
    if (s < 128) return wai_i128_make(fill, (v.hi >> (s - 64)) | (fill << (128 - s)));
    return wai_i128_make(fill, fill);
}

static inline wai_i128 wai_i128_shl(wai_i128 v, unsigned s) {
    return wai_u128_bits(wai_u128_shl(wai_i128_bits(v), s));
}

/* floor_shift(v, s) = floor(v / 2^s). */
static inline wai_i128 wai_i128_floor_shift(wai_i128 v, unsigned s) { return wai_i128_sar(v, s); }
static inline wai_u128 wai_u128_floor_shift(wai_u128 v, unsigned s) { return wai_u128_shr(v, s); }

/* round_shift(v, s) = floor((v + 2^(s-1)) / 2^s) for s >= 1, v for s = 0.
 * Formed without the sum (which could leave 128 bits): with v = q*2^s + r,
 * 0 <= r < 2^s, the result is q + [r >= 2^(s-1)], and that comparison is bit
 * s-1 of v. q + 1 cannot overflow since q <= (2^127 - 1) / 2. For s >= 128
 * the result is floor((v + 2^(s-1)) / 2^s) = 0 for every 128-bit v. */
static inline wai_i128 wai_i128_round_shift(wai_i128 v, unsigned s) {
    if (s == 0) return v;
    if (s >= 128) return wai_i128_make(0, 0);
    uint64_t half = (s <= 64) ? (v.lo >> (s - 1)) & 1 : (v.hi >> (s - 65)) & 1;
    wai_i128 q = wai_i128_sar(v, s);
    return half ? wai_i128_add(q, wai_i128_make(0, 1)) : q;
}

/* ---- square root -------------------------------------------------------- */

/* isqrt(n): the largest r with r*r <= n (always < 2^64). Exact, integer
 * only (int128.c). */
uint64_t wai_u128_isqrt(wai_u128 n);

/* The same for n < 2^64, faster: a seed from a table, two Newton steps and
 * a fix-up to the definition (int128.c). */
uint64_t wai_isqrt_u64(uint64_t n);

#endif
