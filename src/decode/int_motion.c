/* SPDX-License-Identifier: BSD-2-Clause */
#include "decode/int_motion.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "decode/motion.h"
#include "ops/cores.h"

/* One table lookup for a whole clip or group, at full resolution: 128 KiB
 * buys a symbol search with no loop, and its step table (16 or 256 KiB,
 * entropy/cdf.h) a decode step with one load on the state's chain. A
 * payload of fewer samples than the table has entries gets a table of
 * about its own size: building 2^16 entries to decode a dozen symbols
 * cost a small frame more than its decode (the symbols are the same at
 * every resolution: tests/fuzz/fuzz_rans.c holds them to it). */
#define MOTION_LOOKUP_BITS 16
#define MOTION_LOOKUP_BITS_MIN 8

static uint32_t lookup_bits(uint64_t samples) {
    uint32_t bits = MOTION_LOOKUP_BITS_MIN;
    while (bits < MOTION_LOOKUP_BITS && ((uint64_t)1 << bits) < samples) bits++;
    return bits;
}

void wai_wiv1_cost(const wai_wiv1 *v, wai_cost *c) {
    uint64_t samples = wai_sat_mul(v->n_frames, wai_sat_mul3(v->h, v->w, 3));
    c->output_bytes = samples;
    c->entropy_steps = samples;
    c->macs = 0;
    c->working_bytes = wai_sat_add(samples, wai_sat_mul3(4, v->nb, v->n_frames - 1));
}

/* A clip's table at the resolution its samples earn. */
static wai_status clip_table(const wai_allocator *a, const wai_wiv1 *v, uint32_t *cdf,
                             wai_cdf_table *table) {
    wai_cdf_from_bytes(cdf, v->cdf, v->cdf_len);
    return wai_cdf_table_init(table, a, cdf, v->cdf_len,
                              lookup_bits(wai_sat_mul(v->n_frames, wai_sat_mul3(v->h, v->w, 3))));
}

/* Frame i of the clip into out, from prev (frame i - 1; NULL for frame 0). */
static wai_status clip_frame(const wai_exec *ex, const wai_wiv1 *v, const wai_cdf_table *table,
                             wai_rans_dec *d, uint32_t i, const uint8_t *prev, uint8_t *out) {
    wai_motion_frame f = {v->h, v->w, table, v->offset, v->q, i > 0 ? prev : NULL,
                          i > 0 ? v->vectors + 4 * (size_t)(i - 1) * v->nb : NULL,
                          v->block, v->nbx, v->mv_precision, wai_exec_cores(ex)};
    return wai_decode_motion_frame_threads(&f, d, ex ? ex->pool : NULL, ex ? ex->alloc : NULL,
                                           out);
}

wai_status wai_wiv1_decode(const wai_exec *ex, const wai_wiv1 *v, uint8_t *frames) {
    const wai_allocator *a = ex ? ex->alloc : NULL;
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_table table;
    wai_status st = clip_table(a, v, cdf, &table);
    if (st != WAI_ok) return st;
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->residual.bytes, v->residual.len);
    size_t frame_bytes = (size_t)v->h * v->w * 3;
    for (uint32_t i = v->keyframe ? 1 : 0; i < v->n_frames && st == WAI_ok; i++) {
        uint8_t *out = frames + (size_t)i * frame_bytes;
        st = clip_frame(ex, v, &table, &d, i, i > 0 ? out - frame_bytes : NULL, out);
    }
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    wai_cdf_table_free(&table, a);
    return st;
}

void wai_motion_group_close(wai_motion_group *g, const wai_allocator *a) {
    wai_cdf_table_free(&g->table, a);
    wai_free(a, g->frame);
    wai_free(a, g->scratch);
    g->frame = g->scratch = NULL;
    g->open = 0;
}

void wai_wif1_cost(const wai_wif1 *f, wai_cost *c) {
    uint64_t samples = wai_sat_mul3(f->h, f->w, 3);
    int inter = f->kind == WAI_WIF1_INTER;
    c->output_bytes = samples;
    c->entropy_steps = samples;
    c->macs = 0;
    /* An inter frame holds the group's previous frame beside its own. */
    c->working_bytes = inter ? wai_sat_add(wai_sat_mul(2, samples), wai_sat_mul(4, f->nb))
                             : samples;
}

wai_status wai_wif1_check_group(const wai_wif1 *f, const wai_motion_group *g) {
    if (f->kind != WAI_WIF1_INTER) return WAI_ok;
    if (!g->open) return WAI_field_range;
    if (f->h != g->h || f->w != g->w) return WAI_geometry_mismatch;
    return WAI_ok;
}

