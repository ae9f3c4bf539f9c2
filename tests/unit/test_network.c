/* SPDX-License-Identifier: BSD-2-Clause */
/* The network runner (ops/network.h) on synthetic networks (tests/gen):
 * pinned output digests that every architecture must reproduce, the
 * generator's bytes round trip, a refusal in the middle of a network, the
 * exactness bound's edge through the runner for every layer kind, and the
 * runner's allocations. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "formats/whm1.h"
#include "gen/netgen.h"
#include "harness.h"
#include "ops/bounds.h"
#include "ops/cpu.h"
#include "ops/layers.h"
#include "ops/layers_fast_dot.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "wai/wai_hash.h"
#include "gen/set_write.h"
#include "write/payloads.h"

#define P63 ((uint64_t)1 << 63)
#define SENTINEL ((int64_t)0x5a5a5a5a5a5a5a5aLL)

/* A planned network: the model, its sums and its plan on one shape. */
typedef struct net {
    wai_model m;
    wai_sums s;
    wai_plan p;
} net;

static int net_plan(net *n, uint32_t c, uint32_t h, uint32_t w) {
    memset(&n->s, 0, sizeof n->s);
    memset(&n->p, 0, sizeof n->p);
    return CHECK(wai_sums_compute(NULL, &n->m, &n->s) == WAI_ok) &&
           CHECK(wai_plan_model(NULL, &n->m, c, h, w, &n->p) == WAI_ok);
}

static void net_free(net *n) {
    wai_plan_free(NULL, &n->p);
    wai_sums_free(NULL, &n->s);
    wai_model_free(NULL, &n->m);
}

static size_t in_elems(const net *n) { return (size_t)n->p.in_c * n->p.in_h * n->p.in_w; }

static void hex(const uint8_t *d, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = 0;
}

/* ---- bmshj-like synthesis: pinned digest ---------------------------------- */

/* [8, 4, 6] latent through four 5x5 stride-2 transposed convolutions (8 ->
 * 8 -> 8 -> 8 -> 3 channels, IGDN between): [3, 64, 96], mapped to RGB8. */
static int run_bmshj_rgb(uint8_t **rgb, size_t *n_rgb) {
    net n;
    int ok = CHECK(netgen_bmshj(NULL, 0xb5a12018, 12, 8, 8, 3, 4, &n.m) == WAI_ok) &&
             net_plan(&n, 8, 4, 6) && CHECK(n.p.out_c == 3 && n.p.out_h == 64 && n.p.out_w == 96);
    int64_t *x = NULL, *y = NULL;
    *rgb = NULL;
    if (ok) {
        uint64_t st = 0x1a7e47;
        x = malloc(in_elems(&n) * sizeof *x);
        y = malloc((size_t)n.p.out_elems * sizeof *y);
        *n_rgb = (size_t)n.p.out_elems;
        *rgb = malloc(*n_rgb);
        ok = CHECK(x && y && *rgb);
        if (ok) {
            netgen_input(&st, n.m.afrac, x, in_elems(&n));
            ok = CHECK(wai_network_run(NULL, &wai_kernels_ref, &n.m, &n.s, &n.p, x, y) == WAI_ok);
        }
        if (ok)
            for (size_t i = 0; i < *n_rgb; i++) (*rgb)[i] = wai_rgb8_step(y[i], n.m.afrac);
    }
    if (!ok) {
        free(*rgb);
        *rgb = NULL;
    }
    free(x);
    free(y);
    net_free(&n);
    return ok;
}

