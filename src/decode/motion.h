/* SPDX-License-Identifier: BSD-2-Clause */
/* The frame step of integer motion video (integer-payloads §3, §16): the
 * stage operators E10 mc_predict and E9 residual_step over one frame, each
 * sample's residual the next symbol of the frame's rANS stream (E1). */
#ifndef WAI_DECODE_MOTION_H
#define WAI_DECODE_MOTION_H

#include <stdint.h>

#include "common/pool.h"
#include "common/reader.h"
#include "entropy/rans.h"
#include "formats/motion_rules.h"

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
    /* The level's loops (ops/cores.h): its segment reconstruction, and
     * whether one thread decodes, then reconstructs; NULL: the portable. */
    const struct wai_cores *cores;
} wai_motion_frame;

/* What one block segment of inter row y reads, from its vector (4 bytes:
 * LE i16 dy, dx): rows a (at the vector's whole-pel row) and b (the one
 * below, for a vertical half), each clamped, the whole-pel column shift
 * ix, and the half-pel flags (0 for a whole-pel clip). The fast and the
 * two-thread frame steps share it. */
typedef struct wai_mv_segment {
    const uint8_t *a, *b;
    int32_t ix;
    int fy, fx;
} wai_mv_segment;

static inline wai_mv_segment wai_mv_segment_of(const wai_motion_frame *f, uint32_t y,
                                               const uint8_t *v) {
    int32_t dy = wai_i16_from_u16(wai_load_u16le(v));
    int32_t dx = wai_i16_from_u16(wai_load_u16le(v + 2));
    int32_t fy = 0, fx = 0;
    if (f->mv_precision == 2) wai_mv_halves(&dy, &dx, &fy, &fx);
    wai_mv_segment s = {NULL, NULL, dx, (int)fy, (int)fx};
    size_t stride = (size_t)f->w * 3;
    int32_t hmax = (int32_t)f->h - 1;
    s.a = f->prev + (size_t)wai_mv_clamp((int64_t)y + dy, hmax) * stride;
    s.b = f->prev + (size_t)wai_mv_clamp((int64_t)y + dy + 1, hmax) * stride;
    return s;
}

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
 * takes it where the frame is large and the pool has a second thread, or
 * the level's table asks for the split on one (else the fast path); _pipe always, with chunks of chunk_rows rows (0: about
 * 32768 samples), for tests. Without memory for the ring, the fast path. */
wai_status wai_decode_motion_frame_threads(const wai_motion_frame *f, wai_rans_dec *d,
                                           wai_pool *pool, const wai_allocator *a,
                                           uint8_t *out);
wai_status wai_decode_motion_frame_pipe(const wai_motion_frame *f, wai_rans_dec *d,
                                        wai_pool *pool, const wai_allocator *a,
                                        uint32_t chunk_rows, uint8_t *out);

#endif