static wai_status open_group(const wai_allocator *a, const wai_wif1 *f, wai_motion_group *g) {
    wai_motion_group_close(g, a);
    size_t frame_bytes = (size_t)f->h * f->w * 3;
    g->h = f->h;
    g->w = f->w;
    g->q = f->q;
    g->offset = f->offset;
    wai_cdf_from_bytes(g->cdf, f->cdf, f->cdf_len);
    /* A group's frames are each its intra frame's size (how many there
     * will be is not known here): a table of about one frame's samples. */
    wai_status st = wai_cdf_table_init(&g->table, a, g->cdf, f->cdf_len, lookup_bits(frame_bytes));
    if (st != WAI_ok) return st;
    g->frame = wai_alloc(a, frame_bytes);
    g->scratch = wai_alloc(a, frame_bytes);
    if (!g->frame || !g->scratch) {
        wai_motion_group_close(g, a);
        return WAI_out_of_memory;
    }
    g->open = 1;
    return WAI_ok;
}

wai_status wai_wif1_open_keyframe(const wai_allocator *a, const wai_wif1 *f, wai_motion_group *g,
                                  const uint8_t *rgb) {
    wai_status st = open_group(a, f, g);
    if (st == WAI_ok) memcpy(g->frame, rgb, (size_t)f->h * f->w * 3);
    return st;
}

wai_status wai_wif1_decode(const wai_exec *ex, const wai_wif1 *f, wai_motion_group *g) {
    const wai_allocator *a = ex ? ex->alloc : NULL;
    wai_status st = wai_wif1_check_group(f, g);
    if (st != WAI_ok) {
        wai_motion_group_close(g, a);
        return st;
    }
    int inter = f->kind == WAI_WIF1_INTER;
    if (!inter && (st = open_group(a, f, g)) != WAI_ok) return st;
    wai_motion_frame mf = {g->h, g->w, &g->table, g->offset, g->q,
                           inter ? g->frame : NULL, f->vectors, f->block, f->nbx,
                           f->mv_precision, wai_exec_cores(ex)};
    wai_rans_dec d;
    wai_rans_dec_init(&d, f->residual.bytes, f->residual.len);
    st = wai_decode_motion_frame_threads(&mf, &d, ex ? ex->pool : NULL, a, g->scratch);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    if (st != WAI_ok) {
        wai_motion_group_close(g, a);
        return st;
    }
    uint8_t *t = g->frame;
    g->frame = g->scratch;
    g->scratch = t;
    return WAI_ok;
}

/* ---- the codecs (decode/codec.h) -------------------------------------------- */

void wai_motion_frames_shape(wai_job *j, uint32_t h, uint32_t w, uint32_t n_frames) {
    j->out.kind = WAI_OUTPUT_FRAME;
    j->out.width = w;
    j->out.height = h;
    j->out.n = n_frames;
    j->out.bytes = (size_t)h * w * 3;
}

/* A clip decoded a frame at a time (decode/codec.h, step): its table, its
 * stream's state between frames, and two frames (the one handed out, and
 * the one it predicts from) whatever the clip's length. */
typedef struct clip_steps {
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_table table;
    wai_rans_dec d;
    uint8_t *frame[2];
} clip_steps;

/* wai.video.int_motion: a clip, every frame a motion frame (§3). */
typedef struct clip_job {
    wai_wiv1 v;
    clip_steps *steps; /* while stepping */
} clip_job;

_Static_assert(sizeof(clip_job) <= WAI_JOB_STATE_BYTES, "clip_job fits a job");

wai_status wai_motion_clip_parse(wai_job *j, const uint8_t *data, size_t len, int keyframe,
                                 wai_wiv1 *v) {
    wai_status st = wai_wiv1_parse(data, len, keyframe, v);
    if (st == WAI_ok) wai_motion_frames_shape(j, v->h, v->w, v->n_frames);
    return st;
}

static wai_status clip_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_motion_clip_parse(j, data, len, 0, &WAI_JOB_STATE(j, clip_job)->v);
}

static wai_status clip_prepare(wai_job *j, const wai_allocator *a) {
    (void)a;
    const wai_wiv1 *v = &WAI_JOB_STATE(j, clip_job)->v;
    wai_wiv1_cost(v, &j->cost);
    wai_motion_frames_shape(j, v->h, v->w, v->n_frames);
    return WAI_ok;
}

