/* SPDX-License-Identifier: BSD-2-Clause */
/* Every inner loop of every instruction set level this CPU has, held to
 * its portable C twin (ops/cores.h), bit for bit (the pair dot product,
 * whose widths differ, to its contract written out as well), on random inputs at the
 * edges the loops' contracts allow: checkasm's habit. The whole kernels
 * built on them are held to the reference in test_layers_diff.c. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ops/cores.h"
#include "ops/cpu.h"
#include "ops/layers.h"
#include "ops/arm/arm.h"
#include "ops/wasm/wasm.h"
#include "ops/x86/x86.h"

static uint64_t g_seed = 0x636f726573ull;

static int64_t rnd_in(int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    uint64_t r = harness_rand(&g_seed);
    return span ? lo + (int64_t)(r % span) : (int64_t)r;
}

/* The tap loops: nt terms of tw columns for nob channels, values within
 * +-xmax and weights within +-wmax (the caller's exactness proof, in
 * miniature: every product and sum stays in the accumulator's type). */
static int tap_case(const wai_cores *c, const wai_cores *ref, int lanes32, int x32) {
    enum { ROW = WAI_TAP_TW + 64 };
    static int64_t x64[WAI_TAP_NTMAX * ROW], w64[WAI_TAP_OB * WAI_TAP_NTMAX];
    static int64_t a64[2][WAI_TAP_OB * WAI_TAP_TW];
    static int32_t x32v[WAI_TAP_NTMAX * ROW], w32[WAI_TAP_OB * WAI_TAP_NTMAX];
    static int32_t a32[2][WAI_TAP_OB * WAI_TAP_TW];
    const int64_t *xp64[WAI_TAP_NTMAX];
    const int32_t *xp32[WAI_TAP_NTMAX];
    size_t nob = 1 + (size_t)rnd_in(0, WAI_TAP_OB - 1), nt = 1 + (size_t)rnd_in(0, WAI_TAP_NTMAX - 1);
    size_t tw = WAI_TAP_G * (size_t)rnd_in(1, WAI_TAP_TW / WAI_TAP_G);
    /* |sum| <= nt * xmax * wmax must fit the lanes. */
    int64_t wmax = 32767, xmax;
    if (lanes32) xmax = (INT32_MAX - 1000) / ((int64_t)nt * wmax);
    else if (x32) xmax = INT32_MAX;
    else xmax = INT64_MAX / ((int64_t)nt * wmax) / 2;
    if (rnd_in(0, 3) == 0) xmax = rnd_in(0, xmax); /* small values too */
    for (size_t j = 0; j < nt; j++) {
        size_t off = (size_t)rnd_in(0, 63);
        for (size_t t = 0; t < tw; t++) {
            int64_t v = rnd_in(-xmax, xmax);
            if (rnd_in(0, 15) == 0) v = rnd_in(0, 1) ? xmax : -xmax;
            x64[j * ROW + off + t] = v;
            x32v[j * ROW + off + t] = (int32_t)v;
        }
        xp64[j] = x64 + j * ROW + off;
        xp32[j] = x32v + j * ROW + off;
    }
    for (size_t i = 0; i < WAI_TAP_OB * WAI_TAP_NTMAX; i++) {
        w64[i] = rnd_in(-wmax, wmax);
        w32[i] = (int32_t)w64[i];
    }
    for (size_t i = 0; i < WAI_TAP_OB * WAI_TAP_TW; i++) {
        /* Accumulators start anywhere the sum still fits. */
        a64[0][i] = a64[1][i] = lanes32 ? 0 : rnd_in(-(1 << 30), 1 << 30);
        a32[0][i] = a32[1][i] = (int32_t)rnd_in(-1000, 1000);
    }
    if (lanes32) {
        ref->tap_i32(a32[0], nob, xp32, w32, nt, tw);
        c->tap_i32(a32[1], nob, xp32, w32, nt, tw);
        return memcmp(a32[0], a32[1], sizeof a32[0]) == 0;
    }
    (x32 ? ref->tap_i64x32 : ref->tap_i64)(a64[0], nob, xp64, w64, nt, tw);
    (x32 ? c->tap_i64x32 : c->tap_i64)(a64[1], nob, xp64, w64, nt, tw);
    return memcmp(a64[0], a64[1], sizeof a64[0]) == 0;
}

