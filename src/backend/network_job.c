/* SPDX-License-Identifier: BSD-2-Clause */
/* See network_job.h. */
#include "backend/network_job.h"

#include <string.h>

#include "common/alloc.h"
#include "ops/bounds.h"

static void layer_view(const wai_layer *l, const wai_plan_layer *pl, wai_network_layer *v) {
    memset(v, 0, sizeof *v);
    v->kind = (uint32_t)l->kind;
    v->cin = l->cin, v->cout = l->cout, v->k = l->k, v->stride = l->stride, v->pad = l->pad;
    v->opad = l->opad;
    v->c = l->c, v->lshift = l->lshift, v->slope = l->slope;
    v->weights = l->weights, v->mult = l->mult, v->bias = l->bias;
    v->gamma = l->gamma, v->beta = l->beta;
    v->in_c = pl->in_c, v->in_h = pl->in_h, v->in_w = pl->in_w;
    v->out_c = pl->out_c, v->out_h = pl->out_h, v->out_w = pl->out_w;
}

/* The network as a public job for the binding's backend: every layer's
 * output computed, amax[i] written for i >= 1. */
static wai_status job_run(const wai_backend_binding *of, const wai_model *m, const wai_plan *p,
                          const int64_t *input, int64_t *output, uint64_t *amax) {
    wai_network_layer *views = wai_alloc_array(of->alloc, m->n_layers, sizeof *views);
    if (!views) return WAI_out_of_memory;
    for (uint32_t i = 0; i < m->n_layers; i++) layer_view(&m->layers[i], &p->layers[i], &views[i]);
    wai_network_job job;
    memset(&job, 0, sizeof job);
    job.network = m;
    job.dims = (uint32_t)m->dims;
    job.afrac = m->afrac, job.gf = m->gf, job.shift = m->shift;
    job.n_layers = m->n_layers;
    job.layers = views;
    job.input = input;
    job.output = output;
    job.amax = amax;
    wai_status st = of->desc->network(of->self, of->program, &job);
    wai_free(of->alloc, views);
    return st;
}

/* int_synth's chain: kind 5 layers, their sides from the input's. */
static wai_status job_synth(const wai_backend_binding *of, const wai_synth_model *m, uint32_t n,
                            const int64_t *input, int64_t *output) {
    wai_network_layer *views = wai_alloc_array(of->alloc, m->n_layers, sizeof *views);
    uint64_t *amax = wai_alloc_array(of->alloc, m->n_layers, sizeof *amax);
    wai_status st = WAI_out_of_memory;
    if (views && amax) {
        uint64_t side = n;
        for (uint32_t i = 0; i < m->n_layers; i++) {
            const wai_synth_layer *l = &m->layers[i];
            wai_network_layer *v = &views[i];
            memset(v, 0, sizeof *v);
            const uint64_t next = wai_synth_out_side(l, side);
            v->kind = 5;
            v->cin = l->in, v->cout = l->out, v->k = l->k, v->stride = l->stride;
            v->pad = l->pad, v->opad = l->out_pad;
            v->weights32 = l->weight, v->bias32 = l->bias;
            v->synth_shift = l->shift, v->relu = (uint32_t)(l->relu != 0);
            /* Planned by the codec: every side within 2^26. */
            v->in_c = l->in, v->in_h = v->in_w = (uint32_t)side;
            v->out_c = l->out, v->out_h = v->out_w = (uint32_t)next;
            side = next;
        }
        memset(amax, 0, (size_t)m->n_layers * sizeof *amax);
        wai_network_job job;
        memset(&job, 0, sizeof job);
        job.network = m;
        job.dims = 2;
        job.n_layers = m->n_layers;
        job.layers = views;
        job.input = input;
        job.output = output;
        job.amax = amax;
        st = of->desc->network(of->self, of->program, &job);
    }
    wai_free(of->alloc, views);
    wai_free(of->alloc, amax);
    return st;
}

