/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_mlicpp (integer-payloads §14, docs/int_mlicpp.md): a WIM1
 * payload against its WMB1 bundle. One decode, top to bottom:
 *   parse    the 36-byte header and the two streams' extents (formats/wim1.c)
 *   set      model.wmb's four sections (formats/bundle.c): h_s, entropy and
 *            g_s as WHM1 networks, the tables as entropy.json with afrac
 *            (t2 tables, at most 65536 edges), the load checks (S9)
 *   prepare  step 1: Cz against the z tables, the three networks planned
 *            on the payload's shapes (every fault model_mismatch, S8);
 *            the declared cost (S13)
 *   run      the z stream, h_s, the y stream over K slices x two
 *            checkerboard passes with the entropy network run before each
 *            pass on the partly decoded y (S11), g_s, RGB8
 * A refusal of the payload, a stream or a value the decode forms is
 * payload_malformed; the bundle's, model_mismatch. */
#include "decode/int_mlicpp.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"
#include "decode/int_hyper.h"
#include "decode/mlic_entropy.h"
#include "entropy/latents.h"
#include "formats/wim1.h"
#include "formats/bundle.h"
#include "ops/layers.h"

/* ---- the set ------------------------------------------------------------------- */

/* S9: at least one layer of tag 0, 1 or 2; the header's shift and gf under
 * 128; no (de)convolution bias of magnitude 2^63 - 1 or more. */
static int net_loads(const wai_model *m) {
    int has = 0;
    if (m->shift >= 128 || m->gf >= 128) return 0;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV || l->kind == WAI_LAYER_IGDN)
            has = 1;
        if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV)
            for (uint32_t o = 0; o < l->cout; o++)
                if (l->bias[o] >= INT64_MAX || l->bias[o] <= -INT64_MAX) return 0;
    }
    return has;
}

/* The loaded set's own object: the bundle's three networks and its tables. */
typedef struct mlic_set {
    wai_net h_s, entropy, g_s;
    wai_loaded_tables t;
} mlic_set;

static void mlic_set_free(const wai_allocator *a, void *own) {
    mlic_set *m = own;
    wai_net_free(a, &m->h_s);
    wai_net_free(a, &m->entropy);
    wai_net_free(a, &m->g_s);
    wai_loaded_tables_free(a, &m->t);
    wai_free(a, m);
}

/* The row's one member: the WMB1 bundle. */
wai_status wai_int_mlicpp_load_set(const wai_allocator *a, const wai_set *set,
                                   const char *const *members, wai_loaded_set *l) {
    const uint8_t *data;
    size_t len;
    if (wai_set_find(set, members[0], &data, &len) != WAI_ok) return WAI_set_incomplete;
    mlic_set *m = wai_loaded_own(a, l, sizeof *m, mlic_set_free);
    if (!m) return WAI_out_of_memory;
    wai_bundle b;
    wai_status st = wai_bundle_split(data, len, "WMB1", WAI_WMB1_SECTIONS, &b);
    if (st != WAI_ok) return st;
    wai_net *nets[3] = {&m->h_s, &m->entropy, &m->g_s};
    for (int i = 0; i < 3 && st == WAI_ok; i++)
        st = wai_loaded_net(a, b.section[i], b.len[i], 2, nets[i]);
    const wai_entropy_rules rules = WAI_WMB1_TABLE_RULES;
    if (st == WAI_ok)
        st = wai_loaded_tables_parse(a, b.section[WAI_WMB1_TABLES], b.len[WAI_WMB1_TABLES], &rules,
                                     &m->t);
    if (st == WAI_ok) {
        const wai_net *const one[] = {&m->h_s, &m->entropy, &m->g_s};
        st = wai_loaded_one_scale(l, one, 3);
    }
    if (st == WAI_ok && m->t.set->afrac != (int64_t)l->afrac) st = WAI_model_mismatch;
    for (int i = 0; i < 3 && st == WAI_ok; i++)
        if (!net_loads(&nets[i]->model)) st = WAI_model_mismatch;
    return st;
}

/* ---- the codec ------------------------------------------------------------------ */

typedef struct mlic_job {
    wai_wim1 v;
    wai_plan hs, ent, gs;
    wai_plan tail; /* the entropy network past its first layer, where it can be kept */
    int keep;
} mlic_job;

_Static_assert(sizeof(mlic_job) <= WAI_JOB_STATE_BYTES, "mlic_job fits a job");

static wai_status m_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_wim1_parse(data, len, &WAI_JOB_STATE(j, mlic_job)->v);
}

/* A network planned on [c, h, w] whose output must be [oc, oh, ow]:
 * every fault of step 1 is the bundle's not fitting the payload (S8). */
static wai_status plan(const wai_allocator *a, const wai_net *n, uint32_t c, uint32_t h, uint32_t w,
                       uint64_t oc, uint64_t oh, uint64_t ow, wai_plan *p) {
    wai_status st = wai_plan_model(a, &n->model, c, h, w, p);
    if (st == WAI_out_of_memory) return st;
    if (st != WAI_ok || p->out_c != oc || p->out_h != oh || p->out_w != ow) return WAI_model_mismatch;
    return WAI_ok;
}

