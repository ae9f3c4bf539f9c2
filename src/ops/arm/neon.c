/* SPDX-License-Identifier: BSD-2-Clause */
/* The NEON level's loops (ops/cores.h): the pair dot product through
 * smlal (i16 x i16 -> i32 multiply-accumulate; a pair's two products sit
 * in neighbouring lanes until the flush adds them), the i32 tap loop
 * (mla), the i64 tap loop for x in i32 (smlal of the i64 lanes' low
 * halves), the largest |x|, the RGB8 step and a motion segment's
 * reconstruction. NEON arithmetic wraps: every lane's sum is
 * its sum modulo 2^32 or 2^64, as the C loops' contracts say.
 *
 * No SDOT level yet: the dot-product extension multiplies 8-bit values,
 * and the kernels' limbs are 15 and 16 bits (docs/integer-operators.md,
 * "Inner loops"). */
#include "ops/arm/arm.h"

#if WAI_ARM_NEON
#include <arm_neon.h>
#include <string.h>

#include "ops/bounds.h"
#include "ops/cores_c.h"
#include "ops/cores_level.h"

/* ---- the pair dot product ---------------------------------------------------
 *
 * dot_cols 16, in two blocks of 8 columns: a block's 4 output channels x 2
 * vectors x 2 halves = 16 accumulators stay in registers (of 32) across
 * every pair and tap. A vector of x holds 4 columns' pairs; smlal on its
 * low half gives [we·x0a, wo·x0b, we·x1a, wo·x1b], on its high half the
 * same for columns 2 and 3; addp of the two is the 4 columns' sums. */
#define COLS 16

/* d[0..4) += a's four lanes, sign-extended and shifted left by shl. */
static inline void flush(uint64_t *d, int32x4_t a, unsigned shl) {
    const int64x2_t sh = vdupq_n_s64((int64_t)shl);
    const int64x2_t lo = vshlq_s64(vmovl_s32(vget_low_s32(a)), sh);
    const int64x2_t hi = vshlq_s64(vmovl_high_s32(a), sh);
    vst1q_u64(d, vaddq_u64(vld1q_u64(d), vreinterpretq_u64_s64(lo)));
    vst1q_u64(d + 2, vaddq_u64(vld1q_u64(d + 2), vreinterpretq_u64_s64(hi)));
}

/* The pair (we, wo) at p in every two lanes. */
static inline int16x8_t pair_dup(const int16_t *p) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return vreinterpretq_s16_s32(vdupq_n_s32(v));
}

/* Output channel o's accumulators, written out by name (a loop over arrays
 * of them is left in memory by clang 14): columns 0-3 (a) and 4-7 (b) of
 * the block, each as its pairs' first (l) and second (h) products. */
#define ACC(o) int32x4_t l##o##a = zero, h##o##a = zero, l##o##b = zero, h##o##b = zero
#define MAC(o)                                                                  \
    do {                                                                        \
        const int16x8_t w = pair_dup(wj + 2 * (o));                             \
        l##o##a = vmlal_s16(l##o##a, vget_low_s16(x0), vget_low_s16(w));        \
        h##o##a = vmlal_high_s16(h##o##a, x0, w);                               \
        l##o##b = vmlal_s16(l##o##b, vget_low_s16(x1), vget_low_s16(w));        \
        h##o##b = vmlal_high_s16(h##o##b, x1, w);                               \
    } while (0)
