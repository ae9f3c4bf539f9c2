/* SPDX-License-Identifier: BSD-2-Clause */
/* How a motion frame's samples are rebuilt (integer-payloads §3, §16): E9,
 * the residual step, and E10's vector arithmetic (reading R11). The
 * format's rules, not the decoder's loops: the decoder's frame step
 * (decode/motion.h) and the encoder's search (write/motion_search.h)
 * predict with these, so an encoder's reference is the decoder's. */
#ifndef WAI_FORMATS_MOTION_RULES_H
#define WAI_FORMATS_MOTION_RULES_H

#include <stdint.h>

/* E9: clamp(pred + r * q, 0, 255); |r| < 2^31 and q < 2^16, so i64 is exact. */
static inline uint8_t wai_residual_step(int32_t pred, int32_t r, uint32_t q) {
    int64_t v = (int64_t)pred + (int64_t)r * (int64_t)q;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* A read's row or column clamped to 0..hi (E10: each read on its own). */
static inline int32_t wai_mv_clamp(int64_t v, int32_t hi) {
    return v < 0 ? 0 : v > hi ? hi : (int32_t)v;
}

/* floor(v / 2), the half-pel vector's whole part (reading R11's arithmetic
 * shift), without shifting a negative. */
static inline int32_t wai_mv_floor_half(int32_t v) {
    return v >= 0 ? v / 2 : -((1 - v) / 2);
}

/* A half-pel vector split in place into its whole-pel part and its
 * half-pel flags (reading R11: an arithmetic shift for the whole part, the
 * low bit for the half). */
static inline void wai_mv_halves(int32_t *dy, int32_t *dx, int32_t *fy, int32_t *fx) {
    *fy = (int32_t)((uint32_t)*dy & 1);
    *fx = (int32_t)((uint32_t)*dx & 1);
    *dy = wai_mv_floor_half(*dy);
    *dx = wai_mv_floor_half(*dx);
}

#endif