/* The pair dot product's contract written out for any column count (the
 * levels' widths differ from the portable loop's). */
static void dot_model(uint64_t *acc64, size_t cols, const int16_t *x, size_t pstride,
                      const ptrdiff_t *toff, size_t nt, const int16_t *wp, size_t np,
                      unsigned shl) {
    for (size_t o = 0; o < WAI_DOT_NO; o++)
        for (size_t t = 0; t < cols; t++) {
            uint32_t sum = 0;
            for (size_t p = 0; p < np; p++)
                for (size_t j = 0; j < nt; j++) {
                    const int16_t *xj = x + p * pstride + toff[j] + 2 * t;
                    const int16_t *wj = wp + ((p * nt + j) * WAI_DOT_NO + o) * 2;
                    sum += (uint32_t)((int32_t)wj[0] * xj[0]) + (uint32_t)((int32_t)wj[1] * xj[1]);
                }
            int64_t v = (int64_t)(sum ^ 0x80000000u) - 0x80000000;
            acc64[o * cols + t] += (uint64_t)v << shl;
        }
}

/* The pair dot product: np pairs of nt taps over the entry's columns, the
 * 32-bit sums free to wrap (the loop's contract is modulo 2^32), against
 * the model and, where the widths allow, the portable loop itself. */
static int dot_case(const wai_cores *c, const wai_cores *ref) {
    enum { NT = 16, COLS = WAI_DOT_COLS_MAX, PSTRIDE = 2 * (COLS + 40) };
    static int16_t x[8 * PSTRIDE], wp[8 * NT * WAI_DOT_NO * 2];
    static uint64_t got[WAI_DOT_NO * COLS], want[WAI_DOT_NO * COLS];
    ptrdiff_t toff[NT];
    size_t np = 1 + (size_t)rnd_in(0, 7), nt = 1 + (size_t)rnd_in(0, NT - 1);
    unsigned shl = (unsigned)rnd_in(0, 15);
    for (size_t i = 0; i < sizeof x / sizeof *x; i++)
        x[i] = (int16_t)(rnd_in(0, 7) ? rnd_in(-32768, 32767) : (rnd_in(0, 1) ? 32767 : -32768));
    for (size_t i = 0; i < sizeof wp / sizeof *wp; i++)
        wp[i] = (int16_t)(rnd_in(0, 7) ? rnd_in(-32768, 32767) : -32768);
    for (size_t j = 0; j < nt; j++) toff[j] = 2 * rnd_in(0, 39);
    for (size_t i = 0; i < WAI_DOT_NO * COLS; i++) got[i] = want[i] = harness_rand(&g_seed);
    c->dot(got, x, PSTRIDE, toff, nt, wp, np, shl);
    dot_model(want, c->dot_cols, x, PSTRIDE, toff, nt, wp, np, shl);
    int ok = memcmp(got, want, sizeof got) == 0;
    if (c != ref && c->dot_cols == ref->dot_cols) {
        memcpy(got, want, sizeof got);
        ref->dot(got, x, PSTRIDE, toff, nt, wp, np, 0);
        c->dot(want, x, PSTRIDE, toff, nt, wp, np, 0);
        ok &= memcmp(got, want, sizeof got) == 0;
    }
    return ok;
}

