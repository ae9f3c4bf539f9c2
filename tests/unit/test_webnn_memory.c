/* SPDX-License-Identifier: BSD-2-Clause */
/* A graph's memory limit (src/webnn/graph_memory.c, wai_ml_graph_hold and
 * wai_ml_graph_take; a decode's max_memory sets it): every byte a run
 * allocates is counted before it is allocated, the kernels' own included
 * (oneDNN's layout memories and scratchpads, the transposed-GEMM band's
 * scratch, the reference's accumulators and blocked copies, the NHWC
 * permutes, a float16 tensor's float32 copy). For each graph, on the
 * best kernels and on the reference: the least limit at which a first run
 * goes through, found by bisection over fresh graphs; one byte less is
 * cost_over_limit; and at that limit the run allocates no more than the
 * limit leaves beside what the graph held before it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_ml.h"
#include "webnn/ml.h"

/* The context's allocator: the harness's, counting live bytes and peak. */
static harness_alloc g_heap;

/* What the dispatch allocates beside the graph's run: its four arrays of
 * one pointer per input and output. */
#define DISPATCH_BYTES 64

typedef struct probe {
    wai_status st;
    uint64_t before; /* the graph's bytes allocated before the run */
    size_t used;     /* what the run allocated at its peak */
} probe;

/* Builds `json` afresh on c, limits the graph to `limit` and runs it once. */
static probe run_within(wai_ml_context *c, const char *json, uint64_t limit) {
    probe p = {WAI_invalid_argument, 0, 0};
    wai_ml_graph *g = NULL;
    if (!CHECK_MSG(wai_ml_graph_from_json(c, (const uint8_t *)json, strlen(json), NULL, 0, NULL,
                                          0, &g) == WAI_ok,
                   "build: %s", wai_ml_error_message(c)))
        return p;
    const wai_ml_operand_descriptor *xd, *yd;
    wai_ml_graph_input_at(g, 0, &xd);
    wai_ml_graph_output_at(g, 0, &yd);
    const size_t nx = (size_t)wai_ml_elements(xd), bytes = nx * wai_ml_data_type_size(xd->data_type);
    float *x = calloc(nx, 4);
    for (size_t i = 0; x && xd->data_type == WAI_ML_FLOAT32 && i < nx; i++)
        x[i] = (float)(i % 13) / 13.0f - 0.5f;
    wai_ml_tensor *tx = NULL, *ty = NULL;
    const wai_ml_tensor_descriptor txd = {*xd, 0, 1}, tyd = {*yd, 1, 0};
    if (x && wai_ml_create_tensor(c, &txd, &tx) == WAI_ok &&
        wai_ml_create_tensor(c, &tyd, &ty) == WAI_ok &&
        wai_ml_write_tensor(c, tx, x, bytes) == WAI_ok) {
        const wai_ml_named_tensor in[1] = {{"x", tx}}, out[1] = {{"y", ty}};
        g->limit = limit;
        /* the constants: the arena, counted from the build, is the run's to allocate */
        p.before = wai_ml_graph_bytes(g) - (g->arena ? 0 : 4 * (uint64_t)g->arena_floats);
        const size_t live = g_heap.bytes_now;
        g_heap.bytes_peak = live;
        p.st = wai_ml_dispatch(c, g, in, 1, out, 1);
        p.used = g_heap.bytes_peak - live;
    }
    wai_ml_tensor_destroy(tx), wai_ml_tensor_destroy(ty);
    wai_ml_graph_destroy(g);
    free(x);
    return p;
}

static void holds_to_limit(wai_ml_context *c, const char *name, const char *json) {
    probe p = run_within(c, json, UINT64_MAX);
    if (!CHECK_MSG(p.st == WAI_ok, "%s: %s", name, wai_status_name(p.st))) return;
    /* The search's top: what an unlimited run held and allocated (with a
     * page for the run's pointers, counted a little above their bytes). */
    uint64_t lo = 0, hi = p.before + p.used + 4096;
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        p = run_within(c, json, mid);
        if (!CHECK_MSG(p.st == WAI_ok || p.st == WAI_cost_over_limit, "%s: %s", name,
                       wai_status_name(p.st)))
            return;
        *(p.st == WAI_ok ? &hi : &lo) = mid;
    }
    p = run_within(c, json, lo);
    CHECK_MSG(p.st == WAI_cost_over_limit, "%s at %llu: %s", name, (unsigned long long)lo,
              wai_status_name(p.st));
    p = run_within(c, json, hi);
    CHECK_MSG(p.st == WAI_ok && p.used <= hi - p.before + DISPATCH_BYTES,
              "%s: limit %llu, held %llu before the run, which allocated %zu", name,
              (unsigned long long)hi, (unsigned long long)p.before, p.used);
}

/* One convolution of x (1, C, H, W) with a filled filter, as `op` writes
 * it; y its output. */
static void conv_json(char *out, size_t n, const char *op, const char *input_shape,
                      const char *filter_shape, const char *options) {
    snprintf(out, n,
             "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float32\", "
             "\"shape\": %s}}, \"constants\": {\"w\": {\"dataType\": \"float32\", \"shape\": %s, "
             "\"data\": [0.03125], \"fill\": true}}, \"operators\": [{\"name\": \"%s\", "
             "\"arguments\": [{\"input\": \"x\"}, {\"filter\": \"w\"}, {\"options\": %s}], "
             "\"outputs\": \"t\"}, {\"name\": \"relu\", \"arguments\": [{\"input\": \"t\"}], "
             "\"outputs\": \"y\"}], \"outputs\": {\"y\": \"y\"}}",
             input_shape, filter_shape, op, options);
}

