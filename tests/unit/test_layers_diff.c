/* SPDX-License-Identifier: BSD-2-Clause */
/* Differential tests of the fast layers (ops/layers_fast.h) against the
 * reference path, in the manner of checkasm: random layers of every shape
 * the fast kernels tile differently, parameters at the type limits, inputs
 * small (i32 accumulation), mid (i32 chunked), large (i64) and exactly at
 * the exactness bound's largest passing A and one past it. Each case must
 * give the same status, the same output bytes on success, and leave the
 * output untouched on refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/int128.h"
#include "formats/whm1.h"
#include "gen/netgen.h"
#include "harness.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/cpu.h"
#include "ops/layers.h"
#include "ops/layers_fast.h"
#include "ops/network.h"
#include "ops/plan.h"

static uint64_t g_seed = 0x1a7ed1ff;

static uint64_t rnd64(void) { return harness_rand(&g_seed); }
static uint32_t rnd(uint32_t bound) { return (uint32_t)(rnd64() % bound); }

/* A value of `bits` random bits (0..64) and a random sign, as i64. */
static int64_t rnd_signed(unsigned bits) {
    uint64_t v = bits >= 64 ? rnd64() : rnd64() & (((uint64_t)1 << bits) - 1);
    return wai_u64_to_i64((rnd64() & 1) ? (uint64_t)0 - v : v);
}

/* A random i64 of random width, with the extremes common. */
static int64_t rnd_param64(void) {
    switch (rnd(16)) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return 0;
    default: return rnd_signed(rnd(65));
    }
}

static void rnd_weights(int16_t *w, size_t n) {
    unsigned wb = rnd(17);
    int same_sign = rnd(4) == 0; /* every tap adds up: sums at their largest */
    for (size_t i = 0; i < n; i++) {
        int64_t v = rnd_signed(wb);
        if (v > INT16_MAX) v = INT16_MAX;
        if (v < INT16_MIN) v = INT16_MIN;
        if (same_sign && v < 0) v = -v;
        if (rnd(16) == 0) v = rnd(2) ? INT16_MIN : INT16_MAX;
        if (same_sign && v < 0) v = INT16_MAX;
        if (rnd(8) == 0) v = 0;
        w[i] = (int16_t)v;
    }
}

/* The largest A in [0, 2^63] that passes the layer's bound, or -1 (as
 * UINT64_MAX) when even A = 0 fails. Every bound is monotone in A. */
typedef wai_status (*bound_fn)(const void *ctx, uint64_t a);

static uint64_t largest_passing_a(bound_fn f, const void *ctx) {
    if (f(ctx, 0) != WAI_ok) return UINT64_MAX;
    uint64_t lo = 0, hi = (uint64_t)1 << 63; /* lo passes */
    if (f(ctx, hi) == WAI_ok) return hi;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (f(ctx, mid) == WAI_ok)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The value of magnitude a (a <= 2^63) with the given sign. */
static int64_t signed_mag(uint64_t a, int neg) {
    if (a == ((uint64_t)1 << 63)) return INT64_MIN;
    return neg ? -(int64_t)a : (int64_t)a;
}

/* Fills x: values up to `amax` in magnitude, drawn as `style` says, with
 * one value exactly +-amax (when n > 0). */
static void fill_input(int64_t *x, size_t n, uint64_t amax, int style) {
    int neg = rnd(2);
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (style == 0) /* every value at the maximum, one sign */
            v = amax;
        else if (style == 1) /* uniform-ish below the maximum */
            v = amax == 0 ? 0 : rnd64() % amax;
        else /* random widths below the maximum */
            v = amax == 0 ? 0 : (rnd64() >> rnd(64)) % amax;
        x[i] = signed_mag(v, style == 0 ? neg : (int)rnd(2));
    }
    if (n) x[rnd((uint32_t)n)] = signed_mag(amax, rnd(2));
}

/* Input magnitude for a case: small, i32-chunk sized, large, at the bound,
 * or one past it (the last two need the bound's A). */
static uint64_t pick_amax(uint64_t abound, int *style) {
    *style = (int)rnd(3);
    switch (rnd(6)) {
    case 0: return (uint64_t)1 << rnd(16);
    case 1: return ((uint64_t)1 << rnd(31)) + rnd(1000);
    case 2: return (uint64_t)1 << rnd(64);
    case 3:
    case 4: return abound == UINT64_MAX ? (uint64_t)1 << rnd(40) : abound;
    default:
        if (abound == UINT64_MAX || abound == ((uint64_t)1 << 63)) return (uint64_t)1 << rnd(64);
        return abound + 1;
    }
}

/* ---- (transposed) convolution cases ------------------------------------------------ */

typedef struct conv_case {
    wai_layer l;
    uint64_t sums[256];
    uint32_t shift;
} conv_case;

static wai_status conv_bound(const void *ctx, uint64_t a) {
    const conv_case *c = ctx;
    return wai_bound_conv(a, c->sums, c->l.mult, c->l.bias, c->l.cout, c->shift);
}

static void free_layer(wai_layer *l) {
    free(l->weights);
    free(l->mult);
    free(l->bias);
    free(l->gamma);
    free(l->beta);
}

/* Random multipliers, biases and shift; `tame` makes the bound likely to
 * pass at useful A. */
static void rnd_requant(conv_case *c) {
    int tame = rnd(2);
    c->shift = tame ? 8 + rnd(40) : rnd(128);
    for (uint32_t o = 0; o < c->l.cout; o++) {
        c->l.mult[o] = tame ? rnd_signed(rnd(24)) : rnd_param64();
        c->l.bias[o] = tame ? rnd_signed(rnd(40)) : rnd_param64();
    }
}

