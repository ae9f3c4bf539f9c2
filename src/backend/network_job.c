/* SPDX-License-Identifier: BSD-2-Clause */
/* See network_job.h. */
#include "backend/network_job.h"

#include <string.h>

#include "common/alloc.h"
#include "ops/synth_convt.h"

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

static wai_status device_run(void *self, const wai_model *m, const wai_plan *p,
                             const int64_t *input, int64_t *output, uint64_t *amax) {
    const wai_net_device_of *of = self;
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
static wai_status device_run_synth(void *self, const wai_synth_model *m, uint32_t n,
                                   const int64_t *input, int64_t *output) {
    const wai_net_device_of *of = self;
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

void wai_net_device_bind(wai_net_device *dev, wai_net_device_of *of) {
    dev->self = of;
    dev->run = device_run;
    dev->run_synth = device_run_synth;
}