static void test_graph_limit(void) {
    wai_settings st;
    wai_settings_default(&st);
    memset(&g_heap, 0, sizeof g_heap);
    st.allocator = harness_allocator(&g_heap);
    wai_context *ctx;
    if (!CHECK(wai_context_create(&st, &ctx) == WAI_ok)) return;
    static char json[5][1024];
    /* a convolution oneDNN takes in its blocked layout (with a scratchpad
     * where its implementation asks for one); a transposed one of many
     * outputs (oneDNN's primitive, or the reference's float64 sums); one
     * of three outputs (the band GEMM and its scratch); one of NHWC input
     * (permuted to NCHW and back). */
    conv_json(json[0], sizeof json[0], "conv2d", "[1, 16, 20, 22]", "[16, 16, 3, 3]",
              "{\"padding\": [1, 1, 1, 1]}");
    conv_json(json[1], sizeof json[1], "convTranspose2d", "[1, 16, 10, 11]", "[16, 16, 5, 5]",
              "{\"strides\": [2, 2], \"padding\": [2, 1, 2, 1]}");
    conv_json(json[2], sizeof json[2], "convTranspose2d", "[1, 16, 10, 11]", "[16, 3, 5, 5]",
              "{\"strides\": [2, 2], \"padding\": [2, 1, 2, 1]}");
    conv_json(json[3], sizeof json[3], "conv2d", "[1, 20, 22, 16]", "[16, 16, 3, 3]",
              "{\"padding\": [1, 1, 1, 1], \"inputLayout\": \"nhwc\"}");
    /* and float16 in and out (the dispatch's float32 copies) */
    snprintf(json[4], sizeof json[4],
             "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float16\", "
             "\"shape\": [1, 16, 40, 44]}}, \"operators\": [{\"name\": \"relu\", \"arguments\": "
             "[{\"input\": \"x\"}], \"outputs\": \"y\"}], \"outputs\": {\"y\": \"y\"}}");
    static const char *const names[5] = {"conv2d", "convTranspose2d", "convTranspose2d to 3",
                                         "conv2d nhwc", "relu float16"};
    for (int kernels = 0; kernels < 2; kernels++) {
        wai_ml_context_options o;
        wai_ml_context_options_default(&o);
        o.kernels = kernels ? WAI_ML_KERNELS_REFERENCE : WAI_ML_KERNELS_BEST;
        wai_ml_context *c;
        if (!CHECK(wai_ml_create_context(ctx, &o, &c) == WAI_ok)) continue;
        for (int i = 0; i < 5; i++) holds_to_limit(c, names[i], json[i]);
        wai_ml_context_destroy(c);
    }
    wai_context_destroy(ctx);
    CHECK_MSG(g_heap.bytes_now == 0 && g_heap.live == 0, "%zu bytes left", g_heap.bytes_now);
}

/* The aligned blocks a graph keeps (wai_ml_graph_keep and drop: an
 * operator's filter in oneDNN's layout, the shared scratch): 64-byte
 * aligned inside what is counted, counted before they are allocated, the
 * scratch's old block dropped before a larger one is kept, and a NULL
 * graph's scratch refused. */
static void test_graph_blocks(void) {
    harness_alloc heap = {0};
    wai_allocator al = harness_allocator(&heap);
    wai_ml_context c = {0};
    c.alloc = &al;
    wai_ml_graph g = {0};
    g.context = &c;
    g.limit = 1000;
    wai_ml_block b, more;
    CHECK(wai_ml_graph_keep(&g, &al, 900, &b) == WAI_ok);
    CHECK(b.held == 963 && g.held == 963 && ((uintptr_t)b.at & 63) == 0);
    CHECK((char *)b.at >= (char *)b.alloc && (char *)b.at + 900 <= (char *)b.alloc + 963);
    CHECK(wai_ml_graph_keep(&g, &al, 1, &more) == WAI_cost_over_limit);
    CHECK(!more.alloc && !more.at && !more.held && g.held == 963 && heap.live == 1);
    wai_ml_graph_drop(&g, &al, &b);
    CHECK(g.held == 0 && !b.alloc && heap.live == 0);
    wai_ml_graph_drop(&g, &al, &b); /* an empty block: nothing */
    CHECK(g.held == 0);
    CHECK(wai_ml_graph_keep(&g, &al, SIZE_MAX - 10, &b) == WAI_cost_over_limit && heap.calls == 1);
    heap.fail_at = heap.calls + 1;
    CHECK(wai_ml_graph_keep(&g, &al, 8, &b) == WAI_out_of_memory && g.held == 0 && !b.alloc);
    /* A NULL graph counts nothing. */
    CHECK(wai_ml_graph_keep(NULL, &al, 2000, &b) == WAI_ok && b.held == 2063);
    wai_ml_graph_drop(NULL, &al, &b);

    wai_status st = WAI_ok;
    void *p = wai_ml_graph_scratch(&g, 100, &st);
    CHECK(p && ((uintptr_t)p & 63) == 0 && g.held == 163 && g.scratch_bytes == 100);
    CHECK(wai_ml_graph_scratch(&g, 60, &st) == p && g.held == 163);
    /* 163 + 963 would pass 1000: it fits only once the old one is gone. */
    CHECK(wai_ml_graph_scratch(&g, 900, &st) && g.held == 963 && heap.live == 1);
    CHECK(!wai_ml_graph_scratch(&g, 1000, &st) && st == WAI_cost_over_limit);
    CHECK(g.held == 0 && g.scratch_bytes == 0 && heap.live == 0);
    CHECK(!wai_ml_graph_scratch(NULL, 8, &st) && st == WAI_OperationError);
    CHECK(heap.bytes_now == 0);
}

void suite_webnn_memory(void) {
    harness_run("webnn_graph_limit", test_graph_limit);
    harness_run("webnn_graph_blocks", test_graph_blocks);
}
