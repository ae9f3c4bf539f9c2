/* SPDX-License-Identifier: BSD-2-Clause */
/* Issue 5's decode benchmark: a WIH1 of bmshj2018/mbt2018 shapes decoded to
 * a 512x768 RGB8 image through the public decoder, and its parts.
 *
 *   h_s: mbt2018-like hyper synthesis, z [128, 8, 12] -> [384, 32, 48]
 *        (sigma and mu of a 192-channel latent)
 *   g_s: bmshj2018-like synthesis, y [192, 32, 48] -> [3, 512, 768]
 *   entropy.json: 64 scale edges, tables of 33 entries; 128 hyper tables
 *
 * The networks come from the synthetic generator (tests/gen/netgen.h), so
 * the figures say nothing of a trained codec's weights, only of its shapes.
 * Timed (best of --reps): the whole decode (wai_decoder_send), h_s alone
 * and g_s alone (wai_network_run with the fast kernels on the decode's own
 * tensors) and the entropy decode alone (the two streams against the
 * set's tables, as src/decode/int_hyper.c reads them). No "rest" is
 * printed: the parts are best-of times taken apart, and their difference
 * from the whole is within their noise. All of it on 1 thread, then on
 * --threads (default 0: one per core; the decode through a context with
 * that n_threads).
 *
 *   wai_bench_decode_neural [--reps N] [--threads N] [--write DIR]
 *
 * --write DIR writes the set's members and the payload (DIR/image.wih1)
 * and does not time: the inputs of the browser benchmark (bench/bench_web.mjs). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/context.h"
#include "common/pool.h"
#include "decode/codec.h"
#include "decode/int_hyper.h"
#include "entropy/latents.h"
#include "entropy/rans.h"
#include "formats/whm1.h"
#include "formats/wih1.h"
#include "gen/netgen.h"
#include "ops/layers.h"
#include "ops/network.h"
#include "sets/entropy_json.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"
#include "gen/set_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

#define AFRAC 10u
#define NZ 128u
#define ZH 8u
#define ZW 12u
#define M 192u
#define SH 32u
#define SW 48u
#define N_EDGES 64u
#define TABLE_LEN 33u

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static _Noreturn void die(const char *what) {
    fprintf(stderr, "wai_bench_decode_neural: %s\n", what);
    exit(1);
}

static uint64_t g_rng = 512768;

/* A table peaked at its middle entry, as a trained prior's is. */
static void peaked_cdf(uint32_t *cdf, uint32_t n) {
    uint32_t mid = n / 2, total = 0, w[4097];
    for (uint32_t i = 0; i + 1 < n; i++) {
        uint32_t d = i > mid ? i - mid : mid - i;
        w[i] = 1 + 4000u / (1 + d * d);
        total += w[i];
    }
    uint32_t acc = 0;
    cdf[0] = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        acc += w[i];
        cdf[i + 1] = (uint32_t)((uint64_t)acc * (WAI_CDF_TOTAL - n) / total) + i + 1;
    }
    cdf[n - 1] = WAI_CDF_TOTAL;
}

/* A symbol of a peaked table: mostly near the middle. */
static int32_t symbol(int32_t offset, uint32_t n) {
    int32_t d = (int32_t)netgen_below(&g_rng, 5) - 2;
    if (netgen_below(&g_rng, 4) == 0) d = (int32_t)netgen_below(&g_rng, n - 2) - (int32_t)(n / 2);
    return offset + (int32_t)(n / 2) + d;
}

static void add_model(wai_set *set, const char *name, const wai_model *m) {
    uint8_t *b;
    size_t len;
    if (netgen_bytes(NULL, m, &b, &len) != WAI_ok || wai_set_add(set, name, b, len) != WAI_ok)
        die(name);
    wai_free(NULL, b);
}

typedef struct bench {
    wai_model hs, gs;
    wai_sums hs_sums, gs_sums;
    wai_plan hs_plan, gs_plan;
    int64_t *z, *hs_out, *y, *gs_out;
    uint8_t *payload;
    size_t len;
} bench;

