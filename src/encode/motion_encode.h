/* A WIV1 encoder for wai.video.int_motion (integer-payloads §3, keyframe 0).
 *
 * Closed loop: frame 0 is predicted from 128 and every later frame from the
 * encoder's own reconstruction of the frame before, built with the decoder's
 * rules (E10 mc_predict, E9 residual_step), so the decoder's output is the
 * reconstruction the statistics describe. Integer only: the caller turns SSE
 * and sample counts into PSNR. */
#ifndef WAI_ENCODE_MOTION_ENCODE_H
#define WAI_ENCODE_MOTION_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

/* The search radius is capped so a half-pel vector (2R + 1 half pels) fits
 * i16. */
#define WAI_MOTION_ENCODE_MAX_SEARCH 16383

/* Called after each frame is coded: frame is 0-based, of n_frames. */
typedef void (*wai_motion_encode_progress)(void *opaque, uint32_t frame, uint32_t n_frames);

typedef struct wai_motion_encode_params {
    uint32_t q;          /* 1..65535; 1 is lossless */
    uint32_t block;      /* >= 1 (a one-frame clip is written with block 1) */
    uint32_t search;     /* whole pels, 0..WAI_MOTION_ENCODE_MAX_SEARCH */
    int half_pel;        /* refine each vector over its 8 half-pel neighbours */
    wai_motion_encode_progress progress;  /* NULL: no reports */
    void *progress_opaque;
    unsigned n_threads;  /* motion search threads (0: one per core); the payload
                          * is the same at every count */
} wai_motion_encode_params;

/* q 1, block 16, search 8, whole-pel, no progress, one thread. */
void wai_motion_encode_default_params(wai_motion_encode_params *p);

typedef struct wai_motion_encode_result {
    uint8_t *payload;     /* the WIV1 payload (allocated with the allocator) */
    size_t payload_len;
    uint32_t n_frames, h, w;
    uint64_t pixels;      /* n_frames * h * w */
    uint64_t samples;     /* pixels * 3 */
    uint64_t sse;         /* sum over the clip of (decoded - source)^2 */
    uint64_t *frame_sse;  /* n_frames entries, the same per frame */
    /* What the encoder chose, for reports. */
    int32_t offset;
    uint32_t cdf_len;
    uint64_t escapes;     /* residuals coded through the escape */
} wai_motion_encode_result;

/* Encodes n_frames RGB8 frames of h x w (frames[f] holds h*w*3 bytes: rows
 * top to bottom, R, G, B). WAI_invalid_argument for parameters out of range
 * or no frames; the writer's code (too_large, ...) for a clip a parser would
 * refuse; WAI_out_of_memory. On failure *res holds nothing to free. */
wai_status wai_motion_encode(const wai_allocator *a, const uint8_t *const *frames,
                             uint32_t n_frames, uint32_t h, uint32_t w,
                             const wai_motion_encode_params *p, wai_motion_encode_result *res);

void wai_motion_encode_result_free(const wai_allocator *a, wai_motion_encode_result *res);

#endif