static wai_status clip_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    j->out.data = out;
    return wai_wiv1_decode(ex, &WAI_JOB_STATE(j, clip_job)->v, out);
}

static void clip_describe(const wai_job *j, wai_text *t) {
    wai_wiv1_describe(&WAI_JOB_STATE(j, const clip_job)->v, t);
}

static void clip_step_close(wai_job *j, const wai_allocator *a) {
    clip_steps *s = WAI_JOB_STATE(j, clip_job)->steps;
    if (!s) return;
    wai_cdf_table_free(&s->table, a);
    wai_free(a, s->frame[0]);
    wai_free(a, s->frame[1]);
    wai_free(a, s);
    WAI_JOB_STATE(j, clip_job)->steps = NULL;
}

static wai_status clip_step_open(wai_job *j, const wai_exec *ex) {
    const wai_allocator *a = ex ? ex->alloc : NULL;
    clip_job *c = WAI_JOB_STATE(j, clip_job);
    size_t frame_bytes = (size_t)c->v.h * c->v.w * 3;
    clip_steps *s = c->steps = wai_alloc_zeroed(a, 1, sizeof *s);
    if (!s) return WAI_out_of_memory;
    wai_status st = clip_table(a, &c->v, s->cdf, &s->table);
    if (st == WAI_ok && (!(s->frame[0] = wai_alloc(a, frame_bytes)) ||
                         !(s->frame[1] = wai_alloc(a, frame_bytes))))
        st = WAI_out_of_memory;
    if (st != WAI_ok) {
        clip_step_close(j, a);
        return st;
    }
    wai_rans_dec_init(&s->d, c->v.residual.bytes, c->v.residual.len);
    return WAI_ok;
}

static wai_status clip_step(wai_job *j, const wai_exec *ex, uint32_t k, const uint8_t **frame) {
    clip_job *c = WAI_JOB_STATE(j, clip_job);
    clip_steps *s = c->steps;
    if (k == c->v.n_frames) return wai_rans_end_canonical(&s->d);
    uint8_t *out = s->frame[k & 1];
    wai_status st = clip_frame(ex, &c->v, &s->table, &s->d, k, s->frame[(k + 1) & 1], out);
    *frame = out;
    return st;
}

const wai_codec_ops wai_int_motion_ops = {.parse = clip_parse,
                                          .prepare = clip_prepare,
                                          .run = clip_run,
                                          .describe = clip_describe,
                                          .step_open = clip_step_open,
                                          .step = clip_step,
                                          .step_close = clip_step_close};

/* wai.video.int_motion.frame: one WIF1 frame of a group (§16). */
wai_status wai_motion_frame_prepare(wai_job *j, const wai_wif1 *f) {
    wai_motion_group *g = j->stream;
    wai_status st = g ? wai_wif1_check_group(f, g) : WAI_ok;
    if (st != WAI_ok) return st;
    wai_wif1_cost(f, &j->cost);
    wai_motion_frames_shape(j, f->h, f->w, 1);
    j->in_stream = 1;
    return WAI_ok;
}

wai_status wai_motion_frame_run(wai_job *j, const wai_exec *ex, const wai_wif1 *f) {
    wai_motion_group *g = j->stream;
    wai_status st = wai_wif1_decode(ex, f, g);
    j->out.data = g->frame;
    return st;
}

static void motion_stream_close(void *stream, const wai_allocator *a) {
    wai_motion_group_close(stream, a);
}

typedef struct frame_job {
    wai_wif1 f;
} frame_job;

_Static_assert(sizeof(frame_job) <= WAI_JOB_STATE_BYTES, "frame_job fits a job");

static wai_status frame_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_wif1_parse(data, len, 0, &WAI_JOB_STATE(j, frame_job)->f);
}

static wai_status frame_prepare(wai_job *j, const wai_allocator *a) {
    (void)a;
    return wai_motion_frame_prepare(j, &WAI_JOB_STATE(j, frame_job)->f);
}

static wai_status frame_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    (void)out;
    return wai_motion_frame_run(j, ex, &WAI_JOB_STATE(j, frame_job)->f);
}

static void frame_describe(const wai_job *j, wai_text *t) {
    wai_wif1_describe(&WAI_JOB_STATE(j, const frame_job)->f, t);
}

const wai_codec_ops wai_int_motion_frame_ops = {.parse = frame_parse,
                                                .prepare = frame_prepare,
                                                .run = frame_run,
                                                .describe = frame_describe,
                                                .stream_bytes = sizeof(wai_motion_group),
                                                .stream_close = motion_stream_close};
