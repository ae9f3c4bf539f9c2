/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.video.int_motion (WIV1, keyframe 0) and its frame form
 * wai.video.int_motion.frame (WIF1 groups). */
#ifndef WAI_DECODE_INT_MOTION_H
#define WAI_DECODE_INT_MOTION_H

#include "decode/codec.h"
#include "formats/wif1.h"
#include "formats/wiv1.h"
#include "wai/wai_decode.h"

/* §7's declared cost of a keyframe-0 clip (reading R11): n*h*w*3 output
 * bytes and entropy steps, no network work, the frames and vectors held. */
void wai_wiv1_cost(const wai_wiv1 *v, wai_cost *c);

/* Decodes a parsed clip into frames (n_frames*h*w*3 bytes). Keyframe 0:
 * frame 0 is predicted from 128. Keyframe 1: frames[0] holds the nested
 * WIH1's decode on entry (the residual stream codes frames 1 on). ex's
 * pool: a second thread reconstructs while the first runs the rANS chain
 * (decode/motion.h), with ex's level's loops; NULL: one thread, the
 * portable loops, the default allocator. */
wai_status wai_wiv1_decode(const wai_exec *ex, const wai_wiv1 *v, uint8_t *frames);

/* The state a frame stream carries from frame to frame: what the group's
 * intra frame fixed, and the group's last decoded frame. */
typedef struct wai_motion_group {
    int open;
    uint32_t h, w, q;
    int32_t offset;
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_table table;
    uint8_t *frame;          /* the last decoded frame (h*w*3) */
    uint8_t *scratch;        /* the frame being decoded */
} wai_motion_group;

void wai_motion_group_close(wai_motion_group *g, const wai_allocator *a);

void wai_wif1_cost(const wai_wif1 *f, wai_cost *c);

/* Checks a parsed frame against the stream's group (reading R7): an inter
 * frame needs an open group (else field_range: the stream has no intra frame
 * for it, as §17.2 refuses a clip whose frame 0 is inter) of its size (else
 * geometry_mismatch). */
wai_status wai_wif1_check_group(const wai_wif1 *f, const wai_motion_group *g);

/* Decodes one frame: an intra frame opens a new group. On success the frame
 * is g->frame; on a refusal the group is closed. Not for an intra frame
 * with keyframe 1 (wai_wif1_open_keyframe). */
wai_status wai_wif1_decode(const wai_exec *ex, const wai_wif1 *f, wai_motion_group *g);

/* An intra frame with keyframe 1: opens its group (its table, q, offset,
 * h x w) with `rgb`, the nested WIH1's decode (h*w*3 bytes), as the
 * group's frame. */
wai_status wai_wif1_open_keyframe(const wai_allocator *a, const wai_wif1 *f, wai_motion_group *g,
                                  const uint8_t *rgb);

/* ---- the codecs (decode/codec.h) ---- */

/* wai.video.int_motion (a clip) and wai.video.int_motion.frame (a WIF1
 * frame; its stream state a wai_motion_group). */
extern const wai_codec_ops wai_int_motion_ops;
extern const wai_codec_ops wai_int_motion_frame_ops;

/* What the keyframe-1 forms (decode/int_hyper_video.c) share: the outputs'
 * shape of n_frames frames of h x w; a motion frame's prepare (the group
 * check when j has a stream, the cost, one frame in the stream) and run
 * (into the group: j->stream). */
void wai_motion_frames_shape(wai_job *j, uint32_t h, uint32_t w, uint32_t n_frames);
/* A WIV1 clip of the keyframe byte's form parsed into v, its frames' shape
 * set (codec.h: a clip's parse gives its outputs' count). */
wai_status wai_motion_clip_parse(wai_job *j, const uint8_t *data, size_t len, int keyframe,
                                 wai_wiv1 *v);
wai_status wai_motion_frame_prepare(wai_job *j, const wai_wif1 *f);
wai_status wai_motion_frame_run(wai_job *j, const wai_exec *ex, const wai_wif1 *f);

#endif
