/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1's entropy network before each pass, whole or with its first layer
 * kept (decode/mlic_entropy.h says why the kept sums are exact). */
#include "decode/mlic_entropy.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/layers.h"

int wai_mlic_entropy_keepable(const wai_model *m) {
    return m->dims == 2 && m->n_layers >= 1 && m->layers[0].kind == WAI_LAYER_CONV &&
           m->layers[0].stride == 1;
}

void wai_mlic_entropy_tail(const wai_net *n, wai_model *m, wai_sums *s) {
    *m = n->model;
    m->layers = n->model.layers + 1;
    m->n_layers = n->model.n_layers - 1;
    m->storage = NULL;
    s->n_layers = n->sums.n_layers - 1;
    s->layers = n->sums.layers + 1;
    s->storage = NULL;
}

uint64_t wai_mlic_entropy_kept_bytes(const wai_model *m, const wai_plan *full, uint32_t cy,
                                     uint32_t k) {
    const wai_layer *l = &m->layers[0];
    const uint64_t plane = (uint64_t)full->in_h * full->in_w, out = full->layers[0].out_elems;
    const uint64_t i64s = wai_sat_add(wai_sat_add(wai_sat_mul(2, out), wai_sat_mul(cy / k, plane)),
                                      wai_sat_mul((uint64_t)k + 3, l->cout));
    return wai_sat_add(wai_sat_add(wai_sat_mul(8, i64s), wai_sat_mul(2, l->n_weights)),
                       wai_sat_mul((uint64_t)k + 1, sizeof(wai_layer)));
}

static const wai_allocator *alloc_of(const wai_mlic_entropy *e) {
    return e->ws->ex ? e->ws->ex->alloc : NULL;
}

/* Part p's layer: input channels [c0, c0 + n) of the first layer, its
 * weights copied to `to`, mult 1, bias 0, shift 0 (its requantisation is
 * the identity: the output is the exact sum). */
static void make_part(wai_mlic_entropy *e, uint32_t p, uint32_t c0, uint32_t n, int16_t *to) {
    const wai_layer *l = &e->net->model.layers[0];
    const size_t kk = (size_t)l->k * l->k;
    wai_layer *q = &e->parts[p];
    *q = *l;
    q->cin = n;
    q->weights = to;
    q->n_weights = (uint64_t)l->cout * n * kk;
    q->mult = e->one_zero;
    q->bias = e->one_zero + l->cout;
    for (size_t o = 0; o < l->cout; o++)
        memcpy(to + o * n * kk, l->weights + (o * l->cin + c0) * kk, n * kk * sizeof *to);
    wai_layer_param_sums(q, 2, e->sums + (size_t)p * l->cout);
}

/* The first layer's bound at A = a, as a whole run checks it before the
 * layer: every A the kept sums reach passes it first. */
static wai_status first_bound(const wai_mlic_entropy *e, uint64_t a) {
    const wai_layer *l = &e->net->model.layers[0];
    return wai_bound_conv(a, e->net->sums.layers[0].sums, l->mult, l->bias, l->cout,
                          e->net->model.shift);
}

/* Part p's exact sums on in (its channels' planes) into out. */
static wai_status part_sums(const wai_mlic_entropy *e, uint32_t p, const int64_t *in, int64_t *out) {
    const wai_plan_layer *pl = &e->full->layers[0];
    return e->kern->conv2d(e->ws->ex, &e->parts[p], e->sums + (size_t)p * pl->out_c, 0, in,
                           pl->in_h, pl->in_w, out, pl->out_h, pl->out_w);
}