static void test_bmshj_digest(void) {
    uint8_t *rgb, *again;
    size_t n, n2;
    if (!run_bmshj_rgb(&rgb, &n)) return;
    /* Realistic range: the scaling keeps most pixels off the clamps and
     * spreads them over many values. */
    size_t clamped = 0, seen = 0;
    uint8_t hit[256] = {0};
    for (size_t i = 0; i < n; i++) {
        clamped += rgb[i] == 0 || rgb[i] == 255;
        if (!hit[rgb[i]]) seen++;
        hit[rgb[i]] = 1;
    }
    CHECK_MSG(clamped < n / 4, "%zu of %zu pixels clamped", clamped, n);
    CHECK_MSG(seen >= 64, "only %zu distinct values", seen);

    uint8_t d[WAI_SHA256_BYTES];
    char h[2 * WAI_SHA256_BYTES + 1];
    wai_sha256_oneshot(rgb, n, d);
    hex(d, sizeof d, h);
    /* Computed once; every architecture must give these bits. */
    CHECK_MSG(strcmp(h, "5a6ffac273706114975111987825a985e40ea7671b13a38821f8670184b59f0b") == 0, "bmshj digest %s", h);

    /* And again: nothing in the run depends on its surroundings. */
    if (run_bmshj_rgb(&again, &n2)) {
        CHECK(n2 == n && memcmp(again, rgb, n) == 0);
        free(again);
    }
    free(rgb);
}

/* ---- WAM1 audio network --------------------------------------------------- */

static void test_wam1(void) {
    net n;
    /* [4, 1, 16] through three 1-D transposed convolutions (k 8, stride 2):
     * [1, 1, 128]. */
    if (!CHECK(netgen_wam1(NULL, 0xa0d10, 10, 4, 6, 1, 3, &n.m) == WAI_ok) ||
        !net_plan(&n, 4, 1, 16) ||
        !CHECK(n.p.out_c == 1 && n.p.out_h == 1 && n.p.out_w == 128)) {
        net_free(&n);
        return;
    }
    uint64_t st = 0xa0d11;
    int64_t x[64], y[128];
    netgen_input(&st, n.m.afrac, x, 64);
    if (CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y) == WAI_ok)) {
        uint8_t pcm[256];
        size_t zeros = 0;
        int ok = 1;
        for (size_t i = 0; i < 128; i++) {
            int16_t v;
            ok &= wai_pcm_step(y[i], n.m.afrac, &v) == WAI_ok;
            zeros += v == 0;
            pcm[2 * i] = (uint8_t)((uint16_t)v & 0xff);
            pcm[2 * i + 1] = (uint8_t)((uint16_t)v >> 8);
        }
        CHECK(ok);
        CHECK_MSG(zeros < 16, "%zu silent samples", zeros);
        uint8_t d[WAI_SHA256_BYTES];
        char h[2 * WAI_SHA256_BYTES + 1];
        wai_sha256_oneshot(pcm, sizeof pcm, d);
        hex(d, sizeof d, h);
        CHECK_MSG(strcmp(h, "d8c7eb5232bca31beda24225f27f2a6d0df2a7c2d0807c4a5e2ba80f066075f9") == 0, "wam1 digest %s", h);
    }
    net_free(&n);
}

/* ---- mbt-like hyper synthesis ---------------------------------------------- */

static void test_mbt(void) {
    net n;
    if (!CHECK(netgen_mbt_hyper(NULL, 0x3b7, 9, 6, 8, 5, &n.m) == WAI_ok) ||
        !net_plan(&n, 6, 3, 5) || !CHECK(n.p.out_c == 5 && n.p.out_h == 12 && n.p.out_w == 20)) {
        net_free(&n);
        return;
    }
    uint64_t st = 0x3b8;
    int64_t x[90], y[5 * 12 * 20];
    netgen_input(&st, n.m.afrac, x, 90);
    if (CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y) == WAI_ok)) {
        /* Activations stay within a small factor of the input scale. */
        uint64_t amax = wai_max_abs_i64(y, 5 * 12 * 20);
        CHECK_MSG(amax > ((uint64_t)1 << (n.m.afrac - 3)) && amax < ((uint64_t)1 << (n.m.afrac + 4)),
                  "mbt output max %llu", (unsigned long long)amax);
    }
    net_free(&n);
}

/* ---- the generator's bytes ---------------------------------------------------- */

