/* SPDX-License-Identifier: BSD-2-Clause */
/* Reference vs fast layers on bmshj2018 synthesis shapes: one transposed
 * convolution (cin 128 -> cout 128, 5x5, stride 2, pad 2, opad 1, input
 * [128, 64, 96]) and the inverse GDN that follows it ([128, 128, 192]);
 * then a WAM1-shaped one-dimensional transposed convolution (128 -> 64,
 * k 8, stride 4, pad 2 on 4096 samples: an audio synthesis's upsampling),
 * with inputs at a realistic scale (afrac 16: |x| up to 2^18); then the
 * pair dot product alone and the per-sample entries (the RGB8 step, the
 * motion reconstruction) on every level. Prints ms
 * (best of the runs) and GMAC/s, and checks that both paths agree.
 *
 *   wai_bench_layers [reps [xrange [wrange]]]   (default 3, 2^18, 600; the
 *   reference runs once) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/cpu.h"
#include "ops/layers.h"
#include "ops/layers_fast.h"

static uint64_t g_state = 0xbe4c4;

static uint64_t rnd64(void) {
    uint64_t z = (g_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int64_t rnd_range(int64_t lo, int64_t hi) {
    return lo + (int64_t)(rnd64() % (uint64_t)(hi - lo + 1));
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void report(const char *what, uint64_t ns, double macs) {
    printf("  %-22s %9.2f ms  %7.2f GMAC/s\n", what, ns / 1e6, macs / (double)ns);
}

/* One fast kernel's call on the loops of an exec (the arguments its own). */
typedef void (*kernel_run)(const wai_exec *ex, void *arg);

/* The kernel on every level below the CPU's best (the best is "fast"),
 * each with its own table: the per-level rows. */
static void report_levels(kernel_run run, void *arg, int reps, double macs) {
    for (int isa = 0; isa < wai_cpu_isa(); isa++) {
        wai_cores cores;
        wai_cores_init(&cores, isa);
        const wai_exec lex = {.cores = &cores};
        uint64_t b = UINT64_MAX;
        for (int r = 0; r < reps; r++) {
            uint64_t t0 = now_ns();
            run(&lex, arg);
            uint64_t d = now_ns() - t0;
            if (d < b) b = d;
        }
        char name[40];
        snprintf(name, sizeof name, "fast, %s", wai_cpu_level_name(wai_cpu_level_of_isa(isa)));
        report(name, b, macs);
    }
}

typedef struct t1d_args {
    const wai_layer *l;
    const uint64_t *sums;
    const int64_t *x;
    uint32_t len, olen;
    int64_t *scr, *y;
} t1d_args;

static void run_t1d(const wai_exec *ex, void *arg) {
    t1d_args *a = arg;
    wai_conv_t1d_fast(ex, a->l, a->sums, 30, a->x, a->len, a->scr, a->y, a->olen);
}

typedef struct t2d_args {
    const wai_layer *l;
    const uint64_t *sums;
    uint32_t shift, h, w, oh, ow;
    const int64_t *x;
    int64_t *scr, *y;
} t2d_args;

static void run_t2d(const wai_exec *ex, void *arg) {
    t2d_args *a = arg;
    wai_conv_t2d_fast(ex, a->l, a->sums, a->shift, a->x, a->h, a->w, a->scr, a->y, a->oh, a->ow);
}

typedef struct igdn_args {
    const wai_layer *g;
    const uint64_t *sums;
    const int64_t *x;
    size_t pos;
    int64_t *y;
} igdn_args;

static void run_igdn(const wai_exec *ex, void *arg) {
    igdn_args *a = arg;
    wai_igdn_fast(ex, a->g, a->sums, 16, 16, a->x, a->pos, a->y);
}