static void m_release(wai_job *j, const wai_allocator *a) {
    mlic_job *s = WAI_JOB_STATE(j, mlic_job);
    wai_plan_free(a, &s->hs), wai_plan_free(a, &s->ent), wai_plan_free(a, &s->gs);
    wai_plan_free(a, &s->tail);
}

static wai_status m_prepare(wai_job *j, const wai_allocator *a) {
    mlic_job *s = WAI_JOB_STATE(j, mlic_job);
    const wai_wim1 *v = &s->v;
    const mlic_set *m = WAI_LOADED(j->set, mlic_set);
    if (v->cz > m->t.set->n_z) return WAI_model_mismatch;
    const uint64_t cy2 = 2 * (uint64_t)v->cy;
    /* 3·Cy fits u32: the parse held 3·Cy·Yh·Yw within 2^26. */
    wai_status st = plan(a, &m->h_s, v->cz, v->zh, v->zw, cy2, v->yh, v->yw, &s->hs);
    if (st == WAI_ok) st = plan(a, &m->entropy, 3 * v->cy, v->yh, v->yw, cy2, v->yh, v->yw, &s->ent);
    if (st == WAI_ok) st = plan(a, &m->g_s, v->cy, v->yh, v->yw, 3, v->h, v->w, &s->gs);
    if (st != WAI_ok) return st;
    /* The kept way's tail (decode/mlic_entropy.h): its layers planned
     * already, on the first layer's output. */
    s->keep = wai_mlic_entropy_keepable(&m->entropy.model);
    if (s->keep) {
        wai_model tm;
        wai_sums ts;
        wai_mlic_entropy_tail(&m->entropy, &tm, &ts);
        const wai_plan_layer *l0 = &s->ent.layers[0];
        st = wai_plan_model(a, &tm, l0->out_c, l0->out_h, l0->out_w, &s->tail);
        if (st != WAI_ok) return st == WAI_out_of_memory ? st : WAI_model_mismatch;
    }
    /* S13: every network's work, the entropy network 2·K times. */
    const uint64_t z = wai_sat_mul3(v->cz, v->zh, v->zw), y = wai_sat_mul3(v->cy, v->yh, v->yw);
    wai_cost *c = &j->cost;
    c->output_bytes = wai_sat_mul3(3, v->h, v->w);
    c->entropy_steps = wai_sat_add(z, y);
    c->macs = wai_sat_add(wai_sat_add(s->hs.macs, wai_sat_mul3(2, v->k, s->ent.macs)), s->gs.macs);
    /* Held at once: z, the entropy network's input (y and the hyper
     * latent, 3·Cy planes) and output (2·Cy), g_s's output, the largest
     * network's own buffers, the picture. */
    const uint64_t tensors =
        wai_sat_add(wai_sat_add(z, wai_sat_mul(5, y)), wai_sat_add(s->hs.out_elems, s->gs.out_elems));
    uint64_t net = s->hs.work_bytes;
    if (s->ent.work_bytes > net) net = s->ent.work_bytes;
    if (s->gs.work_bytes > net) net = s->gs.work_bytes;
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, tensors), net), c->output_bytes);
    /* The kept way's sums beside them (its tail's arena is within net). */
    if (s->keep)
        c->working_bytes = wai_sat_add(
            c->working_bytes, wai_mlic_entropy_kept_bytes(&m->entropy.model, &s->ent, v->cy, v->k));
    j->net_work_bytes = net; /* the arena the decoder keeps across decodes */
    j->out.kind = WAI_OUTPUT_IMAGE;
    j->out.width = v->w;
    j->out.height = v->h;
    j->out.n = 1;
    j->out.bytes = (size_t)c->output_bytes;
    return WAI_ok;
}

/* Every refusal of a stream or of a value the decode forms. */
static wai_status malformed(wai_status st) {
    return st == WAI_ok || st == WAI_out_of_memory ? st : WAI_payload_malformed;
}

/* Step 2: z, channel k against z table k; then the stream must not have
 * run out (final_only). */
static wai_status decode_z(const wai_allocator *a, const wai_loaded_set *l, const wai_wim1 *v,
                           int64_t *z) {
    if (!wai_wim1_stream_ok(v->lz)) return WAI_payload_malformed;
    const wai_loaded_tables *t = &WAI_LOADED(l, mlic_set)->t;
    wai_channel_coding *ch = wai_alloc_array(a, v->cz, sizeof *ch);
    if (!ch) return WAI_out_of_memory;
    for (uint32_t k = 0; k < v->cz; k++) {
        ch[k].table = &t->hyper[k];
        ch[k].offset = t->set->hyper[k].offset;
        ch[k].median = t->set->z_median_q[k];
    }
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->z, v->lz);
    wai_status st = wai_decode_channels(&d, ch, v->cz, (size_t)v->zh * v->zw, l->afrac, z);
    if (st == WAI_ok && d.ran_out) st = WAI_stream_exhausted;
    wai_free(a, ch);
    return st;
}

