/* SPDX-License-Identifier: BSD-2-Clause */
/* The network runner (see network.h): one arena for the whole run, each
 * layer through the kernel table, the output copied out only after the
 * last layer has run. */
#include "ops/network.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/layers_fast.h"

/* The reference transposed convolution allocates nothing. */
static wai_status conv_t2d_ref(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                               uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                               int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow) {
    (void)ex;
    return wai_conv_t2d_ref(l, sums, shift, x, h, w, scratch, y, oh, ow);
}

static wai_status conv2d_ref(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                             int64_t *y, uint32_t oh, uint32_t ow) {
    (void)ex;
    return wai_conv2d_ref(l, sums, shift, x, h, w, y, oh, ow);
}

static wai_status conv_t1d_ref(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                               uint32_t shift, const int64_t *x, uint32_t len, int64_t *scratch,
                               int64_t *y, uint32_t olen) {
    (void)ex;
    return wai_conv_t1d_ref(l, sums, shift, x, len, scratch, y, olen);
}

static wai_status igdn_ref(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                           int64_t *y) {
    (void)ex;
    return wai_igdn_ref(l, sums, gf, afrac, x, positions, y);
}

const wai_kernels wai_kernels_ref = {
    conv2d_ref, conv_t2d_ref, conv_t1d_ref, igdn_ref, wai_relu_ref, wai_leaky_ref, 0,
};

/* The fast kernels where there are any; tests/unit/test_layers_diff.c and
 * test_network.c hold them to the reference. */
const wai_kernels wai_kernels_fast = {
    wai_conv2d_fast, wai_conv_t2d_fast, wai_conv_t1d_fast, wai_igdn_fast, wai_relu_ref,
    wai_leaky_ref,   1,
};

const wai_kernels *wai_kernels_init(int isa) {
    return isa == WAI_KERNELS_REFERENCE ? &wai_kernels_ref : &wai_kernels_fast;
}

/* The plan, the sums and the model describe the same network: same layer
 * count and kinds, sums of the count each kind reads, sizes that the
 * planner's cap (2^26) keeps addressable. */
static int consistent(const wai_model *m, const wai_sums *s, const wai_plan *p) {
    if (p->dims != m->dims || (m->dims != 1 && m->dims != 2) || p->n_layers != m->n_layers ||
        s->n_layers != m->n_layers || (m->n_layers > 0 && (!p->layers || !s->layers || !m->layers)))
        return 0;
    if (!wai_fits_size(p->out_elems)) return 0;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        const wai_plan_layer *pl = &p->layers[i];
        const wai_layer_sums *ls = &s->layers[i];
        uint32_t need = wai_layer_param_sum_count(l);
        if (pl->kind != l->kind || ls->n != need || (need > 0 && !ls->sums) ||
            !wai_fits_size(pl->in_elems) || !wai_fits_size(pl->out_elems) ||
            !wai_fits_size(pl->uncropped_elems))
            return 0;
        /* A 1-D network has no convolution (WAM1 has no such tag) and
         * runs on one row. */
        if (m->dims == 1 && (l->kind == WAI_LAYER_CONV || pl->in_h != 1 || pl->out_h != 1))
            return 0;
    }
    return 1;
}

/* One layer from x (the plan's in shape) into y (its out shape). */
static wai_status run_layer(const wai_exec *ex, const wai_kernels *k, const wai_model *m,
                            const wai_layer *l, const wai_plan_layer *pl, const uint64_t *sums,
                            const int64_t *x, int64_t *scratch, int64_t *y) {
    switch (l->kind) {
    case WAI_LAYER_CONV:
        return k->conv2d(ex, l, sums, m->shift, x, pl->in_h, pl->in_w, y, pl->out_h, pl->out_w);
    case WAI_LAYER_CONV_T:
        if (m->dims == 1)
            return k->conv_t1d(ex, l, sums, m->shift, x, pl->in_w, scratch, y, pl->out_w);
        return k->conv_t2d(ex, l, sums, m->shift, x, pl->in_h, pl->in_w, scratch, y, pl->out_h,
                           pl->out_w);
    case WAI_LAYER_IGDN:
        return k->igdn(ex, l, sums, m->gf, m->afrac, x, (size_t)pl->in_h * pl->in_w, y);
    case WAI_LAYER_RELU:
        return k->relu(x, (size_t)pl->in_elems, y);
    case WAI_LAYER_LEAKY:
        return k->leaky(l, x, (size_t)pl->in_elems, y);
    }
    return WAI_invalid_argument;
}

/* Layer i runs in place on the region holding its input: the fast
 * table's inverse GDN (wai_igdn_fast_inplace) past layer 0, whose input is
 * the caller's. */
static int runs_in_place(const wai_kernels *k, const wai_layer *l, uint32_t i) {
    return i > 0 && l->kind == WAI_LAYER_IGDN && k->in_place_igdn;
}

