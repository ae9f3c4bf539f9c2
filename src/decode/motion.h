/* The frame step of integer motion video (integer-payloads §3, §16): the
 * stage operators E10 mc_predict and E9 residual_step over one frame, each
 * sample's residual the next symbol of the frame's rANS stream (E1). */
#ifndef WAI_DECODE_MOTION_H
#define WAI_DECODE_MOTION_H

#include <stdint.h>

#include "common/pool.h"
#include "entropy/rans.h"

/* E9: clamp(pred + r * q, 0, 255); |r| < 2^31 and q < 2^16, so i64 is exact. */
static inline uint8_t wai_residual_step(int32_t pred, int32_t r, uint32_t q) {
    int64_t v = (int64_t)pred + (int64_t)r * (int64_t)q;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

typedef struct wai_motion_frame {
    uint32_t h, w;
    const wai_cdf_table *table;
    int32_t offset;
    uint32_t q;
    /* Inter frames only. */
    const uint8_t *prev;        /* the previous decoded frame, RGB8 */
    const uint8_t *vectors;     /* the frame's block grid: LE i16 dy, dx */
    uint32_t block, nbx;
    uint32_t mv_precision;      /* 1 whole-pel, 2 half-pel */
} wai_motion_frame;

/* Decodes h*w*3 symbols into out: an intra frame (pred 128) when f->prev is
 * NULL, else an inter frame. Returns WAI_stream_exhausted at the first
 * symbol that ran the stream out (out is then not a frame); the stream's end
 * is the caller's check.
 *
 * Two paths give the same bytes and the same status: the reference decodes
 * and predicts sample by sample, as the spec reads; the fast path keeps the
 * decoder's state in locals and predicts block segment by block segment,
 * reading unclamped where a segment's reads stay inside the frame. A
 * differential test holds them together. */
wai_status wai_decode_motion_frame_ref(const wai_motion_frame *f, wai_rans_dec *d, uint8_t *out);
wai_status wai_decode_motion_frame_fast(const wai_motion_frame *f, wai_rans_dec *d, uint8_t *out);

/* A third path, the same bytes, status and end state again, on two of the
 * pool's threads (motion_pipe.c): one runs the rANS chain into a ring of row
 * chunks, the other predicts and reconstructs the chunks decoded. _threads
 * takes it where the pool has a second thread and the frame is large (else
 * the fast path); _pipe always, with chunks of chunk_rows rows (0: about
 * 32768 samples), for tests. Without memory for the ring, the fast path. */
wai_status wai_decode_motion_frame_threads(const wai_motion_frame *f, wai_rans_dec *d,
                                           wai_pool *pool, const wai_allocator *a,
                                           uint8_t *out);
wai_status wai_decode_motion_frame_pipe(const wai_motion_frame *f, wai_rans_dec *d,
                                        wai_pool *pool, const wai_allocator *a,
                                        uint32_t chunk_rows, uint8_t *out);

#endif
