/* SPDX-License-Identifier: BSD-2-Clause */
/* The exact arithmetic of the networks: 128-bit integers (common/int128.h),
 * the exactness rule (ops/bounds.h), the reference layers and the stage
 * operators (ops/layers.h). Expected values are worked by hand in comments;
 * where the compiler has __int128, an independent implementation on it is
 * compared on random inputs. */
#include <stdlib.h>
#include <string.h>

#include "common/exec.h"
#include "common/int128.h"
#include "decode/int_hyper.h"
#include "harness.h"
#include "ops/bounds.h"
#include "ops/layers.h"

#define P63 ((uint64_t)1 << 63)
#define I64MAX INT64_MAX
#define I64MIN INT64_MIN

static uint64_t g_seed = 0x1a7e75;

static uint64_t rnd64(void) { return harness_rand(&g_seed); }

#if defined(__SIZEOF_INT128__)
/* A random value of a random bit width (so small and edge values are both
 * common), with a random sign. */
static int64_t rnd_i64_width(void) {
    unsigned bits = (unsigned)(rnd64() % 65);
    uint64_t v = bits == 64 ? rnd64() : rnd64() & (((uint64_t)1 << bits) - 1);
    return wai_u64_to_i64((rnd64() & 1) ? (uint64_t)0 - v : v);
}
#endif

static int u_is(wai_u128 v, uint64_t hi, uint64_t lo) { return v.hi == hi && v.lo == lo; }
static int i_is(wai_i128 v, uint64_t hi, uint64_t lo) { return v.hi == hi && v.lo == lo; }

/* Two's complement halves of a negative i64 sign-extended. */
#define NEG_HI UINT64_MAX

/* ---- int128 at the edges --------------------------------------------------- */

static void test_int128_construct_add(void) {
    CHECK(wai_abs_i64(I64MIN) == P63);
    CHECK(wai_abs_i64(-1) == 1 && wai_abs_i64(I64MAX) == P63 - 1);
    CHECK(wai_u64_to_i64(P63) == I64MIN && wai_u64_to_i64(UINT64_MAX) == -1);
    CHECK(wai_u64_to_i64(P63 - 1) == I64MAX);
    CHECK(i_is(wai_i128_from_i64(I64MIN), NEG_HI, P63));
    CHECK(i_is(wai_i128_from_i64(-1), NEG_HI, UINT64_MAX));
    CHECK(i_is(wai_i128_from_i64(I64MAX), 0, P63 - 1));
    CHECK(wai_i128_fits_i64(wai_i128_from_i64(I64MIN)));
    CHECK(wai_i128_fits_i64(wai_i128_from_i64(I64MAX)));
    CHECK(!wai_i128_fits_i64(wai_i128_make(0, P63)));               /* 2^63 */
    CHECK(!wai_i128_fits_i64(wai_i128_make(NEG_HI, P63 - 1)));      /* -2^63 - 1 */
    CHECK(wai_i128_to_i64(wai_i128_from_i64(I64MIN)) == I64MIN);
    /* 2^64 - 1 + 1 = 2^64: the carry crosses halves. */
    CHECK(u_is(wai_u128_add(wai_u128_from_u64(UINT64_MAX), wai_u128_from_u64(1)), 1, 0));
    CHECK(u_is(wai_u128_sub(wai_u128_make(1, 0), wai_u128_from_u64(1)), 0, UINT64_MAX));
    /* 2^127 - 1 + 1 wraps to -2^127; 0 - 1 wraps to 2^128 - 1. */
    CHECK(i_is(wai_i128_add(wai_i128_make(P63 - 1, UINT64_MAX), wai_i128_make(0, 1)), P63, 0));
    CHECK(u_is(wai_u128_sub(wai_u128_make(0, 0), wai_u128_make(0, 1)), UINT64_MAX, UINT64_MAX));
    /* -2^63 - 2^63 = -2^64. */
    CHECK(i_is(wai_i128_add(wai_i128_from_i64(I64MIN), wai_i128_from_i64(I64MIN)), NEG_HI, 0));
    CHECK(i_is(wai_i128_neg(wai_i128_from_i64(I64MIN)), 0, P63));
    CHECK(i_is(wai_i128_neg(wai_i128_make(P63, 0)), P63, 0)); /* -(-2^127) wraps */
    CHECK(u_is(wai_i128_abs(wai_i128_make(P63, 0)), P63, 0)); /* |-2^127| = 2^127 */
    CHECK(u_is(wai_i128_abs(wai_i128_from_i64(-5)), 0, 5));
    /* compare: signed order differs from the bit patterns' order. */
    CHECK(wai_i128_cmp(wai_i128_from_i64(-1), wai_i128_from_i64(0)) < 0);
    CHECK(wai_i128_cmp(wai_i128_make(P63, 0), wai_i128_make(P63 - 1, UINT64_MAX)) < 0);
    CHECK(wai_i128_cmp(wai_i128_make(0, 1), wai_i128_make(0, 1)) == 0);
    CHECK(wai_u128_cmp(wai_u128_make(P63, 0), wai_u128_make(P63 - 1, UINT64_MAX)) > 0);
    CHECK(wai_u128_cmp(wai_u128_make(1, 0), wai_u128_make(0, UINT64_MAX)) > 0);
    CHECK(wai_u128_cmp(wai_u128_make(1, 2), wai_u128_make(1, 3)) < 0);
}

