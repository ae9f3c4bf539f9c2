/* SPDX-License-Identifier: BSD-2-Clause */
/* Issue 4's synthesis benchmark: a bmshj2018-factorized-shaped integer
 * synthesis (192 -> 128 -> 128 -> 128 -> 3, four 5x5 stride-2 transposed
 * convolutions, pad 2, output padding 1, an inverse GDN between each two)
 * from a [192, 32, 48] latent to a 512x768 image: libwai on 1 thread and
 * on --threads (default 0: one per core), the float peers on 1.
 *
 * libwai: the model comes from the synthetic generator (tests/gen/netgen.h),
 * so the timings say nothing about a trained network's weights, only about
 * its shapes and the magnitudes netgen aims at. Timed:
 *   - the whole network through wai_network_run with wai_kernels_fast
 *     (best of --reps), and the RGB8 step on its output;
 *   - the same through wai_network_run_ws with one workspace kept across
 *     the runs (no allocation, no first touch of fresh pages);
 *   - the same layers one by one through the same kernel table, so the
 *     transposed convolutions can be set against the float peers, which
 *     time only those (the per-layer output is checked equal to the
 *     network run's, so both paths did the same work);
 *   - wai_kernels_ref once: the first layer is timed first, and the whole
 *     network runs only when the MAC-scaled estimate from it stays under
 *     --ref-limit seconds (default 180).
 * oneDNN (when built with WAI_BENCH_HAVE_DNNL): the four deconvolutions in
 * float32, each primitive timed on its own (best of --reps), formats left
 * to oneDNN (format_tag_any) and the reorders into them not timed. Threads
 * come from the runtime: run with OMP_NUM_THREADS=1 (the driver does).
 *
 *   wai_bench_synthesis [--reps N] [--threads N] [--afrac A] [--ref-limit S]
 *                       [--no-ref] [--no-dnnl] [--raw]
 *
 * --raw prints "key value" lines (ms, MACs) for bench/bench_synthesis.sh. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/netgen.h"
#include "common/pool.h"
#include "ops/cores.h"
#include "ops/cpu.h"
#include "formats/whm1.h"
#include "ops/layers.h"
#include "ops/layers_fast.h"
#include "ops/model.h"
#include "ops/network.h"
#include "ops/plan.h"

#ifdef WAI_BENCH_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#define CIN 192u
#define CMID 128u
#define COUT 3u
#define NCONVT 4u
#define LH 32u
#define LW 48u

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int g_raw;

/* One result line: human-readable, or "key ms macs" for the driver. */
static void report(const char *key, const char *what, double sec, double macs) {
    if (g_raw)
        printf("%s %.3f %.0f\n", key, sec * 1e3, macs);
    else if (macs > 0)
        printf("  %-46s %10.2f ms  %7.2f GMAC/s\n", what, sec * 1e3, macs / sec / 1e9);
    else
        printf("  %-46s %10.2f ms\n", what, sec * 1e3);
}

/* Runs m layer by layer with k, as wai_network_run does, adding each
 * layer's time to t[i]; the last output lands in *out (one of the two
 * buffers). */
static wai_status run_layers(const wai_exec *ex, const wai_kernels *k, const wai_model *m,
                             const wai_sums *s, const wai_plan *p, const int64_t *in,
                             int64_t *buf0, int64_t *buf1, int64_t *scratch, double *t,
                             const int64_t **out) {
    const int64_t *x = in;
    int64_t *y = buf0;
    for (uint32_t i = 0; i < p->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        const wai_plan_layer *pl = &p->layers[i];
        const uint64_t *sums = s->layers[i].sums;
        wai_status st;
        /* Threaded, the inverse GDN runs in place as in the runner (its
         * threaded form): the copy onto its output is not timed. */
        int inplace = pl->kind == WAI_LAYER_IGDN && wai_exec_threads(ex) > 1;
        if (inplace) memcpy(y, x, (size_t)pl->in_elems * sizeof *y);
        double t0 = now_s();
        if (pl->kind == WAI_LAYER_CONV_T)
            st = k->conv_t2d(ex, l, sums, m->shift, x, pl->in_h, pl->in_w, scratch, y, pl->out_h,
                             pl->out_w);
        else if (inplace)
            st = wai_igdn_fast_inplace(ex, l, sums, m->gf, m->afrac, y,
                                       (size_t)pl->in_h * pl->in_w);
        else if (pl->kind == WAI_LAYER_IGDN)
            st = k->igdn(ex, l, sums, m->gf, m->afrac, x, (size_t)pl->in_h * pl->in_w, y);
        else
            return WAI_invalid_argument; /* netgen_bmshj makes no other kind */
        t[i] += now_s() - t0;
        if (st != WAI_ok) return st;
        x = y;
        y = (y == buf0) ? buf1 : buf0;
    }
    *out = x;
    return WAI_ok;
}

