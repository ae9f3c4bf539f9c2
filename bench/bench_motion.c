/* SPDX-License-Identifier: BSD-2-Clause */
/* Decode speed of integer motion video, on 1 thread and 2.
 *
 *   wai_bench_motion          the tables below
 *   wai_bench_motion --quick  smaller inputs (1 M symbols, 8 frames), for
 *                             profilers and smoke tests
 *
 * 1. rANS decode alone (E1, wai_rans_decode against one table with the
 *    motion decoder's full-resolution lookup), 16 M symbols a stream, drawn
 *    from the table's own distribution so the stream is near its entropy:
 *      peaked   n=19, a residual-like Laplacian, escapes ~0.1%
 *      wide     n=4097, a broad Laplacian over 4095 direct values
 *      escapes  n=19 with 2% of the symbols escaped (values outside the table)
 * 2. Whole WIV1 decode (keyframe 0) through the public decoder
 *    (wai_decoder_send + receive) of a synthetic 1280x720 clip of 30 frames:
 *    smooth moving content with noise, a panning background and an object
 *    moving against it, half-pel vectors on 16x16 blocks, coded at q=1 and
 *    q=8 by a small encoder here (exact reconstruction, the decoder's
 *    prediction), and checked against that reconstruction once; on a
 *    context of 1 thread and of 2 (the second reconstructs while the first
 *    runs the rANS chain, decode/motion_pipe.c). The same clip split into
 *    its WIF1 group (wai.video.int_motion.frame), frame by frame, likewise;
 *    and the frame step alone: reference, fast, two threads.
 *
 * Every figure is the best of REPS runs. Cycles: on x86-64 the time-stamp
 * counter (__rdtsc) around each run, its rate measured against
 * CLOCK_MONOTONIC and printed (with a constant-rate TSC these are reference
 * cycles at that rate, not core cycles when the core clocks up or down);
 * elsewhere ns times an assumed clock, WAI_BENCH_GHZ (default 3.0). */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode/motion.h"
#include "entropy/cdf.h"
#include "entropy/rans.h"
#include "formats/wiv1.h"
#include "wai/wai_decode.h"
#include "wai/wai_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define REPS 3
#define LOOKUP_BITS 16 /* what the motion decoder builds (int_motion.c) */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t ticks(void) {
#if HAVE_TSC
    return __rdtsc();
#else
    return 0;
#endif
}

/* Cycles per ns: the TSC's measured rate, or the assumed clock. */
static double g_ghz;

static void calibrate(void) {
#if HAVE_TSC
    /* Busy-wait 200 ms on the monotonic clock and count TSC ticks. */
    uint64_t t0 = now_ns(), c0 = ticks(), t1;
    while ((t1 = now_ns()) - t0 < 200000000u) {
    }
    uint64_t c1 = ticks();
    g_ghz = (double)(c1 - c0) / (double)(t1 - t0);
    printf("cycles: x86-64 TSC (__rdtsc), %.3f GHz measured against CLOCK_MONOTONIC over "
           "200 ms\n",
           g_ghz);
#else
    const char *e = getenv("WAI_BENCH_GHZ");
    g_ghz = e ? atof(e) : 3.0;
    if (g_ghz <= 0) g_ghz = 3.0;
    printf("cycles: ns x %.3f GHz, an assumed clock (WAI_BENCH_GHZ); no TSC on this target\n",
           g_ghz);
#endif
}

typedef struct timing {
    uint64_t ns;
    double cycles;
} timing;

_Noreturn static void die(const char *what) {
    fprintf(stderr, "wai_bench_motion: %s\n", what);
    exit(1);
}

static uint64_t g_rng = 0x243f6a8885a308d3u;

static uint64_t rnd64(void) {
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Folded into the output so no decode can be optimised away. */
static uint64_t g_sink;

/* ---- tables ------------------------------------------------------------- */

/* Frequencies (n-1 of them, escape last) to a CDF of n entries summing to
 * 2^16, every symbol at least 1. */
static void cdf_from_weights(const double *wt, uint32_t n, uint32_t *cdf) {
    uint32_t m = n - 1;
    double total = 0;
    for (uint32_t i = 0; i < m; i++) total += wt[i];
    uint32_t spare = WAI_CDF_TOTAL - m, used = 0, best = 0;
    cdf[0] = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t f = 1 + (uint32_t)(wt[i] / total * spare); /* truncates: >= 0 */
        if (used + f > WAI_CDF_TOTAL - (m - 1 - i)) f = WAI_CDF_TOTAL - (m - 1 - i) - used;
        used += f;
        cdf[i + 1] = used;
        if (wt[i] > wt[best]) best = i;
    }
    /* The rounding's remainder goes to the most likely symbol. */
    uint32_t rest = WAI_CDF_TOTAL - used;
    for (uint32_t i = best + 1; i <= m; i++) cdf[i] += rest;
    if (!wai_cdf_valid(cdf, n, WAI_CDF_T4097)) die("made an invalid table");
}