/* The inverse GDN's sums of squares, |x|^2 * sum |gamma| within i64. */
static int igdn_case(const wai_cores *c, const wai_cores *ref) {
    enum { C = 40, POS = 96 };
    static int64_t x[C * POS], acc[2][WAI_IGDN_IB * WAI_IGDN_PB];
    static int32_t gamma[C * C];
    size_t ch = 1 + (size_t)rnd_in(0, C - 1), nib = 1 + (size_t)rnd_in(0, WAI_IGDN_IB - 1);
    if (nib > ch) nib = ch;
    size_t p0 = (size_t)rnd_in(0, POS - WAI_IGDN_PB), np = 1 + (size_t)rnd_in(0, WAI_IGDN_PB - 1);
    int64_t gmax = rnd_in(1, INT32_MAX);
    int64_t xmax = 1;
    while ((xmax * 2) * (xmax * 2) <= INT64_MAX / (gmax * (int64_t)ch) / 2) xmax *= 2;
    for (size_t i = 0; i < ch * POS; i++) x[i] = rnd_in(-xmax, xmax);
    for (size_t i = 0; i < ch * ch; i++) gamma[i] = (int32_t)rnd_in(-gmax, gmax);
    memset(acc, 0, sizeof acc);
    ref->igdn_acc64(acc[0], x, POS, p0, np, gamma, ch, nib);
    c->igdn_acc64(acc[1], x, POS, p0, np, gamma, ch, nib);
    return memcmp(acc[0], acc[1], sizeof acc[0]) == 0;
}

/* A sum for the value loop: random bits, or one whose n = beta +
 * floor(sum / 2^gf) lands on r^2 - 1, r^2 or r^2 + 1 (the root's edges),
 * or an extreme. */
static uint64_t value_sum(int64_t beta, uint32_t gf) {
    int kind = (int)rnd_in(0, 5);
    if (kind == 0) return harness_rand(&g_seed);
    if (kind == 1) return rnd_in(0, 1) ? (uint64_t)INT64_MAX - (uint64_t)rnd_in(0, 3)
                                       : (uint64_t)INT64_MIN + (uint64_t)rnd_in(0, 3);
    uint64_t r = (uint64_t)rnd_in(0, 0xFFFFFFFFll) >> rnd_in(0, 31);
    int64_t m, t, sum;
    /* m = r^2 + d, t = m - beta, sum = t * 2^gf + low bits, where all fit. */
    if (__builtin_mul_overflow((int64_t)r, (int64_t)r, &m) ||
        __builtin_add_overflow(m, rnd_in(-1, 1), &m) || __builtin_sub_overflow(m, beta, &t) ||
        gf >= 63 || __builtin_mul_overflow(t, (int64_t)1 << gf, &sum))
        return harness_rand(&g_seed) >> rnd_in(0, 63);
    int64_t low = gf ? rnd_in(0, ((int64_t)1 << gf) - 1) : 0;
    return (uint64_t)(sum >= 0 && sum > INT64_MAX - low ? sum : sum + low);
}

/* The inverse GDN's value loop: against the C twin, and the C twin against
 * the reference's value (ops/layers.h) it stands for. */
static int igdn_value_case(const wai_cores *c, const wai_cores *ref) {
    enum { N = 41 };
    int64_t x[N], y[3][N];
    uint64_t sum[N];
    size_t n = (size_t)rnd_in(0, N);
    static const int64_t betas[] = {0, 1, -1, INT64_MAX, INT64_MIN, (int64_t)1 << 32};
    int64_t beta = rnd_in(0, 2) ? betas[rnd_in(0, 5)] : (int64_t)harness_rand(&g_seed);
    uint32_t gf = (uint32_t)(rnd_in(0, 7) ? rnd_in(0, 40) : rnd_in(0, 130));
    uint32_t afrac = (uint32_t)(rnd_in(0, 7) ? rnd_in(1, 40) : rnd_in(0, 130));
    for (size_t i = 0; i < n; i++) {
        x[i] = rnd_in(0, 3) ? rnd_in(-INT32_MAX, INT32_MAX) : (rnd_in(0, 1) ? 1 : -1) * INT32_MAX;
        sum[i] = value_sum(beta, gf);
    }
    ref->igdn_value(y[0], x, sum, n, beta, gf, afrac);
    memcpy(y[1], x, sizeof x); /* in place, as the kernel runs it */
    c->igdn_value(y[1], y[1], sum, n, beta, gf, afrac);
    for (size_t i = 0; i < n; i++) {
        wai_i128 s = wai_i128_from_i64((int64_t)sum[i]);
        y[2][i] = wai_igdn_value(x[i], s, beta, gf, afrac);
    }
    return memcmp(y[0], y[1], sizeof(int64_t) * n) == 0 &&
           memcmp(y[0], y[2], sizeof(int64_t) * n) == 0;
}