#ifdef WAI_BENCH_HAVE_DNNL
#define DNNL_CHECK(call)                                                              \
    do {                                                                              \
        dnnl_status_t st_ = (call);                                                   \
        if (st_ != dnnl_success) {                                                    \
            fprintf(stderr, "oneDNN: %s failed (%d)\n", #call, (int)st_);             \
            return -1.0;                                                              \
        }                                                                             \
    } while (0)

static float frand(uint64_t *state, float range) {
    return (float)((double)(netgen_next(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0) * range;
}

/* A memory object of md (oneDNN-chosen layout), filled through a reorder
 * from a plain buffer of random floats in [-range, range]. */
static int dnnl_filled(dnnl_engine_t eng, dnnl_stream_t strm, const dnnl_memory_desc_t *md,
                       int ndims, const dnnl_dims_t dims, dnnl_format_tag_t plain_tag,
                       uint64_t *state, float range, dnnl_memory_t *out) {
    dnnl_memory_desc_t plain_md;
    if (dnnl_memory_desc_init_by_tag(&plain_md, ndims, dims, dnnl_f32, plain_tag) != dnnl_success)
        return -1;
    size_t n = dnnl_memory_desc_get_size(&plain_md) / sizeof(float);
    float *buf = malloc(n * sizeof(float));
    if (!buf) return -1;
    for (size_t i = 0; i < n; i++) buf[i] = frand(state, range);
    dnnl_memory_t plain;
    if (dnnl_memory_create(&plain, &plain_md, eng, buf) != dnnl_success) return -1;
    if (dnnl_memory_create(out, md, eng, DNNL_MEMORY_ALLOCATE) != dnnl_success) return -1;
    dnnl_primitive_desc_t rpd;
    dnnl_primitive_t r;
    if (dnnl_reorder_primitive_desc_create(&rpd, &plain_md, eng, md, eng, NULL) != dnnl_success)
        return -1;
    if (dnnl_primitive_create(&r, rpd) != dnnl_success) return -1;
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, plain}, {DNNL_ARG_TO, *out}};
    if (dnnl_primitive_execute(r, strm, 2, args) != dnnl_success) return -1;
    dnnl_stream_wait(strm);
    dnnl_primitive_destroy(r);
    dnnl_primitive_desc_destroy(rpd);
    dnnl_memory_destroy(plain);
    free(buf);
    return 0;
}

/* The four float32 deconvolutions, each timed alone (best of reps after one
 * warm-up); the sum of the bests in seconds, or a negative value on error.
 * t[i] gets layer i's best. */
static double bench_dnnl(int reps, double *t, const char **impl_name) {
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    DNNL_CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
    DNNL_CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
    uint64_t state = 0xd22f;
    double total = 0;
    dnnl_dim_t c = CIN, h = LH, w = LW;
    for (uint32_t i = 0; i < NCONVT; i++) {
        dnnl_dim_t oc = (i + 1 == NCONVT) ? COUT : CMID, oh = 2 * h, ow = 2 * w;
        dnnl_dims_t sd = {1, c, h, w}, wd = {oc, c, 5, 5}, bd = {oc}, dd = {1, oc, oh, ow};
        /* PyTorch's ConvTranspose2d(k 5, s 2, p 2, output_padding 1) gives
         * 2n: in oneDNN terms (n-1)*2 - l - r + 5 = 2n, so l = 2, r = 1. */
        dnnl_dims_t strides = {2, 2}, pad_l = {2, 2}, pad_r = {1, 1};
        dnnl_memory_desc_t smd, wmd, bmd, dmd;
        DNNL_CHECK(dnnl_memory_desc_init_by_tag(&smd, 4, sd, dnnl_f32, dnnl_format_tag_any));
        DNNL_CHECK(dnnl_memory_desc_init_by_tag(&wmd, 4, wd, dnnl_f32, dnnl_format_tag_any));
        DNNL_CHECK(dnnl_memory_desc_init_by_tag(&bmd, 1, bd, dnnl_f32, dnnl_x));
        DNNL_CHECK(dnnl_memory_desc_init_by_tag(&dmd, 4, dd, dnnl_f32, dnnl_format_tag_any));
        dnnl_deconvolution_desc_t desc;
        DNNL_CHECK(dnnl_deconvolution_forward_desc_init(&desc, dnnl_forward_inference,
                                                        dnnl_deconvolution_direct, &smd, &wmd,
                                                        &bmd, &dmd, strides, pad_l, pad_r));
        dnnl_primitive_desc_t pd;
        DNNL_CHECK(dnnl_primitive_desc_create(&pd, &desc, NULL, eng, NULL));
        const char *name = NULL;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        if (i == 2 && name) impl_name[0] = name; /* the 10-GMAC layer's kernel */
        dnnl_memory_t src, wei, bia, dst;
        if (dnnl_filled(eng, strm, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), 4, sd,
                        dnnl_nchw, &state, 1.0f, &src) ||
            dnnl_filled(eng, strm, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), 4,
                        wd, dnnl_oihw, &state, 0.05f, &wei) ||
            dnnl_filled(eng, strm, &bmd, 1, bd, dnnl_x, &state, 0.1f, &bia))
            return -1.0;
        DNNL_CHECK(dnnl_memory_create(&dst, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0),
                                      eng, DNNL_MEMORY_ALLOCATE));
        dnnl_primitive_t prim;
        DNNL_CHECK(dnnl_primitive_create(&prim, pd));
        dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, src},
                                   {DNNL_ARG_WEIGHTS, wei},
                                   {DNNL_ARG_BIAS, bia},
                                   {DNNL_ARG_DST, dst}};
        double best = 1e300;
        for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
            double t0 = now_s();
            DNNL_CHECK(dnnl_primitive_execute(prim, strm, 4, args));
            DNNL_CHECK(dnnl_stream_wait(strm));
            double d = now_s() - t0;
            if (r >= 0 && d < best) best = d;
        }
        t[i] = best;
        total += best;
        dnnl_primitive_destroy(prim);
        dnnl_primitive_desc_destroy(pd);
        dnnl_memory_destroy(src);
        dnnl_memory_destroy(wei);
        dnnl_memory_destroy(bia);
        dnnl_memory_destroy(dst);
        c = oc, h = oh, w = ow;
    }
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
    return total;
}
#endif