/* The entropy tables, written into the set as entropy.json. */
static void tables(wai_set *set, wai_entropy_set *es, wai_entropy_table *lt, wai_entropy_table *zt,
                   int64_t *edges, int64_t *zmed, uint32_t *cdfs) {
    for (uint32_t i = 0; i < N_EDGES; i++) {
        edges[i] = ((int64_t)i + 1) << (AFRAC - 3); /* sigma from 1/8 up */
        lt[i] = (wai_entropy_table){TABLE_LEN, -(int32_t)(TABLE_LEN / 2), cdfs};
    }
    for (uint32_t k = 0; k < NZ; k++) {
        zt[k] = (wai_entropy_table){TABLE_LEN, -(int32_t)(TABLE_LEN / 2), cdfs};
        zmed[k] = 0;
    }
    peaked_cdf(cdfs, TABLE_LEN);
    *es = (wai_entropy_set){N_EDGES, edges, lt, NZ, zt, zmed, 0};
    uint8_t *json;
    size_t jl;
    if (wai_entropy_json_write(NULL, es, &json, &jl) != WAI_ok ||
        wai_set_add(set, "entropy.json", json, jl) != WAI_ok)
        die("entropy.json");
    wai_free(NULL, json);
}

static uint8_t *code(const wai_cdf_table *t, const int32_t *offsets, const int32_t *sym, size_t n,
                     size_t *len) {
    const wai_cdf_table **tabs = malloc(sizeof *tabs * n);
    if (!tabs) die("memory");
    for (size_t i = 0; i < n; i++) tabs[i] = t;
    uint8_t *out;
    if (wai_rans_encode(NULL, NULL, tabs, offsets, 0, sym, n, &out, len) != WAI_ok) die("encode");
    free(tabs);
    return out;
}

static void build(bench *b, wai_set *set) {
    if (netgen_mbt_hyper(NULL, 1, AFRAC, NZ, M, 2 * M, &b->hs) != WAI_ok ||
        netgen_bmshj(NULL, 2, AFRAC, M, 128, 3, 4, &b->gs) != WAI_ok)
        die("networks");
    add_model(set, "g_s.whm", &b->gs);
    add_model(set, "h_s.whm", &b->hs);
    static wai_entropy_table lt[N_EDGES], zt[NZ];
    static int64_t edges[N_EDGES], zmed[NZ];
    static uint32_t cdfs[TABLE_LEN];
    wai_entropy_set es;
    tables(set, &es, lt, zt, edges, zmed, cdfs);
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, cdfs, TABLE_LEN, 16) != WAI_ok) die("table");
    if (wai_sums_compute(NULL, &b->hs, &b->hs_sums) != WAI_ok ||
        wai_sums_compute(NULL, &b->gs, &b->gs_sums) != WAI_ok ||
        wai_plan_model(NULL, &b->hs, NZ, ZH, ZW, &b->hs_plan) != WAI_ok ||
        wai_plan_model(NULL, &b->gs, M, SH, SW, &b->gs_plan) != WAI_ok)
        die("plan");
    size_t nz = (size_t)NZ * ZH * ZW, ny = (size_t)M * SH * SW;
    int32_t *sym = malloc(sizeof *sym * ny), *off = malloc(sizeof *off * ny);
    b->z = malloc(sizeof *b->z * nz);
    b->hs_out = malloc(sizeof *b->hs_out * (size_t)b->hs_plan.out_elems);
    b->y = malloc(sizeof *b->y * ny);
    b->gs_out = malloc(sizeof *b->gs_out * (size_t)b->gs_plan.out_elems);
    if (!sym || !off || !b->z || !b->hs_out || !b->y || !b->gs_out) die("memory");
    int32_t o = -(int32_t)(TABLE_LEN / 2);
    for (size_t i = 0; i < nz; i++) {
        off[i] = o;
        sym[i] = symbol(o, TABLE_LEN);
        b->z[i] = (int64_t)sym[i] << AFRAC;
    }
    size_t zlen, ylen;
    uint8_t *zs = code(&t, off, sym, nz, &zlen);
    if (wai_network_run(NULL, &wai_kernels_fast, &b->hs, &b->hs_sums, &b->hs_plan, b->z,
                        b->hs_out) != WAI_ok)
        die("h_s");
    for (size_t p = 0; p < ny; p++) {
        sym[p] = symbol(o, TABLE_LEN);
        b->y[p] = ((int64_t)sym[p] << AFRAC) + b->hs_out[ny + p];
    }
    uint8_t *ys = code(&t, off, sym, ny, &ylen);
    wai_wih1_parts parts = {M, SH, SW, NZ, ZH, ZW, zs, zlen, ys, ylen};
    if (wai_wih1_write(NULL, &parts, &b->payload, &b->len) != WAI_ok) die("wih1");
    wai_cdf_table_free(&t, NULL);
    free(zs);
    free(ys);
    free(sym);
    free(off);
}

