/* SPDX-License-Identifier: BSD-2-Clause */
/* The C loops of the table's per-element entries (ops/cores.h), written
 * once as inline functions: the portable table's entries (ops/cores.c)
 * and the tails a level's vector loop leaves (ops/x86/avx512.c). */
#ifndef WAI_OPS_CORES_C_H
#define WAI_OPS_CORES_C_H

#include <stddef.h>
#include <stdint.h>

#include "common/int128.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/layers.h"

/* floor(v / 2^s) for s < 64, without shifting a negative value. */
static inline int64_t wai_floor_shift_i64(int64_t v, unsigned s) {
    return v >= 0 ? (int64_t)((uint64_t)v >> s) : -(int64_t)(~(uint64_t)v >> s) - 1;
}

/* The inverse GDN's value (cores.h, wai_igdn_value_fn): the reference's in
 * 64 bits, n = beta + floor(sum / 2^gf) formed by signs (it may pass i64,
 * never u64), its root below 2^32. */
static inline void wai_igdn_value_c(int64_t *y, const int64_t *x, const uint64_t *sum, size_t n,
                                    int64_t beta, uint32_t gf, uint32_t afrac) {
    for (size_t i = 0; i < n; i++) {
        int64_t s = wai_u64_to_i64(sum[i]);
        int64_t t = gf >= 64 ? (s < 0 ? -1 : 0) : wai_floor_shift_i64(s, gf);
        uint64_t m;
        if (t < 0 && beta < 0) {
            m = 0;
        } else if (t >= 0 && beta >= 0) {
            m = (uint64_t)t + (uint64_t)beta;
        } else {
            int64_t d = t + beta; /* opposite signs: no overflow */
            m = d < 0 ? 0 : (uint64_t)d;
        }
        int64_t v = x[i] * (int64_t)wai_isqrt_u64(m); /* |x| < 2^31, r < 2^32 */
        if (afrac == 0)
            y[i] = v;
        else if (afrac >= 64)
            y[i] = 0; /* |v| < 2^63 <= 2^(afrac-1) */
        else
            y[i] = wai_floor_shift_i64(v, afrac) + (int64_t)(((uint64_t)v >> (afrac - 1)) & 1);
    }
}

/* The inverse GDN's limbs of the squares (cores.h, wai_igdn_limbs_fn). */
static inline void wai_igdn_limbs_c(int16_t *limbs, const int64_t *x, size_t positions, size_t c,
                                    size_t np, size_t cols, int lsq) {
    const size_t npairs = (c + 1) / 2, lstride = npairs * 2 * cols;
    for (size_t j = 0; j < 2 * npairs; j++) {
        int16_t *d = limbs + (j / 2) * 2 * cols + (j & 1);
        for (size_t t = 0; t < cols; t++) {
            /* |x| < 2^31: the square is below 2^62. */
            uint64_t sq = j < c && t < np ? (uint64_t)(x[j * positions + t] * x[j * positions + t]) : 0;
            for (int k = 0; k < lsq; k++)
                d[(size_t)k * lstride + 2 * t] = (int16_t)((sq >> (15 * k)) & 0x7FFF);
        }
    }
}

/* Requantisation of a row (cores.h, wai_requant_fn). */
static inline void wai_requant_c(int64_t *y, size_t ys, const uint64_t *acc, size_t n, int64_t m,
                                 uint32_t shift, int64_t b) {
    for (size_t t = 0; t < n; t++) y[t * ys] = wai_requantize(wai_u64_to_i64(acc[t]), m, shift, b);
}

/* The RGB8 step into interleaved RGB (cores.h, wai_rgb8_fn); the step,
 * inline, has its afrac check hoisted out of the loop. */
static inline void wai_rgb8_c(uint8_t *rgb, const int64_t *planes, size_t hw, size_t i0,
                              size_t i1, uint32_t afrac) {
    for (size_t ch = 0; ch < 3; ch++) {
        const int64_t *pl = planes + ch * hw;
        uint8_t *d = rgb + ch;
        for (size_t i = i0; i < i1; i++) d[3 * i] = wai_rgb8_step(pl[i], afrac);
    }
}

/* One sample's motion prediction (E10) of its kind: a0 the sample read in
 * row a, a1 the one a pixel right of it; b0, b1 the same in row b. */
static inline int32_t wai_recon_pred(unsigned kind, int32_t a0, int32_t a1, int32_t b0,
                                     int32_t b1) {
    switch (kind) {
    case WAI_RECON_WHOLE: return a0;
    case WAI_RECON_HALF_X: return (a0 + a1 + 1) >> 1;
    case WAI_RECON_HALF_Y: return (a0 + b0 + 1) >> 1;
    default: return (a0 + a1 + b0 + b1 + 2) >> 2;
    }
}

/* E9: the prediction plus the residual times q, clamped to a byte; r * q
 * fits i32 by the caller's bounds (|r| <= 256, q < 2^16), pred + r * q too. */
static inline uint8_t wai_recon_step(int32_t pred, int32_t r, int32_t q) {
    int32_t v = pred + r * q;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* A motion segment's reconstruction (cores.h, wai_recon_fn). A kind
 * without b never reads it. */
static inline void wai_recon_c(uint8_t *out, const uint8_t *a, const uint8_t *b, unsigned kind,
                               const int16_t *r, size_t n, int32_t q) {
    int half_x = (kind & WAI_RECON_HALF_X) != 0, half_y = (kind & WAI_RECON_HALF_Y) != 0;
    for (size_t i = 0; i < n; i++) {
        int32_t pred = wai_recon_pred(kind, a[i], half_x ? a[i + 3] : 0, half_y ? b[i] : 0,
                                      half_x && half_y ? b[i + 3] : 0);
        out[i] = wai_recon_step(pred, r[i], q);
    }
}

/* Expands M(KIND, X) once for each kind, KIND a constant in each and X
 * passed through (the loop M runs), so that a segment loop is compiled once
 * per kind with the kind's test out of it. */
#define WAI_RECON_EACH_KIND(kind, M, X)                                               \
    switch (kind) {                                                                   \
    case WAI_RECON_WHOLE: M(WAI_RECON_WHOLE, X) break;                                \
    case WAI_RECON_HALF_X: M(WAI_RECON_HALF_X, X) break;                              \
    case WAI_RECON_HALF_Y: M(WAI_RECON_HALF_Y, X) break;                              \
    default: M(WAI_RECON_HALF_X | WAI_RECON_HALF_Y, X) break;                         \
    }

#endif