/* What the fast-kernel timings share. */
typedef struct fast_bench {
    const wai_model *m;
    const wai_sums *s;
    const wai_plan *p;
    const int64_t *x;
    int64_t *y, *b0, *b1, *scr;
    uint8_t *rgb;
    double *tl, *tbest;
    size_t n_out;
    double macs, macs_convt;
    int reps;
} fast_bench;

/* The fast kernels on nthr threads: the whole network (fresh and with a
 * kept workspace), the RGB8 step and the layers one by one; keys end in
 * sfx, labels say the thread count. 0, or 1 on a refusal. */
static int run_fast_on(fast_bench *fb, const wai_exec *exp, const char *sfx) {
    const unsigned nthr = wai_exec_threads(exp);
    const wai_model *m = fb->m;
    const wai_sums *s = fb->s;
    const wai_plan *p = fb->p;
    const int reps = fb->reps;
    const double macs = fb->macs, macs_convt = fb->macs_convt;
    const size_t n_out = fb->n_out;
    const wai_exec ex = *exp;
    char key[48], what[96];
    if (!g_raw) printf("  -- libwai fast kernels, %u thread%s --\n", nthr, nthr > 1 ? "s" : "");
    /* The whole network: one warm-up, best of reps. */
    double best = 1e300;
    for (int r = -1; r < reps; r++) {
        double t0 = now_s();
        wai_status st = wai_network_run_ex(&ex, &wai_kernels_fast, m, s, p, fb->x, fb->y);
        double d = now_s() - t0;
        if (st != WAI_ok) {
            fprintf(stderr, "wai_network_run (fast) refused: %d\n", (int)st);
            return 1;
        }
        if (r >= 0 && d < best) best = d;
    }
    snprintf(key, sizeof key, "wai_fast_network%s", sfx);
    report(key, "libwai fast, whole network", best, macs);

    /* The same with the working memory kept across runs (a decoder's
     * frames): allocation and the first touch of its pages left out. */
    {
        wai_network_ws ws;
        wai_network_ws_init(&ws, &ex);
        double wbest = 1e300;
        for (int r = -1; r < reps; r++) {
            double t0 = now_s();
            wai_status st = wai_network_run_ws(&ws, &wai_kernels_fast, m, s, p, fb->x, fb->y);
            double d = now_s() - t0;
            if (st != WAI_ok) {
                fprintf(stderr, "wai_network_run_ws (fast) refused: %d\n", (int)st);
                return 1;
            }
            if (r >= 0 && d < wbest) wbest = d;
        }
        wai_network_ws_free(&ws);
        snprintf(key, sizeof key, "wai_fast_network_ws%s", sfx);
        report(key, "libwai fast, whole network, workspace kept", wbest, macs);
    }

    /* RGB8 step on the output (what a decoder does next; one thread). */
    double rbest = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (size_t i = 0; i < n_out; i++) fb->rgb[i] = wai_rgb8_step(fb->y[i], m->afrac);
        double d = now_s() - t0;
        if (d < rbest) rbest = d;
    }
    snprintf(key, sizeof key, "wai_rgb8%s", sfx);
    report(key, "libwai RGB8 step", rbest, 0);
    snprintf(key, sizeof key, "wai_fast_total%s", sfx);
    report(key, "libwai fast, network + RGB8", best + rbest, macs);
    {
        size_t lo = 0, hi = 0;
        for (size_t i = 0; i < n_out; i++) lo += fb->rgb[i] == 0, hi += fb->rgb[i] == 255;
        if (!g_raw)
            printf("    (RGB8 output: %.1f%% at 0, %.1f%% at 255)\n", 100.0 * lo / n_out,
                   100.0 * hi / n_out);
    }

    /* Layer by layer through the same table: best of reps per layer. */
    for (uint32_t i = 0; i < p->n_layers; i++) fb->tbest[i] = 1e300;
    const int64_t *lout = NULL;
    for (int r = 0; r < reps; r++) {
        memset(fb->tl, 0, p->n_layers * sizeof *fb->tl);
        if (run_layers(&ex, &wai_kernels_fast, m, s, p, fb->x, fb->b0, fb->b1, fb->scr, fb->tl,
                       &lout) != WAI_ok) {
            fprintf(stderr, "per-layer fast run refused\n");
            return 1;
        }
        for (uint32_t i = 0; i < p->n_layers; i++)
            if (fb->tl[i] < fb->tbest[i]) fb->tbest[i] = fb->tl[i];
    }
    double t_convt = 0, t_igdn = 0;
    for (uint32_t i = 0; i < p->n_layers; i++) {
        const wai_plan_layer *pl = &p->layers[i];
        int ct = pl->kind == WAI_LAYER_CONV_T;
        snprintf(key, sizeof key, "wai_fast_layer%u%s", i, sfx);
        snprintf(what, sizeof what, "  layer %u %s [%u,%u,%u]->[%u,%u,%u]", i,
                 ct ? "convT" : "IGDN ", pl->in_c, pl->in_h, pl->in_w, pl->out_c, pl->out_h,
                 pl->out_w);
        report(key, what, fb->tbest[i], (double)pl->macs);
        *(ct ? &t_convt : &t_igdn) += fb->tbest[i];
    }
    snprintf(key, sizeof key, "wai_fast_convt%s", sfx);
    report(key, "libwai fast, transposed convs only", t_convt, macs_convt);
    snprintf(key, sizeof key, "wai_fast_igdn%s", sfx);
    report(key, "libwai fast, inverse GDNs only", t_igdn, macs - macs_convt);
    int same = memcmp(lout, fb->y, n_out * sizeof *fb->y) == 0;
    if (g_raw)
        printf("layers_match_network%s %d\n", sfx, same);
    else
        printf("    (per-layer output %s the network run's)\n", same ? "equals" : "DIFFERS FROM");
    return 0;
}