/* The best of reps of the whole decode, h_s and g_s, with ctx's decoders
 * and the networks on nthr threads. */
typedef struct timing {
    double whole, kept, hs, gs, entropy;
    wai_cost cost;
} timing;

/* The entropy decode alone, as the decode runs it: the hyper-latent's
 * symbols against the set's tables, then the latent's against the bucket
 * of each h_s scale (src/decode/int_hyper.c's steps, with the decoded
 * h_s output the benchmark already holds). Returns seconds. */
static double entropy_once(const wai_loaded_set *l, const bench *b, int64_t *z, int64_t *y) {
    wai_wih1 v;
    if (wai_wih1_parse(b->payload, b->len, 0, &v) != WAI_ok) die("wih1 parse");
    const wai_loaded_tables *tb = &WAI_LOADED(l, wai_hyper_set)->t;
    static wai_channel_coding ch[NZ];
    for (uint32_t k = 0; k < NZ; k++)
        ch[k] = (wai_channel_coding){&tb->hyper[k], tb->set->hyper[k].offset,
                                     tb->set->z_median_q[k]};
    size_t ny = (size_t)M * SH * SW;
    double t0 = now_s();
    wai_rans_dec d;
    wai_rans_dec_init(&d, v.z_stream.bytes, v.z_stream.len);
    wai_status st = wai_decode_channels(&d, ch, NZ, (size_t)ZH * ZW, l->afrac, z);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    wai_rans_dec_init(&d, v.y_stream.bytes, v.y_stream.len);
    if (st == WAI_ok)
        st = wai_decode_bucketed(&d, tb->latent, tb->set->latent, tb->set->scale_edges,
                                 tb->set->n_edges, b->hs_out, b->hs_out + ny, ny, l->afrac, y);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    double t = now_s() - t0;
    if (st != WAI_ok) die("entropy decode");
    return t;
}

static timing measure(wai_context *ctx, const wai_set *set, bench *b, unsigned nthr, int reps) {
    wai_loaded_set *l;
    const wai_set_kind kind = wai_codec_set_kind(wai_codec_of(wai_capability_find("wai.neural.int_hyper")));
    if (wai_loaded_set_load(NULL, &kind, set, &l) != WAI_ok) die("set load");
    int64_t *z = malloc(sizeof *z * (size_t)NZ * ZH * ZW);
    int64_t *y = malloc(sizeof *y * (size_t)M * SH * SW);
    if (!z || !y) die("memory");
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.set = set;
    const wai_exec ex = ctx->exec; /* the context's pool: nthr threads */
    (void)nthr;
    timing tm = {1e30, 1e30, 1e30, 1e30, 1e30, {0}};
    /* One decoder kept across the reps, as a player decoding picture after
     * picture holds it: its network arena is allocated once (the first
     * send, not timed). */
    wai_decoder *kept;
    if (wai_decoder_create(ctx, &cfg, &kept) != WAI_ok ||
        wai_decoder_send(kept, b->payload, b->len, NULL) != WAI_ok)
        die("kept decoder");
    for (int r = 0; r < reps; r++) {
        wai_decoder *d;
        if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) die("decoder");
        double t0 = now_s();
        wai_status st = wai_decoder_send(d, b->payload, b->len, &tm.cost);
        double t = now_s() - t0;
        if (st != WAI_ok) {
            fprintf(stderr, "decode refused: %s\n", wai_status_name(st));
            exit(1);
        }
        if (t < tm.whole) tm.whole = t;
        wai_decoder_destroy(d);
        t0 = now_s();
        if (wai_decoder_send(kept, b->payload, b->len, NULL) != WAI_ok) die("kept decoder");
        if ((t = now_s() - t0) < tm.kept) tm.kept = t;
        t0 = now_s();
        if (wai_network_run_ex(&ex, &wai_kernels_fast, &b->hs, &b->hs_sums, &b->hs_plan, b->z,
                               b->hs_out) != WAI_ok)
            die("h_s");
        if ((t = now_s() - t0) < tm.hs) tm.hs = t;
        t0 = now_s();
        if (wai_network_run_ex(&ex, &wai_kernels_fast, &b->gs, &b->gs_sums, &b->gs_plan, b->y,
                               b->gs_out) != WAI_ok)
            die("g_s");
        if ((t = now_s() - t0) < tm.gs) tm.gs = t;
        if ((t = entropy_once(l, b, z, y)) < tm.entropy) tm.entropy = t;
    }
    wai_decoder_destroy(kept);
    free(z);
    free(y);
    wai_loaded_set_free(NULL, l);
    return tm;
}

