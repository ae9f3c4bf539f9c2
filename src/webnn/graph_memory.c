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

void *wai_ml_graph_scratch(wai_ml_graph *g, size_t bytes, wai_status *st) {
    if (bytes <= g->scratch_bytes && g->scratch) return g->scratch;
    const wai_allocator *a = g->context->alloc;
    /* The old one goes first, so growing never holds both. */
    wai_free(a, g->scratch_alloc);
    wai_ml_graph_unhold(g, g->scratch_bytes ? (uint64_t)g->scratch_bytes + 63 : 0);
    g->scratch = g->scratch_alloc = NULL;
    g->scratch_bytes = 0;
    const size_t whole = bytes + 63;
    if (whole < bytes || !wai_ml_graph_hold(g, whole)) {
        *st = WAI_cost_over_limit;
        return NULL;
    }
    if (!(g->scratch_alloc = wai_alloc(a, whole))) {
        wai_ml_graph_unhold(g, whole);
        *st = WAI_out_of_memory;
        return NULL;
    }
    g->scratch = (void *)(((uintptr_t)g->scratch_alloc + 63) & ~(uintptr_t)63);
    g->scratch_bytes = bytes;
    return g->scratch;
}