static void test_int128_mul(void) {
    /* (2^64 - 1)^2 = 2^128 - 2^65 + 1. */
    CHECK(u_is(wai_u128_mul_u64_portable(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1, 1));
    CHECK(u_is(wai_u128_mul_u64(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1, 1));
    CHECK(u_is(wai_u128_mul_u64_portable(P63, 2), 1, 0));
    CHECK(u_is(wai_u128_mul_u64_portable(0, UINT64_MAX), 0, 0));
    /* (-2^63)^2 = 2^126; -2^63 * (2^63 - 1) = -2^126 + 2^63; -1 * -2^63 = 2^63. */
    CHECK(i_is(wai_i128_mul_i64_portable(I64MIN, I64MIN), (uint64_t)1 << 62, 0));
    CHECK(i_is(wai_i128_mul_i64_portable(I64MIN, I64MAX), (uint64_t)3 << 62, P63));
    CHECK(i_is(wai_i128_mul_i64_portable(-1, I64MIN), 0, P63));
    CHECK(i_is(wai_i128_mul_i64_portable(-3, 5), NEG_HI, (uint64_t)0 - 15));
    CHECK(i_is(wai_i128_mul_i64_portable(I64MAX, I64MAX), ((uint64_t)1 << 62) - 1, 1));
    CHECK(i_is(wai_i128_mul_i64(I64MIN, I64MAX), (uint64_t)3 << 62, P63));
    /* i64 * u64: -2^63 * (2^64 - 1) = -2^127 + 2^63. */
    CHECK(i_is(wai_i128_mul_i64_u64(I64MIN, UINT64_MAX), P63, P63));
    CHECK(i_is(wai_i128_mul_i64_u64(I64MAX, UINT64_MAX), P63 - 2, P63 + 1));
    wai_u128 out = wai_u128_make(7, 7);
    /* 2^64 * (2^64 - 1) = 2^128 - 2^64 fits; 2^64 * 2^64 does not; nor does
     * 2^127 * 2; (2^128 - 1) * 1 fits; anything * 0 is 0. */
    CHECK(wai_u128_mul_u64_checked(wai_u128_make(1, 0), UINT64_MAX, &out) &&
          u_is(out, UINT64_MAX, 0));
    out = wai_u128_make(7, 7);
    CHECK(wai_u128_mul_u64_checked(wai_u128_make(1, 0), 0, &out) && u_is(out, 0, 0));
    out = wai_u128_make(7, 7);
    /* (2^64 + 2)(2^64 - 1) = 2^128 + 2^64 - 2 is past; (2^64 + 1)(2^64 - 1)
     * = 2^128 - 1 is the last that fits. */
    CHECK(!wai_u128_mul_u64_checked(wai_u128_make(1, 2), UINT64_MAX, &out) && u_is(out, 7, 7));
    CHECK(wai_u128_mul_u64_checked(wai_u128_make(1, 1), UINT64_MAX, &out) &&
          u_is(out, UINT64_MAX, UINT64_MAX));
    CHECK(!wai_u128_mul_u64_checked(wai_u128_make(P63, 0), 2, &out));
    CHECK(wai_u128_mul_u64_checked(wai_u128_make(UINT64_MAX, UINT64_MAX), 1, &out) &&
          u_is(out, UINT64_MAX, UINT64_MAX));
    /* (2^127 - 1) * 2 = 2^128 - 2 fits, with a carry between the halves. */
    CHECK(wai_u128_mul_u64_checked(wai_u128_make(P63 - 1, UINT64_MAX), 2, &out) &&
          u_is(out, UINT64_MAX, UINT64_MAX - 1));
    /* (2^127 - 1) * 3 past 2^128 only through the carry. */
    CHECK(!wai_u128_mul_u64_checked(wai_u128_make(P63 - 1, UINT64_MAX), 3, &out));
    /* Wrapping product of signed values: -3 * 2^64 = -3 * 2^64. */
    wai_u128 wp = wai_u128_mul_wrap(wai_i128_bits(wai_i128_from_i64(-3)), wai_u128_make(1, 0));
    CHECK(u_is(wp, (uint64_t)0 - 3, 0));
}

static void test_int128_shifts(void) {
    const wai_u128 pat = wai_u128_make(0x8123456789abcdefull, 0xfedcba9876543210ull);
    CHECK(u_is(wai_u128_shl(pat, 0), pat.hi, pat.lo));
    CHECK(u_is(wai_u128_shl(pat, 1), 0x02468acf13579bdfull, 0xfdb97530eca86420ull));
    CHECK(u_is(wai_u128_shl(pat, 63), 0xff6e5d4c3b2a1908ull, 0));
    CHECK(u_is(wai_u128_shl(pat, 64), pat.lo, 0));
    CHECK(u_is(wai_u128_shl(pat, 127), 0, 0));
    CHECK(u_is(wai_u128_shl(wai_u128_from_u64(1), 127), P63, 0));
    CHECK(u_is(wai_u128_shl(pat, 128), 0, 0));
    CHECK(u_is(wai_u128_shr(pat, 0), pat.hi, pat.lo));
    CHECK(u_is(wai_u128_shr(pat, 1), 0x4091a2b3c4d5e6f7ull, 0xff6e5d4c3b2a1908ull));
    CHECK(u_is(wai_u128_shr(pat, 63), 1, 0x02468acf13579bdfull));
    CHECK(u_is(wai_u128_shr(pat, 64), 0, pat.hi));
    CHECK(u_is(wai_u128_shr(pat, 127), 0, 1));
    CHECK(u_is(wai_u128_shr(pat, 200), 0, 0));
    /* Arithmetic: pat is negative, so ones come in from the left. */
    const wai_i128 neg = wai_u128_bits(pat);
    CHECK(i_is(wai_i128_sar(neg, 0), pat.hi, pat.lo));
    CHECK(i_is(wai_i128_sar(neg, 1), 0xc091a2b3c4d5e6f7ull, 0xff6e5d4c3b2a1908ull));
    CHECK(i_is(wai_i128_sar(neg, 63), NEG_HI, 0x02468acf13579bdfull));
    CHECK(i_is(wai_i128_sar(neg, 64), NEG_HI, pat.hi));
    CHECK(i_is(wai_i128_sar(neg, 65), NEG_HI, 0xc091a2b3c4d5e6f7ull));
    CHECK(i_is(wai_i128_sar(neg, 127), NEG_HI, NEG_HI));
    CHECK(i_is(wai_i128_sar(neg, 128), NEG_HI, NEG_HI));
    const wai_i128 pos = wai_i128_make(0x0123456789abcdefull, 5);
    CHECK(i_is(wai_i128_sar(pos, 64), 0, 0x0123456789abcdefull));
    CHECK(i_is(wai_i128_sar(pos, 127), 0, 0));
    /* floor_shift rounds towards minus infinity: -1 >> s = -1; -3 >> 1 = -2. */
    CHECK(i_is(wai_i128_floor_shift(wai_i128_from_i64(-1), 100), NEG_HI, NEG_HI));
    CHECK(i_is(wai_i128_floor_shift(wai_i128_from_i64(-3), 1), NEG_HI, (uint64_t)0 - 2));
    CHECK(u_is(wai_u128_floor_shift(wai_u128_make(P63, 0), 127), 0, 1));
}

static int64_t rs64(int64_t v, unsigned s) {
    return wai_i128_to_i64(wai_i128_round_shift(wai_i128_from_i64(v), s));
}

static void test_int128_round_shift(void) {
    /* floor((v + 2^(s-1)) / 2^s). */
    CHECK(rs64(-1, 1) == 0);  /* floor(0 / 2) */
    CHECK(rs64(-2, 1) == -1); /* floor(-1 / 2) */
    CHECK(rs64(-3, 1) == -1); /* floor(-2 / 2) */
    CHECK(rs64(-5, 2) == -1); /* floor(-3 / 4) */
    CHECK(rs64(-6, 2) == -1); /* floor(-4 / 4): the tie goes up */
    CHECK(rs64(-7, 2) == -2); /* floor(-5 / 4) */
    CHECK(rs64(5, 1) == 3 && rs64(6, 2) == 2 && rs64(5, 2) == 1);
    CHECK(rs64(-7, 0) == -7 && rs64(I64MIN, 0) == I64MIN);
    CHECK(rs64(I64MIN, 63) == -1);          /* floor((-2^63 + 2^62) / 2^63) */
    CHECK(rs64(I64MIN, 64) == 0);           /* floor((-2^63 + 2^63) / 2^64) */
    CHECK(rs64(I64MIN + 1, 64) == 0 && rs64(I64MIN, 65) == 0);
    CHECK(rs64(I64MAX, 63) == 1 && rs64(I64MAX, 64) == 0);
    CHECK(rs64(-1, 127) == 0 && rs64(-1, 200) == 0);
    /* The extremes: the sum v + 2^(s-1) would leave 128 bits. */
    const wai_i128 top = wai_i128_make(P63 - 1, UINT64_MAX), bot = wai_i128_make(P63, 0);
    CHECK(i_is(wai_i128_round_shift(top, 127), 0, 1));    /* (2^127 - 1 + 2^126) / 2^127 */
    CHECK(i_is(wai_i128_round_shift(bot, 127), NEG_HI, NEG_HI)); /* floor(-1/2) */
    CHECK(i_is(wai_i128_round_shift(top, 1), (uint64_t)1 << 62, 0)); /* 2^126 */
    CHECK(i_is(wai_i128_round_shift(bot, 1), (uint64_t)3 << 62, 0)); /* -2^126 */
    CHECK(i_is(wai_i128_round_shift(bot, 126), NEG_HI, (uint64_t)0 - 2)); /* -2 */
    CHECK(i_is(wai_i128_round_shift(bot, 128), 0, 0));
    /* -2^64 - 2^63 by 64: floor(-1.5 + 0.5) = -1; by 65: floor(-0.75 + 0.5) = -1. */
    const wai_i128 m = wai_i128_make(NEG_HI - 1, P63);
    CHECK(i_is(wai_i128_round_shift(m, 64), NEG_HI, NEG_HI));
    CHECK(i_is(wai_i128_round_shift(m, 65), NEG_HI, NEG_HI));
    CHECK(i_is(wai_i128_round_shift(m, 63), NEG_HI, (uint64_t)0 - 3)); /* floor(-3 + .5) */
}

static void test_int128_isqrt(void) {
    CHECK(wai_u128_isqrt(wai_u128_from_u64(0)) == 0);
    CHECK(wai_u128_isqrt(wai_u128_from_u64(1)) == 1);
    CHECK(wai_u128_isqrt(wai_u128_from_u64(2)) == 1);
    CHECK(wai_u128_isqrt(wai_u128_from_u64(3)) == 1);
    CHECK(wai_u128_isqrt(wai_u128_from_u64(4)) == 2);
    CHECK(wai_u128_isqrt(wai_u128_from_u64(UINT64_MAX)) == 0xffffffffu);
    CHECK(wai_u128_isqrt(wai_u128_make((uint64_t)1 << 62, 0)) == P63);           /* 2^126 */
    CHECK(wai_u128_isqrt(wai_u128_make(((uint64_t)1 << 62) - 1, UINT64_MAX)) == P63 - 1);
    CHECK(wai_u128_isqrt(wai_u128_make(P63 - 1, UINT64_MAX)) == 13043817825332782212ull);
    CHECK(wai_u128_isqrt(wai_u128_make(UINT64_MAX, UINT64_MAX)) == UINT64_MAX);
    /* (2^64 - 1)^2 = 2^128 - 2^65 + 1 and one less. */
    CHECK(wai_u128_isqrt(wai_u128_make(UINT64_MAX - 1, 1)) == UINT64_MAX);
    CHECK(wai_u128_isqrt(wai_u128_make(UINT64_MAX - 1, 0)) == UINT64_MAX - 1);
    /* Perfect squares, one below, and the last value before the next. */
    for (int t = 0; t < 2000; t++) {
        uint64_t r = rnd64() >> (rnd64() % 64);
        wai_u128 sq = wai_u128_mul_u64_portable(r, r);
        CHECK_MSG(wai_u128_isqrt(sq) == r, "isqrt(r^2), r=%llu", (unsigned long long)r);
        if (r > 0)
            CHECK_MSG(wai_u128_isqrt(wai_u128_sub(sq, wai_u128_from_u64(1))) == r - 1,
                      "isqrt(r^2-1), r=%llu", (unsigned long long)r);
        /* (r + 1)^2 - 1 = r^2 + 2r. */
        if (r < UINT64_MAX) {
            wai_u128 hi = wai_u128_add(wai_u128_add(sq, wai_u128_from_u64(r)), wai_u128_from_u64(r));
            CHECK_MSG(wai_u128_isqrt(hi) == r, "isqrt(r^2+2r), r=%llu", (unsigned long long)r);
        }
    }
    /* Random n: r^2 <= n < (r + 1)^2, in portable arithmetic. */
    for (int t = 0; t < 2000; t++) {
        wai_u128 n = wai_u128_shr(wai_u128_make(rnd64(), rnd64()), (unsigned)(rnd64() % 128));
        uint64_t r = wai_u128_isqrt(n);
        wai_u128 r2 = wai_u128_mul_u64_portable(r, r), r1;
        CHECK(wai_u128_cmp(r2, n) <= 0);
        if (r < UINT64_MAX) {
            r1 = wai_u128_mul_u64_portable(r + 1, r + 1);
            CHECK(wai_u128_cmp(r1, n) > 0);
        }
    }
}

/* The 64-bit isqrt of the fast inverse GDN (seed, two Newton steps, the
 * fix-up) against the bitwise one: every n under 2^20, every power of two
 * and its neighbours, every perfect square r^2 and r^2 - 1, r^2 + 2r (the
 * last n of root r) for r dense at the bottom and at the top of 32 bits and
 * random between, and 300,000 random n of every bit length. */
static void test_isqrt_u64(void) {
    int bad = 0;
    for (uint64_t n = 0; n < ((uint64_t)1 << 20) && !bad; n++)
        bad = wai_isqrt_u64(n) != wai_u128_isqrt(wai_u128_from_u64(n));
    CHECK_MSG(!bad, "isqrt below 2^20");
    for (int k = 0; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        for (int d = -2; d <= 2; d++) {
            uint64_t n = p + (uint64_t)(int64_t)d;
            CHECK_MSG(wai_isqrt_u64(n) == wai_u128_isqrt(wai_u128_from_u64(n)), "2^%d%+d", k, d);
        }
    }
    for (int t = 0; t < 600000; t++) {
        uint64_t r = t < 100000 ? (uint64_t)t + 1
                   : t < 200000 ? 0xFFFFFFFFu - (uint64_t)(t - 100000)
                                : (rnd64() >> 32) >> (rnd64() % 32);
        if (r == 0) r = 1;
        uint64_t sq = r * r;
        bad = wai_isqrt_u64(sq) != r || wai_isqrt_u64(sq - 1) != r - 1 ||
              wai_isqrt_u64(sq + 2 * r) != r;
        if (!CHECK_MSG(!bad, "isqrt near %llu^2", (unsigned long long)r)) break;
    }
    CHECK(wai_isqrt_u64(UINT64_MAX) == 0xFFFFFFFFu);
    for (int t = 0; t < 300000; t++) {
        uint64_t n = rnd64() >> (rnd64() % 64);
        if (wai_isqrt_u64(n) != wai_u128_isqrt(wai_u128_from_u64(n))) {
            CHECK_MSG(0, "isqrt(%llu)", (unsigned long long)n);
            break;
        }
    }
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef __int128 ti;
__extension__ typedef unsigned __int128 tu;

static tu tu_of(wai_u128 v) { return ((tu)v.hi << 64) | v.lo; }
static ti ti_of(wai_i128 v) { return (ti)tu_of(wai_i128_bits(v)); }

/* isqrt on __int128 by binary search: independent of the library's. */
static uint64_t tu_isqrt(tu n) {
    uint64_t lo = 0, hi = UINT64_MAX;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2 + 1;
        if ((tu)mid * mid <= n) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static ti ti_floor_shift(ti v, unsigned s) {
    if (s >= 128) return v < 0 ? -1 : 0;
    return v >> s; /* gcc and clang shift signed values arithmetically */
}

static ti ti_round_shift(ti v, unsigned s) {
    if (s == 0) return v;
    if (s >= 128) return 0;
    /* v + 2^(s-1) in unsigned arithmetic, the carry kept by hand: the
     * floor of (v + 2^(s-1)) / 2^s when it leaves 128 bits is only possible
     * for v near 2^127, where the true value is (v >> s) + 1. */
    ti half = (ti)((tu)1 << (s - 1));
    if (v > 0 && v > (ti)(((tu)1 << 127) - 1) - half) return (v >> s) + 1;
    return (v + half) >> s;
}
#endif

/* Random values against __int128, and the fast variant against the
 * portable one, where the compiler has both. */
static void test_int128_vs_native(void) {
#if defined(__SIZEOF_INT128__)
    for (int t = 0; t < 20000; t++) {
        uint64_t a = rnd64() >> (rnd64() % 64), b = rnd64() >> (rnd64() % 64);
        int64_t sa = rnd_i64_width(), sb = rnd_i64_width();
        CHECK(tu_of(wai_u128_mul_u64_portable(a, b)) == (tu)a * b);
        CHECK(ti_of(wai_i128_mul_i64_portable(sa, sb)) == (ti)sa * sb);
#if WAI_INT128_NATIVE
        CHECK(u_is(wai_u128_mul_u64_native(a, b), wai_u128_mul_u64_portable(a, b).hi,
                   wai_u128_mul_u64_portable(a, b).lo));
        CHECK(i_is(wai_i128_mul_i64_native(sa, sb), wai_i128_mul_i64_portable(sa, sb).hi,
                   wai_i128_mul_i64_portable(sa, sb).lo));
#endif
        CHECK(ti_of(wai_i128_mul_i64_u64(sa, b)) == (ti)sa * (ti)b);
        wai_u128 x = wai_u128_shr(wai_u128_make(rnd64(), rnd64()), (unsigned)(rnd64() % 128));
        wai_u128 y = wai_u128_make(rnd64(), rnd64());
        wai_i128 xi = wai_u128_bits(x), yi = wai_u128_bits(y);
        if (rnd64() & 1) xi = wai_i128_neg(xi);
        unsigned s = (unsigned)(rnd64() % 130);
        CHECK(tu_of(wai_u128_add(x, y)) == tu_of(x) + tu_of(y));
        CHECK(tu_of(wai_u128_sub(x, y)) == tu_of(x) - tu_of(y));
        CHECK(tu_of(wai_u128_mul_wrap(x, y)) == tu_of(x) * tu_of(y));
        CHECK(wai_u128_cmp(x, y) == (tu_of(x) < tu_of(y) ? -1 : tu_of(x) > tu_of(y)));
        CHECK(wai_i128_cmp(xi, yi) == (ti_of(xi) < ti_of(yi) ? -1 : ti_of(xi) > ti_of(yi)));
        CHECK(tu_of(wai_u128_shl(x, s)) == (s >= 128 ? 0 : tu_of(x) << s));
        CHECK(tu_of(wai_u128_shr(y, s)) == (s >= 128 ? 0 : tu_of(y) >> s));
        CHECK(ti_of(wai_i128_sar(xi, s)) == ti_floor_shift(ti_of(xi), s));
        CHECK(ti_of(wai_i128_sar(yi, s)) == ti_floor_shift(ti_of(yi), s));
        CHECK_MSG(ti_of(wai_i128_round_shift(xi, s)) == ti_round_shift(ti_of(xi), s),
                  "round_shift s=%u", s);
        CHECK(ti_of(wai_i128_round_shift(yi, s)) == ti_round_shift(ti_of(yi), s));
        wai_u128 p;
        int fits = wai_u128_mul_u64_checked(x, b, &p);
        int nfits = b == 0 || tu_of(x) <= ~(tu)0 / b;
        CHECK(fits == nfits);
        if (fits && nfits) CHECK(tu_of(p) == tu_of(x) * b);
        CHECK(wai_u128_isqrt(x) == tu_isqrt(tu_of(x)));
    }
#else
    harness_skip("no __int128 here: the native 128-bit reference cannot run");
#endif
}

/* ---- layers on tiny tensors, by hand ------------------------------------------- */

static void test_conv2d_hand(void) {
    /* cin 1, cout 2, k 3, stride 2, pad 1 on 3x3 gives 2x2.
     * X = [1 2 3; 4 5 6; 7 8 9].
     * o0, all ones: the windows cover input rows/cols {0,1}, {1,2}:
     *   12 (1+2+4+5), 16 (2+3+5+6), 24 (4+5+7+8), 28 (5+6+8+9).
     * o1, -1 at the centre tap, 2 at the bottom-right tap:
     *   (0,0): -X00 + 2*X11 = 9; (0,1): -X02 + 0 = -3; (1,0): -X20 = -7;
     *   (1,1): -X22 = -9.
     * Requantise, shift 2: o0 M 3, B 10: 36,48,72,84 -> floor((v+2)/4) =
     *   9,12,18,21 -> 19,22,28,31. o1 M -5, B -1: -45,15,35,45 ->
     *   -11,4,9,11 -> -12,3,8,10. */
    int16_t w[18] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, -1, 0, 0, 0, 2};
    int64_t m[2] = {3, -5}, b[2] = {10, -1};
    wai_layer l = {0};
    l.kind = WAI_LAYER_CONV;
    l.cin = 1, l.cout = 2, l.k = 3, l.stride = 2, l.pad = 1;
    l.weights = w, l.n_weights = 18, l.mult = m, l.bias = b;
    uint64_t sums[2];
    CHECK(wai_layer_param_sum_count(&l) == 2);
    CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_ok && sums[0] == 9 && sums[1] == 3);
    int64_t x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, y[8];
    uint32_t oh;
    CHECK(wai_conv_out_side(3, 3, 2, 1, &oh) == WAI_ok && oh == 2);
    CHECK(wai_conv2d_ref(&l, sums, 2, x, 3, 3, y, 2, 2) == WAI_ok);
    const int64_t want[8] = {19, 22, 28, 31, -12, 3, 8, 10};
    CHECK(memcmp(y, want, sizeof want) == 0);
    /* A shape that disagrees with the geometry is the caller's bug. */
    CHECK(wai_conv2d_ref(&l, sums, 2, x, 3, 3, y, 2, 3) == WAI_invalid_argument);
    CHECK(wai_conv_out_side(1, 4, 1, 1, &oh) == WAI_invalid_argument);
    CHECK(wai_conv_out_side(1, 3, 1, 1, &oh) == WAI_ok && oh == 1);
}

static void test_conv_t2d_hand(void) {
    /* cin 1, cout 1, k 2, stride 2, pad 1, opad 1 on 2x2: the uncropped side
     * is 1*2 + 2 + 1 = 5, the output 3 (rows and columns 1..3).
     * X = [1 -2; 3 4], W = [1 2; 3 -1]; stride = k, so no overlap:
     *   U = [1  2 -2 -4 0;  3 -1 -6  2 0;  3 6 4 8 0;  9 -3 12 -4 0;  0...]
     * cropped: [-1 -6 2; 6 4 8; -3 12 -4].
     * M -1, shift 1, B 5: floor((-acc + 1)/2) + 5 =
     *   [6 8 4; 2 3 1; 7 -1 7]. */
    int16_t w[4] = {1, 2, 3, -1};
    int64_t m[1] = {-1}, b[1] = {5};
    wai_layer l = {0};
    l.kind = WAI_LAYER_CONV_T;
    l.cin = 1, l.cout = 1, l.k = 2, l.stride = 2, l.pad = 1, l.opad = 1;
    l.weights = w, l.n_weights = 4, l.mult = m, l.bias = b;
    uint64_t sums[1];
    CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_ok && sums[0] == 7);
    uint32_t un, on;
    CHECK(wai_conv_t_sides(2, 2, 2, 1, 1, &un, &on) == WAI_ok && un == 5 && on == 3);
    int64_t x[4] = {1, -2, 3, 4}, scratch[25], y[9];
    for (int i = 0; i < 25; i++) scratch[i] = 12345; /* contents on entry do not matter */
    CHECK(wai_conv_t2d_ref(&l, sums, 1, x, 2, 2, scratch, y, 3, 3) == WAI_ok);
    const int64_t want[9] = {6, 8, 4, 2, 3, 1, 7, -1, 7};
    CHECK(memcmp(y, want, sizeof want) == 0);

    /* Overlap and a non-square input: stride 1, pad 0, h 2, w 1,
     * X = [2; 5], W = [1 2; 3 4]: uncropped 3x2,
     *   row 0: 2*[1 2] = [2 4]; row 1: 2*[3 4] + 5*[1 2] = [11 18];
     *   row 2: 5*[3 4] = [15 20]. M 1, shift 0, B 0. */
    int16_t w2[4] = {1, 2, 3, 4};
    int64_t m2[1] = {1}, b2[1] = {0};
    l.stride = 1, l.pad = 0, l.opad = 0, l.weights = w2, l.mult = m2, l.bias = b2;
    CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_ok && sums[0] == 10);
    int64_t x2[2] = {2, 5}, y2[6];
    CHECK(wai_conv_t2d_ref(&l, sums, 0, x2, 2, 1, scratch, y2, 3, 2) == WAI_ok);
    const int64_t want2[6] = {2, 4, 11, 18, 15, 20};
    CHECK(memcmp(y2, want2, sizeof want2) == 0);
    CHECK(wai_conv_t_sides(1, 2, 1, 1, 0, &un, &on) == WAI_invalid_argument); /* crop 2 of 2 */
}