/* The one-dimensional transposed convolution, reference against fast. */
static void bench_t1d(int reps, int64_t xrange, int64_t wrange, const wai_exec *ex) {
    const uint32_t cin = 128, cout = 64, k = 8, s = 4, pad = 2, opad = 0, len = 4096;
    uint32_t ulen, olen;
    wai_conv_t_sides(len, k, s, pad, opad, &ulen, &olen);
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = WAI_LAYER_CONV_T;
    l.cin = cin, l.cout = cout, l.k = k, l.stride = s, l.pad = pad, l.opad = opad;
    l.n_weights = (uint64_t)cin * cout * k;
    l.weights = malloc(sizeof(int16_t) * l.n_weights);
    l.mult = malloc(sizeof(int64_t) * cout);
    l.bias = malloc(sizeof(int64_t) * cout);
    for (size_t i = 0; i < l.n_weights; i++) l.weights[i] = (int16_t)rnd_range(-wrange, wrange);
    for (uint32_t o = 0; o < cout; o++) {
        l.mult[o] = rnd_range(1 << 14, 1 << 16);
        l.bias[o] = rnd_range(-(1 << 16), 1 << 16);
    }
    uint64_t *sums = malloc(sizeof(uint64_t) * cout);
    wai_layer_param_sums(&l, 1, sums);
    size_t n_in = (size_t)cin * len, n_out = (size_t)cout * olen;
    int64_t *x = malloc(sizeof(int64_t) * n_in), *y0 = malloc(sizeof(int64_t) * n_out),
            *y1 = malloc(sizeof(int64_t) * n_out), *scr = malloc(sizeof(int64_t) * cout * ulen);
    for (size_t i = 0; i < n_in; i++) x[i] = rnd_range(-xrange, xrange);
    double macs = (double)n_in * cout * k;
    printf("conv_t1d %u->%u k%u s%u on [%u,%u] -> [%u,%u]: %.2f GMAC\n", cin, cout, k, s, cin,
           len, cout, olen, macs / 1e9);
    uint64_t t0 = now_ns();
    wai_status st0 = wai_conv_t1d_ref(&l, sums, 30, x, len, scr, y0, olen);
    uint64_t ref_ns = now_ns() - t0, best = UINT64_MAX;
    wai_status st1 = WAI_ok;
    for (int r = 0; r < reps; r++) {
        t0 = now_ns();
        st1 = wai_conv_t1d_fast(ex, &l, sums, 30, x, len, scr, y1, olen);
        uint64_t d = now_ns() - t0;
        if (d < best) best = d;
    }
    report("reference", ref_ns, macs);
    report("fast", best, macs);
    t1d_args args = {&l, sums, x, len, olen, scr, y1};
    report_levels(run_t1d, &args, reps, macs);
    printf("  status %d/%d, outputs %s, speedup %.1fx\n", (int)st0, (int)st1,
           st0 == st1 && memcmp(y0, y1, sizeof(int64_t) * n_out) == 0 ? "identical" : "DIFFER",
           (double)ref_ns / (double)best);
    free(x), free(y0), free(y1), free(scr), free(sums);
    free(l.weights), free(l.mult), free(l.bias);
}

/* The pair dot product entry alone, every level, on data in L1 (8 pairs of
 * 25 taps, the shape of a 5x5 transposed convolution's call): the rate its
 * inner loop reaches with nothing else in the way, the ceiling of every
 * kernel built on it. MACs: each pair is two i16 products. */
static void bench_dot(int reps) {
    enum { NP = 8, NT = 25, CALLS = 20000 };
    static int16_t x[NP * 256], wp[NP * NT * WAI_DOT_NO * 2];
    static uint64_t acc[WAI_DOT_NO * WAI_DOT_COLS_MAX];
    ptrdiff_t toff[NT];
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) x[i] = (int16_t)rnd_range(-32767, 32767);
    for (size_t i = 0; i < sizeof wp / sizeof wp[0]; i++) wp[i] = (int16_t)rnd_range(-32767, 32767);
    for (int j = 0; j < NT; j++) toff[j] = 2 * (j % 5);
    printf("dot entry alone: %d pairs x %d taps a call, in L1\n", NP, NT);
    for (int isa = 0; isa <= wai_cpu_isa(); isa++) {
        wai_cores c;
        wai_cores_init(&c, isa);
        uint64_t b = UINT64_MAX;
        for (int r = 0; r < reps; r++) {
            uint64_t t0 = now_ns();
            for (int k = 0; k < CALLS; k++) c.dot(acc, x, 256, toff, NT, wp, NP, 0);
            uint64_t d = now_ns() - t0;
            if (d < b) b = d;
        }
        char name[40];
        snprintf(name, sizeof name, "%s (%zu columns)", wai_cpu_level_name(wai_cpu_level_of_isa(isa)),
                 c.dot_cols);
        report(name, b, (double)CALLS * NP * NT * 2 * WAI_DOT_NO * (double)c.dot_cols);
    }
}

/* Best of reps of fn(c, arg) on every level's table, as samples a second. */
typedef void (*pixel_run)(const wai_cores *c, void *arg);

static void report_pixel_levels(const char *what, pixel_run fn, void *arg, int reps,
                                double samples) {
    printf("%s\n", what);
    for (int isa = 0; isa <= wai_cpu_isa(); isa++) {
        wai_cores c;
        wai_cores_init(&c, isa);
        uint64_t b = UINT64_MAX;
        for (int r = 0; r < reps; r++) {
            uint64_t t0 = now_ns();
            fn(&c, arg);
            uint64_t d = now_ns() - t0;
            if (d < b) b = d;
        }
        printf("  %-22s %9.2f ms  %7.1f Msamples/s\n",
               wai_cpu_level_name(wai_cpu_level_of_isa(isa)), b / 1e6, samples * 1e3 / (double)b);
    }
}