static int counts[3][4]; /* [kind][refused, ok-small A, ok-mid A, ok-large A] */
static long n_cases, n_networks, n_net_layers; /* printed by test_coverage */

/* The thread counts every threaded path is held to the reference on. */
static const unsigned k_threads[] = {1, 2, 3, 7};

/* How many of k_threads a random case runs: every count on one case in
 * eight (and in test_thread_shapes), one thread on the others; threads
 * are started per call, which emulated CI targets make slow. */
static int g_all_threads; /* set by test_thread_shapes */

static size_t thread_counts(void) {
    return g_all_threads || n_cases % 8 == 0 ? sizeof k_threads / sizeof *k_threads : 1;
}

static void note(int kind, wai_status st, uint64_t a) {
    int bucket = st != WAI_ok                   ? 0
                 : a < ((uint64_t)1 << 16) ? 1
                 : a < ((uint64_t)1 << 31) ? 2
                                           : 3;
    counts[kind][bucket]++;
    n_cases++;
}

/* The fast kernel of kind transposed (conv_case_full) on c. */
static wai_status run_fast(const wai_exec *ex, const conv_case *c, int transposed,
                           const int64_t *x, uint32_t h, uint32_t w, int64_t *scr, int64_t *y,
                           uint32_t oh, uint32_t ow) {
    if (transposed == 2) return wai_conv_t1d_fast(ex, &c->l, c->sums, c->shift, x, w, scr, y, ow);
    if (transposed) return wai_conv_t2d_fast(ex, &c->l, c->sums, c->shift, x, h, w, scr, y, oh, ow);
    return wai_conv2d_fast(ex, &c->l, c->sums, c->shift, x, h, w, y, oh, ow);
}

/* A kernel's note of its output's A (ops/cores.h, wai_amax), where it
 * left one: of y, of all n values, and exactly their largest |y|. Counts
 * the notes seen, so the suite can tell they were checked at all. */
static size_t g_notes;

static int note_ok(const wai_amax_notes *nt, const int64_t *y, size_t n) {
    if (!nt->out.known) return 1;
    g_notes++;
    return nt->out.x == y && nt->out.n == n && nt->out.a == wai_max_abs_i64(y, n);
}

/* One conv (transposed = 0), conv_t (1) or one-dimensional conv_t (2: one
 * row, h must be 1, weights [cin][cout][k]) case of the given shape; returns
 * 1 when the fast path agreed. weights_small: small weights and tame
 * requantisation; wconst != 0: every weight wconst (with tame
 * requantisation); forced_a != 0: the input's max |x|; style >= 0: how the
 * input is drawn (fill_input). */