/* A two-sided geometric (discrete Laplacian) over the n-2 direct values,
 * centred at `centre`, each step away `ratio` times as likely, and the
 * escape at probability p_escape. (No libm: the bench links what the
 * library links.) */
static void laplace_table(uint32_t n, uint32_t centre, double ratio, double p_escape,
                          uint32_t *cdf) {
    double *wt = malloc((n - 1) * sizeof *wt), direct = 0, w = 1;
    if (!wt) die("out of memory");
    for (uint32_t d = 0; d <= centre || centre + d < n - 2; d++, w *= ratio) {
        if (d <= centre) wt[centre - d] = w;
        if (centre + d < n - 2) wt[centre + d] = w;
    }
    for (uint32_t i = 0; i + 2 < n; i++) direct += wt[i];
    wt[n - 2] = direct * p_escape / (1 - p_escape);
    cdf_from_weights(wt, n, cdf);
    free(wt);
}

/* Draws n_sym symbols from the table's distribution at offset o; an escape
 * becomes a value outside the table, up to 200 beyond either end. */
static void draw_symbols(const uint32_t *cdf, uint32_t n, int32_t o, int32_t *sym, size_t n_sym) {
    for (size_t i = 0; i < n_sym; i++) {
        uint64_t r = rnd64();
        uint32_t u = (uint32_t)(r & 0xffff), s = 0;
        uint32_t lo = 0, hi = n - 2;
        while (lo < hi) { /* the largest s with cdf[s] <= u */
            uint32_t mid = lo + (hi - lo + 1) / 2;
            if (cdf[mid] <= u) lo = mid;
            else hi = mid - 1;
        }
        s = lo;
        int32_t value = (int32_t)s;
        if (s == n - 2) {
            int32_t beyond = (int32_t)((r >> 16) % 200);
            value = (r >> 40) & 1 ? (int32_t)(n - 2) + beyond : -1 - beyond;
        }
        sym[i] = value + o;
    }
}

/* ---- 1. rANS alone -------------------------------------------------------- */

/* run = 0: wai_rans_decode on the decoder struct; run = 1: the state in
 * locals (wai_rans_local_decode), as the decoder's fast path holds it. */
static timing time_rans(const wai_cdf_table *t, int32_t o, const uint8_t *stream, size_t len,
                        size_t n_sym, int run) {
    timing best = {UINT64_MAX, 0};
    for (int rep = 0; rep < REPS; rep++) {
        wai_rans_dec d;
        uint64_t sum = 0;
        uint64_t t0 = now_ns(), c0 = ticks();
        wai_rans_dec_init(&d, stream, len);
        for (size_t i = 0; i < n_sym && !run; i++) {
            int32_t s;
            if (wai_rans_decode(&d, t, o, &s) != WAI_ok) die("stream ran out");
            sum += (uint32_t)s;
        }
        wai_rans_local l = wai_rans_local_load(&d);
        for (size_t i = 0; i < n_sym && run; i++) sum += (uint32_t)wai_rans_local_decode(&l, &d, t, o);
        if (run) {
            if (l.ran_out) die("stream ran out");
            wai_rans_local_store(&d, &l);
        }
        if (wai_rans_end_canonical(&d) != WAI_ok) die("stream not canonical");
        uint64_t c1 = ticks(), t1 = now_ns();
        g_sink += sum;
        if (t1 - t0 < best.ns) {
            best.ns = t1 - t0;
            best.cycles = HAVE_TSC ? (double)(c1 - c0) : (double)(t1 - t0) * g_ghz;
        }
    }
    if (best.ns == 0) best.ns = 1;
    return best;
}