typedef struct rgb8_args {
    const int64_t *planes;
    size_t hw;
    uint8_t *rgb;
} rgb8_args;

static void run_rgb8(const wai_cores *c, void *arg) {
    const rgb8_args *a = arg;
    c->rgb8(a->rgb, a->planes, a->hw, 0, a->hw, 16);
}

typedef struct recon_args {
    const uint8_t *prev;
    const int16_t *r;
    uint8_t *out;
    size_t row, rows;
    int32_t q;
} recon_args;

/* A 720p frame's rows, in segments of 16 pixels (a block's width), each
 * kind in turn: the reconstruction the split frame step runs. */
static void run_recon(const wai_cores *c, void *arg) {
    const recon_args *a = arg;
    const size_t seg = 16 * 3;
    for (size_t y = 0; y + 1 < a->rows; y++) {
        const uint8_t *pa = a->prev + y * a->row, *pb = pa + a->row;
        for (size_t x = 0; x + seg + 3 <= a->row; x += seg)
            c->recon(a->out + y * a->row + x, pa + x, pb + x, (unsigned)(x / seg) & 3,
                     a->r + y * a->row + x, seg, a->q);
    }
}

/* The per-sample entries: the RGB8 step of a 512x768 picture (afrac 16,
 * values past both clamps), and the motion reconstruction of a 720p frame
 * at q 1 (i16 lanes) and q 300 (i32 lanes). */