/* run_fast_on with a pool of nthr threads, started before the timings (as
 * a context's is) and joined after them. */
static int run_fast(fast_bench *fb, unsigned nthr, const char *sfx) {
    wai_cores cores;
    wai_cores_init(&cores, wai_cpu_isa());
    wai_exec ex = {.cores = &cores};
    if (nthr > 1 && wai_pool_create(NULL, nthr, &ex.pool) != WAI_ok) return 1;
    int r = run_fast_on(fb, &ex, sfx);
    wai_pool_destroy(ex.pool);
    return r;
}

int main(int argc, char **argv) {
    int reps = 5, do_ref = 1, do_dnnl = 1;
    unsigned nthr = 0;
    uint32_t afrac = 12;
    double ref_limit = 180.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--afrac") && i + 1 < argc)
            afrac = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ref-limit") && i + 1 < argc)
            ref_limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            nthr = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-ref"))
            do_ref = 0;
        else if (!strcmp(argv[i], "--no-dnnl"))
            do_dnnl = 0;
        else if (!strcmp(argv[i], "--raw"))
            g_raw = 1;
        else {
            fprintf(stderr,
                    "usage: %s [--reps N] [--threads N] [--afrac A] [--ref-limit S] [--no-ref] "
                    "[--no-dnnl] [--raw]\n",
                    argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    nthr = wai_threads_resolve(nthr); /* 0: one per core, as a context's n_threads */

    wai_model m;
    wai_plan p;
    wai_sums s;
    if (netgen_bmshj(NULL, 0x5e7f, afrac, CIN, CMID, COUT, NCONVT, &m) != WAI_ok) {
        fprintf(stderr, "netgen_bmshj failed (afrac must be 8..16)\n");
        return 1;
    }
    if (wai_plan_model(NULL, &m, CIN, LH, LW, &p) != WAI_ok ||
        wai_sums_compute(NULL, &m, &s) != WAI_ok) {
        fprintf(stderr, "planning failed\n");
        return 1;
    }
    double macs = (double)p.macs, macs_convt = 0;
    for (uint32_t i = 0; i < p.n_layers; i++)
        if (p.layers[i].kind == WAI_LAYER_CONV_T) macs_convt += (double)p.layers[i].macs;

    size_t n_in = (size_t)CIN * LH * LW, n_out = (size_t)p.out_elems, n_buf = 0, n_scr = 0;
    for (uint32_t i = 0; i < p.n_layers; i++) {
        if (p.layers[i].out_elems > n_buf) n_buf = (size_t)p.layers[i].out_elems;
        if (p.layers[i].uncropped_elems > n_scr) n_scr = (size_t)p.layers[i].uncropped_elems;
    }
    int64_t *x = malloc(n_in * sizeof *x), *y = malloc(n_out * sizeof *y),
            *yr = malloc(n_out * sizeof *yr), *b0 = malloc(n_buf * sizeof *b0),
            *b1 = malloc(n_buf * sizeof *b1), *scr = malloc((n_scr ? n_scr : 1) * sizeof *scr);
    uint8_t *rgb = malloc(n_out);
    double *tl = calloc(p.n_layers, sizeof *tl), *tbest = malloc(p.n_layers * sizeof *tbest);
    if (!x || !y || !yr || !b0 || !b1 || !scr || !rgb || !tl || !tbest) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t st_in = 0x1a7e;
    netgen_input(&st_in, afrac, x, n_in);

    if (!g_raw)
        printf("bmshj2018-shaped synthesis %u->%u->%u->%u->%u on [%u,%u,%u] -> [%u,%u,%u], "
               "afrac %u: %.2f GMAC (%.2f in the transposed convolutions), 1 and %u threads\n",
               CIN, CMID, CMID, CMID, COUT, CIN, LH, LW, p.out_c, p.out_h, p.out_w, afrac,
               macs / 1e9, macs_convt / 1e9, nthr);
    /* The fast kernels' instruction set, detected per call by the library. */
    static const char *const isa_name[] = {"portable", "avx2", "avx512", "avx512bw",
                                           "avx512vnni"};
    int isa = wai_cpu_isa();
    if (g_raw)
        printf("macs_total %.0f\nmacs_convt %.0f\nwai_isa %s\n", macs, macs_convt,
               isa_name[isa]);
    else
        printf("  (libwai fast kernels: %s)\n", isa_name[isa]);

    /* The fast kernels on 1 thread, then on all (--threads). */
    fast_bench fb = {&m, &s, &p, x, y, b0, b1, scr, rgb, tl, tbest, n_out, macs, macs_convt, reps};
    if (run_fast(&fb, 1, "") != 0) return 1;
    if (nthr > 1) {
        int64_t *y1 = y;
        fb.y = yr; /* the threaded output, held to the 1-thread one */
        if (run_fast(&fb, nthr, "_mt") != 0) return 1;
        int same_mt = memcmp(yr, y1, n_out * sizeof *y) == 0;
        if (g_raw)
            printf("threads %u\nmt_matches_1thread %d\n", nthr, same_mt);
        else
            printf("    (%u-thread output %s the 1-thread output)\n", nthr,
                   same_mt ? "equals" : "DIFFERS FROM");
        fb.y = y1;
    }
    int same;

    /* Reference kernels: the first layer, then the whole network if the
     * estimate allows. */
    if (do_ref) {
        const wai_plan_layer *pl = &p.layers[0];
        double t0 = now_s();
        wai_status st = wai_kernels_ref.conv_t2d(NULL, &m.layers[0], s.layers[0].sums, m.shift, x,
                                                 pl->in_h, pl->in_w, scr, b0, pl->out_h,
                                                 pl->out_w);
        double t_ref0 = now_s() - t0;
        if (st != WAI_ok) {
            fprintf(stderr, "reference layer 0 refused: %d\n", (int)st);
            return 1;
        }
        report("wai_ref_layer0", "libwai reference, layer 0 (convT) only", t_ref0,
               (double)pl->macs);
        double est = t_ref0 * macs / (double)pl->macs;
        if (est < ref_limit) {
            t0 = now_s();
            st = wai_network_run(NULL, &wai_kernels_ref, &m, &s, &p, x, yr);
            double t_ref = now_s() - t0;
            if (st != WAI_ok) {
                fprintf(stderr, "reference network refused: %d\n", (int)st);
                return 1;
            }
            report("wai_ref_network", "libwai reference, whole network (1 run)", t_ref, macs);
            same = memcmp(yr, y, n_out * sizeof *y) == 0;
            if (g_raw)
                printf("ref_matches_fast %d\n", same);
            else
                printf("    (reference output %s the fast output)\n",
                       same ? "equals" : "DIFFERS FROM");
        } else if (!g_raw) {
            printf("    (whole reference network skipped: estimated %.0f s > %.0f s)\n", est,
                   ref_limit);
        } else {
            printf("wai_ref_estimate_s %.1f\n", est);
        }
    }

#ifdef WAI_BENCH_HAVE_DNNL
    if (do_dnnl) {
        double td[NCONVT];
        const char *impl = "?";
        double t = bench_dnnl(reps, td, &impl);
        if (t < 0) {
            fprintf(stderr, "oneDNN benchmark failed\n");
            return 1;
        }
        const char *omp = getenv("OMP_NUM_THREADS");
        if (!g_raw && (!omp || strcmp(omp, "1") != 0))
            printf("  (warning: OMP_NUM_THREADS is not 1; oneDNN may use several threads)\n");
        for (uint32_t i = 0; i < NCONVT; i++) {
            char key[32], what[64];
            snprintf(key, sizeof key, "dnnl_layer%u", i);
            snprintf(what, sizeof what, "  oneDNN f32 deconv %u", i);
            report(key, what, td[i], (double)p.layers[2 * i].macs);
        }
        report("dnnl_convt", "oneDNN f32, deconvolutions only", t, macs_convt);
        if (g_raw)
            printf("dnnl_impl %s\n", impl);
        else
            printf("    (oneDNN kernel on the 128->128 layers: %s)\n", impl);
    }
#else
    (void)do_dnnl;
    if (!g_raw) printf("  (oneDNN column not built: libdnnl/oneapi/dnnl/dnnl.h not found)\n");
#endif

    free(x), free(y), free(yr), free(b0), free(b1), free(scr), free(rgb), free(tl), free(tbest);
    wai_sums_free(NULL, &s);
    wai_plan_free(NULL, &p);
    wai_model_free(NULL, &m);
    return 0;
}