/* The latency floor of a decode step: mask, one load of a slice's (freq -
 * 1, lo), the multiply-add and the renormalisation, nothing else (no
 * symbol, no escape check). own 0: 2^12 slices of 16 (16 KiB, in L1), each
 * its first symbol's (where a slice is mixed the states drift from the
 * decode's; only the chain's shape is timed). own 1: the table's own step
 * table, per slot where its slices of 16 are too often mixed (256 KiB: the
 * load is then an L2 hit, the floor the decoder's own table allows). The
 * words are the stream's, read around. */
static timing time_floor(const wai_cdf_table *t, const uint8_t *stream, size_t len, size_t n_sym,
                         int own) {
    enum { STEP_BITS = 12 };
    static uint32_t step16[1u << STEP_BITS];
    for (uint32_t i = 0; i < (1u << STEP_BITS); i++) {
        uint32_t s = t->bucket[i << (16 - STEP_BITS)], lo = t->cdf[s];
        step16[i] = (t->cdf[s + 1] - lo - 1) << 16 | lo;
    }
    const uint32_t *step = own && t->step ? t->step : step16;
    const unsigned shift = own && t->step ? 0 : 16 - STEP_BITS;
    size_t n_words = len / 4;
    timing best = {UINT64_MAX, 0};
    for (int rep = 0; rep < REPS; rep++) {
        uint64_t x = (uint64_t)wai_load_u32le(stream) << 32 | wai_load_u32le(stream + 4);
        size_t next = 2;
        uint64_t t0 = now_ns(), c0 = ticks();
        for (size_t i = 0; i < n_sym; i++) {
            uint32_t cum = (uint32_t)(x & 0xffff), e = step[cum >> shift];
            uint64_t hi = x >> 16;
            x = (uint64_t)(e >> 16) * hi + (hi + cum - (e & 0xffff));
            if (x < WAI_RANS_L) {
                x = x << 32 | wai_load_u32le(stream + 4 * next);
                next = next + 1 < n_words ? next + 1 : 0;
            }
        }
        uint64_t c1 = ticks(), t1 = now_ns();
        g_sink += x;
        if (t1 - t0 < best.ns) {
            best.ns = t1 - t0;
            best.cycles = HAVE_TSC ? (double)(c1 - c0) : (double)(t1 - t0) * g_ghz;
        }
    }
    if (best.ns == 0) best.ns = 1;
    return best;
}

static void print_header(void) {
    printf("%-10s %-36s %9s %8s %8s %8s %9s\n", "case", "input", "frames/s", "Msym/s", "ns/sym",
           "cyc/sym", "bits/sym");
}

/* frames 0: a row without frames/s (the rANS rows). */
static void print_row(const char *name, const char *input, double frames, double n_sym,
                      double bits, timing t) {
    double sec = (double)t.ns / 1e9;
    char fps[32] = "-";
    if (frames > 0) snprintf(fps, sizeof fps, "%.1f", frames / sec);
    printf("%-10s %-36s %9s %8.1f %8.2f %8.2f %9.3f\n", name, input, fps, n_sym / sec / 1e6,
           (double)t.ns / n_sym, t.cycles / n_sym, bits / n_sym);
}