static int conv_case_full(int transposed, uint32_t cin, uint32_t cout, uint32_t k, uint32_t s,
                          uint32_t pad, uint32_t opad, uint32_t h, uint32_t w, int weights_small,
                          int16_t wconst, uint64_t forced_a, int style_in) {
    conv_case c;
    memset(&c, 0, sizeof c);
    const int one_d = transposed == 2;
    uint32_t oh, ow, uh = 0, uw = 0;
    if (one_d) {
        h = 1, oh = 1, uh = 1;
        if (wai_conv_t_sides(w, k, s, pad, opad, &uw, &ow)) return 1;
    } else if (transposed) {
        if (wai_conv_t_sides(h, k, s, pad, opad, &uh, &oh) ||
            wai_conv_t_sides(w, k, s, pad, opad, &uw, &ow))
            return 1; /* not a valid shape: nothing to compare */
    } else if (wai_conv_out_side(h, k, s, pad, &oh) || wai_conv_out_side(w, k, s, pad, &ow)) {
        return 1;
    }
    c.l.kind = transposed ? WAI_LAYER_CONV_T : WAI_LAYER_CONV;
    c.l.cin = cin, c.l.cout = cout, c.l.k = k, c.l.stride = s, c.l.pad = pad, c.l.opad = opad;
    c.l.n_weights = (uint64_t)cin * cout * k * (one_d ? 1 : k);
    c.l.weights = malloc(sizeof(int16_t) * c.l.n_weights);
    c.l.mult = malloc(sizeof(int64_t) * cout);
    c.l.bias = malloc(sizeof(int64_t) * cout);
    if (wconst) {
        for (size_t i = 0; i < c.l.n_weights; i++) c.l.weights[i] = wconst;
        c.shift = 40 + rnd(20);
        for (uint32_t o = 0; o < cout; o++) {
            c.l.mult[o] = rnd_signed(20);
            c.l.bias[o] = rnd_signed(20);
        }
    } else if (weights_small) {
        for (size_t i = 0; i < c.l.n_weights; i++) c.l.weights[i] = (int16_t)rnd_signed(6);
        c.shift = 16 + rnd(8);
        for (uint32_t o = 0; o < cout; o++) {
            c.l.mult[o] = 1000 + rnd(50000);
            c.l.bias[o] = rnd_signed(20);
        }
    } else {
        rnd_weights(c.l.weights, c.l.n_weights);
        rnd_requant(&c);
    }
    CHECK(wai_layer_param_sums(&c.l, one_d ? 1 : 2, c.sums) == WAI_ok);

    size_t n_in = (size_t)cin * h * w, n_out = (size_t)cout * oh * ow;
    int64_t *x = malloc(sizeof(int64_t) * (n_in + 1));
    int64_t *y0 = malloc(sizeof(int64_t) * (n_out + 1));
    int64_t *y1 = malloc(sizeof(int64_t) * (n_out + 1));
    int64_t *scr = malloc(sizeof(int64_t) * ((size_t)cout * uh * uw + 1));
    int style;
    uint64_t amax = forced_a;
    if (amax == 0) amax = pick_amax(largest_passing_a(conv_bound, &c), &style);
    else style = (int)rnd(3);
    fill_input(x, n_in, amax, style_in >= 0 ? style_in : style);
    for (size_t i = 0; i < n_out; i++) y0[i] = y1[i] = (int64_t)0x5a5a5a5a5a5a5a5a;

    wai_status s0, s1 = WAI_ok;
    if (one_d)
        s0 = wai_conv_t1d_ref(&c.l, c.sums, c.shift, x, w, scr, y0, ow);
    else if (transposed)
        s0 = wai_conv_t2d_ref(&c.l, c.sums, c.shift, x, h, w, scr, y0, oh, ow);
    else
        s0 = wai_conv2d_ref(&c.l, c.sums, c.shift, x, h, w, y0, oh, ow);
    /* Every instruction set level this CPU has, the best first, on the
     * same case. */
    int ok = 1, isa_bad = -1;
    for (int isa = harness_isa(); ok && isa >= 0; isa--) {
        const wai_exec ex = {.cores = harness_cores(isa)};
        for (size_t i = 0; i < n_out; i++) y1[i] = (int64_t)0x5a5a5a5a5a5a5a5a;
        s1 = run_fast(&ex, &c, transposed, x, h, w, scr, y1, oh, ow);
        ok = s0 == s1 && memcmp(y0, y1, sizeof(int64_t) * n_out) == 0;
        if (!ok) isa_bad = isa;
    }
    /* Threads: the same bits (and refusal) for every count, fewer rows
     * than threads included; each count at the best level and one lower. */
    int thr_bad = 0;
    for (size_t t = 0, nt = thread_counts(); ok && t < nt; t++) {
        int isa = t % 2 ? WAI_FAST_ISA_BEST : (int)(t % (size_t)(harness_isa() + 1));
        /* With a run's notes, so a kernel's note of its A is checked too. */
        wai_amax_notes notes;
        memset(&notes, 0, sizeof notes);
        const wai_exec ex = {.pool = harness_pool(k_threads[t]), .cores = harness_cores(isa), .notes = &notes};
        for (size_t i = 0; i < n_out; i++) y1[i] = (int64_t)0x5a5a5a5a5a5a5a5a;
        s1 = run_fast(&ex, &c, transposed, x, h, w, scr, y1, oh, ow);
        ok = s0 == s1 && memcmp(y0, y1, sizeof(int64_t) * n_out) == 0 && note_ok(&notes, y1, n_out);
        if (!ok) thr_bad = (int)k_threads[t];
    }
    note(one_d ? 0 : transposed, s0, wai_max_abs_i64(x, n_in));
    CHECK_MSG(ok,
              "%s cin %u cout %u k %u s %u pad %u opad %u in %ux%u shift %u A %llu: "
              "status %d vs %d (isa cap %d, threads %d)",
              one_d ? "conv_t1d" : transposed ? "conv_t2d" : "conv2d", cin, cout, k, s, pad, opad, h, w, c.shift,
              (unsigned long long)wai_max_abs_i64(x, n_in), (int)s0, (int)s1, isa_bad, thr_bad);
    free(x), free(y0), free(y1), free(scr);
    free_layer(&c.l);
    return ok;
}

static int conv_case_run(int transposed, uint32_t cin, uint32_t cout, uint32_t k, uint32_t s,
                         uint32_t pad, uint32_t opad, uint32_t h, uint32_t w, int weights_small,
                         uint64_t forced_a) {
    return conv_case_full(transposed, cin, cout, k, s, pad, opad, h, w, weights_small, 0,
                          forced_a, -1);
}

/* Channel counts: mostly small (fast in a Debug build), sometimes up to 24. */
static uint32_t rnd_channels(void) { return 1 + (rnd(4) == 0 ? rnd(24) : rnd(4)); }

static int conv_random_case(int transposed) {
    uint32_t cin = rnd_channels(), cout = rnd_channels();
    uint32_t k = 1 + rnd(7), s = 1 + rnd(3), h = 1 + rnd(6), w = 1 + rnd(6);
    if (rnd(8) == 0) {
        /* Wide rows, over several tiles (up to 128 columns each): few channels. */
        w = 1 + rnd(300);
        cin = 1 + rnd(3), cout = 1 + rnd(3), h = 1 + rnd(3);
    }
    uint32_t pad = rnd(k + 1), opad = rnd(s + 1);
    if (transposed) {
        /* pad must leave an output: 2*pad < (n-1)*s + k + opad. */
        uint32_t un = ((h < w ? h : w) - 1) * s + k + opad;
        pad = rnd((un + 1) / 2);
    }
    return conv_case_run(transposed, cin, cout, k, s, pad, opad, h, w, 0, 0);
}

/* ---- inverse GDN cases ------------------------------------------------------------- */

typedef struct igdn_case {
    wai_layer l;
    uint64_t sums[1024]; /* up to test_igdn_wide's channels */
    uint32_t gf, afrac;
} igdn_case;