static void test_conv_t1d_hand(void) {
    /* cin 2, cout 1, k 3, stride 2, pad 1, opad 1, len 2: uncropped
     * 1*2 + 3 + 1 = 6, output 4 (positions 1..4).
     * W[0][0] = [1 0 -1], W[1][0] = [2 1 1]; X[0] = [3 -1], X[1] = [1 2].
     *   U[0..2] += 3*[1 0 -1] and 1*[2 1 1]; U[2..4] += -1*[1 0 -1], 2*[2 1 1]
     *   U = [5 1 1 2 3 0]; cropped [1 1 2 3].
     * M 3, shift 1, B -3: floor((3acc + 1)/2) - 3 = [2-3, 2-3, 3-3, 5-3]. */
    int16_t w[6] = {1, 0, -1, 2, 1, 1};
    int64_t m[1] = {3}, b[1] = {-3};
    wai_layer l = {0};
    l.kind = WAI_LAYER_CONV_T;
    l.cin = 2, l.cout = 1, l.k = 3, l.stride = 2, l.pad = 1, l.opad = 1;
    l.weights = w, l.n_weights = 6, l.mult = m, l.bias = b;
    uint64_t sums[1];
    CHECK(wai_layer_param_sums(&l, 1, sums) == WAI_ok && sums[0] == 6);
    CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_invalid_argument); /* 18 weights wanted */
    int64_t x[4] = {3, -1, 1, 2}, scratch[6], y[4];
    CHECK(wai_conv_t1d_ref(&l, sums, 1, x, 2, scratch, y, 4) == WAI_ok);
    const int64_t want[4] = {-1, -1, 0, 2};
    CHECK(memcmp(y, want, sizeof want) == 0);
    CHECK(wai_conv_t1d_ref(&l, sums, 1, x, 2, scratch, y, 5) == WAI_invalid_argument);
}