/* The limbs of the squares: c channels (odd counts too), np of cols
 * positions, 1 to 5 limbs, |x| up to 2^31 - 1; the output prefilled so
 * the zeros the contract asks for are checked. */
static int igdn_limbs_case(const wai_cores *c, const wai_cores *ref) {
    enum { CMAX = 9, POS = 200, COLS = WAI_DOT_COLS_MAX, L = 5 };
    static int64_t x[CMAX * POS];
    static int16_t out[2][L * ((CMAX + 1) / 2) * 2 * COLS];
    size_t ch = (size_t)rnd_in(1, CMAX), cols = 16 * (size_t)rnd_in(1, COLS / 16);
    size_t np = (size_t)rnd_in(0, (int64_t)cols), positions = cols + (size_t)rnd_in(0, POS - COLS);
    int lsq = (int)rnd_in(1, L), bits = (int)rnd_in(1, 31);
    for (size_t i = 0; i < ch * positions; i++) {
        x[i] = (int64_t)(harness_rand(&g_seed) >> (64 - bits)) * (rnd_in(0, 1) ? 1 : -1);
        if (rnd_in(0, 30) == 0) x[i] = rnd_in(0, 1) ? INT32_MAX : -INT32_MAX;
    }
    memset(out, 0x5a, sizeof out);
    ref->igdn_limbs(out[0], x, positions, ch, np, cols, lsq);
    c->igdn_limbs(out[1], x, positions, ch, np, cols, lsq);
    return memcmp(out[0], out[1], sizeof out[0]) == 0;
}

/* Requantisation of a row: magnitudes from 0 to 2^63 with m and the shift
 * drawn so every result fits i64 (the contract), some rows where the
 * product needs more than 63 bits (the C loop's), strides 1 to 3. */
static int requant_case(const wai_cores *c, const wai_cores *ref) {
    enum { N = 45 };
    uint64_t acc[N];
    int64_t y[2][3 * N];
    size_t n = (size_t)rnd_in(0, N), ys = (size_t)rnd_in(1, 3);
    uint32_t shift = (uint32_t)(rnd_in(0, 7) ? rnd_in(1, 63) : rnd_in(0, 70));
    int pm = (int)rnd_in(1, 63);
    int64_t m = (int64_t)(harness_rand(&g_seed) >> (64 - pm)) * (rnd_in(0, 1) ? 1 : -1);
    /* |acc * m| < 2^(pa + pm) and the result below 2^(pa + pm - shift) + 1. */
    int pa = (int)rnd_in(0, 64);
    int room = (int)shift + 60 - pm;
    if (pa > room) pa = room < 0 ? 0 : room;
    int64_t b = rnd_in(-((int64_t)1 << 60), (int64_t)1 << 60);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = pa == 0 ? 0 : pa >= 64 ? harness_rand(&g_seed) : harness_rand(&g_seed) >> (64 - pa);
        acc[i] = rnd_in(0, 1) ? v : 0 - v;
        if (pa >= 64 && rnd_in(0, 7) == 0) acc[i] = (uint64_t)INT64_MIN;
    }
    memset(y, 0x5a, sizeof y);
    ref->requant(y[0], ys, acc, n, m, shift, b);
    c->requant(y[1], ys, acc, n, m, shift, b);
    return memcmp(y[0], y[1], sizeof y[0]) == 0;
}

/* The largest |x| of a run, with -2^63 and the other extremes in it. */
static int max_abs_case(const wai_cores *c, const wai_cores *ref) {
    enum { N = 80 };
    int64_t x[N];
    size_t n = (size_t)rnd_in(0, N);
    int bits = (int)rnd_in(0, 63);
    for (size_t i = 0; i < n; i++) {
        x[i] = (int64_t)(harness_rand(&g_seed) >> (63 - bits)) * (rnd_in(0, 1) ? 1 : -1);
        if (rnd_in(0, 60) == 0) x[i] = rnd_in(0, 1) ? INT64_MIN : INT64_MAX;
    }
    return ref->max_abs(x, n) == c->max_abs(x, n);
}