static wai_status igdn_bound(const void *ctx, uint64_t a) {
    const igdn_case *c = ctx;
    return wai_bound_igdn(a, c->sums, c->l.beta, c->l.c, c->gf, c->afrac);
}

/* gamma_all: every gamma that value (NULL: drawn); x0 > 0: every x is
 * +-x0 (else drawn up to forced_a or a passing A). */
static int igdn_case_full(uint32_t ch, size_t positions, int realistic, uint64_t forced_a,
                          const int32_t *gamma_all, uint64_t x0) {
    igdn_case c;
    memset(&c, 0, sizeof c);
    c.l.kind = WAI_LAYER_IGDN;
    c.l.c = ch;
    c.l.gamma = malloc(sizeof(int32_t) * ch * ch);
    c.l.beta = malloc(sizeof(int64_t) * ch);
    unsigned gb = realistic ? 16 : rnd(33);
    for (size_t i = 0; i < (size_t)ch * ch; i++) {
        int64_t v = rnd_signed(gb);
        if (realistic && v < 0) v = -v;
        if (v > INT32_MAX) v = INT32_MAX;
        if (v < INT32_MIN) v = INT32_MIN;
        if (!realistic && rnd(16) == 0) v = rnd(2) ? INT32_MIN : INT32_MAX;
        c.l.gamma[i] = gamma_all ? *gamma_all : (int32_t)v;
    }
    for (uint32_t i = 0; i < ch; i++)
        c.l.beta[i] = realistic ? (int64_t)1 << 32 : rnd_param64();
    c.gf = realistic ? 16 : rnd(8) == 0 ? rnd(128) : rnd(40);
    c.afrac = realistic ? 16 : rnd(8) == 0 ? rnd(64) : 1 + rnd(30);
    CHECK(wai_layer_param_sums(&c.l, 2, c.sums) == WAI_ok);

    size_t n = (size_t)ch * positions;
    int64_t *x = malloc(sizeof(int64_t) * (n + 1));
    int64_t *y0 = malloc(sizeof(int64_t) * (n + 1));
    int64_t *y1 = malloc(sizeof(int64_t) * (n + 1));
    int style;
    uint64_t amax = forced_a;
    if (amax == 0) amax = pick_amax(largest_passing_a(igdn_bound, &c), &style);
    else style = (int)rnd(3);
    fill_input(x, n, amax, style);
    for (size_t i = 0; x0 && i < n; i++) x[i] = rnd(2) ? (int64_t)x0 : -(int64_t)x0;
    for (size_t i = 0; i < n; i++) y0[i] = y1[i] = (int64_t)0x5a5a5a5a5a5a5a5a;
    wai_status s0 = wai_igdn_ref(&c.l, c.sums, c.gf, c.afrac, x, positions, y0);
    wai_status s1 = WAI_ok;
    int ok = 1;
    for (int isa = harness_isa(); ok && isa >= 0; isa--) {
        const wai_exec ex = {.cores = harness_cores(isa)};
        for (size_t i = 0; i < n; i++) y1[i] = (int64_t)0x5a5a5a5a5a5a5a5a;
        s1 = wai_igdn_fast(&ex, &c.l, c.sums, c.gf, c.afrac, x, positions, y1);
        ok = s0 == s1 && memcmp(y0, y1, sizeof(int64_t) * n) == 0;
    }
    /* In place: the output over the input, or the input untouched. */
    int64_t *xi = malloc(sizeof(int64_t) * (n + 1));
    memcpy(xi, x, sizeof(int64_t) * n);
    s1 = wai_igdn_fast_inplace(NULL, &c.l, c.sums, c.gf, c.afrac, xi, positions);
    ok = ok && s0 == s1 && memcmp(xi, s0 == WAI_ok ? y0 : x, sizeof(int64_t) * n) == 0;
    /* And on the thread counts (blocks of positions split over them). */
    for (size_t t = 0, nt = thread_counts(); ok && t < nt; t++) {
        wai_amax_notes notes;
        memset(&notes, 0, sizeof notes);
        const wai_exec ex = {.pool = harness_pool(k_threads[t]), .cores = harness_cores(harness_isa()), .notes = &notes};
        memcpy(xi, x, sizeof(int64_t) * n);
        s1 = wai_igdn_fast_inplace(&ex, &c.l, c.sums, c.gf, c.afrac, xi, positions);
        ok = s0 == s1 && memcmp(xi, s0 == WAI_ok ? y0 : x, sizeof(int64_t) * n) == 0 &&
             note_ok(&notes, xi, n);
    }
    free(xi);
    note(2, s0, wai_max_abs_i64(x, n));
    CHECK_MSG(ok, "igdn c %u positions %zu gf %u afrac %u A %llu: status %d vs %d", ch,
              positions, c.gf, c.afrac, (unsigned long long)wai_max_abs_i64(x, n), (int)s0,
              (int)s1);
    free(x), free(y0), free(y1);
    free_layer(&c.l);
    return ok;
}

static int igdn_case_run(uint32_t ch, size_t positions, int realistic, uint64_t forced_a) {
    return igdn_case_full(ch, positions, realistic, forced_a, NULL, 0);
}

/* ---- the suites -------------------------------------------------------------------- */

#define N_CONV 4200
#define N_CONV_T 4200
#define N_IGDN 3000

static void test_conv2d_random(void) {
    int bad = 0;
    for (int t = 0; t < N_CONV && bad < 5; t++) bad += !conv_random_case(0);
}

/* One-dimensional transposed convolutions (WAM1's): long rows over
 * several column tiles, every stride and padding up to 8. */