/* One arena holds every layer's buffers in turn. A layer's output lies at
 * the end of the arena opposite to its input (an in-place layer's on its
 * input), its uncropped plane between the two, so the arena need only hold
 * the largest layer's input + output + plane: the network's declared
 * working bytes (ops/plan.h), and never more. Layer 0's input is the
 * caller's. */
static uint64_t arena_need(const wai_plan *p) {
    uint64_t need = 0;
    for (uint32_t i = 0; i < p->n_layers; i++) {
        const wai_plan_layer *pl = &p->layers[i];
        /* Each term is at most 2^26 (the planner's cap): no overflow. */
        uint64_t n = (i ? pl->in_elems : 0) + pl->out_elems + pl->uncropped_elems;
        if (n > need) need = n;
    }
    return need;
}

/* Makes the arena hold at least n elements (its contents need not
 * survive). 0 when it cannot be had. */
static int ws_reserve(wai_network_ws *ws, uint64_t n) {
    const wai_allocator *a = ws->ex ? ws->ex->alloc : NULL;
    if (n <= ws->cap && (ws->arena || n == 0)) return 1;
    wai_free(a, ws->arena);
    ws->cap = 0;
    ws->arena = wai_alloc_array(a, (size_t)n, sizeof(int64_t));
    if (!ws->arena) return n == 0;
    ws->cap = n;
    return 1;
}

void wai_network_ws_init(wai_network_ws *ws, const wai_exec *ex) {
    memset(ws, 0, sizeof *ws);
    ws->ex = ex;
}

void wai_network_ws_free(wai_network_ws *ws) {
    wai_free(ws->ex ? ws->ex->alloc : NULL, ws->arena);
    wai_network_ws_init(ws, ws->ex);
}

wai_status wai_network_run(const wai_allocator *a, const wai_kernels *k, const wai_model *m,
                           const wai_sums *s, const wai_plan *p, const int64_t *input,
                           int64_t *output) {
    const wai_exec ex = {.alloc = a};
    return wai_network_run_ex(&ex, k, m, s, p, input, output);
}

wai_status wai_network_run_ex(const wai_exec *ex, const wai_kernels *k, const wai_model *m,
                              const wai_sums *s, const wai_plan *p, const int64_t *input,
                              int64_t *output) {
    if (ex && ex->ws) return wai_network_run_ws(ex->ws, k, m, s, p, input, output);
    wai_network_ws ws;
    wai_network_ws_init(&ws, ex);
    wai_status st = wai_network_run_ws(&ws, k, m, s, p, input, output);
    wai_network_ws_free(&ws);
    return st;
}

wai_status wai_network_run_ws(wai_network_ws *ws, const wai_kernels *k, const wai_model *m,
                              const wai_sums *s, const wai_plan *p, const int64_t *input,
                              int64_t *output) {
    if (!k) k = &wai_kernels_ref;
    if (!consistent(m, s, p)) return WAI_invalid_argument;
    if (m->n_layers == 0) {
        if (p->out_elems) memcpy(output, input, (size_t)p->out_elems * sizeof *output);
        return WAI_ok;
    }
    const uint64_t e = arena_need(p);
    if (!ws_reserve(ws, e)) return WAI_out_of_memory;

    /* The kernels run on a copy of the exec that carries this run's notes
     * of A (ops/cores.h, wai_amax); nothing else differs. */
    wai_amax_notes notes;
    const wai_amax none = {NULL, 0, 0, 0};
    notes.in = notes.out = none;
    wai_exec lex;
    if (ws->ex) lex = *ws->ex;
    else memset(&lex, 0, sizeof lex);
    lex.notes = &notes;
    const wai_exec *ex = &lex;
    const int64_t *x = input;
    int at_end = 1; /* where the input lies: layer 0's is outside, so its output goes first */
    wai_status st = WAI_ok;
    for (uint32_t i = 0; i < m->n_layers && st == WAI_ok; i++) {
        const wai_layer *l = &m->layers[i];
        const wai_plan_layer *pl = &p->layers[i];
        /* The last layer's note, where it is of this layer's input. */
        notes.in = notes.out.known && notes.out.x == x ? notes.out : none;
        notes.out = none;
        if (runs_in_place(k, l, i)) {
            st = wai_igdn_fast_inplace(ex, l, s->layers[i].sums, m->gf, m->afrac,
                                       (int64_t *)x, (size_t)pl->in_h * pl->in_w);
            continue;
        }
        /* Output at the end opposite the input, the plane beside it. */
        uint64_t in = i ? pl->in_elems : 0;
        int64_t *y = at_end ? ws->arena : ws->arena + (e - pl->out_elems);
        int64_t *plane = at_end ? ws->arena + pl->out_elems : ws->arena + in;
        st = run_layer(ex, k, m, l, pl, s->layers[i].sums, x, plane, y);
        x = y;
        at_end = !at_end;
    }
    if (st != WAI_ok) return st;
    if (p->out_elems) memcpy(output, x, (size_t)p->out_elems * sizeof *output);
    return WAI_ok;
}
