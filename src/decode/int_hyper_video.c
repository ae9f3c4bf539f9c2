/* SPDX-License-Identifier: BSD-2-Clause */
/* The keyframe-1 video forms (integer-payloads §3 and §16 with §4): a WIV1
 * clip and a WIF1 intra frame whose frame 0 is a nested WIH1's decode
 * against the int_hyper set; the clip's other frames, and the frame form's
 * inter frames, are motion frames (decode/int_motion.c). */
#include "decode/int_hyper_video.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "decode/int_hyper.h"
#include "decode/int_motion.h"

/* The keyframe's decode gives the clip's h x w (geometry_mismatch); the
 * keyframe's own cost. */
static wai_status prepare_key(wai_job *j, const wai_allocator *a, const wai_wih1 *key,
                              wai_hyper_plan *p, uint32_t h, uint32_t w, wai_cost *k) {
    wai_status st = wai_wih1_prepare(a, j->set, key, p);
    if (st != WAI_ok) return st;
    if (p->g_s.out_h != h || p->g_s.out_w != w) return WAI_geometry_mismatch;
    wai_wih1_cost(key, p, k);
    j->net_work_bytes = wai_hyper_net_bytes(p);
    return WAI_ok;
}

/* ---- wai.video.int_hyper: a clip ------------------------------------------------ */

typedef struct hyper_clip_job {
    wai_wiv1 v;
    wai_hyper_plan p;
} hyper_clip_job;

_Static_assert(sizeof(hyper_clip_job) <= WAI_JOB_STATE_BYTES, "hyper_clip_job fits a job");

static wai_status clip_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_motion_clip_parse(j, data, len, 1, &WAI_JOB_STATE(j, hyper_clip_job)->v);
}

/* Frames 1 on are keyframe-0 frames: h·w·3 symbols each (reading R11). */
static wai_status clip_prepare(wai_job *j, const wai_allocator *a) {
    hyper_clip_job *s = WAI_JOB_STATE(j, hyper_clip_job);
    const wai_wiv1 *v = &s->v;
    wai_cost k;
    wai_status st = prepare_key(j, a, &v->key_header, &s->p, v->h, v->w, &k);
    if (st != WAI_ok) return st;
    uint64_t frame = wai_sat_mul3(v->h, v->w, 3);
    wai_cost *c = &j->cost;
    c->macs = k.macs;
    c->output_bytes = wai_sat_mul(v->n_frames, frame);
    c->entropy_steps = wai_sat_add(wai_sat_mul(v->n_frames - 1, frame), k.entropy_steps);
    c->working_bytes = wai_sat_add(
        wai_sat_add(c->output_bytes, wai_sat_mul3(4, v->nb, v->n_frames - 1)), k.working_bytes);
    wai_motion_frames_shape(j, v->h, v->w, v->n_frames);
    return WAI_ok;
}

/* The keyframe in full, then the residual stream (reading N5). */
static wai_status clip_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    hyper_clip_job *s = WAI_JOB_STATE(j, hyper_clip_job);
    j->out.data = out;
    wai_status st = wai_wih1_decode(ex, k, j->set, &s->v.key_header, &s->p, out);
    return st == WAI_ok ? wai_wiv1_decode(ex, &s->v, out) : st;
}

static void clip_release(wai_job *j, const wai_allocator *a) {
    wai_hyper_plan_free(a, &WAI_JOB_STATE(j, hyper_clip_job)->p);
}

static void clip_describe(const wai_job *j, wai_text *t) {
    wai_wiv1_describe(&WAI_JOB_STATE(j, const hyper_clip_job)->v, t);
}

const wai_codec_ops wai_int_hyper_clip_ops = {.parse = clip_parse,
                                              .prepare = clip_prepare,
                                              .run = clip_run,
                                              .release = clip_release,
                                              .describe = clip_describe};

/* ---- wai.video.int_hyper.frame: one WIF1 frame ------------------------------------ */

typedef struct hyper_frame_job {
    wai_wif1 f;
    wai_hyper_plan p;
} hyper_frame_job;

_Static_assert(sizeof(hyper_frame_job) <= WAI_JOB_STATE_BYTES, "hyper_frame_job fits a job");

static int is_key(const wai_wif1 *f) { return f->kind == WAI_WIF1_INTRA && f->keyframe == 1; }

/* An inter frame reads no set: it is a motion frame. */
static wai_status frame_parse(wai_job *j, const uint8_t *data, size_t len) {
    const wai_wif1 *f = &WAI_JOB_STATE(j, hyper_frame_job)->f;
    wai_status st = wai_wif1_parse(data, len, 1, &WAI_JOB_STATE(j, hyper_frame_job)->f);
    j->reads_set = st == WAI_ok && is_key(f);
    return st;
}

/* The keyframe's cost, one frame's output held beside it; the frame goes
 * into the stream, where it opens the group. */
static wai_status frame_prepare(wai_job *j, const wai_allocator *a) {
    hyper_frame_job *s = WAI_JOB_STATE(j, hyper_frame_job);
    const wai_wif1 *f = &s->f;
    if (!is_key(f)) return wai_motion_frame_prepare(j, f);
    wai_cost k;
    wai_status st = prepare_key(j, a, &f->key_header, &s->p, f->h, f->w, &k);
    if (st != WAI_ok) return st;
    uint64_t frame = wai_sat_mul3(f->h, f->w, 3);
    j->cost.macs = k.macs;
    j->cost.output_bytes = frame;
    j->cost.entropy_steps = k.entropy_steps;
    j->cost.working_bytes = wai_sat_add(k.working_bytes, frame);
    wai_motion_frames_shape(j, f->h, f->w, 1);
    j->in_stream = 1;
    return WAI_ok;
}

static wai_status frame_run(wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_kernels *k = wai_exec_kernels(ex);
    (void)out;
    hyper_frame_job *s = WAI_JOB_STATE(j, hyper_frame_job);
    if (!is_key(&s->f)) return wai_motion_frame_run(j, ex, &s->f);
    /* The frame's RGB (declared: the keyframe's output), copied into the
     * group it opens. */
    uint8_t *rgb = wai_alloc(ex->alloc, (size_t)j->cost.output_bytes);
    if (!rgb) return WAI_out_of_memory;
    wai_motion_group *g = j->stream;
    wai_status st = wai_wih1_decode(ex, k, j->set, &s->f.key_header, &s->p, rgb);
    if (st == WAI_ok) st = wai_wif1_open_keyframe(ex->alloc, &s->f, g, rgb);
    wai_free(ex->alloc, rgb);
    j->out.data = g->frame;
    return st;
}

static void frame_release(wai_job *j, const wai_allocator *a) {
    wai_hyper_plan_free(a, &WAI_JOB_STATE(j, hyper_frame_job)->p);
}

static void frame_describe(const wai_job *j, wai_text *t) {
    wai_wif1_describe(&WAI_JOB_STATE(j, const hyper_frame_job)->f, t);
}

static void frame_stream_close(void *stream, const wai_allocator *a) {
    wai_motion_group_close(stream, a);
}

const wai_codec_ops wai_int_hyper_frame_ops = {.parse = frame_parse,
                                               .prepare = frame_prepare,
                                               .run = frame_run,
                                               .release = frame_release,
                                               .describe = frame_describe,
                                               .stream_bytes = sizeof(wai_motion_group),
                                               .stream_close = frame_stream_close};