static void round_trip(const wai_model *m) {
    uint8_t *b = NULL, *b2 = NULL;
    size_t len = 0, len2 = 0;
    wai_model back;
    memset(&back, 0, sizeof back);
    if (CHECK(netgen_bytes(NULL, m, &b, &len) == WAI_ok) &&
        CHECK(memcmp(b, m->dims == 2 ? WAI_WHM1_MAGIC : WAI_WAM1_MAGIC, 4) == 0) &&
        CHECK(wai_model_parse(NULL, b, len, m->dims, &back) == WAI_ok)) {
        CHECK(netgen_model_equal(m, &back));
        CHECK(wai_model_write(NULL, &back, &b2, &len2) == WAI_ok && len2 == len &&
              memcmp(b, b2, len) == 0);
    }
    wai_free(NULL, b);
    wai_free(NULL, b2);
    wai_model_free(NULL, &back);
}

static void test_bytes_round_trip(void) {
    wai_model m;
    if (CHECK(netgen_bmshj(NULL, 1, 8, 8, 6, 3, 4, &m) == WAI_ok)) round_trip(&m);
    wai_model_free(NULL, &m);
    if (CHECK(netgen_mbt_hyper(NULL, 2, 16, 4, 6, 8, &m) == WAI_ok)) round_trip(&m);
    wai_model_free(NULL, &m);
    if (CHECK(netgen_wam1(NULL, 3, 12, 2, 5, 1, 3, &m) == WAI_ok)) round_trip(&m);
    wai_model_free(NULL, &m);
    uint64_t st = 0xb17e5;
    for (int i = 0; i < 40; i++) {
        uint32_t c, h, w;
        int dims = i % 3 == 0 ? 1 : 2;
        if (CHECK(netgen_random_layer(NULL, &st, dims, -1, &m, &c, &h, &w) == WAI_ok))
            round_trip(&m);
        wai_model_free(NULL, &m);
    }
    /* The same seed gives the same model; another seed another. */
    wai_model m2;
    CHECK(netgen_bmshj(NULL, 7, 10, 4, 4, 3, 2, &m) == WAI_ok);
    CHECK(netgen_bmshj(NULL, 7, 10, 4, 4, 3, 2, &m2) == WAI_ok);
    CHECK(netgen_model_equal(&m, &m2));
    wai_model_free(NULL, &m2);
    CHECK(netgen_bmshj(NULL, 8, 10, 4, 4, 3, 2, &m2) == WAI_ok);
    CHECK(!netgen_model_equal(&m, &m2));
    wai_model_free(NULL, &m2);
    wai_model_free(NULL, &m);
    /* afrac outside 8..16 and a 1-D convolution are not generated. */
    netgen_spec conv = {WAI_LAYER_CONV, 1, 1, 1, 1, 0, 0, 0};
    CHECK(netgen_build(NULL, 1, 2, 7, &conv, 1, &m) == WAI_invalid_argument);
    CHECK(netgen_build(NULL, 1, 2, 17, &conv, 1, &m) == WAI_invalid_argument);
    CHECK(netgen_build(NULL, 1, 1, 8, &conv, 1, &m) == WAI_invalid_argument);
}

/* ---- a refusal in the middle ------------------------------------------------- */

static void test_second_layer_refuses(void) {
    netgen_spec sp[3] = {
        {WAI_LAYER_CONV_T, 3, 4, 3, 2, 1, 1, 0},
        {WAI_LAYER_LEAKY, 0, 0, 0, 0, 0, 0, 0},
        {WAI_LAYER_CONV_T, 4, 2, 3, 1, 1, 0, 0},
    };
    net n;
    if (!CHECK(netgen_build(NULL, 0x2d, 2, 10, sp, 3, &n.m) == WAI_ok) || !net_plan(&n, 3, 4, 5)) {
        net_free(&n);
        return;
    }
    uint64_t st = 0x2e;
    int64_t x[60], y[2 * 8 * 10];
    netgen_input(&st, n.m.afrac, x, 60);
    CHECK(n.p.out_elems == 2 * 8 * 10);
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y) == WAI_ok);

    /* slope 2^63 - 1 with lshift 0: any A >= 1 breaks the leaky bound, and
     * the first layer's output is not all zero. */
    n.m.layers[1].slope = INT64_MAX;
    n.m.layers[1].lshift = 0;
    for (size_t i = 0; i < 160; i++) y[i] = SENTINEL;
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y) == WAI_field_range);
    int untouched = 1;
    for (size_t i = 0; i < 160; i++) untouched &= y[i] == SENTINEL;
    CHECK(untouched);
    /* The same slope with lshift 63 passes again (A·(2^63 - 1)/2^63 + 1 is
     * at most A): the refusal was that layer's bound, nothing else. */
    n.m.layers[1].lshift = 63;
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y) == WAI_ok);
    net_free(&n);
}

