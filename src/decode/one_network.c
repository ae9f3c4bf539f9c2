/* SPDX-License-Identifier: BSD-2-Clause */
/* See one_network.h. */
#include "decode/one_network.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"

/* A job's state: the plan, and the format's parsed header. */
typedef struct one_job {
    wai_plan p;
    uint64_t n_lat;
    _Alignas(16) unsigned char header[WAI_ONE_NETWORK_HEADER_MAX];
} one_job;

_Static_assert(sizeof(one_job) <= WAI_JOB_STATE_BYTES, "one_job fits a job");

static const wai_one_network_format *format_of(const wai_job *j) { return j->codec->ops->impl; }

wai_status wai_one_network_parse(wai_job *j, const uint8_t *data, size_t len) {
    const wai_one_network_format *f = format_of(j);
    if (f->header_bytes > WAI_ONE_NETWORK_HEADER_MAX) return WAI_invalid_argument;
    return f->parse(data, len, WAI_JOB_STATE(j, one_job)->header);
}

wai_status wai_one_network_prepare(wai_job *j, const wai_allocator *a) {
    const wai_one_network_format *f = format_of(j);
    one_job *s = WAI_JOB_STATE(j, one_job);
    wai_status st = f->prepare(a, j->set, s->header, &s->p);
    if (st != WAI_ok) return st;
    wai_cost *c = &j->cost;
    s->n_lat = f->shape(s->header, &c->output_bytes, j);
    c->entropy_steps = s->n_lat;
    c->macs = s->p.macs;
    c->working_bytes =
        wai_sat_add(wai_sat_add(wai_sat_mul(8, wai_sat_add(s->n_lat, s->p.out_elems)),
                                s->p.work_bytes),
                    c->output_bytes);
    j->net_work_bytes = s->p.work_bytes;
    j->out.n = 1;
    j->out.bytes = (size_t)c->output_bytes;
    return WAI_ok;
}

/* The latent, the network, the last step into out. */
wai_status wai_one_network_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    const wai_one_network_format *f = format_of(j);
    const one_job *s = WAI_JOB_STATE(j, one_job);
    const wai_net *net = wai_one_network_net(j->set);
    const wai_allocator *a = ex->alloc;
    /* Planning bounded both sizes by the caps, so each fits size_t. */
    int64_t *lat = wai_alloc_array(a, (size_t)s->n_lat, 8);
    int64_t *y = wai_alloc_array(a, (size_t)s->p.out_elems, 8);
    wai_status st = WAI_out_of_memory;
    if (lat && y && (st = f->latent(s->header, a, lat)) == WAI_ok &&
        (st = wai_backend_network(ex, k, &net->model, &net->sums, &s->p, lat, y)) == WAI_ok)
        st = f->finish(s->header, y, out);
    wai_free(a, y);
    wai_free(a, lat);
    j->out.data = out;
    return st;
}

void wai_one_network_release(wai_job *j, const wai_allocator *a) {
    wai_plan_free(a, &WAI_JOB_STATE(j, one_job)->p);
}

void wai_one_network_describe(const wai_job *j, wai_text *t) {
    format_of(j)->describe(WAI_JOB_STATE(j, const one_job)->header, t);
}

static void net_free(const wai_allocator *a, void *own) {
    wai_net_free(a, own);
    wai_free(a, own);
}

wai_status wai_one_network_load(const wai_allocator *a, const wai_set *set, const char *member,
                                int dims, wai_loaded_set *l) {
    const uint8_t *data;
    size_t len;
    if (wai_set_find(set, member, &data, &len) != WAI_ok) return WAI_set_incomplete;
    wai_net *n = wai_loaded_own(a, l, sizeof *n, net_free);
    if (!n) return WAI_out_of_memory;
    wai_status st = wai_loaded_net(a, data, len, dims, n);
    const wai_net *nets[] = {n};
    return st == WAI_ok ? wai_loaded_one_scale(l, nets, 1) : st;
}
