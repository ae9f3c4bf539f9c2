/* SPDX-License-Identifier: BSD-2-Clause */
/* WIH1 decode against a loaded set: §4's steps in §7's order of checks. */
#include "decode/int_hyper.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"
#include "common/exec.h"
#include "common/pool.h"
#include "entropy/latents.h"
#include "ops/cores.h"
#include "ops/layers.h"

wai_status wai_wih1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wih1 *v,
                            wai_hyper_plan *p) {
    const wai_hyper_set *h = WAI_LOADED(l, wai_hyper_set);
    memset(p, 0, sizeof *p);
    if (v->n_z > h->t.set->n_z) return WAI_model_mismatch;
    wai_status st = wai_plan_model(a, &h->h_s.model, v->n_z, v->zh, v->zw, &p->h_s);
    if (st == WAI_ok) st = wai_plan_model(a, &h->g_s.model, v->m, v->sh, v->sw, &p->g_s);
    if (st == WAI_ok && (p->h_s.out_c != wai_sat_mul(2, v->m) || p->h_s.out_h != v->sh ||
                         p->h_s.out_w != v->sw))
        st = WAI_geometry_mismatch;
    if (st == WAI_ok && p->g_s.out_c != 3) st = WAI_model_mismatch;
    if (st != WAI_ok) wai_hyper_plan_free(a, p);
    return st;
}

void wai_hyper_plan_free(const wai_allocator *a, wai_hyper_plan *p) {
    wai_plan_free(a, &p->h_s);
    wai_plan_free(a, &p->g_s);
    memset(p, 0, sizeof *p);
}

uint64_t wai_hyper_net_bytes(const wai_hyper_plan *p) {
    return p->h_s.work_bytes > p->g_s.work_bytes ? p->h_s.work_bytes : p->g_s.work_bytes;
}

void wai_wih1_cost(const wai_wih1 *v, const wai_hyper_plan *p, wai_cost *c) {
    uint64_t hw = wai_sat_mul(p->g_s.out_h, p->g_s.out_w);
    uint64_t z = wai_sat_mul3(v->n_z, v->zh, v->zw), y = wai_sat_mul3(v->m, v->sh, v->sw);
    c->output_bytes = wai_sat_mul(3, hw);
    c->entropy_steps = wai_sat_add(z, y);
    c->macs = wai_sat_add(p->h_s.macs, p->g_s.macs);
    uint64_t tensors = wai_sat_add(wai_sat_add(z, p->h_s.out_elems), wai_sat_add(y, p->g_s.out_elems));
    uint64_t net = wai_hyper_net_bytes(p);
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, tensors), net), c->output_bytes);
}

/* The RGB8 step over pixels i0 .. i1 - 1 of a share: the level's loop
 * (ops/cores.h; a call per value was a serial twentieth of a two-thread
 * WIH1 decode). */
typedef struct rgb8_job {
    const int64_t *planes;
    size_t hw;
    uint32_t afrac;
    uint8_t *rgb;
    unsigned n;
    wai_rgb8_fn fn;
} rgb8_job;

static void rgb8_share(void *arg, unsigned t) {
    const rgb8_job *j = arg;
    j->fn(j->rgb, j->planes, j->hw, j->hw * t / j->n, j->hw * (t + 1) / j->n, j->afrac);
}

/* Runs of at least this many pixels a thread. */
#define RGB8_SPLIT ((size_t)1 << 15)

void wai_rgb8_interleave(const wai_exec *ex, const int64_t *planes, size_t hw, uint32_t afrac,
                         uint8_t *rgb) {
    size_t n = wai_exec_threads(ex), most = hw / RGB8_SPLIT;
    if (n > most) n = most;
    if (n > WAI_THREADS_MAX) n = WAI_THREADS_MAX;
    rgb8_job j = {planes, hw, afrac, rgb, n ? (unsigned)n : 1, wai_exec_cores(ex)->rgb8};
    wai_exec_run(ex, j.n, rgb8_share, &j);
}

/* The hyper-latent: channel k against hyper table k, its offset and median. */
static wai_status decode_z(const wai_allocator *a, const wai_loaded_set *l, const wai_wih1 *v,
                           int64_t *z) {
    const wai_loaded_tables *t = &WAI_LOADED(l, wai_hyper_set)->t;
    wai_channel_coding *ch = wai_alloc_array(a, v->n_z, sizeof *ch);
    if (!ch) return WAI_out_of_memory;
    for (uint32_t k = 0; k < v->n_z; k++) {
        ch[k].table = &t->hyper[k];
        ch[k].offset = t->set->hyper[k].offset;
        ch[k].median = t->set->z_median_q[k];
    }
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->z_stream.bytes, v->z_stream.len);
    wai_status st = wai_decode_channels(&d, ch, v->n_z, (size_t)v->zh * v->zw, l->afrac, z);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    wai_free(a, ch);
    return st;
}

static wai_status decode_y(const wai_loaded_set *l, const wai_wih1 *v, const int64_t *hs,
                           int64_t *y) {
    const wai_loaded_tables *t = &WAI_LOADED(l, wai_hyper_set)->t;
    size_t n = (size_t)v->m * v->sh * v->sw;
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->y_stream.bytes, v->y_stream.len);
    wai_status st = wai_decode_bucketed(&d, t->latent, t->set->latent, t->set->scale_edges,
                                        t->set->n_edges, hs, hs + n, n, l->afrac, y);
    return st == WAI_ok ? wai_rans_end_canonical(&d) : st;
}