/* ---- the bound's edge through the runner, every kind ----------------------- */

/* One random layer of `kind` whose bound has an edge inside i64 (some A
 * passes, A + 1 <= 2^63 does not), or for ReLU any; input at the edge runs,
 * one past it is refused with the output untouched, and the runner's
 * output equals the reference layer called directly. Returns 1 when a case
 * was tested. */
static int bound_case(uint64_t *st, int dims, int kind) {
    net n;
    uint32_t c, h, w;
    uint64_t amax = 0;
    int tested = 0;
    if (!CHECK(netgen_random_layer(NULL, st, dims, kind, &n.m, &c, &h, &w) == WAI_ok) ||
        !net_plan(&n, c, h, w)) {
        net_free(&n);
        return 0;
    }
    int edge = netgen_bound_max(&n.m, &n.s, 0, &amax);
    if (edge && (amax < P63 || kind == WAI_LAYER_RELU)) {
        size_t ni = in_elems(&n), no = (size_t)n.p.out_elems;
        int64_t *x = malloc(ni * sizeof *x), *y = malloc(no * sizeof *y);
        int64_t *ref = malloc(no * sizeof *ref);
        int64_t *scratch = malloc(((size_t)n.p.layers[0].uncropped_elems + 1) * sizeof *scratch);
        if (CHECK(x && y && ref && scratch)) {
            netgen_bound_input(st, amax, x, ni);
            CHECK(wai_max_abs_i64(x, ni) == amax);
            wai_status got = wai_network_run(NULL, &wai_kernels_ref, &n.m, &n.s, &n.p, x, y);
            CHECK_MSG(got == WAI_ok, "kind %d dims %d at A = %llu: %d", kind, dims,
                      (unsigned long long)amax, (int)got);
            /* The same layer called directly. */
            const wai_layer *l = &n.m.layers[0];
            const wai_plan_layer *pl = &n.p.layers[0];
            const uint64_t *sums = n.s.layers[0].sums;
            wai_status direct = WAI_invalid_argument;
            switch (l->kind) {
            case WAI_LAYER_CONV:
                direct = wai_conv2d_ref(l, sums, n.m.shift, x, h, w, ref, pl->out_h, pl->out_w);
                break;
            case WAI_LAYER_CONV_T:
                direct = dims == 1 ? wai_conv_t1d_ref(l, sums, n.m.shift, x, w, scratch, ref,
                                                      pl->out_w)
                                   : wai_conv_t2d_ref(l, sums, n.m.shift, x, h, w, scratch, ref,
                                                      pl->out_h, pl->out_w);
                break;
            case WAI_LAYER_IGDN:
                direct = wai_igdn_ref(l, sums, n.m.gf, n.m.afrac, x, (size_t)h * w, ref);
                break;
            case WAI_LAYER_RELU:
                direct = wai_relu_ref(x, ni, ref);
                break;
            case WAI_LAYER_LEAKY:
                direct = wai_leaky_ref(l, x, ni, ref);
                break;
            }
            CHECK(direct == WAI_ok && memcmp(ref, y, no * sizeof *y) == 0);
            if (amax < P63) {
                netgen_bound_input(st, amax + 1, x, ni);
                for (size_t i = 0; i < no; i++) y[i] = SENTINEL;
                got = wai_network_run(NULL, &wai_kernels_ref, &n.m, &n.s, &n.p, x, y);
                CHECK_MSG(got == WAI_field_range, "kind %d dims %d at A + 1 = %llu: %d", kind,
                          dims, (unsigned long long)amax + 1, (int)got);
                int untouched = 1;
                for (size_t i = 0; i < no; i++) untouched &= y[i] == SENTINEL;
                CHECK(untouched);
            }
            tested = 1;
        }
        free(x);
        free(y);
        free(ref);
        free(scratch);
    }
    net_free(&n);
    return tested;
}