#define FLUSH(o)                                                                      \
    do {                                                                              \
        flush(acc64 + (size_t)(o) * COLS + b, vpaddq_s32(l##o##a, h##o##a), shl);     \
        flush(acc64 + (size_t)(o) * COLS + b + 4, vpaddq_s32(l##o##b, h##o##b), shl); \
    } while (0)

static void dot(uint64_t *acc64, const int16_t *x, size_t pstride, const ptrdiff_t *toff,
                size_t nt, const int16_t *wp, size_t np, unsigned shl) {
    const int32x4_t zero = vdupq_n_s32(0);
    for (size_t b = 0; b < COLS; b += 8) {
        ACC(0);
        ACC(1);
        ACC(2);
        ACC(3);
        for (size_t p = 0; p < np; p++)
            for (size_t j = 0; j < nt; j++) {
                const int16_t *xj = x + p * pstride + toff[j] + 2 * b;
                const int16_t *wj = wp + (p * nt + j) * WAI_DOT_NO * 2;
                const int16x8_t x0 = vld1q_s16(xj), x1 = vld1q_s16(xj + 8);
                MAC(0);
                MAC(1);
                MAC(2);
                MAC(3);
            }
        FLUSH(0);
        FLUSH(1);
        FLUSH(2);
        FLUSH(3);
    }
}

/* ---- the tap loops ------------------------------------------------------------ */

/* mul keeps the low 32 bits of each product, the product itself (the
 * caller proved it fits i32); with the add it is one mla. A strip of G
 * columns is 8 vectors. */
WAI_TAP_LOOP(tap_i32, , int32_t, int32x4_t, 4, vld1q_s32, vst1q_s32, vdupq_n_s32, vmulq_s32,
             vaddq_s32)

/* Every x fits i32 (the weights are i16): uzp1 gathers the low halves of
 * four i64 lanes, smlal multiplies them exactly (32 x 32 -> 64) into the
 * i64 accumulators, a strip's 16 of them named (not an array: see ACC).
 * Columns 4k .. 4k + 3 of the strip: r##k##0 and r##k##1 += their x times c. */
#define TAP4(k)                                                                           \
    do {                                                                                  \
        const int32x4_t lo32 = vuzp1q_s32(vreinterpretq_s32_s64(vld1q_s64(p + 4 * (k))),  \
                                          vreinterpretq_s32_s64(vld1q_s64(p + 4 * (k) + 2))); \
        r##k##0 = vmlal_s32(r##k##0, vget_low_s32(lo32), vget_low_s32(c));               \
        r##k##1 = vmlal_high_s32(r##k##1, lo32, c);                                       \
    } while (0)
#define LOAD4(k) int64x2_t r##k##0 = vld1q_s64(a + 4 * (k)), r##k##1 = vld1q_s64(a + 4 * (k) + 2)
#define STORE4(k) (vst1q_s64(a + 4 * (k), r##k##0), vst1q_s64(a + 4 * (k) + 2, r##k##1))
/* M(k) for each group k of four columns of the strip. */
#define EACH_GROUP(M) M(0); M(1); M(2); M(3); M(4); M(5); M(6); M(7);
#define DUP_LOW32(w) vdupq_n_s32((int32_t)(w))

WAI_TAP_NEST(tap_i64x32, , int64_t, WAI_TAP_G, int32x4_t, DUP_LOW32, EACH_GROUP(LOAD4),
             EACH_GROUP(TAP4), EACH_GROUP(STORE4))

/* ---- the largest |x| ------------------------------------------------------------
 *
 * |x| as u64 (abs leaves -2^63 as 2^63's bits); NEON has no 64-bit max, so
 * a compare and a select. */
static uint64_t max_abs(const int64_t *x, size_t n) {
    uint64x2_t m = vdupq_n_u64(0);
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        const uint64x2_t a = vreinterpretq_u64_s64(vabsq_s64(vld1q_s64(x + i)));
        m = vbslq_u64(vcgtq_u64(a, m), a, m);
    }
    uint64_t best = vgetq_lane_u64(m, 0);
    const uint64_t t = wai_max_abs_i64(x + i, n - i); /* the tail: the C loop */
    if (vgetq_lane_u64(m, 1) > best) best = vgetq_lane_u64(m, 1);
    return t > best ? t : best;
}

/* ---- the RGB8 step -----------------------------------------------------------
 *
 * 16 pixels a step. The clamp to [0, 2^afrac]: sqxtun narrows each i64 to
 * u32 saturating (below 0 to 0, past 2^32 - 1 to it), then umin with the
 * top. The clamped value fits 32 bits, so c * 255 + the rounding half is
 * umlal (clang makes a 64-bit lane multiply, which NEON lacks, of (c << 8)
 * - c and does it in scalar registers), and ushl by -afrac the logical
 * shift, as the C step. Each result fits a byte, so the narrowing moves
 * are exact; st3 interleaves the planes. */
static uint16x4_t rgb8_four(const int64_t *x, uint32x4_t top, uint64x2_t half, int64x2_t right) {
    const uint32x4_t c = vminq_u32(vcombine_u32(vqmovun_s64(vld1q_s64(x)),
                                                vqmovun_s64(vld1q_s64(x + 2))), top);
    const uint64x2_t lo = vshlq_u64(vmlal_n_u32(half, vget_low_u32(c), 255), right);
    const uint64x2_t hi = vshlq_u64(vmlal_high_n_u32(half, c, 255), right);
    return vmovn_u32(vcombine_u32(vmovn_u64(lo), vmovn_u64(hi)));
}

static uint8x16_t rgb8_plane16(const int64_t *x, uint32_t afrac) {
    const uint32x4_t top = vdupq_n_u32((uint32_t)1 << afrac);
    const uint64x2_t half = vdupq_n_u64((uint64_t)1 << (afrac - 1));
    const int64x2_t right = vdupq_n_s64(-(int64_t)afrac);
    const uint16x8_t lo = vcombine_u16(rgb8_four(x, top, half, right), rgb8_four(x + 4, top, half, right));
    const uint16x8_t hi = vcombine_u16(rgb8_four(x + 8, top, half, right), rgb8_four(x + 12, top, half, right));
    return vcombine_u8(vmovn_u16(lo), vmovn_u16(hi));
}

static void rgb8(uint8_t *rgb, const int64_t *planes, size_t hw, size_t i0, size_t i1,
                 uint32_t afrac) {
    size_t i = i0;
    if (afrac >= 1 && afrac <= 30) {
        for (; i + 16 <= i1; i += 16) {
            uint8x16x3_t v;
            v.val[0] = rgb8_plane16(planes + i, afrac);
            v.val[1] = rgb8_plane16(planes + hw + i, afrac);
            v.val[2] = rgb8_plane16(planes + 2 * hw + i, afrac);
            vst3q_u8(rgb + 3 * i, v);
        }
    }
    wai_rgb8_c(rgb, planes, hw, i, i1, afrac); /* the tail, and any other afrac */
}

/* ---- a motion segment's reconstruction ------------------------------------------
 *
 * 16 samples a step. The prediction in bytes: urhadd is (a + b + 1) >> 1
 * exactly; the four-tap mean is summed in u16 lanes and narrowed by rshrn
 * ((s + 2) >> 2). Then pred + r * q: with q < 128 in i16 lanes (mla; |r *
 * q| <= 256 * 127 and the sum within i16), else in i32 lanes; the
 * saturating narrows (sqxtn, sqxtun) are the clamp to 0..255. */
/* (a0 + a1 + b0 + b1 + 2) >> 2 of each byte. */
static inline uint8x16_t mean4(uint8x16_t a0, uint8x16_t a1, uint8x16_t b0, uint8x16_t b1) {
    const uint16x8_t lo = vaddq_u16(vaddl_u8(vget_low_u8(a0), vget_low_u8(a1)),
                                    vaddl_u8(vget_low_u8(b0), vget_low_u8(b1)));
    const uint16x8_t hi = vaddq_u16(vaddl_high_u8(a0, a1), vaddl_high_u8(b0, b1));
    return vcombine_u8(vrshrn_n_u16(lo, 2), vrshrn_n_u16(hi, 2));
}

WAI_RECON_PRED_FN(pred16, uint8x16_t, vld1q_u8, vrhaddq_u8, mean4)

static inline int16x8_t add_i16(uint8x8_t p, int16x8_t r, int32_t q) {
    return vmlaq_n_s16(vreinterpretq_s16_u16(vmovl_u8(p)), r, (int16_t)q);
}

static inline int16x8_t add_i32(uint8x8_t p, int16x8_t r, int32_t q) {
    const uint16x8_t p16 = vmovl_u8(p);
    const int32x4_t lo = vmlaq_n_s32(vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(p16))),
                                     vmovl_s16(vget_low_s16(r)), q);
    const int32x4_t hi = vmlaq_n_s32(vreinterpretq_s32_u32(vmovl_high_u16(p16)),
                                     vmovl_high_s16(r), q);
    return vcombine_s16(vqmovn_s32(lo), vqmovn_s32(hi));
}

/* Samples i .. i + 15 (ops/cores_level.h, WAI_RECON_FN). */
#define RECON_STEP(KIND, LANES)                                                          \
    {                                                                                    \
        const uint8x16_t p = pred16(a + i, b + i, KIND);                                 \
        const int16x8_t lo = add_##LANES(vget_low_u8(p), vld1q_s16(r + i), q);           \
        const int16x8_t hi = add_##LANES(vget_high_u8(p), vld1q_s16(r + i + 8), q);      \
        vst1q_u8(out + i, vcombine_u8(vqmovun_s16(lo), vqmovun_s16(hi)));                \
    }

WAI_RECON_FN(recon, RECON_STEP)

/* motion_split stays 0: an AArch64 core runs the interleaved step's loop
 * from registers as x86-64 does, where it is the faster (not measured on
 * ARM: docs/performance.md, Issue 30). */
#define LOOPS(E) E(dot) E(tap_i32) E(tap_i64x32) E(max_abs) E(rgb8) E(recon)
WAI_CORES_LEVEL(wai_cores_init_neon, LOOPS, c->dot_cols = COLS;)
#endif