static void bench_pixels(int reps) {
    const size_t hw = 512 * 768;
    int64_t *planes = malloc(sizeof(int64_t) * 3 * hw);
    uint8_t *rgb = malloc(3 * hw);
    for (size_t i = 0; i < 3 * hw; i++) planes[i] = rnd_range(-1024, (1 << 16) + 1024);
    rgb8_args ra = {planes, hw, rgb};
    report_pixel_levels("RGB8 step, 512x768 (3 planes into RGB):", run_rgb8, &ra, reps,
                        3.0 * (double)hw);
    const size_t row = 1280 * 3, rows = 720;
    uint8_t *prev = malloc(row * rows), *out = malloc(row * rows);
    int16_t *r = malloc(sizeof(int16_t) * row * rows);
    for (size_t i = 0; i < row * rows; i++) {
        prev[i] = (uint8_t)rnd_range(0, 255);
        r[i] = (int16_t)rnd_range(-6, 6);
    }
    recon_args qa = {prev, r, out, row, rows, 1};
    report_pixel_levels("motion reconstruction, 1280x720, q 1:", run_recon, &qa, reps,
                        (double)row * (rows - 1));
    qa.q = 300;
    report_pixel_levels("motion reconstruction, 1280x720, q 300:", run_recon, &qa, reps,
                        (double)row * (rows - 1));
    free(planes);
    free(rgb);
    free(prev);
    free(out);
    free(r);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    if (reps < 1) reps = 1;
    /* Input range [-xr, xr]: 2^18 by default (afrac 16 activations). */
    int64_t xrange = argc > 2 ? atoll(argv[2]) : (int64_t)1 << 18;
    /* Weight range [-wr, wr]. */
    int64_t wrange = argc > 3 ? atoll(argv[3]) : 600;
    const uint32_t cin = 128, cout = 128, k = 5, s = 2, pad = 2, opad = 1, h = 64, w = 96;
    uint32_t uh, uw, oh, ow;
    wai_conv_t_sides(h, k, s, pad, opad, &uh, &oh);
    wai_conv_t_sides(w, k, s, pad, opad, &uw, &ow);

    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = WAI_LAYER_CONV_T;
    l.cin = cin, l.cout = cout, l.k = k, l.stride = s, l.pad = pad, l.opad = opad;
    l.n_weights = (uint64_t)cin * cout * k * k;
    l.weights = malloc(sizeof(int16_t) * l.n_weights);
    l.mult = malloc(sizeof(int64_t) * cout);
    l.bias = malloc(sizeof(int64_t) * cout);
    /* Weights as a 12-bit quantiser leaves them: mostly small. */
    for (size_t i = 0; i < l.n_weights; i++) l.weights[i] = (int16_t)rnd_range(-wrange, wrange);
    for (uint32_t o = 0; o < cout; o++) {
        l.mult[o] = rnd_range(1 << 14, 1 << 16);
        l.bias[o] = rnd_range(-(1 << 16), 1 << 16);
    }
    uint32_t shift = 30;
    uint64_t *sums = malloc(sizeof(uint64_t) * cout);
    wai_layer_param_sums(&l, 2, sums);

    size_t n_in = (size_t)cin * h * w, n_out = (size_t)cout * oh * ow;
    int64_t *x = malloc(sizeof(int64_t) * n_in), *y0 = malloc(sizeof(int64_t) * n_out),
            *y1 = malloc(sizeof(int64_t) * n_out),
            *scr = malloc(sizeof(int64_t) * (size_t)cout * uh * uw);
    for (size_t i = 0; i < n_in; i++) x[i] = rnd_range(-xrange, xrange);
    double macs = (double)n_in * cout * k * k;
    uint64_t smax = 0;
    for (uint32_t o = 0; o < cout; o++) smax = sums[o] > smax ? sums[o] : smax;
    uint64_t a = wai_max_abs_i64(x, n_in);
    printf("conv_t2d %u->%u k%u s%u on [%u,%u,%u] -> [%u,%u,%u]: %.2f GMAC, A = %llu, "
           "A*maxS = %llu\n",
           cin, cout, k, s, cin, h, w, cout, oh, ow, macs / 1e9, (unsigned long long)a,
           (unsigned long long)(a * smax));

    /* The CPU's loops, as a context fills them; then each lower level's. */
    wai_cores best_cores;
    wai_cores_init(&best_cores, wai_cpu_isa());
    const wai_exec ex = {.cores = &best_cores};
    uint64_t t0 = now_ns();
    wai_status st0 = wai_conv_t2d_ref(&l, sums, shift, x, h, w, scr, y0, oh, ow);
    uint64_t ref_ns = now_ns() - t0, best = UINT64_MAX;
    wai_status st1 = WAI_ok;
    for (int r = 0; r < reps; r++) {
        t0 = now_ns();
        st1 = wai_conv_t2d_fast(&ex, &l, sums, shift, x, h, w, scr, y1, oh, ow);
        uint64_t d = now_ns() - t0;
        if (d < best) best = d;
    }
    report("reference", ref_ns, macs);
    report("fast", best, macs);
    t2d_args targs = {&l, sums, shift, h, w, oh, ow, x, scr, y1};
    report_levels(run_t2d, &targs, reps, macs);
    printf("  status %d/%d, outputs %s, speedup %.1fx\n", (int)st0, (int)st1,
           st0 == st1 && memcmp(y0, y1, sizeof(int64_t) * n_out) == 0 ? "identical" : "DIFFER",
           (double)ref_ns / (double)best);

    /* The inverse GDN on the layer's output. */
    wai_layer g;
    memset(&g, 0, sizeof g);
    g.kind = WAI_LAYER_IGDN;
    g.c = cout;
    g.gamma = malloc(sizeof(int32_t) * cout * cout);
    g.beta = malloc(sizeof(int64_t) * cout);
    for (size_t i = 0; i < (size_t)cout * cout; i++) g.gamma[i] = (int32_t)rnd_range(0, 1 << 12);
    for (uint32_t i = 0; i < cout; i++) g.beta[i] = (int64_t)1 << 32;
    uint64_t *gs = malloc(sizeof(uint64_t) * cout);
    wai_layer_param_sums(&g, 2, gs);
    size_t pos = (size_t)oh * ow;
    int64_t *z0 = malloc(sizeof(int64_t) * n_out), *z1 = malloc(sizeof(int64_t) * n_out);
    for (size_t i = 0; i < n_out; i++) y0[i] = rnd_range(-xrange, xrange);
    double gmacs = (double)n_out * cout;
    printf("igdn c %u on %zu positions: %.2f GMAC\n", cout, pos, gmacs / 1e9);
    t0 = now_ns();
    st0 = wai_igdn_ref(&g, gs, 16, 16, y0, pos, z0);
    ref_ns = now_ns() - t0, best = UINT64_MAX;
    for (int r = 0; r < reps; r++) {
        t0 = now_ns();
        st1 = wai_igdn_fast(&ex, &g, gs, 16, 16, y0, pos, z1);
        uint64_t d = now_ns() - t0;
        if (d < best) best = d;
    }
    report("reference", ref_ns, gmacs);
    report("fast", best, gmacs);
    igdn_args gargs = {&g, gs, y0, pos, z1};
    report_levels(run_igdn, &gargs, reps, gmacs);
    printf("  status %d/%d, outputs %s, speedup %.1fx\n", (int)st0, (int)st1,
           st0 == st1 && memcmp(z0, z1, sizeof(int64_t) * n_out) == 0 ? "identical" : "DIFFER",
           (double)ref_ns / (double)best);
    bench_t1d(reps, xrange, wrange, &ex);
    bench_dot(reps);
    bench_pixels(reps);
    return 0;
}