/* The RGB8 step of a run of pixels: values around 0 and 2^afrac (both
 * clamps), the rounding's edges, the extremes of i64, every afrac from 0
 * to 31 (those outside 1..30 give 0), runs of 0 to 70 pixels from any
 * start. */
static int rgb8_case(const wai_cores *c, const wai_cores *ref) {
    enum { HW = 70 };
    int64_t planes[3 * HW];
    uint8_t rgb[2][3 * HW];
    uint32_t afrac = (uint32_t)(rnd_in(0, 15) ? rnd_in(1, 30) : rnd_in(0, 31));
    const int64_t top = afrac < 63 ? (int64_t)1 << afrac : 0;
    for (size_t i = 0; i < 3 * HW; i++) {
        switch (rnd_in(0, 4)) {
        case 0: planes[i] = rnd_in(-3, 3); break;
        case 1: planes[i] = top + rnd_in(-3, 3); break;
        case 2: planes[i] = rnd_in(0, top); break;
        case 3: planes[i] = rnd_in(0, 1) ? INT64_MIN + rnd_in(0, 2) : INT64_MAX - rnd_in(0, 2); break;
        default: planes[i] = (int64_t)harness_rand(&g_seed); break;
        }
    }
    size_t i0 = (size_t)rnd_in(0, HW), i1 = (size_t)rnd_in((int64_t)i0, HW);
    memset(rgb, 0x5a, sizeof rgb);
    ref->rgb8(rgb[0], planes, HW, i0, i1, afrac);
    c->rgb8(rgb[1], planes, HW, i0, i1, afrac);
    return memcmp(rgb[0], rgb[1], sizeof rgb[0]) == 0;
}

/* A motion segment's reconstruction: every kind, residuals across and
 * past the clamps (|r| <= 256), q from 1 to 65535, runs of 0 to 100. */
static int recon_case(const wai_cores *c, const wai_cores *ref) {
    enum { N = 100 };
    uint8_t a[N + 3], b[N + 3], out[2][N];
    int16_t r[N];
    unsigned kind = (unsigned)rnd_in(0, 3);
    size_t n = (size_t)rnd_in(0, N);
    int32_t q = (int32_t)(rnd_in(0, 3) ? rnd_in(1, 4) : rnd_in(0, 1) ? 65535 : rnd_in(1, 65535));
    int wide = rnd_in(0, 1);
    for (size_t i = 0; i < N + 3; i++) a[i] = (uint8_t)rnd_in(0, 255), b[i] = (uint8_t)rnd_in(0, 255);
    for (size_t i = 0; i < N; i++) r[i] = (int16_t)(wide ? rnd_in(-256, 256) : rnd_in(-3, 3));
    memset(out, 0x5a, sizeof out);
    ref->recon(out[0], a, b, kind, r, n, q);
    c->recon(out[1], a, b, kind, r, n, q);
    return memcmp(out[0], out[1], sizeof out[0]) == 0;
}