static void bench_rans(size_t n_sym) {
    static const struct {
        const char *name, *shape;
        uint32_t n, centre;
        double ratio, p_escape;
    } cases[] = {
        {"peaked", "n=19 geometric r=0.5, esc 0.1%", 19, 8, 0.5, 0.001},
        {"wide", "n=4097 geometric r=0.9975, esc 0.1%", 4097, 2047, 0.9975, 0.001},
        {"escapes", "n=19 geometric r=0.5, esc 2%", 19, 8, 0.5, 0.02},
    };
    printf("\n== rANS decode alone (E1, %zu M symbols a stream, lookup bits %d, best of %d) ==\n",
           n_sym >> 20, LOOKUP_BITS, REPS);
    print_header();
    int32_t *sym = malloc(n_sym * sizeof *sym);
    uint32_t *cdf = malloc(WAI_CDF_MAX_LEN_T4097 * sizeof *cdf);
    if (!sym || !cdf) die("out of memory");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t n = cases[c].n;
        int32_t o = -(int32_t)cases[c].centre;
        laplace_table(n, cases[c].centre, cases[c].ratio, cases[c].p_escape, cdf);
        draw_symbols(cdf, n, o, sym, n_sym);
        wai_cdf_table t;
        if (wai_cdf_table_init(&t, NULL, cdf, n, LOOKUP_BITS) != WAI_ok) die("table");
        uint8_t *stream;
        size_t len;
        if (wai_rans_encode(NULL, &t, NULL, NULL, o, sym, n_sym, &stream, &len) != WAI_ok)
            die("encode");
        timing tm = time_rans(&t, o, stream, len, n_sym, 0);
        print_row(cases[c].name, cases[c].shape, 0, (double)n_sym, 8.0 * (double)len, tm);
        timing tr = time_rans(&t, o, stream, len, n_sym, 1);
        char run_name[32];
        snprintf(run_name, sizeof run_name, "%s local", cases[c].name);
        print_row(run_name, "same, state in locals (fast path)", 0, (double)n_sym,
                  8.0 * (double)len, tr);
        printf("%-10s locals / struct time: %.2f\n", "", (double)tr.ns / (double)tm.ns);
        timing tf = time_floor(&t, stream, len, n_sym, 0);
        print_row("  floor", "the step's chain alone (16-slot step table)", 0, (double)n_sym,
                  8.0 * (double)len, tf);
        printf("%-10s locals / floor time: %.2f\n", "", (double)tr.ns / (double)tf.ns);
        if (t.step) {
            /* The decoder's table is per slot: the floor with it too. */
            timing to = time_floor(&t, stream, len, n_sym, 1);
            print_row("  floor", "the same chain, the table's own (per slot)", 0, (double)n_sym,
                      8.0 * (double)len, to);
            printf("%-10s locals / that floor's time: %.2f\n", "", (double)tr.ns / (double)to.ns);
        }
        fflush(stdout);
        free(stream);
        wai_cdf_table_free(&t, NULL);
    }
    free(sym);
    free(cdf);
}

/* ---- 2. a synthetic clip, encoded here ----------------------------------------- */

#define BLOCK 16

typedef struct clip_spec {
    uint32_t w, h, n_frames, q;
} clip_spec;

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* floor(a / 2) for any sign, without relying on >> of a negative value. */
static int floor_half(int a) { return a >= 0 ? a / 2 : -((1 - a) / 2); }

/* The object: a rectangle that moves against the background. */
static int in_object(const clip_spec *s, uint32_t f, int y, int x) {
    int oy = (int)s->h / 3 + (int)f, ox = (int)s->w / 4 + 3 * (int)f;
    return y >= oy && y < oy + (int)s->h / 3 && x >= ox && x < ox + (int)s->w / 3;
}

/* A triangle wave of period p (> 0), 0..p/2, for any t. */
static int tri(int t, int p) {
    int m = ((t % p) + p) % p;
    return m < p / 2 ? m : p - m;
}

/* Source sample: smooth patterns (triangle waves, so no libm) sampled where
 * the content was at frame 0, in half-pel units (background pans 0.5 px
 * down and 1.5 px left a frame; the object moves 1 down and 3 right), plus a
 * little noise. */
static uint8_t source(const clip_spec *s, uint32_t f, int y, int x, int c) {
    int v, fy, fx;
    if (in_object(s, f, y, x)) {
        fy = 2 * y - 2 * (int)f;
        fx = 2 * x - 6 * (int)f;
        v = 40 + tri(fy + 17 * c, 120) * tri(fx - 9 * c, 90) / 20;
    } else {
        fy = 2 * y - (int)f;
        fx = 2 * x + 3 * (int)f;
        v = 30 + tri(fy + fx / 2 + 101 * c, 900) / 3 + tri(fx - 37 * c, 260) / 2 +
            tri(fx + fy, 140) / 4;
    }
    v += (int)(rnd64() % 5) - 2;
    return (uint8_t)clampi(v, 0, 255);
}

/* The decoder's prediction (integer-payloads §3), half-pel. */
static int predict(const uint8_t *prev, const clip_spec *s, int y, int x, int c, int dy, int dx) {
    int iy = y + floor_half(dy), fy = dy & 1, ix = x + floor_half(dx), fx = dx & 1;
    int hm = (int)s->h - 1, wm = (int)s->w - 1;
    size_t stride = (size_t)s->w * 3;
#define P(Y, X) prev[(size_t)clampi(Y, 0, hm) * stride + (size_t)clampi(X, 0, wm) * 3 + (size_t)c]
    if (!fy && !fx) return P(iy, ix);
    if (!fy) return (P(iy, ix) + P(iy, ix + 1) + 1) >> 1;
    if (!fx) return (P(iy, ix) + P(iy + 1, ix) + 1) >> 1;
    return (P(iy, ix) + P(iy, ix + 1) + P(iy + 1, ix) + P(iy + 1, ix + 1) + 2) >> 2;
#undef P
}