static void test_conv_t1d_random(void) {
    int bad = 0;
    for (int t = 0; t < 1500 && bad < 5; t++) {
        uint32_t cin = rnd_channels(), cout = rnd_channels();
        uint32_t k = 1 + rnd(8), s = 1 + rnd(rnd(4) ? 4 : 8), len = 1 + rnd(rnd(4) ? 40 : 400);
        uint32_t pad = rnd(k + 1), opad = rnd(s);
        bad += !conv_case_run(2, cin, cout, k, s, pad, opad, 1, len, 0, 0);
    }
}

static void test_conv_t2d_random(void) {
    int bad = 0;
    for (int t = 0; t < N_CONV_T && bad < 5; t++) bad += !conv_random_case(1);
}

static void test_igdn_random(void) {
    int bad = 0;
    for (int t = 0; t < N_IGDN && bad < 5; t++) {
        uint32_t ch = rnd_channels(); /* drawn first under every compiler */
        bad += !igdn_case_run(ch, 1 + rnd(rnd(4) ? 8 : 100), 0, 0);
    }
}

/* The i32 chunking at its edges: every weight the same value v and every
 * input +-A, so an interior output's partial sum over L input channels is
 * exactly A*|v|*L*k*k. A is set so the chunk of L = floor((2^31-1) /
 * (A*|v|*k*k)) channels ends right at 2^31 - 1 (or just below), and one
 * more channel would overflow i32: a chunk one too long gives wrong bytes. */
static void test_chunk_edges(void) {
    int bad = 0;
    for (int t = 0; t < 600 && bad < 5; t++) {
        int transposed = t & 1;
        uint32_t cin = 2 + rnd(23), cout = 1 + rnd(3), k = 1 + rnd(7);
        uint32_t s = transposed ? 1 : 1 + rnd(3), h = k + rnd(3), w = k + rnd(5);
        int16_t v = (int16_t)(1 + rnd(INT16_MAX));
        if (rnd(4) == 0) v = rnd(2) ? INT16_MAX : INT16_MIN;
        else if (rnd(2)) v = (int16_t)-v;
        uint64_t per = (uint64_t)(v < 0 ? -(int64_t)v : v) * k * k;
        uint64_t chunk = 1 + rnd(cin - 1);
        uint64_t a = (uint64_t)INT32_MAX / (per * chunk);
        if (rnd(3) == 0) a += rnd(3); /* around the edge, into the next chunk size */
        if (a == 0) a = 1;
        bad += !conv_case_full(transposed, cin, cout, k, s, transposed ? k - 1 : 0, 0, h, w, 0,
                               v, a, 0);
    }
}

/* The inverse GDN's pair dot path (ops/layers_fast_igdn_dot.c) at its
 * chunk edges: every gamma one value at the limbs' extremes and every x
 * +-x0, x0 chosen so a square's limbs are near 2^15 - 1, so a chunk one
 * pair too long passes 2^31 and gives wrong bytes; two-limb gammas, up to
 * the largest the path takes (2^31 - 2^15 - 1) and one past it (the other
 * path); x0 up to the largest that passes. */
static void test_igdn_dot_edges(void) {
    static const int32_t gs[] = {32767, -32768, -32767, 32766, 32768, -32769, 65535,
                                 INT32_MAX - 32768, INT32_MAX - 32767, INT32_MIN, 1 << 30};
    /* x0^2 with high limbs: 181^2 = 32761; 46339^2 = 2147302921 (limbs
     * 0x7C89, 0x7FF9 ...); 8191 * 2^15 + 8191 and friends by search. */
    static const uint64_t xs[] = {181, 46339, 32767, 1, 255, 65535, 3037000, 2147483647};
    int bad = 0;
    for (int t = 0; t < 400 && bad < 5; t++) {
        uint32_t ch = 1 + rnd(40);
        size_t positions = 1 + rnd(rnd(3) ? 40 : 220);
        int32_t g = gs[rnd(sizeof gs / sizeof gs[0])];
        if (rnd(4) == 0) g = (int32_t)rnd_signed(31);
        uint64_t x0 = xs[rnd(sizeof xs / sizeof xs[0])];
        bad += !igdn_case_full(ch, positions, 0, 0, &g, x0);
    }
}

/* Many channels: near c = 800 the pair dot path's temporaries fit the cap
 * with the gathered rows (run_block) on one side and without them on the
 * other (830 at the VNNI level's 96 columns), so both of its ways run. */
static void test_igdn_wide(void) {
    int bad = 0;
    for (int t = 0; t < 2 && bad < 2; t++) bad += !igdn_case_run(790 + 40 * (uint32_t)t, 1 + rnd(4), 1, 0);
}

/* Shapes outside the tiled path (k or stride above 8) go to the reference;
 * they must still agree, including the refusals. */
static void test_untiled_shapes(void) {
    for (int t = 0; t < 40; t++) {
        /* One draw per declarator (sequenced): the same cases under every
         * compiler, whatever its argument order. */
        uint32_t k = 9 + rnd(3), s = 1 + rnd(10);
        uint32_t ci = 1 + rnd(3), co = 1 + rnd(3), pad = rnd(k), h = 9 + rnd(4), w = 9 + rnd(4);
        conv_case_run(0, ci, co, k, s, pad, 0, h, w, 0, 0);
        uint32_t ci2 = 1 + rnd(3), co2 = 1 + rnd(3), pad2 = rnd(4), op2 = rnd(2);
        uint32_t h2 = 1 + rnd(3), w2 = 1 + rnd(3);
        conv_case_run(1, ci2, co2, k, s, pad2, op2, h2, w2, 0, 0);
        uint32_t gc = 1 + rnd(4), gp = 1 + rnd(8);
        igdn_case_run(gc, gp, 0, ((uint64_t)1 << 32) + rnd(1000));
    }
}

