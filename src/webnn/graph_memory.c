/* SPDX-License-Identifier: BSD-2-Clause */
/* What a graph holds, counted against its limit (declared in ml.h beside
 * wai_ml_graph_bytes): its constants and arena, what its kernels keep
 * (hold), a run's temporaries (take), and the scratch its operators share
 * in turn. A decode's max_memory sets the limit (backend.c); each count
 * comes before its allocation, so a run past the limit stops having
 * allocated nothing more. */
#include <stdint.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "webnn/ml.h"

uint64_t wai_ml_graph_bytes(const wai_ml_graph *g) {
    uint64_t n = g->arena_floats;
    for (uint32_t i = 0; i < g->n_operands; i++)
        if (g->constants[i]) n += wai_ml_elements(&g->descs[i]);
    return wai_sat_add(wai_sat_mul(4, n), g->held);
}

/* Whether `bytes` more fit beside what g holds and has taken. */
static int fits(const wai_ml_graph *g, uint64_t bytes) {
    const uint64_t now = wai_sat_add(wai_ml_graph_bytes(g), g->temp);
    return now <= g->limit && bytes <= g->limit - now;
}

/* Adds `bytes` to *sum (g's held or temp) where they fit beside the rest. */
static int count(wai_ml_graph *g, uint64_t *sum, uint64_t bytes) {
    if (!fits(g, bytes)) return 0;
    *sum += bytes;
    return 1;
}

static void uncount(uint64_t *sum, uint64_t bytes) { *sum -= bytes < *sum ? bytes : *sum; }

int wai_ml_graph_hold(wai_ml_graph *g, uint64_t bytes) { return !g || count(g, &g->held, bytes); }

void wai_ml_graph_unhold(wai_ml_graph *g, uint64_t bytes) {
    if (g) uncount(&g->held, bytes);
}

int wai_ml_graph_take(wai_ml_graph *g, uint64_t bytes) { return !g || count(g, &g->temp, bytes); }

void wai_ml_graph_give(wai_ml_graph *g, uint64_t bytes) {
    if (g) uncount(&g->temp, bytes);
}

wai_status wai_ml_graph_keep(wai_ml_graph *g, const wai_allocator *a, size_t bytes, wai_ml_block *b) {
    *b = (wai_ml_block){0};
    const size_t whole = bytes + 63;
    if (whole < bytes || !wai_ml_graph_hold(g, whole)) return WAI_cost_over_limit;
    if (!(b->alloc = wai_alloc(a, whole))) {
        wai_ml_graph_unhold(g, whole);
        return WAI_out_of_memory;
    }
    b->at = (void *)(((uintptr_t)b->alloc + 63) & ~(uintptr_t)63);
    b->held = whole;
    return WAI_ok;
}

void wai_ml_graph_drop(wai_ml_graph *g, const wai_allocator *a, wai_ml_block *b) {
    wai_free(a, b->alloc);
    wai_ml_graph_unhold(g, b->held);
    *b = (wai_ml_block){0};
}

void *wai_ml_graph_scratch(wai_ml_graph *g, size_t bytes, wai_status *st) {
    if (!g) {
        *st = WAI_OperationError;
        return NULL;
    }
    if (bytes <= g->scratch_bytes && g->scratch.at) return g->scratch.at;
    /* The old one goes first, so growing never holds both. */
    const wai_allocator *a = g->context->alloc;
    wai_ml_graph_drop(g, a, &g->scratch);
    g->scratch_bytes = 0;
    if ((*st = wai_ml_graph_keep(g, a, bytes, &g->scratch)) != WAI_ok) return NULL;
    g->scratch_bytes = bytes;
    return g->scratch.at;
}