static int round_div(int a, int q) { return a >= 0 ? (a + q / 2) / q : -((-a + q / 2) / q); }

typedef struct encoded {
    uint8_t *payload;
    size_t len;
    uint8_t *recon;       /* every frame, what the decode must give */
    double stream_bits;
} encoded;

static void encode_clip(const clip_spec *s, encoded *e) {
    size_t frame = (size_t)s->w * s->h * 3, n_sym = frame * s->n_frames;
    uint32_t nbx = (s->w + BLOCK - 1) / BLOCK, nby = (s->h + BLOCK - 1) / BLOCK;
    size_t nb = (size_t)nbx * nby;
    int32_t *sym = malloc(n_sym * sizeof *sym);
    int16_t *mv = malloc((s->n_frames - 1) * nb * 2 * sizeof *mv);
    e->recon = malloc(n_sym);
    if (!sym || !mv || !e->recon) die("out of memory");
    for (uint32_t f = 0; f < s->n_frames; f++) {
        uint8_t *cur = e->recon + f * frame, *prev = cur - frame;
        int16_t *fv = f ? mv + (f - 1) * nb * 2 : NULL;
        /* Vectors in half-pels, pointing to where the block was: the
         * object's motion for a block whose centre is in it. */
        for (uint32_t b = 0; f && b < nb; b++) {
            int cy = (int)(b / nbx) * BLOCK + BLOCK / 2, cx = (int)(b % nbx) * BLOCK + BLOCK / 2;
            int obj = in_object(s, f, cy, cx);
            fv[2 * b] = (int16_t)(obj ? -2 : -1);
            fv[2 * b + 1] = (int16_t)(obj ? -6 : 3);
        }
        for (int y = 0; y < (int)s->h; y++) {
            for (int x = 0; x < (int)s->w; x++) {
                const int16_t *v = f ? fv + 2 * ((size_t)(y / BLOCK) * nbx + (size_t)(x / BLOCK)) : NULL;
                for (int c = 0; c < 3; c++) {
                    size_t i = ((size_t)y * s->w + (size_t)x) * 3 + (size_t)c;
                    int pred = f ? predict(prev, s, y, x, c, v[0], v[1]) : 128;
                    int r = round_div((int)source(s, f, y, x, c) - pred, (int)s->q);
                    sym[f * frame + i] = r;
                    cur[i] = (uint8_t)clampi(pred + r * (int)s->q, 0, 255);
                }
            }
        }
    }
    /* One table for the clip: the residuals' histogram over [-K, K], K the
     * largest |r|, so nothing escapes (a real encoder's table). */
    int32_t k = 0;
    for (size_t i = 0; i < n_sym; i++) k = abs(sym[i]) > k ? abs(sym[i]) : k;
    uint32_t n = 2 * (uint32_t)k + 3;
    double *wt = calloc(n - 1, sizeof *wt);
    uint32_t *cdf = malloc(n * sizeof *cdf);
    if (!wt || !cdf) die("out of memory");
    for (size_t i = 0; i < n_sym; i++) wt[sym[i] + k] += 1;
    cdf_from_weights(wt, n, cdf);
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, cdf, n, 12) != WAI_ok) die("table");
    uint8_t *stream;
    size_t len;
    if (wai_rans_encode(NULL, &t, NULL, NULL, -k, sym, n_sym, &stream, &len) != WAI_ok)
        die("encode clip");
    wai_wiv1_parts p;
    memset(&p, 0, sizeof p);
    p.mv_precision = 2;
    p.keyframe = 0;
    p.n_frames = s->n_frames;
    p.h = s->h;
    p.w = s->w;
    p.block = BLOCK;
    p.q = s->q;
    p.offset = -k;
    p.cdf = cdf;
    p.cdf_len = n;
    p.vectors = mv;
    p.stream = stream;
    p.stream_len = len;
    if (wai_wiv1_write(NULL, &p, &e->payload, &e->len) != WAI_ok) die("wiv1 write");
    e->stream_bits = 8.0 * (double)len;
    wai_cdf_table_free(&t, NULL);
    free(stream);
    free(cdf);
    free(wt);
    free(mv);
    free(sym);
}