static void test_igdn_hand(void) {
    /* c 2, gamma [[1 2], [-1 3]], beta [4 100], gf 1, afrac 1; positions:
     *   X = (3, -2): s0 = 9 + 8 = 17 -> 8, n0 = 12, r0 = 3, Y0 = floor(10/2) = 5;
     *               s1 = -9 + 12 = 3 -> 1, n1 = 101, r1 = 10,
     *               Y1 = floor((-20 + 1)/2) = -10.
     *   X = (-5, 7): s0 = 25 + 98 = 123 -> 61, n0 = 65, r0 = 8,
     *               Y0 = floor((-40 + 1)/2) = -20;
     *               s1 = -25 + 147 = 122 -> 61, n1 = 161, r1 = 12,
     *               Y1 = floor((84 + 1)/2) = 42.
     *   X = (10, 1): s0 = 100 + 2 -> 51, n0 = 55, r0 = 7, Y0 = floor(71/2) = 35;
     *               s1 = -100 + 3 = -97 -> floor(-48.5) = -49, n1 = 51,
     *               r1 = 7, Y1 = floor(8/2) = 4. */
    int32_t gamma[4] = {1, 2, -1, 3};
    int64_t beta[2] = {4, 100};
    wai_layer l = {0};
    l.kind = WAI_LAYER_IGDN;
    l.c = 2, l.gamma = gamma, l.beta = beta;
    uint64_t g[2];
    CHECK(wai_layer_param_sum_count(&l) == 2);
    CHECK(wai_layer_param_sums(&l, 2, g) == WAI_ok && g[0] == 3 && g[1] == 4);
    int64_t x[6] = {3, -5, 10, -2, 7, 1}, y[6];
    CHECK(wai_igdn_ref(&l, g, 1, 1, x, 3, y) == WAI_ok);
    const int64_t want[6] = {5, -20, 35, -10, 42, 4};
    CHECK(memcmp(y, want, sizeof want) == 0);

    /* n below zero gives r = 0: c 1, gamma [[1]], beta [-10], gf 0, afrac 1;
     * X = 3: n = -1 -> 0; X = 4: n = 6, r = 2, floor(9/2) = 4; X = -2: n = -6. */
    int32_t g1[1] = {1};
    int64_t b1[1] = {-10};
    l.c = 1, l.gamma = g1, l.beta = b1;
    CHECK(wai_layer_param_sums(&l, 2, g) == WAI_ok && g[0] == 1);
    int64_t x1[3] = {3, 4, -2}, y1[3];
    CHECK(wai_igdn_ref(&l, g, 0, 1, x1, 3, y1) == WAI_ok);
    CHECK(y1[0] == 0 && y1[1] == 4 && y1[2] == 0);
    /* A negative sum and a positive beta (gamma [[-1]], beta [20]): X = 3,
     * n = 11, r = 3, floor(10/2) = 5; both negative (beta [-1]): 0. */
    g1[0] = -1, b1[0] = 20;
    CHECK(wai_igdn_ref(&l, g, 0, 1, x1, 1, y1) == WAI_ok && y1[0] == 5);
    b1[0] = -1;
    CHECK(wai_igdn_ref(&l, g, 0, 1, x1, 1, y1) == WAI_ok && y1[0] == 0);
}

static void test_relu_leaky_hand(void) {
    int64_t x[5] = {-3, 0, 5, I64MIN, I64MAX}, y[5];
    CHECK(wai_relu_ref(x, 5, y) == WAI_ok);
    CHECK(y[0] == 0 && y[1] == 0 && y[2] == 5 && y[3] == 0 && y[4] == I64MAX);
    CHECK(wai_relu_ref(x, 5, x) == WAI_ok && x[3] == 0); /* in place */

    /* slope 3, lshift 2: -5 -> floor(-15/4) = -4; -1 -> floor(-3/4) = -1. */
    wai_layer l = {0};
    l.kind = WAI_LAYER_LEAKY;
    l.slope = 3, l.lshift = 2;
    int64_t v[4] = {-5, -1, 0, 7}, out[4];
    CHECK(wai_leaky_ref(&l, v, 4, out) == WAI_ok);
    CHECK(out[0] == -4 && out[1] == -1 && out[2] == 0 && out[3] == 7);
    /* slope -2, lshift 0: -5 -> 10. */
    l.slope = -2, l.lshift = 0;
    CHECK(wai_leaky_ref(&l, v, 4, v) == WAI_ok && v[0] == 10 && v[1] == 2 && v[3] == 7);
}

/* ---- the bounds at their edges ----------------------------------------------------- */

/* A 1x1 convolution of cin 2 into cout 1 with weights (3, -4), S_0 = 7, on
 * inputs of one row of two: ch0 = (a, -a), ch1 = (-a, a); acc = (7a, -7a). */
static wai_status conv_edge(int64_t a, int64_t m, uint32_t shift, int64_t b, int64_t y[2]) {
    static int16_t w[2] = {3, -4};
    int64_t mm[1] = {m}, bb[1] = {b};
    wai_layer l = {0};
    l.kind = WAI_LAYER_CONV;
    l.cin = 2, l.cout = 1, l.k = 1, l.stride = 1;
    l.weights = w, l.n_weights = 2, l.mult = mm, l.bias = bb;
    uint64_t s[1];
    if (wai_layer_param_sums(&l, 2, s) != WAI_ok || s[0] != 7) return WAI_invalid_argument;
    int64_t x[4] = {a, -a, -a, a};
    return wai_conv2d_ref(&l, s, shift, x, 1, 2, y, 1, 2);
}