static void test_bound_edges(void) {
    uint64_t st = 0xed6e;
    static const struct {
        int dims, kind;
    } kinds[] = {
        {2, WAI_LAYER_CONV},   {2, WAI_LAYER_CONV_T}, {2, WAI_LAYER_IGDN}, {2, WAI_LAYER_RELU},
        {2, WAI_LAYER_LEAKY},  {1, WAI_LAYER_CONV_T}, {1, WAI_LAYER_IGDN},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int cases = 0;
        /* Extreme parameters often leave no edge inside i64; draw until a
         * few do. */
        for (int tries = 0; tries < 400 && cases < 6; tries++)
            cases += bound_case(&st, kinds[k].dims, kinds[k].kind);
        CHECK_MSG(cases == 6, "kind %d dims %d: %d cases", kinds[k].kind, kinds[k].dims, cases);
    }
}

/* ---- the kernel table is what runs ------------------------------------------ */

static unsigned g_calls;

static wai_status counting_relu(const int64_t *x, size_t n, int64_t *y) {
    g_calls++;
    return wai_relu_ref(x, n, y);
}

static wai_status counting_conv_t2d(const wai_exec *ex, const wai_layer *l,
                                    const uint64_t *sums, uint32_t shift, const int64_t *x,
                                    uint32_t h, uint32_t w, int64_t *scratch, int64_t *y,
                                    uint32_t oh, uint32_t ow) {
    (void)ex;
    g_calls += 100;
    return wai_conv_t2d_ref(l, sums, shift, x, h, w, scratch, y, oh, ow);
}

static void test_kernel_table(void) {
    net n;
    if (!CHECK(netgen_mbt_hyper(NULL, 0x7ab, 8, 2, 3, 2, &n.m) == WAI_ok) ||
        !net_plan(&n, 2, 2, 2)) {
        net_free(&n);
        return;
    }
    wai_kernels k = wai_kernels_ref;
    k.relu = counting_relu;
    k.conv_t2d = counting_conv_t2d;
    uint64_t st = 0x7ac;
    int64_t x[8], y[2 * 8 * 8], y_ref[2 * 8 * 8];
    netgen_input(&st, n.m.afrac, x, 8);
    g_calls = 0;
    CHECK(wai_network_run(NULL, &k, &n.m, &n.s, &n.p, x, y) == WAI_ok);
    CHECK(g_calls == 202); /* two transposed convolutions, two ReLUs */
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &n.p, x, y_ref) == WAI_ok);
    CHECK(memcmp(y, y_ref, sizeof y) == 0);
    net_free(&n);
}

/* ---- memory: the plan's working bytes ------------------------------------------ */

/* A bmshj-like network large enough that holding two layers' outputs at
 * once would pass its declared working bytes by far more than the fixed
 * overhead: the runner holds the largest layer's input + output + plane
 * (the reference kernels nothing more; the fast ones temporaries of at most
 * WAI_DOT_TEMP_MAX, or 2·c·32 values for an inverse GDN in place). */