static void test_every_level_matches_c(void) {
    const wai_cores *ref = wai_cores_portable();
    /* Level 0 is the portable table itself: comparing it with ref would
     * hold a path to itself. Each level above it against the C reference. */
    if (wai_cpu_isa() == 0) harness_skip("this CPU has no kernel level beyond the portable one");
    for (int isa = 1; isa <= wai_cpu_isa(); isa++) {
        wai_cores c;
        wai_cores_init(&c, isa);
        CHECK(c.isa == isa && c.dot_cols % 16 == 0 && c.dot_cols <= WAI_DOT_COLS_MAX);
        int bad = 0;
        for (int n = 0; n < 300 && bad < 3; n++) {
            bad += !CHECK_MSG(tap_case(&c, ref, 1, 0), "level %d tap_i32 case %d", isa, n);
            bad += !CHECK_MSG(tap_case(&c, ref, 0, 1), "level %d tap_i64x32 case %d", isa, n);
            bad += !CHECK_MSG(tap_case(&c, ref, 0, 0), "level %d tap_i64 case %d", isa, n);
            bad += !CHECK_MSG(dot_case(&c, ref), "level %d dot case %d", isa, n);
            bad += !CHECK_MSG(igdn_case(&c, ref), "level %d igdn_acc64 case %d", isa, n);
            bad += !CHECK_MSG(igdn_limbs_case(&c, ref), "level %d igdn_limbs case %d", isa, n);
        }
        for (int n = 0; n < 20000 && bad < 3; n++) {
            bad += !CHECK_MSG(igdn_value_case(&c, ref), "level %d igdn_value case %d", isa, n);
            bad += !CHECK_MSG(requant_case(&c, ref), "level %d requant case %d", isa, n);
            bad += !CHECK_MSG(max_abs_case(&c, ref), "level %d max_abs case %d", isa, n);
            bad += !CHECK_MSG(rgb8_case(&c, ref), "level %d rgb8 case %d", isa, n);
            bad += !CHECK_MSG(recon_case(&c, ref), "level %d recon case %d", isa, n);
        }
    }
}

/* The value's root at every point where a seeded root could go wrong
 * (docs/integer-operators.md, "The root from a seed"): with beta = 0, gf =
 * 0, x = 2^12 and afrac = 12 the value is isqrt(sum) itself. Every n below
 * 2^20, then, in [2^30, 2^32), both ends of every run of n with one root
 * and one seed bucket (r² - 1, r², the buckets' edges): the method's
 * estimate moves monotonically within a run, so exact ends make the whole
 * run exact. Sixteen lanes a call, all below 2^32, so the u32 path runs. */
static void test_igdn_root_every_run(void) {
    enum { V = 1 << 12 };
    static int64_t x[16], y[16];
    uint64_t sum[16];
    for (int i = 0; i < 16; i++) x[i] = 4096;
    for (int isa = 0; isa <= wai_cpu_isa(); isa++) {
        wai_cores c;
        wai_cores_init(&c, isa);
        size_t bad = 0, k = 0, tried = 0;
        uint64_t n = 0;
        /* The points, in order: n < 2^20, then r² - 1 and r² for r in
         * [2^15, 2^16], then (i << 22) - 1 and i << 22 for i in [256, 1024]. */
        for (uint64_t step = 0;; step++) {
            if (step < (1u << 20)) n = step;
            else if (step < (1u << 20) + 2 * 32769) {
                uint64_t q = step - (1u << 20), r = 32768 + q / 2;
                n = r * r - 1 + (q & 1);
            } else if (step < (1u << 20) + 2 * 32769 + 2 * 769) {
                uint64_t q = step - (1u << 20) - 2 * 32769, i = 256 + q / 2;
                n = (i << 22) - 1 + (q & 1);
            } else break;
            if (n > 0xFFFFFFFFu) n = 0xFFFFFFFFu;
            sum[k++] = n;
            if (k < 16) continue;
            c.igdn_value(y, x, sum, 16, 0, 0, 12);
            for (size_t t = 0; t < 16; t++) bad += (uint64_t)y[t] != wai_isqrt_u64(sum[t]);
            tried += 16, k = 0;
        }
        CHECK_MSG(bad == 0 && tried > (1u << 20), "level %d: %zu of %zu roots wrong", isa, bad, tried);
    }
}

/* The init holds a level to the CPU's, so no caller can reach an
 * instruction the CPU lacks. */
static void test_init_levels(void) {
    wai_cores c;
    wai_cores_init(&c, WAI_FAST_ISA_BEST + 7);
    CHECK(c.isa == wai_cpu_isa());
    wai_cores_init(&c, -3);
    const wai_cores *p = wai_cores_portable();
    CHECK(c.isa == WAI_FAST_ISA_PORTABLE && c.tap_i64 == p->tap_i64 &&
          c.tap_i64x32 == p->tap_i64x32 && c.tap_i32 == p->tap_i32 && c.dot == p->dot &&
          c.dot_cols == p->dot_cols && c.igdn_acc64 == p->igdn_acc64 &&
          c.igdn_value == p->igdn_value && c.igdn_limbs == p->igdn_limbs && c.max_abs == p->max_abs && c.requant == p->requant);
    const wai_exec none = {.alloc = NULL};
    CHECK(wai_exec_cores(NULL) == wai_cores_portable() && wai_exec_cores(&none) == wai_cores_portable());
}

