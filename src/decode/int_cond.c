/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.video.int_cond and wai.video.int_cond.frame (integer-payloads §17,
 * docs/int_cond.md): WIC1 clips and WCF1 frames against a WCB1 bundle.
 * One decode, top to bottom:
 *   parse    the clip (formats/wic1.c) or the frame (formats/wcf1.c); a
 *            frame of a stream against its group (reading S21)
 *   set      model.wcb's five sections (formats/bundle.c): ctx, prior, dec
 *            and recon as WHM1 networks, the tables (§17.3, reading S17)
 *   prepare  §17.4 step 3: the four networks planned, then their shapes
 *            compared (S19); the declared cost (S20)
 *   run      each frame: C = ctx(F); sigma || mu = prior(C); y by the ceil
 *            bucket; F' = dec(concat(y, C)); recon(F') to RGB8; F' kept as
 *            the next frame's F (zero for an intra frame) */
#include "decode/int_cond.h"

#include <string.h>

#include "backend/network_job.h"
#include "common/alloc.h"
#include "common/checked.h"
#include "decode/int_hyper.h"
#include "entropy/latents.h"
#include "formats/bundle.h"
#include "formats/wic1.h"
#include "ops/layers.h"

enum { CTX, PRIOR, DEC, RECON };

/* ---- the set ------------------------------------------------------------------- */

/* The loaded set's own object: the bundle's four networks and its tables. */
typedef struct cond_set {
    wai_net net[4];
    wai_loaded_tables t;
} cond_set;

static void cond_set_free(const wai_allocator *a, void *own) {
    cond_set *c = own;
    for (int i = 0; i < 4; i++) wai_net_free(a, &c->net[i]);
    wai_loaded_tables_free(a, &c->t);
    wai_free(a, c);
}

/* The row's one member: the WCB1 bundle. */
wai_status wai_int_cond_load_set(const wai_allocator *a, const wai_set *set,
                                 const char *const *members, wai_loaded_set *l) {
    const uint8_t *data;
    size_t len;
    if (wai_set_find(set, members[0], &data, &len) != WAI_ok) return WAI_set_incomplete;
    cond_set *c = wai_loaded_own(a, l, sizeof *c, cond_set_free);
    if (!c) return WAI_out_of_memory;
    wai_bundle b;
    wai_status st = wai_bundle_split(data, len, "WCB1", WAI_WCB1_SECTIONS, &b);
    for (int i = 0; i < 4 && st == WAI_ok; i++)
        st = wai_loaded_net(a, b.section[i], b.len[i], 2, &c->net[i]);
    /* S17: afrac, 1..65536 edges, §2's tables, no hyper-latent members. */
    const wai_entropy_rules rules = WAI_WCB1_TABLE_RULES;
    if (st == WAI_ok)
        st = wai_loaded_tables_parse(a, b.section[WAI_WCB1_TABLES], b.len[WAI_WCB1_TABLES], &rules,
                                     &c->t);
    if (st == WAI_ok) {
        const wai_net *const four[] = {&c->net[CTX], &c->net[PRIOR], &c->net[DEC], &c->net[RECON]};
        st = wai_loaded_one_scale(l, four, 4);
    }
    if (st == WAI_ok && c->t.set->afrac != (int64_t)l->afrac) st = WAI_model_mismatch;
    return st;
}

/* ---- a frame's plan, cost and decode ----------------------------------------------- */

typedef struct cond_plan {
    wai_plan net[4];
    uint32_t cc;  /* the context's channels: ctx's output */
} cond_plan;

static void plan_free(const wai_allocator *a, cond_plan *p) {
    for (int i = 0; i < 4; i++) wai_plan_free(a, &p->net[i]);
}

/* §17.4 step 3 (reading S19): the four planned, ctx on [cf, sh, sw], prior
 * on [cc, sh, sw], dec on [m + cc, sh, sw], recon on [cf, sh, sw], before
 * any shape is compared; then ctx's sides, prior's and dec's shapes
 * (geometry_mismatch), recon's channels (model_mismatch) and h x w
 * (geometry_mismatch). */