static void test_memory_within_plan(void) {
    net n;
    if (!CHECK(netgen_bmshj(NULL, 0x3e3, 10, 16, 64, 3, 4, &n.m) == WAI_ok) ||
        !net_plan(&n, 16, 12, 16)) {
        net_free(&n);
        return;
    }
    uint64_t st = 0x3e4;
    size_t n_in = 16 * 12 * 16;
    int64_t *x = malloc(sizeof *x * n_in), *y = malloc(sizeof *y * (size_t)n.p.out_elems);
    if (!CHECK(x && y)) goto out;
    netgen_input(&st, n.m.afrac, x, n_in);
    /* The reference; the fast kernels on 1 thread and on 7 (their per-thread
     * buffers share the one allowance). */
    const wai_kernels *sets[3] = {&wai_kernels_ref, &wai_kernels_fast, &wai_kernels_fast};
    const unsigned threads[3] = {1, 1, 7};
    for (int k = 0; k < 3; k++) {
        harness_alloc c = {0};
        wai_allocator a = harness_allocator(&c);
        const wai_exec ex = {.alloc = &a, .pool = harness_pool(threads[k]), .cores = harness_cores(harness_isa())};
        CHECK(wai_network_run_ex(&ex, sets[k], &n.m, &n.s, &n.p, x, y) == WAI_ok && c.live == 0);
        uint64_t allowed = n.p.work_bytes + (k ? WAI_DOT_TEMP_MAX : 0);
        CHECK_MSG(c.bytes_peak <= allowed, "%s kernels, %u threads: peak %zu bytes, plan %llu",
                  k ? "fast" : "reference", threads[k], c.bytes_peak,
                  (unsigned long long)n.p.work_bytes);
    }
    /* Two buffers of the largest output, as a ping-pong runner holds, pass
     * the plan by more than the fast path's allowance: the check bites. */
    uint64_t largest = 0, plane = 0;
    for (uint32_t i = 0; i < n.p.n_layers; i++) {
        if (n.p.layers[i].out_elems > largest) largest = n.p.layers[i].out_elems;
        if (n.p.layers[i].uncropped_elems > plane) plane = n.p.layers[i].uncropped_elems;
    }
    CHECK(8 * (2 * largest + plane) > n.p.work_bytes + WAI_DOT_TEMP_MAX);
out:
    free(x);
    free(y);
    net_free(&n);
}

/* ---- allocations, disagreement, no layers -------------------------------------- */

static void test_allocations(void) {
    net n;
    if (!CHECK(netgen_bmshj(NULL, 0xa11, 8, 2, 3, 2, 2, &n.m) == WAI_ok) ||
        !net_plan(&n, 2, 3, 3)) {
        net_free(&n);
        return;
    }
    uint64_t st = 0xa12;
    int64_t x[18], y[2 * 12 * 12];
    netgen_input(&st, n.m.afrac, x, 18);
    harness_alloc c = {0};
    wai_allocator a = harness_allocator(&c);
    CHECK(wai_network_run(&a, NULL, &n.m, &n.s, &n.p, x, y) == WAI_ok);
    /* One arena, freed; never more than the plan's working bytes. */
    CHECK(c.calls == 1 && c.live == 0);
    CHECK(c.bytes_peak <= n.p.work_bytes);
    size_t total = c.calls;
    for (size_t f = 0; f < total; f++) {
        memset(&c, 0, sizeof c);
        c.fail_at = f + 1;
        for (size_t i = 0; i < 288; i++) y[i] = SENTINEL;
        CHECK(wai_network_run(&a, NULL, &n.m, &n.s, &n.p, x, y) == WAI_out_of_memory);
        /* The failed call refuses the run; every block it got is freed. */
        CHECK_MSG(c.failed && c.live == 0, "failing call %zu: %zu blocks leaked", f + 1, c.live);
        CHECK(y[0] == SENTINEL && y[287] == SENTINEL);
    }

    /* A plan of another model is the caller's bug. */
    wai_plan bad = n.p;
    bad.n_layers = n.p.n_layers - 1;
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &bad, x, y) == WAI_invalid_argument);
    bad = n.p;
    bad.dims = 1;
    CHECK(wai_network_run(NULL, NULL, &n.m, &n.s, &bad, x, y) == WAI_invalid_argument);
    net_free(&n);

    /* No layers: the output is the input, nothing allocated. */
    wai_model empty;
    memset(&empty, 0, sizeof empty);
    empty.dims = 2;
    empty.afrac = 8;
    net e;
    e.m = empty;
    if (net_plan(&e, 2, 1, 3)) {
        int64_t in[6] = {1, -2, 3, INT64_MIN, INT64_MAX, 0}, out[6];
        memset(&c, 0, sizeof c);
        CHECK(wai_network_run(&a, NULL, &e.m, &e.s, &e.p, in, out) == WAI_ok);
        CHECK(memcmp(in, out, sizeof in) == 0 && c.calls == 0);
    }
    wai_plan_free(NULL, &e.p);
    wai_sums_free(NULL, &e.s);
}