/* The layers of bmshj2018's synthesis (and its analysis's first
 * convolution) at a reduced spatial size, with small weights and inputs
 * from i32 through chunked-i32 to i64 accumulation. */
static void test_bmshj_shapes(void) {
    static const uint32_t chans[5] = {192, 128, 128, 128, 3};
    for (int layer = 0; layer < 4; layer++) {
        uint32_t sz = 2 + (uint32_t)layer;
        conv_case_run(1, chans[layer], chans[layer + 1], 5, 2, 2, 1, sz, sz + 3, 1,
                      (uint64_t)1 << 14);
        conv_case_run(1, chans[layer], chans[layer + 1], 5, 2, 2, 1, sz, sz + 1, 1,
                      (uint64_t)1 << 20);
        conv_case_run(1, chans[layer], chans[layer + 1], 5, 2, 2, 1, sz, sz, 1,
                      (uint64_t)1 << 33);
        if (layer < 3) {
            igdn_case_run(128, 70, 1, (uint64_t)1 << 16);
            igdn_case_run(128, 33, 1, (uint64_t)1 << 30);
        }
    }
    conv_case_run(0, 3, 128, 5, 2, 2, 0, 12, 70, 1, (uint64_t)1 << 16);
    conv_case_run(0, 128, 128, 5, 2, 2, 0, 6, 9, 1, (uint64_t)1 << 20);
}


/* ---- the i16 dot-product path's switch points --------------------------------------- */

/* The transposed convolution's i16 path (layers_fast_dot.c) changes form at
 * A = 32767 / 32768 (one limb or two), 32767 * 2^15 (its last A: the hi
 * limb must fit i16) and 2^31 (where its guard stands), and wherever a
 * limb's chunk of channel pairs changes length.
 * Each A exactly at a switch and one past it, on random small layers. */
static void test_dot_thresholds(void) {
    static const uint64_t at[] = {32767, 32768, 32769, 65535, 65536, (uint64_t)1 << 30,
                                  (uint64_t)32767 << 15, ((uint64_t)32767 << 15) + 1,
                                  INT32_MAX, (uint64_t)INT32_MAX + 1, (uint64_t)INT32_MAX + 2,
                                  (uint64_t)1 << 32};
    int bad = 0;
    for (int t = 0; t < 400 && bad < 5; t++) {
        uint32_t k = 1 + rnd(6), s = 1 + rnd(3), h = 1 + rnd(5), w = 1 + rnd(40);
        uint32_t opad = rnd(s), un = ((h < w ? h : w) - 1) * s + k + opad;
        /* One draw per statement: the same cases under every compiler. */
        uint32_t cin = 1 + rnd(12), cout = 1 + rnd(9), pad = rnd((un + 1) / 2);
        int small = (int)rnd(2), style = (int)rnd(3);
        bad += !conv_case_full(1, cin, cout, k, s, pad, opad, h, w, small, 0,
                               at[t % (sizeof at / sizeof at[0])], style);
    }
}

/* The limb split the i16 path documents (docs/integer-operators.md, "Fast
 * kernels"): for A >= 2^15, the b in 1..15 with ceil(A / 2^b) <= 32767 that
 * makes max(2^b - 1, ceil(A / 2^b)) smallest (the first such b on a tie). */
static unsigned limb_bits(uint64_t a) {
    uint64_t best = UINT64_MAX;
    unsigned bb = 0;
    for (unsigned b = 1; b <= 15; b++) {
        uint64_t lo = ((uint64_t)1 << b) - 1, hi = (a + lo) >> b;
        uint64_t m = lo > hi ? lo : hi;
        if (hi <= INT16_MAX && m < best) best = m, bb = b;
    }
    return bb;
}

/* The i16 path's chunks at their edges: every weight v, every input -A or
 * +A, so an interior output's chunk sum over n channel pairs is exactly n *
 * L * 2|v| * T (T the phase's taps, L the limb's largest value), and v is
 * set so that a chunk of n pairs ends at or just below 2^31 - 1: a chunk one
 * pair too long gives wrong bytes. One limb (A <= 32767: L = A) and two
 * (A = q * 2^b + 1, so that -A has both limbs at their largest: lo = 2^b - 1,
 * hi = -(q + 1) = -ceil(A / 2^b)). */
static void test_dot_chunk_edges(void) {
    int bad = 0, ran = 0;
    for (int t = 0; t < 800 && bad < 5; t++) {
        uint32_t k = 1 + rnd(6), s = 1 + rnd(2), cin = 4 + rnd(21), cout = 1 + rnd(5);
        uint32_t h = k + rnd(3), w = k + rnd(20);
        uint64_t nt = (uint64_t)((k - 1) / s + 1) * ((k - 1) / s + 1); /* phase (0, 0) */
        uint64_t n = 1 + rnd((cin - 1) / 2), a, lmax;
        if (t & 1) {
            a = 1 + rnd(INT16_MAX);
            lmax = a;
        } else {
            a = ((uint64_t)1 << 15) + rnd64() % ((uint64_t)INT32_MAX - ((uint64_t)1 << 15));
            unsigned b = limb_bits(a);
            if (b == 0) continue; /* A past 32767 * 2^15: not this path */
            a = (a >> b << b) + 1;
            if (limb_bits(a) != b || a > INT32_MAX) continue;
            uint64_t lo = ((uint64_t)1 << b) - 1, hi = (a + lo) >> b;
            lmax = rnd(2) ? lo : hi; /* the limb whose chunk is at its edge */
        }
        uint64_t v = (uint64_t)INT32_MAX / (lmax * 2 * nt * n);
        if (v == 0 || v > INT16_MAX) continue;
        int16_t wv = (int16_t)(rnd(2) ? -(int64_t)v : (int64_t)v);
        ran++;
        bad += !conv_case_full(1, cin, cout, k, s, k - 1, 0, h, w, 0, wv, a, 0);
    }
    CHECK(ran > 200);
}