static wai_status plan_frame(const wai_allocator *a, const wai_loaded_set *l, const wai_wcf1 *f,
                             cond_plan *p) {
    const wai_net *n = WAI_LOADED(l, cond_set)->net;
    memset(p, 0, sizeof *p);
    wai_status st = wai_plan_model(a, &n[CTX].model, f->cf, f->sh, f->sw, &p->net[CTX]);
    if (st != WAI_ok) return st;
    p->cc = p->net[CTX].out_c;
    const uint64_t dec_in = (uint64_t)f->m + p->cc;
    if ((st = wai_plan_model(a, &n[PRIOR].model, p->cc, f->sh, f->sw, &p->net[PRIOR])) != WAI_ok)
        return st;
    if (dec_in > UINT32_MAX) return WAI_too_large;
    if ((st = wai_plan_model(a, &n[DEC].model, (uint32_t)dec_in, f->sh, f->sw, &p->net[DEC])) !=
            WAI_ok ||
        (st = wai_plan_model(a, &n[RECON].model, f->cf, f->sh, f->sw, &p->net[RECON])) != WAI_ok)
        return st;
    const wai_plan *c = &p->net[CTX], *pr = &p->net[PRIOR], *d = &p->net[DEC], *r = &p->net[RECON];
    if (c->out_h != f->sh || c->out_w != f->sw) return WAI_geometry_mismatch;
    if (pr->out_c != 2 * (uint64_t)f->m || pr->out_h != f->sh || pr->out_w != f->sw)
        return WAI_geometry_mismatch;
    if (d->out_c != f->cf || d->out_h != f->sh || d->out_w != f->sw) return WAI_geometry_mismatch;
    if (r->out_c != 3) return WAI_model_mismatch;
    if (r->out_h != f->h || r->out_w != f->w) return WAI_geometry_mismatch;
    return WAI_ok;
}

/* S20: n frames of one frame's work: the four networks' MACs and m·sh·sw
 * symbols; the frames' bytes; held at once, a frame's buffers (F, F', the
 * context beside the latent, sigma || mu, recon's output, as i64), the
 * largest network's own buffers, and the frames. That largest arena is the
 * job's net_work_bytes: the decoder keeps it from one decode to the next. */
static void frame_cost(const wai_wcf1 *f, const cond_plan *p, uint64_t n, wai_job *j) {
    wai_cost *c = &j->cost;
    const uint64_t pos = wai_sat_mul(f->sh, f->sw), frame = wai_sat_mul3(3, f->h, f->w);
    uint64_t macs = 0, work = 0;
    for (int i = 0; i < 4; i++) {
        macs = wai_sat_add(macs, p->net[i].macs);
        if (p->net[i].work_bytes > work) work = p->net[i].work_bytes;
    }
    c->output_bytes = wai_sat_mul(n, frame);
    c->entropy_steps = wai_sat_mul(n, wai_sat_mul(f->m, pos));
    c->macs = wai_sat_mul(n, macs);
    const uint64_t values = wai_sat_add(
        wai_sat_mul(pos, wai_sat_add(wai_sat_mul(2, f->cf), wai_sat_add(3 * (uint64_t)f->m, p->cc))),
        p->net[RECON].out_elems);
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, values), work), c->output_bytes);
    j->net_work_bytes = work;
}

/* One frame's buffers, from one allocation. */
typedef struct frame_bufs {
    int64_t *x;      /* concat(y, C): [m + cc] planes */
    int64_t *sm;     /* sigma || mu: [2·m] planes */
    int64_t *next;   /* F': [cf] planes */
    int64_t *rec;    /* recon's output */
    int64_t *block;
} frame_bufs;

static wai_status bufs_make(const wai_allocator *a, const wai_wcf1 *f, const cond_plan *p,
                            frame_bufs *b) {
    /* Planning bounded every plane count by the caps, so each fits size_t. */
    const size_t pos = (size_t)f->sh * f->sw;
    const size_t nx = ((size_t)f->m + p->cc) * pos, nsm = 2 * (size_t)f->m * pos,
                 nf = (size_t)f->cf * pos, nr = (size_t)p->net[RECON].out_elems;
    b->block = wai_alloc_array(a, nx + nsm + nf + nr, 8);
    if (!b->block) return WAI_out_of_memory;
    b->x = b->block, b->sm = b->x + nx, b->next = b->sm + nsm, b->rec = b->next + nf;
    return WAI_ok;
}