wai_status wai_wih1_decode(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                           const wai_wih1 *v, const wai_hyper_plan *p, uint8_t *rgb) {
    const wai_allocator *a = ex->alloc;
    const wai_hyper_set *h = WAI_LOADED(l, wai_hyper_set);
    /* Planning bounded every size by the caps, so each fits size_t. */
    int64_t *z = wai_alloc_array(a, (size_t)p->h_s.in_c * p->h_s.in_h * p->h_s.in_w, 8);
    int64_t *hs = wai_alloc_array(a, (size_t)p->h_s.out_elems, 8);
    int64_t *y = NULL, *g = NULL;
    wai_status st = WAI_out_of_memory;
    if (!z || !hs) goto done;
    if ((st = decode_z(a, l, v, z)) != WAI_ok) goto done;
    st = wai_backend_network(ex, k, &h->h_s.model, &h->h_s.sums, &p->h_s, z, hs);
    wai_free(a, z);
    z = NULL;
    if (st != WAI_ok) goto done;
    st = WAI_out_of_memory;
    if (!(y = wai_alloc_array(a, (size_t)p->g_s.in_c * p->g_s.in_h * p->g_s.in_w, 8))) goto done;
    if ((st = decode_y(l, v, hs, y)) != WAI_ok) goto done;
    wai_free(a, hs);
    hs = NULL;
    st = WAI_out_of_memory;
    if (!(g = wai_alloc_array(a, (size_t)p->g_s.out_elems, 8))) goto done;
    if ((st = wai_backend_network(ex, k, &h->g_s.model, &h->g_s.sums, &p->g_s, y, g)) != WAI_ok)
        goto done;
    wai_rgb8_interleave(ex, g, (size_t)p->g_s.out_h * p->g_s.out_w, l->afrac, rgb);
done:
    wai_free(a, g);
    wai_free(a, y);
    wai_free(a, hs);
    wai_free(a, z);
    return st;
}

/* ---- the codec (decode/codec.h) --------------------------------------------- */

static void hyper_set_free(const wai_allocator *a, void *own) {
    wai_hyper_set *h = own;
    wai_net_free(a, &h->g_s);
    wai_net_free(a, &h->h_s);
    wai_loaded_tables_free(a, &h->t);
    wai_free(a, h);
}

/* The row's members: g_s, h_s, the tables (decode/codecs.c, HYPER_SET). */
wai_status wai_int_hyper_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l) {
    const uint8_t *d[3];
    size_t n[3];
    for (int i = 0; i < 3; i++)
        if (wai_set_find(set, members[i], &d[i], &n[i]) != WAI_ok) return WAI_set_incomplete;
    wai_hyper_set *h = wai_loaded_own(a, l, sizeof *h, hyper_set_free);
    if (!h) return WAI_out_of_memory;
    wai_status st;
    if ((st = wai_loaded_net(a, d[0], n[0], 2, &h->g_s)) != WAI_ok ||
        (st = wai_loaded_net(a, d[1], n[1], 2, &h->h_s)) != WAI_ok ||
        (st = wai_loaded_tables_parse(a, d[2], n[2], NULL, &h->t)) != WAI_ok)
        return st;
    const wai_net *nets[] = {&h->g_s, &h->h_s};
    return wai_loaded_one_scale(l, nets, 2);
}

typedef struct image_job {
    wai_wih1 h;
    wai_hyper_plan p;
} image_job;

_Static_assert(sizeof(image_job) <= WAI_JOB_STATE_BYTES, "image_job fits a job");

static wai_status image_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_wih1_parse(data, len, 0, &WAI_JOB_STATE(j, image_job)->h);
}

static wai_status image_prepare(wai_job *j, const wai_allocator *a) {
    image_job *s = WAI_JOB_STATE(j, image_job);
    wai_status st = wai_wih1_prepare(a, j->set, &s->h, &s->p);
    if (st != WAI_ok) return st;
    wai_wih1_cost(&s->h, &s->p, &j->cost);
    j->net_work_bytes = wai_hyper_net_bytes(&s->p);
    j->out.kind = WAI_OUTPUT_IMAGE;
    j->out.width = s->p.g_s.out_w;
    j->out.height = s->p.g_s.out_h;
    j->out.n = 1;
    j->out.bytes = (size_t)j->cost.output_bytes;
    return WAI_ok;
}

static wai_status image_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    image_job *s = WAI_JOB_STATE(j, image_job);
    j->out.data = out;
    return wai_wih1_decode(ex, k, j->set, &s->h, &s->p, out);
}

static void image_release(wai_job *j, const wai_allocator *a) {
    wai_hyper_plan_free(a, &WAI_JOB_STATE(j, image_job)->p);
}

static void image_describe(const wai_job *j, wai_text *t) {
    wai_wih1_describe(&WAI_JOB_STATE(j, const image_job)->h, t);
}

const wai_codec_ops wai_int_hyper_ops = {.parse = image_parse,
                                         .prepare = image_prepare,
                                         .run = image_run,
                                         .release = image_release,
                                         .describe = image_describe};