static void test_bound_conv_edges(void) {
    const uint64_t a7 = 1317624576693539401ull; /* (2^63 - 1) / 7, exactly */
    uint64_t s7 = 7, s8 = 8, s1 = 1;
    int64_t m1 = 1, m62 = (int64_t)1 << 62, mmin = I64MIN, b0 = 0, b;
    /* A * max S <= 2^63 - 1: at the edge, A + 1, and the next S. */
    CHECK(wai_bound_conv(a7, &s7, &m1, &b0, 1, 1) == WAI_ok);
    CHECK(wai_bound_conv(a7 + 1, &s7, &m1, &b0, 1, 1) == WAI_field_range);
    CHECK(wai_bound_conv(a7, &s8, &m1, &b0, 1, 1) == WAI_field_range);
    CHECK(wai_bound_conv(P63, &s1, &m1, &b0, 1, 0) == WAI_field_range);
    /* A = 0 passes whatever S (even a saturated one). */
    uint64_t smax = UINT64_MAX;
    CHECK(wai_bound_conv(0, &smax, &mmin, &b0, 1, 0) == WAI_ok);
    /* max over outputs: the second output's S decides. */
    uint64_t s2[2] = {1, 8};
    int64_t m2[2] = {1, 1}, b2[2] = {0, 0};
    CHECK(wai_bound_conv(a7, s2, m2, b2, 2, 1) == WAI_field_range);
    CHECK(wai_bound_conv(a7, s2, m2, b2, 1, 1) == WAI_ok);

    /* The layer at the edge is exact: acc = +-(2^63 - 1), M 1, shift 1:
     * floor((2^63 - 1 + 1)/2) = 2^62, floor((-2^63 + 2)/2) = -2^62 + 1. */
    int64_t y[2] = {77, 77};
    CHECK(conv_edge((int64_t)a7, 1, 1, 0, y) == WAI_ok);
    CHECK(y[0] == (int64_t)1 << 62 && y[1] == -((int64_t)1 << 62) + 1);
    y[0] = y[1] = 77;
    CHECK(conv_edge((int64_t)a7 + 1, 1, 1, 0, y) == WAI_field_range && y[0] == 77 && y[1] == 77);

    /* floor_shift(A S |M|, shift) + 1 + |B| <= 2^63 - 1 with A S = 1,
     * M = 2^62, shift 0: |B| <= 2^62 - 2. */
    b = ((int64_t)1 << 62) - 2;
    CHECK(wai_bound_conv(1, &s1, &m62, &b, 1, 0) == WAI_ok);
    b = -b;
    CHECK(wai_bound_conv(1, &s1, &m62, &b, 1, 0) == WAI_ok);
    b = ((int64_t)1 << 62) - 1;
    CHECK(wai_bound_conv(1, &s1, &m62, &b, 1, 0) == WAI_field_range);
    b = -b;
    CHECK(wai_bound_conv(1, &s1, &m62, &b, 1, 0) == WAI_field_range);
    /* |B| alone: 0 + 1 + (2^63 - 2) passes; 2^63 - 1 and |INT64_MIN| = 2^63
     * fail even with A = 0. */
    b = I64MAX - 1;
    CHECK(wai_bound_conv(0, &s1, &m1, &b, 1, 0) == WAI_ok);
    b = I64MAX;
    CHECK(wai_bound_conv(0, &s1, &m1, &b, 1, 0) == WAI_field_range);
    b = I64MIN;
    CHECK(wai_bound_conv(0, &s1, &m1, &b, 1, 0) == WAI_field_range);
    /* A edge of the second bound: S 1, M 2^62, shift 2: A * 2^60 + 1 <=
     * 2^63 - 1 gives A <= 7. */
    CHECK(wai_bound_conv(7, &s1, &m62, &b0, 1, 2) == WAI_ok);
    CHECK(wai_bound_conv(8, &s1, &m62, &b0, 1, 2) == WAI_field_range);

    /* The 128-bit product: A S = 2^63 - 1 and |M| = 2^63 give
     * (2^63 - 1) 2^63 ~ 2^126. Shift 63: 2^63 - 1 + 1 fails; shift 64:
     * 2^62 - 1 + 1 passes, and then |B| <= 2^62 - 1. */
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b0, 1, 63) == WAI_field_range);
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b0, 1, 64) == WAI_ok);
    b = ((int64_t)1 << 62) - 1;
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b, 1, 64) == WAI_ok);
    b = (int64_t)1 << 62;
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b, 1, 64) == WAI_field_range);
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b0, 1, 127) == WAI_ok);
    CHECK(wai_bound_conv(a7, &s7, &mmin, &b0, 1, 500) == WAI_ok);
    /* And the layer there: acc = 2^63 - 1, v = -(2^63 - 1) 2^63 =
     * -2^126 + 2^63; (v + 2^63) / 2^64 = -2^62 + 1. acc = -(2^63 - 1):
     * v = 2^126 - 2^63, (v + 2^63) / 2^64 = 2^62. With B = 2^62 - 1 added:
     * 1 and 2^63 - 1 (the largest i64, reached exactly). */
    CHECK(conv_edge((int64_t)a7, I64MIN, 64, 0, y) == WAI_ok);
    CHECK(y[0] == -((int64_t)1 << 62) + 1 && y[1] == (int64_t)1 << 62);
    CHECK(conv_edge((int64_t)a7, I64MIN, 64, ((int64_t)1 << 62) - 1, y) == WAI_ok);
    CHECK(y[0] == 0 && y[1] == I64MAX);
    CHECK(conv_edge((int64_t)a7, I64MIN, 64, (int64_t)1 << 62, y) == WAI_field_range);
    CHECK(conv_edge((int64_t)a7, I64MIN, 63, 0, y) == WAI_field_range);
}

/* c 1, gamma [[g]], beta [beta] on the given values. */
static wai_status igdn_edge(int32_t g, int64_t beta, uint32_t gf, uint32_t afrac,
                            const int64_t *x, size_t n, int64_t *y) {
    int32_t gg[1] = {g};
    int64_t bb[1] = {beta};
    wai_layer l = {0};
    l.kind = WAI_LAYER_IGDN;
    l.c = 1, l.gamma = gg, l.beta = bb;
    uint64_t s[1];
    if (wai_layer_param_sums(&l, 2, s) != WAI_ok) return WAI_invalid_argument;
    return wai_igdn_ref(&l, s, gf, afrac, x, n, y);
}

static void test_bound_igdn_edges(void) {
    uint64_t g2 = 2, g3 = 3, g0 = 0;
    int64_t beta0 = 0, beta;
    /* A^2 * G <= 2^127 - 1: G 2 admits A = 2^63 - 1 (2^127 - 2^64 + 2) and
     * not 2^63 (2^127). gf 126 and afrac 2 keep the second bound loose:
     * N = 1, R = 2, floor((2^64 - 2)/4) + 1 = 2^62. */
    CHECK(wai_bound_igdn(P63 - 1, &g2, &beta0, 1, 126, 2) == WAI_ok);
    CHECK(wai_bound_igdn(P63, &g2, &beta0, 1, 126, 2) == WAI_field_range);
    /* G 3: A = isqrt((2^127 - 1) / 3) = 7530851732716320752 is the edge. */
    CHECK(wai_bound_igdn(7530851732716320752ull, &g3, &beta0, 1, 126, 2) == WAI_ok);
    CHECK(wai_bound_igdn(7530851732716320753ull, &g3, &beta0, 1, 126, 2) == WAI_field_range);
    /* A product past 128 bits is "past", not wrapped. */
    uint64_t gbig = UINT64_MAX;
    CHECK(wai_bound_igdn(P63, &gbig, &beta0, 1, 127, 30) == WAI_field_range);
    CHECK(wai_bound_igdn(0, &gbig, &beta0, 1, 0, 30) == WAI_ok);
    /* The layer at the first edge: X = +-(2^63 - 1), 2X^2 >> 126 = 1, so
     * n = 1, r = 1, Y = floor((X + 2)/4): 2^61 and floor(-2^61 + 3/4) = -2^61. */
    int64_t x[2] = {I64MAX, -I64MAX}, y[2] = {77, 77};
    CHECK(igdn_edge(2, 0, 126, 2, x, 2, y) == WAI_ok);
    CHECK(y[0] == (int64_t)1 << 61 && y[1] == -((int64_t)1 << 61));
    int64_t xm[2] = {1, I64MIN};
    y[0] = y[1] = 77;
    CHECK(igdn_edge(2, 0, 126, 2, xm, 2, y) == WAI_field_range && y[0] == 77);

    /* floor_shift(A R, afrac) + 1 <= 2^63 - 1 with G 0 (N = |beta|), A 2^33,
     * afrac 1: R <= 2^31 - 1, so isqrt(|beta|) <= 2^31 - 2, |beta| <=
     * (2^31 - 1)^2 - 1 = 2^62 - 2^32. */
    const int64_t bedge = ((int64_t)1 << 62) - ((int64_t)1 << 32);
    const uint64_t a33 = (uint64_t)1 << 33;
    beta = bedge;
    CHECK(wai_bound_igdn(a33, &g0, &beta, 1, 0, 1) == WAI_ok);
    beta = -bedge;
    CHECK(wai_bound_igdn(a33, &g0, &beta, 1, 0, 1) == WAI_ok);
    beta = bedge + 1;
    CHECK(wai_bound_igdn(a33, &g0, &beta, 1, 0, 1) == WAI_field_range);
    beta = -bedge - 1;
    CHECK(wai_bound_igdn(a33, &g0, &beta, 1, 0, 1) == WAI_field_range);
    /* With beta at its edge, the A edge: A (2^31 - 1) <= 2^64 - 3 gives
     * A <= 2^33 + 4. */
    beta = bedge;
    CHECK(wai_bound_igdn(a33 + 4, &g0, &beta, 1, 0, 1) == WAI_ok);
    CHECK(wai_bound_igdn(a33 + 5, &g0, &beta, 1, 0, 1) == WAI_field_range);
    /* Largest |beta| = 2^63 with A 0 passes: R * 0 = 0. */
    beta = I64MIN;
    CHECK(wai_bound_igdn(0, &g0, &beta, 1, 0, 1) == WAI_ok);
    /* The layer there: r = isqrt(2^62 - 2^32) = 2^31 - 2 and
     * Y = round_shift(X r, 1). X = 2^33: 2^32 (2^31 - 2) = 2^63 - 2^33.
     * X = 2^33 + 4: (2^64 - 2^33 - 8 + 1) >> 1 = 2^63 - 2^32 - 4. */
    int64_t x2[3] = {(int64_t)a33, -(int64_t)a33, (int64_t)a33 + 4}, y2[3];
    CHECK(igdn_edge(0, bedge, 0, 1, x2, 3, y2) == WAI_ok);
    CHECK(y2[0] == I64MAX - (((int64_t)1 << 33) - 1));
    CHECK(y2[1] == -(I64MAX - (((int64_t)1 << 33) - 1)));
    CHECK(y2[2] == 9223372032559808508ll);
    x2[2] = (int64_t)a33 + 5;
    CHECK(igdn_edge(0, bedge, 0, 1, x2, 3, y2) == WAI_field_range);
    CHECK(igdn_edge(0, bedge + 1, 0, 1, x2, 2, y2) == WAI_field_range);
    /* max over channels: the larger G decides. */
    uint64_t gs[2] = {2, 3};
    int64_t bs[2] = {0, 0};
    CHECK(wai_bound_igdn(7530851732716320753ull, gs, bs, 2, 126, 2) == WAI_field_range);
    CHECK(wai_bound_igdn(7530851732716320753ull, gs, bs, 1, 126, 2) == WAI_ok);
}

