/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast path of the motion frame step (see motion.h): the decoder's state
 * in locals, and prediction one block segment at a time with the segment's
 * vector read once and its reads unclamped where they stay inside the frame.
 * Decoding and prediction stay in one loop, so the prediction's work runs in
 * the shadow of the rANS state's dependency chain. */
#include "common/reader.h"
#include "decode/motion.h"

typedef struct frame_ctx {
    const wai_motion_frame *f;
    wai_rans_dec *d;
    wai_rans_local l;
} frame_ctx;

#define NEXT_RESIDUAL(c) wai_rans_local_decode(&(c)->l, (c)->d, (c)->f->table, (c)->f->offset)

static void intra_row(frame_ctx *c, uint8_t *out, size_t n) {
    uint32_t q = c->f->q;
    for (size_t i = 0; i < n && !c->l.ran_out; i++) out[i] = wai_residual_step(128, NEXT_RESIDUAL(c), q);
}

/* Whole-pel segment [x0, x1) reading src_row shifted by dx. */
static void whole_segment(frame_ctx *c, const uint8_t *src_row, uint32_t x0, uint32_t x1,
                          int32_t dx, uint8_t *out) {
    const wai_motion_frame *f = c->f;
    int32_t wmax = (int32_t)f->w - 1;
    uint32_t q = f->q;
    if ((int64_t)x0 + dx >= 0 && (int64_t)x1 - 1 + dx <= wmax) {
        const uint8_t *src = src_row + ((int64_t)x0 + dx) * 3;
        size_t n = (size_t)(x1 - x0) * 3;
        for (size_t i = 0; i < n; i++) out[i] = wai_residual_step(src[i], NEXT_RESIDUAL(c), q);
        return;
    }
    for (uint32_t x = x0; x < x1; x++) {
        const uint8_t *px = src_row + (size_t)wai_mv_clamp((int64_t)x + dx, wmax) * 3;
        uint8_t *o = out + (size_t)(x - x0) * 3;
        for (int ch = 0; ch < 3; ch++) o[ch] = wai_residual_step(px[ch], NEXT_RESIDUAL(c), q);
    }
}

/* Half-pel segment: rows a (iy) and b (iy + 1), columns from ix. */
static void half_segment(frame_ctx *c, const uint8_t *a, const uint8_t *b, int fy, int fx,
                         uint32_t x0, uint32_t x1, int32_t ix, uint8_t *out) {
    const wai_motion_frame *f = c->f;
    int32_t wmax = (int32_t)f->w - 1;
    int inside = (int64_t)x0 + ix >= 0 && (int64_t)x1 + ix <= wmax;
    for (uint32_t x = x0; x < x1; x++) {
        size_t c0, c1;
        if (inside) {
            c0 = (size_t)((int64_t)x + ix) * 3;
            c1 = c0 + 3;
        } else {
            c0 = (size_t)wai_mv_clamp((int64_t)x + ix, wmax) * 3;
            c1 = (size_t)wai_mv_clamp((int64_t)x + ix + 1, wmax) * 3;
        }
        uint8_t *o = out + (size_t)(x - x0) * 3;
        for (int ch = 0; ch < 3; ch++) {
            int32_t pred;
            if (!fy) pred = (a[c0 + ch] + a[c1 + ch] + 1) >> 1;
            else if (!fx) pred = (a[c0 + ch] + b[c0 + ch] + 1) >> 1;
            else pred = (a[c0 + ch] + a[c1 + ch] + b[c0 + ch] + b[c1 + ch] + 2) >> 2;
            o[ch] = wai_residual_step(pred, NEXT_RESIDUAL(c), f->q);
        }
    }
}

static void inter_row(frame_ctx *c, uint32_t y, uint8_t *out) {
    const wai_motion_frame *f = c->f;
    const uint8_t *vectors = f->vectors + 4 * (size_t)(y / f->block) * f->nbx;
    for (uint32_t x0 = 0, bx = 0; x0 < f->w && !c->l.ran_out; x0 += f->block, bx++) {
        uint32_t x1 = f->w - x0 > f->block ? x0 + f->block : f->w;
        wai_mv_segment s = wai_mv_segment_of(f, y, vectors + 4 * (size_t)bx);
        uint8_t *os = out + (size_t)x0 * 3;
        if (!s.fy && !s.fx) whole_segment(c, s.a, x0, x1, s.ix, os);
        else half_segment(c, s.a, s.b, s.fy, s.fx, x0, x1, s.ix, os);
    }
}

wai_status wai_decode_motion_frame_fast(const wai_motion_frame *f, wai_rans_dec *d,
                                        uint8_t *out) {
    frame_ctx c = {f, d, wai_rans_local_load(d)};
    size_t n = (size_t)f->w * 3;
    /* A run-out stops the frame at the end of the segment it happens in: the
     * frame is refused and outputs nothing, so what follows is never used. */
    for (uint32_t y = 0; y < f->h && !c.l.ran_out; y++) {
        if (f->prev) inter_row(&c, y, out + (size_t)y * n);
        else intra_row(&c, out + (size_t)y * n, n);
    }
    wai_rans_local_store(d, &c.l);
    return c.l.ran_out ? WAI_stream_exhausted : WAI_ok;
}
