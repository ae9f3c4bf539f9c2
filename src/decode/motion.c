/* SPDX-License-Identifier: BSD-2-Clause */
#include "decode/motion.h"

#include "common/reader.h"

static wai_status decode_intra(const wai_motion_frame *f, wai_rans_dec *d, uint8_t *out) {
    size_t n = (size_t)f->h * f->w * 3;
    for (size_t i = 0; i < n; i++) {
        int32_t r;
        wai_status st = wai_rans_decode(d, f->table, f->offset, &r);
        if (st != WAI_ok) return st;
        out[i] = wai_residual_step(128, r, f->q);
    }
    return WAI_ok;
}

/* E10 for one block row segment: the reads of each pixel are clamped on their
 * own (reading R11), so a vector far outside the frame is still exact. */
static wai_status decode_inter(const wai_motion_frame *f, wai_rans_dec *d, uint8_t *out) {
    const uint8_t *prev = f->prev;
    int32_t hmax = (int32_t)f->h - 1, wmax = (int32_t)f->w - 1;
    size_t stride = (size_t)f->w * 3;
    int half = f->mv_precision == 2;
    for (uint32_t y = 0; y < f->h; y++) {
        const uint8_t *row_vectors = f->vectors + 4 * (size_t)(y / f->block) * f->nbx;
        for (uint32_t x = 0; x < f->w; x++) {
            const uint8_t *v = row_vectors + 4 * (size_t)(x / f->block);
            int32_t dy = wai_i16_from_u16(wai_load_u16le(v));
            int32_t dx = wai_i16_from_u16(wai_load_u16le(v + 2));
            /* Whole-pel: the vector itself. Half-pel: its halves. */
            int32_t fy = 0, fx = 0;
            if (half) wai_mv_halves(&dy, &dx, &fy, &fx);
            int64_t iy = (int64_t)y + dy, ix = (int64_t)x + dx;
            size_t r0 = (size_t)wai_mv_clamp(iy, hmax) * stride;
            size_t r1 = (size_t)wai_mv_clamp(iy + 1, hmax) * stride;
            size_t c0 = (size_t)wai_mv_clamp(ix, wmax) * 3;
            size_t c1 = (size_t)wai_mv_clamp(ix + 1, wmax) * 3;
            uint8_t *px = out + (size_t)y * stride + (size_t)x * 3;
            for (int c = 0; c < 3; c++) {
                int32_t pred;
                if (!fy && !fx) pred = prev[r0 + c0 + c];
                else if (!fy) pred = (prev[r0 + c0 + c] + prev[r0 + c1 + c] + 1) >> 1;
                else if (!fx) pred = (prev[r0 + c0 + c] + prev[r1 + c0 + c] + 1) >> 1;
                else
                    pred = (prev[r0 + c0 + c] + prev[r0 + c1 + c] + prev[r1 + c0 + c] +
                            prev[r1 + c1 + c] + 2) >> 2;
                int32_t r;
                wai_status st = wai_rans_decode(d, f->table, f->offset, &r);
                if (st != WAI_ok) return st;
                px[c] = wai_residual_step(pred, r, f->q);
            }
        }
    }
    return WAI_ok;
}

wai_status wai_decode_motion_frame_ref(const wai_motion_frame *f, wai_rans_dec *d, uint8_t *out) {
    return f->prev ? decode_inter(f, d, out) : decode_intra(f, d, out);
}