/* A context's cap (wai_settings.cpu_level): each level of this build's
 * architecture is held to the CPU's, the context's table is that level's,
 * and a level of no architecture this build has is refused. */
static int of_this_build(int l) {
    if (l <= WAI_CPU_PORTABLE) return 1;
    if (l >= WAI_CPU_X86_AVX2 && l <= WAI_CPU_X86_AVX512VNNI) return WAI_X86_SIMD;
    if (l == WAI_CPU_WASM_SIMD128) return WAI_WASM_SIMD;
    if (l == WAI_CPU_ARM_NEON) return WAI_ARM_NEON;
    return 0;
}

static void test_context_cap(void) {
    const wai_cpu_level host = wai_cpu_level_of_isa(wai_cpu_isa());
    for (int l = WAI_CPU_HOST; l <= WAI_CPU_ARM_NEON; l++) {
        wai_settings st;
        wai_settings_default(&st);
        CHECK(st.cpu_level == WAI_CPU_HOST);
        st.cpu_level = (wai_cpu_level)l;
        wai_context *ctx = NULL;
        wai_status s = wai_context_create(&st, &ctx);
        const int known = of_this_build(l);
        CHECK_MSG(s == (known ? WAI_ok : WAI_invalid_argument), "level %s: %s",
                  wai_cpu_level_name((wai_cpu_level)l), wai_status_name(s));
        if (ctx) {
            /* The level run: the cap, or the CPU's where the cap is above it
             * (the chain's order: a level's index is its internal one). */
            int cap_isa = -1;
            CHECK(wai_cpu_isa_capped((wai_cpu_level)l, &cap_isa));
            CHECK_MSG(wai_context_cpu_level(ctx) == wai_cpu_level_of_isa(cap_isa) &&
                          (l != WAI_CPU_HOST || wai_context_cpu_level(ctx) == host),
                      "cap %s runs %s", wai_cpu_level_name((wai_cpu_level)l),
                      wai_cpu_level_name(wai_context_cpu_level(ctx)));
            CHECK(l == WAI_CPU_HOST || l == WAI_CPU_PORTABLE || cap_isa == wai_cpu_isa() ||
                  wai_cpu_level_of_isa(cap_isa) == (wai_cpu_level)l);
        }
        wai_context_destroy(ctx);
    }
    /* Names both ways, of every architecture's levels. */
    for (int i = WAI_CPU_HOST; i <= WAI_CPU_ARM_NEON; i++) {
        wai_cpu_level back = WAI_CPU_HOST;
        CHECK(wai_cpu_level_from_name(wai_cpu_level_name((wai_cpu_level)i), &back) && back == (wai_cpu_level)i);
    }
    wai_cpu_level l = WAI_CPU_PORTABLE;
    CHECK(!wai_cpu_level_from_name("sve", &l) && !wai_cpu_level_from_name(NULL, &l) &&
          l == WAI_CPU_PORTABLE);
    CHECK(wai_cpu_level_name((wai_cpu_level)8) == NULL && strcmp(wai_cpu_level_name(WAI_CPU_HOST), "host") == 0);
    wai_settings st;
    wai_settings_default(&st);
    st.cpu_level = (wai_cpu_level)77;
    wai_context *ctx = NULL;
    CHECK(wai_context_create(&st, &ctx) == WAI_invalid_argument && !ctx);
    CHECK(wai_context_cpu_level(NULL) == WAI_CPU_HOST);
}

void suite_cores(void) {
    harness_run("cores_every_level_matches_c", test_every_level_matches_c);
    harness_run("cores_init_levels", test_init_levels);
    harness_run("cores_context_cap", test_context_cap);
    harness_run("cores_igdn_root_every_run", test_igdn_root_every_run);
}