/* Whole networks through the fast kernel table against the reference table:
 * the same status and the same output, for 100 generated networks of every
 * shape the generator makes, with inputs small, realistic and large. */
static void test_fast_networks_match_reference(void) {
    int bad = 0, refused = 0, ran = 0;
    for (uint64_t seed = 1; seed <= 100 && !bad; seed++) {
        wai_model m;
        uint32_t afrac = 8 + (uint32_t)(seed % 9), cin = 1 + (uint32_t)(seed % 6);
        uint32_t h = 1 + (uint32_t)(seed % 4), w = 1 + (uint32_t)(seed % 5);
        wai_status st;
        if (seed % 3 == 0) st = netgen_wam1(NULL, seed, afrac, cin, 4, 1, 2, &m);
        else if (seed % 3 == 1) st = netgen_bmshj(NULL, seed, afrac, cin, 6, 3, 3, &m);
        else st = netgen_mbt_hyper(NULL, seed, afrac, cin, 5, 4, &m);
        if (!CHECK(st == WAI_ok)) return;
        if (m.dims == 1) h = 1;
        wai_sums s;
        wai_plan p;
        CHECK(wai_sums_compute(NULL, &m, &s) == WAI_ok);
        CHECK(wai_plan_model(NULL, &m, cin, h, w, &p) == WAI_ok);
        size_t n_in = (size_t)cin * h * w, n_out = (size_t)p.out_elems;
        int64_t *x = malloc(sizeof *x * n_in), *ya = malloc(sizeof *ya * n_out),
                *yb = malloc(sizeof *yb * n_out);
        uint64_t rs = seed * 7919;
        netgen_input(&rs, afrac, x, n_in);
        /* Scale some inputs far up, so refusals and the wide paths are hit. */
        int scale = (int)(seed % 4) * 12;
        for (size_t i = 0; i < n_in; i++) x[i] = x[i] * ((int64_t)1 << scale);
        memset(ya, 0x5a, sizeof *ya * n_out);
        memset(yb, 0x5a, sizeof *yb * n_out);
        wai_status sa = wai_network_run(NULL, &wai_kernels_ref, &m, &s, &p, x, ya);
        wai_status sb = wai_network_run(NULL, &wai_kernels_fast, &m, &s, &p, x, yb);
        bad = !CHECK_MSG(sa == sb && memcmp(ya, yb, sizeof *ya * n_out) == 0,
                         "network %llu: reference %s, fast %s", (unsigned long long)seed,
                         wai_status_name(sa), wai_status_name(sb));
        if (sa == WAI_ok) ran++;
        else refused++;
        free(x);
        free(ya);
        free(yb);
        wai_plan_free(NULL, &p);
        wai_sums_free(NULL, &s);
        wai_model_free(NULL, &m);
    }
    CHECK(ran > 10);
    CHECK(refused > 10);
}

void suite_network(void) {
    harness_run("net_fast_matches_reference", test_fast_networks_match_reference);
    harness_run("net_bmshj_digest", test_bmshj_digest);
    harness_run("net_wam1", test_wam1);
    harness_run("net_mbt", test_mbt);
    harness_run("net_bytes_round_trip", test_bytes_round_trip);
    harness_run("net_second_layer_refuses", test_second_layer_refuses);
    harness_run("net_bound_edges", test_bound_edges);
    harness_run("net_kernel_table", test_kernel_table);
    harness_run("net_memory_within_plan", test_memory_within_plan);
    harness_run("net_allocations", test_allocations);
}