static void test_bound_leaky_edges(void) {
    /* |slope| 2^63, lshift 63: A + 1 <= 2^63 - 1. */
    CHECK(wai_bound_leaky(P63 - 2, I64MIN, 63) == WAI_ok);
    CHECK(wai_bound_leaky(P63 - 1, I64MIN, 63) == WAI_field_range);
    /* slope 3, lshift 0: 3A + 1 <= 2^63 - 1, A <= (2^63 - 2) / 3. */
    const uint64_t a3 = 3074457345618258602ull;
    CHECK(wai_bound_leaky(a3, 3, 0) == WAI_ok);
    CHECK(wai_bound_leaky(a3, -3, 0) == WAI_ok);
    CHECK(wai_bound_leaky(a3 + 1, 3, 0) == WAI_field_range);
    CHECK(wai_bound_leaky(a3, 4, 0) == WAI_field_range);
    CHECK(wai_bound_leaky(P63, I64MIN, 127) == WAI_ok); /* 2^126 >> 127 = 0 */
    /* The layer at the edges. x = -(2^63 - 2), slope -2^63, lshift 63:
     * (2^63 - 2) 2^63 >> 63 = 2^63 - 2. x = -a3, slope 3: -(2^63 - 2). */
    wai_layer l = {0};
    l.kind = WAI_LAYER_LEAKY;
    l.slope = I64MIN, l.lshift = 63;
    int64_t x[2] = {-(I64MAX - 1), 5}, y[2];
    CHECK(wai_leaky_ref(&l, x, 2, y) == WAI_ok && y[0] == I64MAX - 1 && y[1] == 5);
    x[1] = -I64MAX;
    y[0] = 77;
    CHECK(wai_leaky_ref(&l, x, 2, y) == WAI_field_range && y[0] == 77);
    l.slope = 3, l.lshift = 0;
    x[0] = -(int64_t)a3, x[1] = (int64_t)a3;
    CHECK(wai_leaky_ref(&l, x, 2, y) == WAI_ok && y[0] == -(I64MAX - 1) && y[1] == (int64_t)a3);
    x[1] = (int64_t)a3 + 1; /* a positive value past the bound refuses too */
    CHECK(wai_leaky_ref(&l, x, 2, y) == WAI_field_range);

    /* wai_bound_layer dispatches; ReLU has no bound. */
    wai_layer r = {0};
    r.kind = WAI_LAYER_RELU;
    CHECK(wai_bound_layer(&r, NULL, 0, 0, 1, P63) == WAI_ok);
    CHECK(wai_bound_layer(&l, NULL, 0, 0, 1, a3) == WAI_ok);
    CHECK(wai_bound_layer(&l, NULL, 0, 0, 1, a3 + 1) == WAI_field_range);
    CHECK(wai_max_abs_i64(x, 0) == 0);
    int64_t mn[3] = {5, I64MIN, -7};
    CHECK(wai_max_abs_i64(mn, 3) == P63);
}

/* ---- stage operators ------------------------------------------------------------------ */

static void test_stage_dequantize(void) {
    int64_t v = 0;
    CHECK(wai_dequantize(1, 30, 0, &v) == WAI_ok && v == (int64_t)1 << 30);
    CHECK(wai_dequantize(-3, 1, 5, &v) == WAI_ok && v == -1);
    CHECK(wai_dequantize(0, 200, -9, &v) == WAI_ok && v == -9);
    /* (2^33 - 1) 2^30 = 2^63 - 2^30; + 2^30 - 1 fits, + 2^30 does not. */
    int64_t s = ((int64_t)1 << 33) - 1;
    CHECK(wai_dequantize(s, 30, ((int64_t)1 << 30) - 1, &v) == WAI_ok && v == I64MAX);
    v = 42;
    CHECK(wai_dequantize(s, 30, (int64_t)1 << 30, &v) == WAI_field_range && v == 42);
    /* -2^33 2^30 = -2^63 fits; one less does not. */
    CHECK(wai_dequantize(-((int64_t)1 << 33), 30, 0, &v) == WAI_ok && v == I64MIN);
    CHECK(wai_dequantize(-((int64_t)1 << 33), 30, -1, &v) == WAI_field_range);
    CHECK(wai_dequantize((int64_t)1 << 33, 30, I64MIN, &v) == WAI_ok && v == 0);
    CHECK(wai_dequantize(I64MIN, 1, I64MAX, &v) == WAI_field_range); /* -2^63 - 1 */
    CHECK(wai_dequantize(I64MIN, 0, 0, &v) == WAI_ok && v == I64MIN);
    CHECK(wai_dequantize(1, 64, 0, &v) == WAI_field_range);
    CHECK(wai_dequantize(-1, 63, 0, &v) == WAI_ok && v == I64MIN);
    CHECK(wai_dequantize(1, 63, 0, &v) == WAI_field_range);
    CHECK(wai_dequantize(1, 63, -1, &v) == WAI_ok && v == I64MAX);
}

static void test_stage_bucket(void) {
    /* e = (10, 20, 30): sigma' = max(sigma, 10); b = 2 - #{i < 2 : sigma' <= e_i}. */
    const int64_t e[3] = {10, 20, 30};
    CHECK(wai_bucket(I64MIN, e, 3) == 0); /* below e_0: sigma' = 10, count 2 */
    CHECK(wai_bucket(5, e, 3) == 0);
    CHECK(wai_bucket(10, e, 3) == 0);  /* equal to an edge: the ceil rule */
    CHECK(wai_bucket(11, e, 3) == 1);
    CHECK(wai_bucket(20, e, 3) == 1);
    CHECK(wai_bucket(21, e, 3) == 2);
    CHECK(wai_bucket(30, e, 3) == 2);
    CHECK(wai_bucket(31, e, 3) == 2);  /* above the last */
    CHECK(wai_bucket(I64MAX, e, 3) == 2);
    /* One edge: always table 0. */
    CHECK(wai_bucket(-5, e, 1) == 0 && wai_bucket(500, e, 1) == 0);
    /* Two edges: the last edge itself is never counted. */
    CHECK(wai_bucket(10, e, 2) == 0 && wai_bucket(11, e, 2) == 1 && wai_bucket(99, e, 2) == 1);
    /* Read literally on unsorted edges (the spec assumes no order): e =
     * (5, 1, 9, 7), sigma 6: sigma' = 6, #{i < 3 : 6 <= e_i} = 1 (9): b = 2. */
    const int64_t u[4] = {5, 1, 9, 7};
    CHECK(wai_bucket(6, u, 4) == 2);
    CHECK(wai_bucket(0, u, 4) == 1); /* sigma' = 5: 5 <= 5 and 5 <= 9 */
    CHECK(!wai_edges_ascend(u, 4) && wai_edges_ascend(e, 3) && wai_edges_ascend(u, 2));
    /* The halving search against the count: ascending edges with repeats,
     * 1 to 70 of them, sigma at, around and beyond every edge. */
    uint64_t seed = 0x6275636b6574ull;
    int64_t ed[70];
    int bad = 0;
    for (int c = 0; c < 3000; c++) {
        uint32_t n = 1 + (uint32_t)(harness_rand(&seed) % 70);
        int64_t v = (int64_t)(harness_rand(&seed) % 1000) - 500;
        for (uint32_t i = 0; i < n; i++) ed[i] = v += (int64_t)(harness_rand(&seed) % 4);
        if (c % 7 == 0) ed[n - 1] = I64MIN; /* the last edge is never read as a bound */
        for (uint32_t i = 0; i < n; i++)
            for (int64_t d = -1; d <= 1; d++) {
                int64_t sg = ed[i] == I64MIN ? I64MIN : ed[i] + d;
                bad += wai_bucket_ascending(sg, ed, n) != wai_bucket(sg, ed, n);
            }
        bad += wai_bucket_ascending(I64MIN, ed, n) != wai_bucket(I64MIN, ed, n);
        bad += wai_bucket_ascending(I64MAX, ed, n) != wai_bucket(I64MAX, ed, n);
    }
    CHECK_MSG(bad == 0, "%d buckets differ", bad);
}

/* The RGB8 step over a plane set, on 1 to 3 threads, against the step
 * value by value: values around 0 and 2^afrac and at the ends of i64,
 * afrac 0 to 31 (outside 1..30 every byte is 0). */