/* §17.4's frame steps 1 to 4 on feature F ([cf, sh, sw]); F' left in
 * b->next, the frame in rgb. */
static wai_status decode_frame(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                               const wai_wcf1 *f, const cond_plan *p, const int64_t *F,
                               frame_bufs *b, uint8_t *rgb) {
    const size_t pos = (size_t)f->sh * f->sw, ny = (size_t)f->m * pos;
    int64_t *C = b->x + ny;
    const cond_set *c = WAI_LOADED(l, cond_set);
    const wai_net *n = c->net;
    wai_status st = wai_backend_network(ex, k, &n[CTX].model, &n[CTX].sums, &p->net[CTX], F, C);
    if (st == WAI_ok)
        st = wai_backend_network(ex, k, &n[PRIOR].model, &n[PRIOR].sums, &p->net[PRIOR], C, b->sm);
    if (st != WAI_ok) return st;
    const wai_entropy_set *t = c->t.set;
    wai_rans_dec d;
    wai_rans_dec_init(&d, f->stream.bytes, f->stream.len);
    st = wai_decode_bucketed(&d, c->t.latent, t->latent, t->scale_edges, t->n_edges, b->sm, b->sm + ny,
                             ny, l->afrac, b->x);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    if (st == WAI_ok)
        st = wai_backend_network(ex, k, &n[DEC].model, &n[DEC].sums, &p->net[DEC], b->x, b->next);
    if (st == WAI_ok)
        st = wai_backend_network(ex, k, &n[RECON].model, &n[RECON].sums, &p->net[RECON], b->next, b->rec);
    if (st == WAI_ok) wai_rgb8_interleave(ex, b->rec, (size_t)f->h * f->w, l->afrac, rgb);
    return st;
}

static void frames_shape(wai_job *j, const wai_wcf1 *f, uint32_t n) {
    j->out.kind = WAI_OUTPUT_FRAME;
    j->out.width = f->w;
    j->out.height = f->h;
    j->out.n = n;
    j->out.bytes = (size_t)f->h * f->w * 3;
}

/* ---- the clip: wai.video.int_cond ------------------------------------------------- */

typedef struct clip_job {
    wai_wic1 c;
    cond_plan p;
} clip_job;

_Static_assert(sizeof(clip_job) <= WAI_JOB_STATE_BYTES, "clip_job fits a job");

static wai_status clip_parse(wai_job *j, const uint8_t *data, size_t len) {
    const wai_wic1 *c = &WAI_JOB_STATE(j, clip_job)->c;
    wai_status st = wai_wic1_parse(data, len, &WAI_JOB_STATE(j, clip_job)->c);
    if (st == WAI_ok) frames_shape(j, &c->first, c->n_frames);
    return st;
}

static wai_status clip_prepare(wai_job *j, const wai_allocator *a) {
    clip_job *s = WAI_JOB_STATE(j, clip_job);
    wai_status st = plan_frame(a, j->set, &s->c.first, &s->p);
    if (st != WAI_ok) return st;
    frame_cost(&s->c.first, &s->p, s->c.n_frames, j);
    frames_shape(j, &s->c.first, s->c.n_frames);
    return WAI_ok;
}

static wai_status clip_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    clip_job *s = WAI_JOB_STATE(j, clip_job);
    const wai_wcf1 *first = &s->c.first;
    const wai_allocator *a = ex->alloc;
    const size_t nf = (size_t)first->cf * first->sh * first->sw;
    int64_t *F = wai_alloc_zeroed(a, nf, 8); /* the zero feature of the intra frame */
    frame_bufs b = {NULL, NULL, NULL, NULL, NULL};
    wai_status st = F ? bufs_make(a, first, &s->p, &b) : WAI_out_of_memory;
    size_t at = 0;
    for (uint32_t i = 0; st == WAI_ok && i < s->c.n_frames; i++) {
        const uint8_t *bytes;
        size_t len;
        wai_wcf1 f;
        wai_wic1_next(&s->c, &at, &bytes, &len);
        if ((st = wai_wcf1_parse(bytes, len, &f)) != WAI_ok) break; /* parsed already: cannot fail */
        st = decode_frame(ex, k, j->set, &f, &s->p, F, &b, out + i * j->out.bytes);
        if (st == WAI_ok) memcpy(F, b.next, nf * 8);
    }
    wai_free(a, b.block);
    wai_free(a, F);
    j->out.data = out;
    return st;
}