/* On a plug-in: layer 0's bound first, the run into a buffer of its own,
 * then every later layer's bound from the A the backend reports, in order,
 * as the kernels would have met them; the output leaves the buffer only
 * once all have passed. */
static wai_status on_plug_in(const wai_backend_binding *of, const wai_model *m,
                             const wai_sums *s, const wai_plan *p, const int64_t *input,
                             int64_t *output) {
    const wai_allocator *a = of->alloc;
    if (m->n_layers == 0) {
        if (p->out_elems) memcpy(output, input, (size_t)p->out_elems * sizeof *output);
        return WAI_ok;
    }
    uint64_t a0 = wai_max_abs_i64(input, (size_t)p->layers[0].in_elems);
    wai_status st = wai_bound_layer(&m->layers[0], s->layers[0].sums, m->gf, m->shift, m->afrac, a0);
    if (st != WAI_ok) return st;
    int64_t *held = wai_alloc_array(a, (size_t)p->out_elems + 1, sizeof *held);
    uint64_t *amax = wai_alloc_array(a, m->n_layers, sizeof *amax);
    if (!held || !amax) {
        wai_free(a, held);
        wai_free(a, amax);
        return WAI_out_of_memory;
    }
    memset(amax, 0, (size_t)m->n_layers * sizeof *amax);
    amax[0] = a0;
    st = job_run(of, m, p, input, held, amax);
    for (uint32_t i = 1; st == WAI_ok && i < m->n_layers; i++)
        st = wai_bound_layer(&m->layers[i], s->layers[i].sums, m->gf, m->shift, m->afrac,
                             amax[i]);
    if (st == WAI_ok && p->out_elems) memcpy(output, held, (size_t)p->out_elems * sizeof *output);
    wai_free(a, held);
    wai_free(a, amax);
    return st;
}

wai_status wai_backend_network(const wai_exec *ex, const wai_kernels *k, const wai_model *m,
                               const wai_sums *s, const wai_plan *p, const int64_t *input,
                               int64_t *output) {
    if (ex && ex->backend) return on_plug_in(ex->backend, m, s, p, input, output);
    return wai_network_run_ex(ex, k, m, s, p, input, output);
}

wai_status wai_backend_network_ws(wai_network_ws *ws, const wai_kernels *k, const wai_model *m,
                                  const wai_sums *s, const wai_plan *p, const int64_t *input,
                                  int64_t *output) {
    if (ws->ex && ws->ex->backend) return on_plug_in(ws->ex->backend, m, s, p, input, output);
    return wai_network_run_ws(ws, k, m, s, p, input, output);
}

wai_status wai_backend_synth(const wai_exec *ex, const wai_synth_model *m, uint64_t c,
                             uint64_t n, int64_t *buf, uint64_t room, uint64_t *side) {
    if (ex && ex->backend) {
        /* The whole chain, its output at the buffer's end (over the input
         * where they overlap: a backend reads the whole input first). */
        const uint64_t n0 = n;
        for (uint32_t li = 0; li < m->n_layers; li++) n = wai_synth_out_side(&m->layers[li], n);
        c = m->n_layers ? m->layers[m->n_layers - 1].out : c;
        int64_t *o = buf + (room - c * n * n);
        wai_status st = job_synth(ex->backend, m, (uint32_t)n0, buf, o);
        if (st != WAI_ok) return st;
        memmove(buf, o, (size_t)(c * n * n) * 8);
    } else {
        /* Layer by layer: each output beside its input, then moved to the
         * start for the next. */
        for (uint32_t li = 0; li < m->n_layers; li++) {
            const wai_synth_layer *l = &m->layers[li];
            const uint64_t next = wai_synth_out_side(l, n), in_elems = c * n * n;
            wai_synth_convt(ex, l, buf, (uint32_t)n, buf + in_elems);
            memmove(buf, buf + in_elems, (size_t)(l->out * next * next) * 8);
            n = next, c = l->out;
        }
    }
    *side = n;
    return WAI_ok;
}