/* Step 4: y in x's first Cy planes (x = concat(y, hyper), y all 0 to
 * start); before each pass the entropy network on x gives sigma || mu. */
static wai_status decode_y(const wai_exec *ex, const wai_kernels *kern, const wai_loaded_set *l,
                           const mlic_job *s, int64_t *x, int64_t *sm) {
    const wai_wim1 *v = &s->v;
    if (!wai_wim1_stream_ok(v->ly)) return WAI_payload_malformed;
    const size_t plane = (size_t)v->yh * v->yw, per_slice = v->cy / v->k;
    memset(x, 0, (size_t)v->cy * plane * sizeof *x);
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->y, v->ly);
    /* The decoder's kept arena where it has one (every pass reuses it). */
    wai_network_ws local;
    wai_network_ws_init(&local, ex);
    wai_network_ws *ws = ex->ws ? ex->ws : &local;
    const mlic_set *m = WAI_LOADED(l, mlic_set);
    const wai_entropy_set *t = m->t.set;
    /* The first layer kept, except on the reference kernels (the plain
     * twin) and on a plug-in backend (which runs whole networks). */
    const int keep = s->keep && kern != &wai_kernels_ref && !ex->backend;
    wai_mlic_entropy e;
    wai_status st = wai_mlic_entropy_begin(&e, ws, kern, &m->entropy, &s->ent, &s->tail, v->cy,
                                           v->k, keep, x);
    for (uint32_t j = 0; st == WAI_ok && j < v->k; j++)
        for (uint32_t pass = 0; st == WAI_ok && pass < 2; pass++) {
            st = wai_mlic_entropy_run(&e, x, sm);
            for (size_t c = j * per_slice; st == WAI_ok && c < (j + 1) * per_slice; c++)
                for (uint32_t r = 0; st == WAI_ok && r < v->yh; r++)
                    /* The anchors, (row + col) even, then the rest. */
                    for (uint32_t col = (r + pass) & 1; st == WAI_ok && col < v->yw; col += 2) {
                        const size_t p = (size_t)r * v->yw + col;
                        const uint32_t b = wai_bucket(sm[c * plane + p], t->scale_edges, t->n_edges);
                        int32_t sym;
                        st = wai_rans_decode(&d, &m->t.latent[b], t->latent[b].offset, &sym);
                        if (st == WAI_ok)
                            st = wai_dequantize(sym, l->afrac, sm[(v->cy + c) * plane + p],
                                                &x[c * plane + p]);
                    }
            /* What the pass decoded, into the next pass's run. */
            if (st == WAI_ok && (pass == 0 || j + 1 < v->k)) st = wai_mlic_entropy_took(&e, x, j, pass);
        }
    wai_mlic_entropy_end(&e);
    wai_network_ws_free(&local);
    if (st == WAI_ok && d.ran_out) st = WAI_stream_exhausted;
    return st;
}

static wai_status m_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    const mlic_job *s = WAI_JOB_STATE(j, mlic_job);
    const wai_wim1 *v = &s->v;
    const wai_loaded_set *l = j->set;
    const mlic_set *m = WAI_LOADED(l, mlic_set);
    const wai_allocator *a = ex->alloc;
    const size_t plane = (size_t)v->yh * v->yw, y_elems = (size_t)v->cy * plane;
    /* Planning bounded every size by the caps, so each fits size_t. */
    int64_t *z = wai_alloc_array(a, (size_t)v->cz * v->zh * v->zw, 8);
    int64_t *x = wai_alloc_array(a, 3 * y_elems, 8);   /* y, then the hyper latent */
    int64_t *sm = wai_alloc_array(a, 2 * y_elems, 8);  /* sigma, then mu */
    int64_t *g = NULL;
    wai_status st = z && x && sm ? WAI_ok : WAI_out_of_memory;
    if (st == WAI_ok) st = malformed(decode_z(a, l, v, z));
    if (st == WAI_ok)
        st = malformed(wai_backend_network(ex, k, &m->h_s.model, &m->h_s.sums, &s->hs, z, x + y_elems));
    wai_free(a, z);
    z = NULL;
    if (st == WAI_ok) st = malformed(decode_y(ex, k, l, s, x, sm));
    wai_free(a, sm);
    sm = NULL;
    if (st == WAI_ok && !(g = wai_alloc_array(a, (size_t)s->gs.out_elems, 8))) st = WAI_out_of_memory;
    if (st == WAI_ok)
        st = malformed(wai_backend_network(ex, k, &m->g_s.model, &m->g_s.sums, &s->gs, x, g));
    if (st == WAI_ok) wai_rgb8_interleave(ex, g, (size_t)v->h * v->w, l->afrac, out);
    wai_free(a, g), wai_free(a, x);
    j->out.data = out;
    return st;
}

static void m_describe(const wai_job *j, wai_text *t) {
    wai_wim1_describe(&WAI_JOB_STATE(j, const mlic_job)->v, t);
}

const wai_codec_ops wai_int_mlicpp_ops = {.parse = m_parse,
                                          .prepare = m_prepare,
                                          .run = m_run,
                                          .release = m_release,
                                          .describe = m_describe};