static void test_stage_rgb8_interleave(void) {
    enum { HW = 3 * (1 << 15) + 7 };
    static int64_t pl[3 * HW];
    static uint8_t got[3 * HW];
    uint64_t seed = 0x72676238ull;
    int bad = 0;
    for (uint32_t afrac = 0; afrac <= 31; afrac += (afrac < 2 || afrac > 28) ? 1 : 9) {
        const int64_t top = afrac < 63 ? (int64_t)1 << (afrac < 62 ? afrac : 62) : 0;
        for (size_t i = 0; i < 3 * (size_t)HW; i++) {
            uint64_t r = harness_rand(&seed);
            int64_t v = (int64_t)(r % 5) == 0 ? (r & 64 ? I64MAX : I64MIN)
                                             : (int64_t)(r >> 8) % (2 * top + 9) - 4;
            pl[i] = v;
        }
        for (unsigned t = 1; t <= 3; t++) {
            const wai_exec ex = {.pool = harness_pool(t)};
            memset(got, 0xAA, sizeof got);
            wai_rgb8_interleave(&ex, pl, HW, afrac, got);
            for (size_t i = 0; i < HW; i++)
                for (size_t ch = 0; ch < 3; ch++)
                    bad += got[3 * i + ch] != wai_rgb8_step(pl[ch * HW + i], afrac);
        }
    }
    CHECK_MSG(bad == 0, "%d bytes differ", bad);
}

static void test_stage_rgb8(void) {
    /* afrac 1: v in [0, 2], (255 v + 1) >> 1. */
    CHECK(wai_rgb8_step(-1, 1) == 0 && wai_rgb8_step(0, 1) == 0);
    CHECK(wai_rgb8_step(1, 1) == 128);   /* 256 >> 1 */
    CHECK(wai_rgb8_step(2, 1) == 255);   /* 511 >> 1 */
    CHECK(wai_rgb8_step(3, 1) == 255 && wai_rgb8_step(I64MAX, 1) == 255);
    CHECK(wai_rgb8_step(I64MIN, 1) == 0);
    /* afrac 30. */
    CHECK(wai_rgb8_step((int64_t)1 << 29, 30) == 128);  /* (255 + 1) 2^29 >> 30 */
    CHECK(wai_rgb8_step((int64_t)1 << 30, 30) == 255);
    CHECK(wai_rgb8_step(((int64_t)1 << 30) + 5, 30) == 255);
    CHECK(wai_rgb8_step(1, 30) == 0);                   /* (255 + 2^29) >> 30 */
    CHECK(wai_rgb8_step((int64_t)1 << 22, 30) == 1);    /* 383 2^22 >> 30 */
    /* The rounding edge: (255 v + 2^29) >= 2^30 exactly when v >= 2^29 / 255 = 2105376.125..., so 2105376 -> 0 and
     * 2105377 -> 1. */
    CHECK(wai_rgb8_step(2105376, 30) == 0 && wai_rgb8_step(2105377, 30) == 1);
    CHECK(wai_rgb8_step(5, 0) == 0 && wai_rgb8_step(5, 31) == 0); /* outside 1..30 */
}

static void test_stage_pcm(void) {
    int16_t o = 0;
    /* afrac 1: (32767 v + 1) >> 1, a floor. */
    CHECK(wai_pcm_step(1, 1, &o) == WAI_ok && o == 16384);
    CHECK(wai_pcm_step(-1, 1, &o) == WAI_ok && o == -16383); /* -32766 >> 1 */
    CHECK(wai_pcm_step(2, 1, &o) == WAI_ok && o == 32767);
    CHECK(wai_pcm_step(3, 1, &o) == WAI_ok && o == 32767);   /* 49151 clamped */
    CHECK(wai_pcm_step(-2, 1, &o) == WAI_ok && o == -32767); /* -65533 >> 1 */
    CHECK(wai_pcm_step(-3, 1, &o) == WAI_ok && o == -32768); /* -49150 clamped */
    CHECK(wai_pcm_step(0, 1, &o) == WAI_ok && o == 0);
    /* afrac 30: v = -1 gives (-32767 + 2^29) >> 30 = 0; v = -2^30 gives
     * (-32767 2^30 + 2^29) >> 30 = -32767 (floor of -32766.5). */
    CHECK(wai_pcm_step(-1, 30, &o) == WAI_ok && o == 0);
    CHECK(wai_pcm_step(-((int64_t)1 << 30), 30, &o) == WAI_ok && o == -32767);
    CHECK(wai_pcm_step((int64_t)1 << 30, 30, &o) == WAI_ok && o == 32767);
    CHECK(wai_pcm_step(-((int64_t)1 << 31), 30, &o) == WAI_ok && o == -32768);
    /* Refusal: 32767 v + 2^(afrac-1) must fit i64. afrac 1: v <=
     * 281483566907400 and v >= -281483566907400. */
    CHECK(wai_pcm_step(281483566907400ll, 1, &o) == WAI_ok && o == 32767);
    o = 9;
    CHECK(wai_pcm_step(281483566907401ll, 1, &o) == WAI_field_range && o == 9);
    CHECK(wai_pcm_step(-281483566907400ll, 1, &o) == WAI_ok && o == -32768);
    CHECK(wai_pcm_step(-281483566907401ll, 1, &o) == WAI_field_range);
    /* afrac 30: the half is 2^29, so the edges move: [-281483566923784,
     * 281483566891015]. */
    CHECK(wai_pcm_step(281483566891015ll, 30, &o) == WAI_ok && o == 32767);
    CHECK(wai_pcm_step(281483566891016ll, 30, &o) == WAI_field_range);
    CHECK(wai_pcm_step(-281483566923784ll, 30, &o) == WAI_ok && o == -32768);
    CHECK(wai_pcm_step(-281483566923785ll, 30, &o) == WAI_field_range);
    CHECK(wai_pcm_step(I64MIN, 30, &o) == WAI_field_range);
    CHECK(wai_pcm_step(I64MAX, 1, &o) == WAI_field_range);
    CHECK(wai_pcm_step(1, 0, &o) == WAI_invalid_argument);
}

/* ---- random layers against an independent __int128 implementation -------------------- */

#if defined(__SIZEOF_INT128__)
static const ti TI_I64MAX = (ti)INT64_MAX;

static int ti_conv_bound(uint64_t a, const uint64_t *s, const int64_t *m, const int64_t *b,
                         uint32_t cout, uint32_t shift) {
    uint64_t ms = 0;
    for (uint32_t o = 0; o < cout; o++) ms = s[o] > ms ? s[o] : ms;
    if ((tu)a * ms > (tu)INT64_MAX) return 0;
    for (uint32_t o = 0; o < cout; o++) {
        tu p = (tu)a * s[o] * (tu)wai_abs_i64(m[o]);
        tu q = shift >= 128 ? 0 : p >> shift;
        if (q + 1 + wai_abs_i64(b[o]) > (tu)INT64_MAX) return 0;
    }
    return 1;
}

static int64_t ti_requant(ti acc, int64_t m, uint32_t shift, int64_t b) {
    ti v = ti_round_shift(acc * m, shift) + b;
    return (int64_t)v;
}

static int ti_igdn_bound(uint64_t a, const uint64_t *g, const int64_t *beta, uint32_t c,
                         uint32_t gf, uint32_t afrac) {
    const tu lim = ((tu)1 << 127) - 1, a2 = (tu)a * a;
    for (uint32_t i = 0; i < c; i++)
        if (g[i] != 0 && a2 > lim / g[i]) return 0;
    for (uint32_t i = 0; i < c; i++) {
        tu p = a2 * g[i];
        tu n = (gf >= 128 ? 0 : p >> gf) + wai_abs_i64(beta[i]);
        tu r = (tu)tu_isqrt(n) + 1;
        if ((afrac >= 128 ? 0 : ((tu)a * r) >> afrac) + 1 > (tu)INT64_MAX) return 0;
    }
    return 1;
}

/* A random layer's parameters: weights with magnitudes up to 2^wbits. */
static void rnd_weights(int16_t *w, size_t n) {
    unsigned wb = (unsigned)(rnd64() % 16);
    for (size_t i = 0; i < n; i++) {
        int64_t v = (int64_t)(rnd64() % (((uint64_t)1 << wb) + 1));
        w[i] = (int16_t)((rnd64() & 1) ? -v : v);
        if (rnd64() % 4 == 0) w[i] = 0;
    }
}

/* Inputs scaled so that roughly half the layers pass their bound. */
static void rnd_input(int64_t *x, size_t n, unsigned bits) {
    for (size_t i = 0; i < n; i++) {
        uint64_t v = bits >= 64 ? rnd64() : rnd64() & (((uint64_t)1 << bits) - 1);
        x[i] = wai_u64_to_i64((rnd64() & 1) ? (uint64_t)0 - v : v);
    }
    if (n && rnd64() % 8 == 0) x[rnd64() % n] = (rnd64() & 1) ? I64MIN : I64MAX;
}
#endif