static void print_timing(const bench *b, const timing *tm, unsigned nthr) {
    printf(" %u thread%s:\n", nthr, nthr > 1 ? "s" : "");
    printf("  whole decode (wai_decoder_send)      %10.1f ms  (the set cached after rep 1)\n",
           tm->whole * 1e3);
    printf("  whole decode, one decoder kept       %10.1f ms  (its network arena reused)\n",
           tm->kept * 1e3);
    printf("  h_s  [128,8,12] -> [384,32,48]        %10.1f ms  %6.2f GMAC/s\n", tm->hs * 1e3,
           (double)b->hs_plan.macs / tm->hs / 1e9);
    printf("  g_s  [192,32,48] -> [3,512,768]       %10.1f ms  %6.2f GMAC/s\n", tm->gs * 1e3,
           (double)b->gs_plan.macs / tm->gs / 1e9);
    printf("  entropy decode (both streams)         %10.1f ms  (%.1f Msym/s)\n",
           tm->entropy * 1e3, (double)tm->cost.entropy_steps / tm->entropy / 1e6);
}

/* A context whose decodes use nthr threads. */
static wai_context *context_with(unsigned nthr) {
    wai_settings st;
    wai_settings_default(&st);
    st.n_threads = nthr;
    wai_context *ctx;
    if (wai_context_create(&st, &ctx) != WAI_ok) die("context");
    return ctx;
}

/* DIR/NAME holds len bytes of data. */
static void write_file(const char *dir, const char *name, const uint8_t *data, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) die(path);
}

int main(int argc, char **argv) {
    int reps = 3;
    unsigned nthr = 0;
    const char *write_dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            nthr = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--write") == 0 && i + 1 < argc) write_dir = argv[++i];
        else die("usage: wai_bench_decode_neural [--reps N] [--threads N] [--write DIR]");
    }
    if (reps < 1) reps = 1;
    nthr = wai_threads_resolve(nthr); /* 0: one per core, as the context does */
    wai_context *ctx1 = context_with(1), *ctxn = context_with(nthr);
    wai_set *set = NULL;
    /* The set only borrows ctx1's allocator (the default), so ctxn's
     * decoders may use it too. */
    if (wai_set_create(ctx1, &set) != WAI_ok) die("set");
    bench b;
    build(&b, set);
    if (write_dir) {
        for (size_t i = 0; i < wai_set_count(set); i++) {
            const char *name;
            const uint8_t *data;
            size_t len;
            if (wai_set_member_at(set, i, &name, &data, &len) != WAI_ok) die("set member");
            write_file(write_dir, name, data, len);
        }
        write_file(write_dir, "image.wih1", b.payload, b.len);
        return 0;
    }
    timing t1 = measure(ctx1, set, &b, 1, reps);
    timing tn = measure(ctxn, set, &b, nthr, reps);
    printf("WIH1 512x768 (bmshj2018/mbt2018 shapes), best of %d, 1 and %u threads\n", reps,
           nthr);
    printf("  payload %zu bytes; %llu symbols, %.2f GMAC\n", b.len,
           (unsigned long long)t1.cost.entropy_steps, (double)t1.cost.macs / 1e9);
    print_timing(&b, &t1, 1);
    print_timing(&b, &tn, nthr);
    wai_set_destroy(set);
    wai_context_destroy(ctxn);
    wai_context_destroy(ctx1);
    return 0;
}