static void clip_release(wai_job *j, const wai_allocator *a) {
    plan_free(a, &WAI_JOB_STATE(j, clip_job)->p);
}

static void clip_describe(const wai_job *j, wai_text *t) {
    wai_wic1_describe(&WAI_JOB_STATE(j, const clip_job)->c, t);
}

const wai_codec_ops wai_int_cond_ops = {.parse = clip_parse,
                                        .prepare = clip_prepare,
                                        .run = clip_run,
                                        .release = clip_release,
                                        .describe = clip_describe};

/* ---- the frame form: wai.video.int_cond.frame --------------------------------------- */

/* A stream's group: its intra frame's header and the feature the last
 * frame left. */
typedef struct cond_group {
    int open;
    wai_wcf1 head;
    int64_t *feature;
} cond_group;

static void group_close(void *stream, const wai_allocator *a) {
    cond_group *g = stream;
    wai_free(a, g->feature);
    memset(g, 0, sizeof *g);
}

typedef struct frame_job {
    wai_wcf1 f;
    cond_plan p;
} frame_job;

_Static_assert(sizeof(frame_job) <= WAI_JOB_STATE_BYTES, "frame_job fits a job");

/* The frame alone, then (in a stream) against its group (reading S21): an
 * inter frame needs an open group (field_range, as reading R7) and its
 * intra frame's header h to cf (geometry_mismatch), before the set. */
static wai_status frame_parse(wai_job *j, const uint8_t *data, size_t len) {
    wai_wcf1 *f = &WAI_JOB_STATE(j, frame_job)->f;
    wai_status st = wai_wcf1_parse(data, len, f);
    const cond_group *g = j->stream;
    if (st != WAI_ok || !g || f->kind == WAI_WCF1_INTRA) return st;
    if (!g->open) return WAI_field_range;
    return wai_wcf1_same_header(f, &g->head) ? WAI_ok : WAI_geometry_mismatch;
}

static wai_status frame_prepare(wai_job *j, const wai_allocator *a) {
    frame_job *s = WAI_JOB_STATE(j, frame_job);
    wai_status st = plan_frame(a, j->set, &s->f, &s->p);
    if (st != WAI_ok) return st;
    frame_cost(&s->f, &s->p, 1, j);
    frames_shape(j, &s->f, 1);
    return WAI_ok;
}

static wai_status frame_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    frame_job *s = WAI_JOB_STATE(j, frame_job);
    cond_group *g = j->stream;
    const wai_allocator *a = ex->alloc;
    const size_t nf = (size_t)s->f.cf * s->f.sh * s->f.sw;
    wai_status st = WAI_ok;
    if (s->f.kind == WAI_WCF1_INTRA) {
        /* A new group against the zero feature. */
        group_close(g, a);
        if (!(g->feature = wai_alloc_zeroed(a, nf, 8))) return WAI_out_of_memory;
        g->open = 1;
        g->head = s->f;
    }
    frame_bufs b;
    if ((st = bufs_make(a, &s->f, &s->p, &b)) == WAI_ok) {
        st = decode_frame(ex, k, j->set, &s->f, &s->p, g->feature, &b, out);
        if (st == WAI_ok) memcpy(g->feature, b.next, nf * 8);
        wai_free(a, b.block);
    }
    /* A refused frame ends its group: the frames before it stand. */
    if (st != WAI_ok) group_close(g, a);
    j->out.data = out;
    return st;
}

static void frame_release(wai_job *j, const wai_allocator *a) {
    plan_free(a, &WAI_JOB_STATE(j, frame_job)->p);
}

static void frame_describe(const wai_job *j, wai_text *t) {
    wai_wcf1_describe(&WAI_JOB_STATE(j, const frame_job)->f, t);
}

const wai_codec_ops wai_int_cond_frame_ops = {.parse = frame_parse,
                                              .prepare = frame_prepare,
                                              .run = frame_run,
                                              .release = frame_release,
                                              .describe = frame_describe,
                                              .stream_bytes = sizeof(cond_group),
                                              .stream_close = group_close};