static void test_layers_random_vs_native(void) {
#if defined(__SIZEOF_INT128__)
    int passed[4] = {0, 0, 0, 0}, refused[4] = {0, 0, 0, 0};
    for (int t = 0; t < 1500; t++) {
        /* ---- convolution and 2-D transposed convolution ---- */
        uint32_t cin = 1 + (uint32_t)(rnd64() % 3), cout = 1 + (uint32_t)(rnd64() % 3);
        uint32_t k = 1 + (uint32_t)(rnd64() % 3), st = 1 + (uint32_t)(rnd64() % 2);
        uint32_t pad = (uint32_t)(rnd64() % k), opad = (uint32_t)(rnd64() % 2);
        uint32_t h = 1 + (uint32_t)(rnd64() % 4), w = 1 + (uint32_t)(rnd64() % 4);
        uint32_t shift = (uint32_t)(rnd64() % 80);
        int16_t wt[3 * 3 * 9];
        int64_t m[3], b[3], x[3 * 16], y[3 * 128], ref[3 * 128], scratch[3 * 128];
        uint64_t sums[3];
        rnd_weights(wt, (size_t)cin * cout * k * k);
        for (uint32_t o = 0; o < cout; o++) m[o] = rnd_i64_width(), b[o] = rnd_i64_width() / 4;
        rnd_input(x, (size_t)cin * h * w, (unsigned)(rnd64() % 64));
        wai_layer l = {0};
        l.cin = cin, l.cout = cout, l.k = k, l.stride = st, l.pad = pad, l.opad = opad;
        l.weights = wt, l.n_weights = (uint64_t)cin * cout * k * k, l.mult = m, l.bias = b;
        uint64_t a = wai_max_abs_i64(x, (size_t)cin * h * w);

        l.kind = WAI_LAYER_CONV;
        CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_ok);
        uint32_t oh, ow;
        if (wai_conv_out_side(h, k, st, pad, &oh) == WAI_ok &&
            wai_conv_out_side(w, k, st, pad, &ow) == WAI_ok) {
            int ok = ti_conv_bound(a, sums, m, b, cout, shift);
            wai_status s = wai_conv2d_ref(&l, sums, shift, x, h, w, y, oh, ow);
            CHECK(s == (ok ? WAI_ok : WAI_field_range));
            if (ok) {
                passed[0]++;
                for (uint32_t o = 0; o < cout; o++)
                    for (uint32_t oy = 0; oy < oh; oy++)
                        for (uint32_t ox = 0; ox < ow; ox++) {
                            ti acc = 0;
                            for (uint32_t i = 0; i < cin; i++)
                                for (uint32_t ky = 0; ky < k; ky++)
                                    for (uint32_t kx = 0; kx < k; kx++) {
                                        int64_t py = (int64_t)(oy * st + ky) - pad;
                                        int64_t px = (int64_t)(ox * st + kx) - pad;
                                        if (py < 0 || px < 0 || py >= h || px >= w) continue;
                                        acc += (ti)wt[((o * cin + i) * k + ky) * k + kx] *
                                               x[(i * h + (uint32_t)py) * w + (uint32_t)px];
                                    }
                            CHECK(y[(o * oh + oy) * ow + ox] ==
                                  ti_requant(acc, m[o], shift, b[o]));
                        }
            } else {
                refused[0]++;
            }
        }

        l.kind = WAI_LAYER_CONV_T;
        CHECK(wai_layer_param_sums(&l, 2, sums) == WAI_ok);
        uint32_t uh, uw;
        if (wai_conv_t_sides(h, k, st, pad, opad, &uh, &oh) == WAI_ok &&
            wai_conv_t_sides(w, k, st, pad, opad, &uw, &ow) == WAI_ok) {
            int ok = ti_conv_bound(a, sums, m, b, cout, shift);
            wai_status s = wai_conv_t2d_ref(&l, sums, shift, x, h, w, scratch, y, oh, ow);
            CHECK(s == (ok ? WAI_ok : WAI_field_range));
            if (ok) {
                passed[1]++;
                /* Gather form: output (oy, ox) of the uncropped plane at
                 * (oy + pad, ox + pad) sums every input whose tap lands there. */
                for (uint32_t o = 0; o < cout; o++)
                    for (uint32_t oy = 0; oy < oh; oy++)
                        for (uint32_t ox = 0; ox < ow; ox++) {
                            ti acc = 0;
                            uint32_t py = oy + pad, px = ox + pad;
                            for (uint32_t i = 0; i < cin; i++)
                                for (uint32_t iy = 0; iy < h; iy++)
                                    for (uint32_t ix = 0; ix < w; ix++) {
                                        if (py < iy * st || px < ix * st) continue;
                                        uint32_t ky = py - iy * st, kx = px - ix * st;
                                        if (ky >= k || kx >= k) continue;
                                        acc += (ti)wt[((i * cout + o) * k + ky) * k + kx] *
                                               x[(i * h + iy) * w + ix];
                                    }
                            CHECK(y[(o * oh + oy) * ow + ox] ==
                                  ti_requant(acc, m[o], shift, b[o]));
                        }
            } else {
                refused[1]++;
            }
        }

        /* ---- 1-D transposed convolution: the input as [cin][h*w] ---- */
        uint32_t len = h * w, ulen, olen;
        l.n_weights = (uint64_t)cin * cout * k;
        CHECK(wai_layer_param_sums(&l, 1, sums) == WAI_ok);
        if (wai_conv_t_sides(len, k, st, pad, opad, &ulen, &olen) == WAI_ok) {
            int ok = ti_conv_bound(a, sums, m, b, cout, shift);
            wai_status s = wai_conv_t1d_ref(&l, sums, shift, x, len, scratch, y, olen);
            CHECK(s == (ok ? WAI_ok : WAI_field_range));
            if (ok) {
                passed[2]++;
                for (uint32_t o = 0; o < cout; o++)
                    for (uint32_t ot = 0; ot < olen; ot++) {
                        ti acc = 0;
                        uint32_t p = ot + pad;
                        for (uint32_t i = 0; i < cin; i++)
                            for (uint32_t it = 0; it < len; it++) {
                                if (p < it * st || p - it * st >= k) continue;
                                acc += (ti)wt[(i * cout + o) * k + (p - it * st)] *
                                       x[i * len + it];
                            }
                        ref[o * olen + ot] = ti_requant(acc, m[o], shift, b[o]);
                        CHECK(y[o * olen + ot] == ref[o * olen + ot]);
                    }
            } else {
                refused[2]++;
            }
        }

        /* ---- inverse GDN ---- */
        uint32_t c = 1 + (uint32_t)(rnd64() % 3), npos = 1 + (uint32_t)(rnd64() % 5);
        int32_t gamma[9];
        int64_t beta[3];
        unsigned gb = (unsigned)(rnd64() % 32);
        for (uint32_t i = 0; i < c * c; i++) {
            int64_t v = (int64_t)(rnd64() % (((uint64_t)1 << gb) + 1));
            gamma[i] = (int32_t)((rnd64() & 1) ? -v : v);
        }
        for (uint32_t i = 0; i < c; i++) beta[i] = rnd_i64_width();
        uint32_t gf = (uint32_t)(rnd64() % 128), af = 1 + (uint32_t)(rnd64() % 30);
        rnd_input(x, (size_t)c * npos, (unsigned)(rnd64() % 64));
        wai_layer g = {0};
        g.kind = WAI_LAYER_IGDN, g.c = c, g.gamma = gamma, g.beta = beta;
        CHECK(wai_layer_param_sums(&g, 2, sums) == WAI_ok);
        a = wai_max_abs_i64(x, (size_t)c * npos);
        int ok = ti_igdn_bound(a, sums, beta, c, gf, af);
        wai_status s = wai_igdn_ref(&g, sums, gf, af, x, npos, y);
        CHECK(s == (ok ? WAI_ok : WAI_field_range));
        if (ok) {
            passed[3]++;
            for (uint32_t p = 0; p < npos; p++)
                for (uint32_t i = 0; i < c; i++) {
                    ti sum = 0;
                    for (uint32_t j = 0; j < c; j++)
                        sum += (ti)gamma[i * c + j] * ((ti)x[j * npos + p] * x[j * npos + p]);
                    /* n may leave i128 by up to 2^63: keep it split. */
                    ti t2 = ti_floor_shift(sum, gf);
                    uint64_t r;
                    if (t2 < 0 && beta[i] < 0) r = 0;
                    else if (t2 >= 0 && beta[i] >= 0) r = tu_isqrt((tu)t2 + (tu)(uint64_t)beta[i]);
                    else r = t2 + beta[i] < 0 ? 0 : tu_isqrt((tu)(t2 + beta[i]));
                    ti v = ti_round_shift((ti)x[i * npos + p] * (ti)r, af);
                    CHECK(v >= -TI_I64MAX - 1 && v <= TI_I64MAX);
                    CHECK(y[i * npos + p] == (int64_t)v);
                }
        } else {
            refused[3]++;
        }
    }
    /* Both outcomes were exercised for every kind. */
    for (int i = 0; i < 4; i++)
        CHECK_MSG(passed[i] > 50 && refused[i] > 50, "kind %d: %d passed, %d refused", i,
                  passed[i], refused[i]);
#else
    harness_skip("no __int128 here: the native 128-bit reference cannot run");
#endif
}

void suite_layers(void) {
    harness_run("layers/int128_construct_add", test_int128_construct_add);
    harness_run("layers/int128_mul", test_int128_mul);
    harness_run("layers/int128_shifts", test_int128_shifts);
    harness_run("layers/int128_round_shift", test_int128_round_shift);
    harness_run("layers/isqrt_u64", test_isqrt_u64);
    harness_run("layers/int128_isqrt", test_int128_isqrt);
    harness_run("layers/int128_vs_native", test_int128_vs_native);
    harness_run("layers/conv2d_hand", test_conv2d_hand);
    harness_run("layers/conv_t2d_hand", test_conv_t2d_hand);
    harness_run("layers/conv_t1d_hand", test_conv_t1d_hand);
    harness_run("layers/igdn_hand", test_igdn_hand);
    harness_run("layers/relu_leaky_hand", test_relu_leaky_hand);
    harness_run("layers/bound_conv_edges", test_bound_conv_edges);
    harness_run("layers/bound_igdn_edges", test_bound_igdn_edges);
    harness_run("layers/bound_leaky_edges", test_bound_leaky_edges);
    harness_run("layers/stage_dequantize", test_stage_dequantize);
    harness_run("layers/stage_bucket", test_stage_bucket);
    harness_run("layers/stage_rgb8", test_stage_rgb8);
    harness_run("layers/stage_rgb8_interleave", test_stage_rgb8_interleave);
    harness_run("layers/stage_pcm", test_stage_pcm);
    harness_run("layers/random_vs_native", test_layers_random_vs_native);
}
