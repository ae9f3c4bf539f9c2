/* SPDX-License-Identifier: BSD-2-Clause */
/* See interpreter.h. */
#include "backend/interpreter.h"

#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "ops/bounds.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "ops/synth_convt.h"

/* The instance is the context itself: its exec is how the kernels run. */
static wai_status create(wai_context *ctx, void **self) {
    *self = ctx;
    return WAI_ok;
}

/* The layer a view states (the runner reads its arrays, never writes them). */
static wai_layer layer_of(const wai_network_layer *v, int dims) {
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = (wai_layer_kind)v->kind;
    l.cin = v->cin, l.cout = v->cout, l.k = v->k, l.stride = v->stride, l.pad = v->pad;
    l.opad = v->opad;
    l.weights = (int16_t *)v->weights, l.mult = (int64_t *)v->mult, l.bias = (int64_t *)v->bias;
    l.c = v->c, l.gamma = (int32_t *)v->gamma, l.beta = (int64_t *)v->beta;
    l.slope = v->slope, l.lshift = v->lshift;
    if (l.kind == WAI_LAYER_CONV || l.kind == WAI_LAYER_CONV_T)
        l.n_weights = wai_layer_weight_count(&l, dims);
    return l;
}

static size_t elems(uint32_t c, uint32_t h, uint32_t w) { return (size_t)c * h * w; }

/* One layer as a network of its own on the context's kernels: planned on
 * its stated input, its sums, the runner's checks (field_range writes
 * nothing). */
static wai_status run_layer(const wai_exec *ex, const wai_network_job *job, const wai_layer *l,
                            const wai_network_layer *v, const int64_t *x, int64_t *y) {
    const wai_allocator *a = ex->alloc;
    wai_model m = {(int)job->dims, job->afrac, job->gf, job->shift, 1, (wai_layer *)l, NULL};
    wai_plan p;
    wai_sums s;
    memset(&s, 0, sizeof s);
    wai_status st = wai_plan_model(a, &m, v->in_c, v->in_h, v->in_w, &p);
    if (st != WAI_ok) return st;
    if (p.out_elems != elems(v->out_c, v->out_h, v->out_w)) st = WAI_invalid_argument;
    if (st == WAI_ok) st = wai_sums_compute(a, &m, &s);
    if (st == WAI_ok) st = wai_network_run_ex(ex, wai_exec_kernels(ex), &m, &s, &p, x, y);
    wai_sums_free(a, &s);
    wai_plan_free(a, &p);
    return st;
}

/* The operator set's layers, each input's largest |x| noted before it runs. */
static wai_status run_layers(const wai_exec *ex, wai_network_job *job, int64_t *buf[2]) {
    const int64_t *x = job->input;
    for (uint32_t i = 0; i < job->n_layers; i++) {
        const wai_network_layer *v = &job->layers[i];
        if (i) job->amax[i] = wai_max_abs_i64(x, elems(v->in_c, v->in_h, v->in_w));
        const wai_layer l = layer_of(v, (int)job->dims);
        wai_status st = run_layer(ex, job, &l, v, x, buf[i % 2]);
        if (st != WAI_ok) return st;
        x = buf[i % 2];
    }
    return WAI_ok;
}

/* int_synth's chain (every layer of kind 5). */
static wai_status run_synth(const wai_exec *ex, wai_network_job *job, int64_t *buf[2]) {
    const int64_t *x = job->input;
    for (uint32_t i = 0; i < job->n_layers; i++) {
        const wai_network_layer *v = &job->layers[i];
        if (v->kind != 5 || v->in_h != v->in_w) return WAI_invalid_argument;
        const wai_synth_layer l = {v->cin, v->cout, v->k, v->stride, v->pad, v->opad,
                                   v->synth_shift, (int)v->relu, (int32_t *)v->weights32,
                                   (int32_t *)v->bias32};
        if (wai_synth_out_side(&l, v->in_h) != v->out_h || v->out_h != v->out_w)
            return WAI_invalid_argument;
        wai_synth_convt(ex, &l, x, v->in_h, buf[i % 2]);
        x = buf[i % 2];
    }
    return WAI_ok;
}

static wai_status network(void *self, void *program, wai_network_job *job) {
    (void)program;
    const wai_context *ctx = self;
    wai_exec ex = ctx->exec;
    ex.ws = NULL, ex.backend = NULL;
    if (!job || job->n_layers == 0 || !job->layers) return WAI_invalid_argument;
    /* Two buffers of the largest layer output, for the layers in turn. */
    size_t most = 0;
    for (uint32_t i = 0; i < job->n_layers; i++) {
        const wai_network_layer *v = &job->layers[i];
        size_t n = elems(v->out_c, v->out_h, v->out_w);
        if (n > most) most = n;
    }
    int64_t *buf[2] = {wai_alloc_array(ex.alloc, most, 2 * sizeof(int64_t)), NULL};
    if (!buf[0]) return WAI_out_of_memory;
    buf[1] = buf[0] + most;
    const int synth = job->layers[0].kind == 5;
    wai_status st = synth ? run_synth(&ex, job, buf) : run_layers(&ex, job, buf);
    if (st == WAI_ok) {
        const wai_network_layer *last = &job->layers[job->n_layers - 1];
        memmove(job->output, buf[(job->n_layers - 1) % 2],
                elems(last->out_c, last->out_h, last->out_w) * sizeof(int64_t));
    }
    wai_free(ex.alloc, buf[0]);
    return st;
}

const wai_backend_ops wai_backend_interpreter = {
    .name = "wai-ops",
    .path = {WAI_UNIT_CPU, WAI_BACKEND_WAI_OPS, WAI_ARITHMETIC_INTEGER},
    .create = create,
    .network = network,
};