wai_status wai_mlic_entropy_begin(wai_mlic_entropy *e, wai_network_ws *ws,
                                  const wai_kernels *kern, const wai_net *net,
                                  const wai_plan *full, const wai_plan *tail, uint32_t cy,
                                  uint32_t k, int keep, const int64_t *x) {
    memset(e, 0, sizeof *e);
    e->ws = ws, e->kern = kern, e->net = net, e->full = full, e->tail = tail;
    e->cy = cy, e->k = k, e->h = full->in_h, e->w = full->in_w;
    if (!keep) return WAI_ok;
    wai_mlic_entropy_tail(net, &e->tail_model, &e->tail_sums);
    const wai_allocator *a = alloc_of(e);
    const wai_layer *l = &net->model.layers[0];
    const wai_plan_layer *pl = &full->layers[0];
    const size_t plane = (size_t)e->h * e->w, out = (size_t)pl->out_elems;
    e->acc = wai_alloc_array(a, out, sizeof *e->acc);
    e->tmp = wai_alloc_array(a, out, sizeof *e->tmp);
    e->slice = wai_alloc_array(a, (size_t)(cy / k) * plane, sizeof *e->slice);
    e->parts = wai_alloc_array(a, (size_t)k + 1, sizeof *e->parts);
    e->sums = wai_alloc_array(a, ((size_t)k + 1) * l->cout, sizeof *e->sums);
    e->weights = wai_alloc_array(a, (size_t)l->n_weights, sizeof *e->weights);
    e->one_zero = wai_alloc_array(a, 2 * (size_t)l->cout, sizeof *e->one_zero);
    if (!e->acc || !e->tmp || !e->slice || !e->parts || !e->sums || !e->weights || !e->one_zero) {
        wai_mlic_entropy_end(e);
        return WAI_out_of_memory;
    }
    for (uint32_t o = 0; o < l->cout; o++) e->one_zero[o] = 1, e->one_zero[l->cout + o] = 0;
    const uint32_t s = cy / k;
    const size_t kk = (size_t)l->k * l->k;
    for (uint32_t j = 0; j < k; j++) make_part(e, j, j * s, s, e->weights + (size_t)l->cout * j * s * kk);
    make_part(e, k, cy, l->cin - cy, e->weights + (size_t)l->cout * cy * kk);
    /* y is all 0: the sums start as the hyper latent's alone. */
    e->a = wai_max_abs_i64(x, (size_t)l->cin * plane);
    wai_status st = first_bound(e, e->a);
    if (st != WAI_ok) return st;
    st = part_sums(e, k, x + (size_t)cy * plane, e->acc);
    if (st == WAI_ok) e->kept = 1;
    else if (st != WAI_field_range) return st;
    /* field_range: a part's bound (its own +1 past the sum) refused where
     * the layer's may not: the plain way, which refuses as a run does. */
    return WAI_ok;
}

wai_status wai_mlic_entropy_run(wai_mlic_entropy *e, const int64_t *x, int64_t *sm) {
    const wai_net *n = e->net;
    if (!e->kept)
        return wai_backend_network_ws(e->ws, e->kern, &n->model, &n->sums, e->full, x, sm);
    /* e->a passed the first layer's bound when it was set (begin, took). */
    const wai_layer *l = &n->model.layers[0];
    const wai_cores *cores = wai_exec_cores(e->ws->ex);
    const size_t per = (size_t)(e->full->layers[0].out_elems / l->cout);
    for (size_t o = 0; o < l->cout; o++)
        cores->requant(e->tmp + o * per, 1, (const uint64_t *)e->acc + o * per, per, l->mult[o],
                       n->model.shift, l->bias[o]);
    return wai_network_run_ws(e->ws, e->kern, &e->tail_model, &e->tail_sums, e->tail, e->tmp, sm);
}

wai_status wai_mlic_entropy_took(wai_mlic_entropy *e, const int64_t *x, uint32_t j,
                                 uint32_t pass) {
    if (!e->kept) return WAI_ok;
    const size_t plane = (size_t)e->h * e->w, s = e->cy / e->k;
    const int64_t *y = x + j * s * plane;
    memset(e->slice, 0, s * plane * sizeof *e->slice);
    uint64_t a = e->a;
    for (size_t c = 0; c < s; c++)
        for (uint32_t r = 0; r < e->h; r++)
            for (uint32_t col = (r + pass) & 1; col < e->w; col += 2) {
                const size_t p = c * plane + (size_t)r * e->w + col;
                const uint64_t m = wai_abs_i64(y[p]);
                e->slice[p] = y[p];
                if (m > a) a = m;
            }
    /* The next run's bound first: past it, a sum could leave i64. */
    wai_status st = first_bound(e, a);
    if (st != WAI_ok) return st;
    e->a = a;
    st = part_sums(e, j, e->slice, e->tmp);
    if (st == WAI_field_range) {
        e->kept = 0; /* as in begin */
        return WAI_ok;
    }
    if (st != WAI_ok) return st;
    /* |each sum| <= A·S_o <= 2^63 - 1, the bound just checked. */
    const size_t out = (size_t)e->full->layers[0].out_elems;
    for (size_t i = 0; i < out; i++) e->acc[i] += e->tmp[i];
    return WAI_ok;
}

void wai_mlic_entropy_end(wai_mlic_entropy *e) {
    const wai_allocator *a = alloc_of(e);
    wai_free(a, e->acc), wai_free(a, e->tmp), wai_free(a, e->slice), wai_free(a, e->parts);
    wai_free(a, e->sums), wai_free(a, e->weights), wai_free(a, e->one_zero);
    e->acc = e->tmp = e->slice = e->one_zero = NULL;
    e->parts = NULL, e->sums = NULL, e->weights = NULL;
    e->kept = 0;
}