/* ---- whole networks at every instruction-set level ---------------------------------- */

/* Runs m layer by layer with the fast layers capped at isa (the reference
 * for the kinds without a fast form) into buffers b0 / b1; the output lands
 * in *out. */
static wai_status run_net_isa(const wai_model *m, const wai_sums *s, const wai_plan *p,
                              const int64_t *x, int64_t *b0, int64_t *b1, int64_t *scr, int isa,
                              const int64_t **out) {
    const wai_exec ex = {.cores = harness_cores(isa)};
    for (uint32_t i = 0; i < p->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        const wai_plan_layer *pl = &p->layers[i];
        const uint64_t *sm = s->layers[i].sums;
        int64_t *y = (i & 1) ? b1 : b0;
        wai_status st;
        size_t pos = (size_t)pl->in_h * pl->in_w;
        if (l->kind == WAI_LAYER_CONV)
            st = wai_conv2d_fast(&ex, l, sm, m->shift, x, pl->in_h, pl->in_w, y, pl->out_h,
                                 pl->out_w);
        else if (l->kind == WAI_LAYER_CONV_T && m->dims == 2)
            st = wai_conv_t2d_fast(&ex, l, sm, m->shift, x, pl->in_h, pl->in_w, scr, y,
                                   pl->out_h, pl->out_w);
        else if (l->kind == WAI_LAYER_CONV_T)
            st = wai_conv_t1d_ref(l, sm, m->shift, x, pl->in_w, scr, y, pl->out_w);
        else if (l->kind == WAI_LAYER_IGDN)
            st = wai_igdn_fast(&ex, l, sm, m->gf, m->afrac, x, pos, y);
        else if (l->kind == WAI_LAYER_RELU)
            st = wai_relu_ref(x, (size_t)pl->in_elems, y);
        else
            st = wai_leaky_ref(l, x, (size_t)pl->in_elems, y);
        if (st != WAI_ok) return st;
        x = y;
        n_net_layers++;
    }
    *out = x;
    return WAI_ok;
}

/* 100 generated networks (bmshj-, mbt- and WAM1-shaped), inputs realistic
 * and scaled up by 2^12 .. 2^36, through wai_network_run's reference and,
 * layer by layer, the fast layers at every level this CPU has: the same
 * status and output. */
static void test_networks_every_isa(void) {
    int bad = 0;
    for (uint64_t seed = 1; seed <= 100 && bad < 3; seed++) {
        wai_model m;
        uint32_t afrac = 8 + (uint32_t)(seed % 9), cin = 1 + (uint32_t)(seed % 7) * 3;
        uint32_t h = 1 + (uint32_t)(seed % 5), w = 1 + (uint32_t)(seed % 11) * 3;
        wai_status st;
        if (seed % 3 == 0) st = netgen_wam1(NULL, seed, afrac, cin, 4, 1, 2, &m);
        else if (seed % 3 == 1) st = netgen_bmshj(NULL, seed, afrac, cin, 8, 3, 3, &m);
        else st = netgen_mbt_hyper(NULL, seed, afrac, cin, 6, 4, &m);
        if (!CHECK(st == WAI_ok)) return;
        if (m.dims == 1) h = 1;
        wai_sums s;
        wai_plan p;
        CHECK(wai_sums_compute(NULL, &m, &s) == WAI_ok);
        CHECK(wai_plan_model(NULL, &m, cin, h, w, &p) == WAI_ok);
        size_t n_in = (size_t)cin * h * w, n_out = (size_t)p.out_elems, nb = 1, ns = 1;
        for (uint32_t i = 0; i < p.n_layers; i++) {
            if (p.layers[i].out_elems > nb) nb = (size_t)p.layers[i].out_elems;
            if (p.layers[i].uncropped_elems > ns) ns = (size_t)p.layers[i].uncropped_elems;
        }
        int64_t *x = malloc(sizeof *x * n_in), *ya = malloc(sizeof *ya * (n_out + 1));
        int64_t *b0 = malloc(sizeof *b0 * nb), *b1 = malloc(sizeof *b1 * nb);
        int64_t *scr = malloc(sizeof *scr * ns);
        uint64_t rs = seed * 104729;
        netgen_input(&rs, afrac, x, n_in);
        unsigned scale = (unsigned)(seed % 4) * 12;
        for (size_t i = 0; i < n_in; i++) x[i] = x[i] * ((int64_t)1 << scale);
        wai_status sa = wai_network_run(NULL, &wai_kernels_ref, &m, &s, &p, x, ya);
        /* The runner with the fast kernels on every thread count (one in
         * four networks; the others on one thread). */
        size_t nt = seed % 4 == 0 ? sizeof k_threads / sizeof *k_threads : 1;
        for (size_t t = 0; t < nt && !bad; t++) {
            const wai_exec ex = {.pool = harness_pool(k_threads[t]), .cores = harness_cores(harness_isa())};
            int64_t *yt = malloc(sizeof *yt * (n_out + 1));
            memset(yt, 0x5a, sizeof *yt * (n_out + 1));
            wai_status stt = wai_network_run_ex(&ex, &wai_kernels_fast, &m, &s, &p, x, yt);
            bad += !CHECK_MSG(sa == stt && (sa != WAI_ok || memcmp(ya, yt, sizeof *ya * n_out) == 0),
                              "network %llu, %u threads: reference %s, fast %s",
                              (unsigned long long)seed, k_threads[t], wai_status_name(sa),
                              wai_status_name(stt));
            free(yt);
        }
        for (int isa = 0; isa <= harness_isa() && !bad; isa++) {
            const int64_t *yb = NULL;
            wai_status sb = run_net_isa(&m, &s, &p, x, b0, b1, scr, isa, &yb);
            bad += !CHECK_MSG(sa == sb && (sa != WAI_ok || memcmp(ya, yb, sizeof *ya * n_out) == 0),
                              "network %llu isa %d: reference %s, fast %s",
                              (unsigned long long)seed, isa, wai_status_name(sa),
                              wai_status_name(sb));
        }
        n_networks++;
        free(x), free(ya), free(b0), free(b1), free(scr);
        wai_plan_free(NULL, &p);
        wai_sums_free(NULL, &s);
        wai_model_free(NULL, &m);
    }
}