/* One decode through the public API; checks the frames when `check`. */
static timing decode_clip(const clip_spec *s, const encoded *e, int check, unsigned nthr) {
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    wai_settings set;
    wai_settings_default(&set);
    set.n_threads = nthr;
    if (wai_context_create(&set, &ctx) != WAI_ok || wai_decoder_create(ctx, &cfg, &dec) != WAI_ok)
        die("decoder");
    size_t frame = (size_t)s->w * s->h * 3;
    uint64_t t0 = now_ns(), c0 = ticks();
    wai_status st = wai_decoder_send(dec, e->payload, e->len, NULL);
    if (st != WAI_ok) {
        fprintf(stderr, "refused: %s\n", wai_status_name(st));
        die("decode refused");
    }
    uint32_t got = 0;
    for (;;) {
        wai_output o;
        if (wai_decoder_receive(dec, &o) != WAI_ok) die("receive");
        if (o.kind == WAI_OUTPUT_NONE) break;
        g_sink += o.data[o.size / 2];
        if (check && (o.size != frame || memcmp(o.data, e->recon + got * frame, frame) != 0))
            die("decoded frame differs from the encoder's reconstruction");
        got++;
    }
    uint64_t c1 = ticks(), t1 = now_ns();
    if (got != s->n_frames) die("frame count");
    wai_decoder_destroy(dec);
    wai_context_destroy(ctx);
    timing t = {t1 - t0 ? t1 - t0 : 1, 0};
    t.cycles = HAVE_TSC ? (double)(c1 - c0) : (double)t.ns * g_ghz;
    return t;
}

/* The clip as its WIF1 group, each frame sent and received in turn. */
static timing decode_group(const wai_payload *group, uint32_t n, unsigned nthr) {
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_motion.frame";
    wai_settings set;
    wai_settings_default(&set);
    set.n_threads = nthr;
    if (wai_context_create(&set, &ctx) != WAI_ok || wai_decoder_create(ctx, &cfg, &dec) != WAI_ok)
        die("decoder");
    uint64_t t0 = now_ns(), c0 = ticks();
    for (uint32_t i = 0; i < n; i++) {
        if (wai_decoder_send(dec, group[i].data, group[i].len, NULL) != WAI_ok) die("frame refused");
        wai_output o;
        if (wai_decoder_receive(dec, &o) != WAI_ok || o.kind == WAI_OUTPUT_NONE) die("receive");
        g_sink += o.data[o.size / 2];
    }
    uint64_t c1 = ticks(), t1 = now_ns();
    wai_decoder_destroy(dec);
    wai_context_destroy(ctx);
    timing t = {t1 - t0 ? t1 - t0 : 1, 0};
    t.cycles = HAVE_TSC ? (double)(c1 - c0) : (double)t.ns * g_ghz;
    return t;
}

/* The frame step alone on a parsed clip: mode 0 the reference, 1 the fast
 * path, 2 the two-thread path (the differential test holds their bytes
 * equal). */
static timing time_frame_steps(const encoded *e, int fast) {
    wai_wiv1 v;
    if (wai_wiv1_parse(e->payload, e->len, 0, &v) != WAI_ok) die("parse");
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_from_bytes(cdf, v.cdf, v.cdf_len);
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, cdf, v.cdf_len, 16) != WAI_ok) die("table");
    size_t fb = (size_t)v.h * v.w * 3;
    uint8_t *frames = malloc(fb * v.n_frames);
    if (!frames) die("out of memory");
    memset(frames, 0, fb * v.n_frames); /* page in before timing */
    wai_pool *pool = NULL;
    if (fast == 2 && wai_pool_create(NULL, 2, &pool) != WAI_ok) die("pool");
    wai_motion_frame f = {v.h, v.w, &t, v.offset, v.q, NULL, NULL, v.block, v.nbx, v.mv_precision, NULL};
    wai_rans_dec d;
    wai_rans_dec_init(&d, v.residual.bytes, v.residual.len);
    uint64_t t0 = now_ns(), c0 = ticks();
    for (uint32_t i = 0; i < v.n_frames; i++) {
        if (i) {
            f.prev = frames + (i - 1) * fb;
            f.vectors = v.vectors + 4 * (size_t)(i - 1) * v.nb;
        }
        wai_status st = fast == 2 ? wai_decode_motion_frame_threads(&f, &d, pool, NULL, frames + i * fb)
                        : fast ? wai_decode_motion_frame_fast(&f, &d, frames + i * fb)
                               : wai_decode_motion_frame_ref(&f, &d, frames + i * fb);
        if (st != WAI_ok) die("frame step");
    }
    uint64_t c1 = ticks(), t1 = now_ns();
    wai_pool_destroy(pool);
    if (wai_rans_end_canonical(&d) != WAI_ok) die("end");
    g_sink += frames[fb * v.n_frames / 2];
    free(frames);
    wai_cdf_table_free(&t, NULL);
    timing tm = {t1 - t0 ? t1 - t0 : 1, 0};
    tm.cycles = HAVE_TSC ? (double)(c1 - c0) : (double)tm.ns * g_ghz;
    return tm;
}

static timing best_frame_steps(const encoded *e, int fast) {
    timing best = time_frame_steps(e, fast);
    for (int rep = 1; rep < REPS; rep++) {
        timing t = time_frame_steps(e, fast);
        if (t.ns < best.ns) best = t;
    }
    return best;
}

static void bench_clips(uint32_t n_frames) {
    printf("\n== WIV1 decode, keyframe 0, public API (1280x720, %u frames, half-pel, "
           "block %d, best of %d) ==\n",
           n_frames, BLOCK, REPS);
    print_header();
    const uint32_t qs[] = {1, 8};
    for (size_t i = 0; i < 2; i++) {
        clip_spec s = {1280, 720, n_frames, qs[i]};
        encoded e;
        encode_clip(&s, &e);
        double n_sym = (double)s.w * s.h * 3 * s.n_frames;
        wai_payload *group = NULL;
        uint32_t n_group = 0;
        if (wai_wiv1_split(NULL, e.payload, e.len, &group, &n_group) != WAI_ok) die("split");
        timing by[2][2];
        for (unsigned nthr = 1; nthr <= 2; nthr++) {
            timing best = decode_clip(&s, &e, 1, nthr);
            timing bg = decode_group(group, n_group, nthr);
            for (int rep = 1; rep < REPS; rep++) {
                timing t = decode_clip(&s, &e, 0, nthr);
                if (t.ns < best.ns) best = t;
                t = decode_group(group, n_group, nthr);
                if (t.ns < bg.ns) bg = t;
            }
            by[nthr - 1][0] = best;
            by[nthr - 1][1] = bg;
            char name[24], shape[64];
            snprintf(name, sizeof name, "clip q=%u", s.q);
            snprintf(shape, sizeof shape, "%u thread%s, %zu bytes, %.3f bits/px", nthr,
                     nthr > 1 ? "s" : "", e.len,
                     8.0 * (double)e.len / ((double)s.w * s.h * s.n_frames));
            print_row(name, shape, s.n_frames, n_sym, e.stream_bits, best);
            snprintf(name, sizeof name, "WIF1 q=%u", s.q);
            snprintf(shape, sizeof shape, "%u thread%s, the clip's group", nthr,
                     nthr > 1 ? "s" : "");
            print_row(name, shape, s.n_frames, n_sym, e.stream_bits, bg);
        }
        wai_payloads_free(NULL, group, n_group);
        timing ref = best_frame_steps(&e, 0), fast = best_frame_steps(&e, 1);
        timing two = best_frame_steps(&e, 2);
        print_row("  steps ref", "frame step, plain reference path", s.n_frames, n_sym,
                  e.stream_bits, ref);
        print_row("  steps fast", "frame step, fast path", s.n_frames, n_sym, e.stream_bits,
                  fast);
        print_row("  steps 2t", "frame step, two threads", s.n_frames, n_sym, e.stream_bits,
                  two);
        printf("%-10s fast / reference time: %.2f; 1 -> 2 threads: clip %.2fx, WIF1 %.2fx, "
               "frame step %.2fx\n",
               "", (double)fast.ns / (double)ref.ns, (double)by[0][0].ns / (double)by[1][0].ns,
               (double)by[0][1].ns / (double)by[1][1].ns, (double)fast.ns / (double)two.ns);
        fflush(stdout);
        free(e.payload);
        free(e.recon);
    }
}

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (argc > 1 && !quick) {
        fprintf(stderr, "usage: wai_bench_motion [--quick]\n");
        return 2;
    }
    calibrate();
    bench_rans(quick ? (size_t)1 << 20 : (size_t)16 << 20);
    bench_clips(quick ? 8 : 30);
    printf("\n(checksum %016llx)\n", (unsigned long long)g_sink);
    return 0;
}