/* Transposed convolutions tall enough for several bands of 16 rows, and
 * wide enough that the 16-bit path fits only some threads' bands within
 * WAI_DOT_TEMP_MAX (there it runs on fewer threads), then convolutions, on
 * 1, 2, 3 and 7 threads (conv_case_full holds each count to the
 * reference). */
static void test_thread_shapes(void) {
    g_all_threads = 1;
    static const uint32_t shapes[][8] = {
        /* cin cout k s pad opad h w */
        {3, 5, 5, 2, 2, 1, 40, 9},   {8, 4, 3, 1, 1, 0, 70, 5},  {5, 9, 4, 3, 1, 2, 13, 11},
        {2, 3, 1, 1, 0, 0, 1, 40},   {6, 4, 8, 8, 0, 0, 3, 3},   {4, 18, 5, 2, 2, 1, 23, 33},
        {64, 4, 3, 1, 1, 0, 40, 600},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const uint32_t *sh = shapes[i];
        for (int small = 0; small < 2; small++)
            conv_case_full(1, sh[0], sh[1], sh[2], sh[3], sh[4], sh[5], sh[6], sh[7], small, 0,
                           small ? 0 : (uint64_t)1 << 20, -1);
    }
    /* The convolution's rows likewise: tall, one row, stride above 1. */
    static const uint32_t cshapes[][6] = {
        /* cin cout k s h w */
        {4, 20, 3, 1, 45, 7}, {3, 5, 5, 2, 30, 9}, {2, 2, 1, 1, 1, 17}, {5, 3, 3, 3, 20, 140},
    };
    for (size_t i = 0; i < sizeof cshapes / sizeof *cshapes; i++) {
        const uint32_t *sh = cshapes[i];
        for (int small = 0; small < 2; small++)
            conv_case_full(0, sh[0], sh[1], sh[2], sh[3], sh[2] / 2, 0, sh[4], sh[5], small, 0,
                           0, -1);
    }
    g_all_threads = 0;
}

static void test_coverage(void) {
    /* Every kind saw refusals and passes at every input scale (when the
     * random suites ran: a filter may have left them out). */
    printf("layers_diff: %ld random layer cases (each at %d instruction-set levels), "
           "%ld whole networks (%ld layer runs), %zu output A notes checked\n",
           n_cases, harness_isa() + 1, n_networks, n_net_layers, g_notes);
    if (counts[0][0] + counts[1][0] + counts[2][0] == 0) return;
    CHECK(g_notes > 1000);
    CHECK(n_cases >= 10000);
    CHECK(n_networks >= 100);
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < 4; b++)
            CHECK_MSG(counts[k][b] > 0, "kind %d bucket %d never reached", k, b);
}

void suite_layers_diff(void) {
    /* layers_diff/coverage checks what the others counted: one shard. */
    harness_together(1);
    harness_run("layers_diff/conv2d_random", test_conv2d_random);
    harness_run("layers_diff/conv_t2d_random", test_conv_t2d_random);
    harness_run("layers_diff/conv_t1d_random", test_conv_t1d_random);
    harness_run("layers_diff/igdn_random", test_igdn_random);
    harness_run("layers_diff/chunk_edges", test_chunk_edges);
    harness_run("layers_diff/igdn_dot_edges", test_igdn_dot_edges);
    harness_run("layers_diff/igdn_wide", test_igdn_wide);
    harness_run("layers_diff/untiled_shapes", test_untiled_shapes);
    harness_run("layers_diff/bmshj_shapes", test_bmshj_shapes);
    harness_run("layers_diff/dot_thresholds", test_dot_thresholds);
    harness_run("layers_diff/dot_chunk_edges", test_dot_chunk_edges);
    harness_run("layers_diff/networks_every_isa", test_networks_every_isa);
    harness_run("layers_diff/thread_shapes", test_thread_shapes);
    harness_run("layers_diff/coverage", test_coverage);
    harness_together(0);
}
