/* SPDX-License-Identifier: BSD-2-Clause */
/* The SIMD128 level's loops (ops/cores.h): the pair dot product through
 * i32x4.dot_i16x8_s (the twin of x86's vpmaddwd: two i16 products summed
 * into each 32-bit lane, modulo 2^32), the i32 tap loop, the i64 tap loop
 * for x in i32 through i64x2.extmul, the largest |x| and a motion
 * segment's reconstruction (with the one-thread frame step split
 * to use it: motion_split). The engine maps
 * each v128 value onto a machine register (x86-64: 16 XMM registers), so
 * a loop keeps at most 8 accumulators live. Relaxed SIMD has no 16-bit dot
 * product with an add (its dot is 8-bit), so none is used (docs/web.md). */
#include "ops/wasm/wasm.h"

#if WAI_WASM_SIMD
#include <string.h>
#include <wasm_simd128.h>

#include "ops/bounds.h"
#include "ops/cores_c.h"
#include "ops/cores_level.h"

/* ---- the pair dot product ---------------------------------------------------
 *
 * dot_cols 16: the call's columns in two blocks of 8 (two vectors of four
 * 32-bit lanes), each block's 4 x 2 accumulators live across every pair
 * and tap. A lane's sum of i16 x i16 pair products is its sum modulo 2^32,
 * as in the C loop; the flush sign-extends, shifts and adds modulo 2^64. */
#define COLS 16
#define NV 2 /* vectors of a block */

static inline v128_t pair_splat(const int16_t *p) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return wasm_i32x4_splat(v);
}

/* d[0..4) += a's four lanes, sign-extended and shifted left by shl. */
static inline void flush(uint64_t *d, v128_t a, unsigned shl) {
    v128_t lo = wasm_i64x2_shl(wasm_i64x2_extend_low_i32x4(a), shl);
    v128_t hi = wasm_i64x2_shl(wasm_i64x2_extend_high_i32x4(a), shl);
    wasm_v128_store(d, wasm_i64x2_add(wasm_v128_load(d), lo));
    wasm_v128_store(d + 2, wasm_i64x2_add(wasm_v128_load(d + 2), hi));
}

static void dot(uint64_t *acc64, const int16_t *x, size_t pstride, const ptrdiff_t *toff,
                size_t nt, const int16_t *wp, size_t np, unsigned shl) {
    for (size_t b = 0; b < COLS; b += 4 * NV) {
        v128_t acc[WAI_DOT_NO][NV];
        for (int o = 0; o < WAI_DOT_NO; o++)
            for (int v = 0; v < NV; v++) acc[o][v] = wasm_i32x4_splat(0);
        for (size_t p = 0; p < np; p++)
            for (size_t j = 0; j < nt; j++) {
                const int16_t *xj = x + p * pstride + toff[j] + 2 * b;
                const int16_t *wj = wp + (p * nt + j) * WAI_DOT_NO * 2;
                v128_t xv[NV];
                for (int v = 0; v < NV; v++) xv[v] = wasm_v128_load(xj + 8 * v);
                for (int o = 0; o < WAI_DOT_NO; o++) {
                    const v128_t w = pair_splat(wj + 2 * o);
                    for (int v = 0; v < NV; v++)
                        acc[o][v] = wasm_i32x4_add(acc[o][v], wasm_i32x4_dot_i16x8(xv[v], w));
                }
            }
        for (int o = 0; o < WAI_DOT_NO; o++)
            for (int v = 0; v < NV; v++) flush(acc64 + (size_t)o * COLS + b + 4 * v, acc[o][v], shl);
    }
}

/* ---- the tap loops ------------------------------------------------------------ */

/* i32x4.mul keeps the low 32 bits of each product, the product itself (the
 * caller proved it fits i32). A strip of G columns is 8 vectors. */
WAI_TAP_LOOP(tap_i32, , int32_t, v128_t, 4, wasm_v128_load, wasm_v128_store, wasm_i32x4_splat,
             wasm_i32x4_mul, wasm_i32x4_add)

/* Every x fits i32 (and the weights are i16): the low halves of four i64
 * lanes gathered into one vector, and i64x2.extmul's exact 32 x 32 -> 64
 * products of its halves. A strip is HALF (16) columns, 8 accumulators. */
#define HALF (WAI_TAP_G / 2)
#define SPLAT_LOW32(w) wasm_i32x4_splat((int32_t)(w))
#define HALF_OPEN                                                                         \
    v128_t r[HALF / 2];                                                                   \
    for (int v = 0; v < HALF / 2; v++) r[v] = wasm_v128_load(a + 2 * v);
#define HALF_TAP                                                                          \
    for (int v = 0; v < HALF / 2; v += 2) {                                               \
        const v128_t lo32 = wasm_i32x4_shuffle(wasm_v128_load(p + 2 * v),                 \
                                               wasm_v128_load(p + 2 * v + 2), 0, 2, 4, 6); \
        r[v] = wasm_i64x2_add(r[v], wasm_i64x2_extmul_low_i32x4(lo32, c));                \
        r[v + 1] = wasm_i64x2_add(r[v + 1], wasm_i64x2_extmul_high_i32x4(lo32, c));       \
    }
#define HALF_CLOSE for (int v = 0; v < HALF / 2; v++) wasm_v128_store(a + 2 * v, r[v]);

WAI_TAP_NEST(tap_i64x32, , int64_t, HALF, v128_t, SPLAT_LOW32, HALF_OPEN, HALF_TAP, HALF_CLOSE)

/* ---- the largest |x| ------------------------------------------------------------
 *
 * |x| as u64 (i64x2.abs leaves -2^63 as 2^63's bits); the unsigned larger
 * by a signed compare of both with the top bit flipped. */
static uint64_t max_abs(const int64_t *x, size_t n) {
    const v128_t top = wasm_i64x2_splat(INT64_MIN);
    v128_t m = wasm_i64x2_splat(0);
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        const v128_t a = wasm_i64x2_abs(wasm_v128_load(x + i));
        const v128_t gt = wasm_i64x2_gt(wasm_v128_xor(a, top), wasm_v128_xor(m, top));
        m = wasm_v128_bitselect(a, m, gt);
    }
    uint64_t best = (uint64_t)wasm_i64x2_extract_lane(m, 0);
    const uint64_t b1 = (uint64_t)wasm_i64x2_extract_lane(m, 1);
    const uint64_t t = wai_max_abs_i64(x + i, n - i); /* the tail: the C loop */
    if (b1 > best) best = b1;
    return t > best ? t : best;
}

/* No RGB8 step: clang's vectorisation of the portable loop ran faster in
 * V8 than two SIMD128 loops tried (1.18 ms against 1.45 and 1.62 ms for a
 * 512x768 picture: docs/performance.md, Issue 30). */

/* ---- a motion segment's reconstruction ------------------------------------------
 *
 * 16 samples a step. The prediction in bytes: i8x16.avgr_u is (a + b + 1)
 * >> 1 exactly; the four-tap mean is summed in u16 lanes. Then pred + r *
 * q: with q < 128 in i16 lanes (|r * q| <= 256 * 127 and pred + r * q
 * within i16), else in i32 lanes; the saturating narrows to u8 are the
 * clamp to 0..255. */
/* (a0 + a1 + b0 + b1 + 2) >> 2 of each byte. */
static inline v128_t mean4(v128_t a0, v128_t a1, v128_t b0, v128_t b1) {
    const v128_t two = wasm_i16x8_splat(2);
    v128_t lo = wasm_i16x8_add(wasm_u16x8_extend_low_u8x16(a0), wasm_u16x8_extend_low_u8x16(a1));
    v128_t hi = wasm_i16x8_add(wasm_u16x8_extend_high_u8x16(a0), wasm_u16x8_extend_high_u8x16(a1));
    lo = wasm_i16x8_add(lo, wasm_i16x8_add(wasm_u16x8_extend_low_u8x16(b0), wasm_u16x8_extend_low_u8x16(b1)));
    hi = wasm_i16x8_add(hi, wasm_i16x8_add(wasm_u16x8_extend_high_u8x16(b0), wasm_u16x8_extend_high_u8x16(b1)));
    lo = wasm_u16x8_shr(wasm_i16x8_add(lo, two), 2);
    hi = wasm_u16x8_shr(wasm_i16x8_add(hi, two), 2);
    return wasm_u8x16_narrow_i16x8(lo, hi);
}

WAI_RECON_PRED_FN(pred16, v128_t, wasm_v128_load, wasm_u8x16_avgr, mean4)

/* r * q added in i16 lanes to p16, the prediction widened to u16; q's
 * splat is loop-invariant, so the compiler hoists it out of the loop. */
static inline v128_t add_i16(v128_t p16, v128_t r, int32_t q) {
    return wasm_i16x8_add(p16, wasm_i16x8_mul(r, wasm_i16x8_splat((int16_t)q)));
}

/* The same in i32 lanes, narrowed back to i16 saturating. */
static inline v128_t add_i32(v128_t p16, v128_t r, int32_t q) {
    const v128_t qv = wasm_i32x4_splat(q);
    const v128_t lo = wasm_i32x4_add(wasm_u32x4_extend_low_u16x8(p16),
                                     wasm_i32x4_mul(wasm_i32x4_extend_low_i16x8(r), qv));
    const v128_t hi = wasm_i32x4_add(wasm_u32x4_extend_high_u16x8(p16),
                                     wasm_i32x4_mul(wasm_i32x4_extend_high_i16x8(r), qv));
    return wasm_i16x8_narrow_i32x4(lo, hi);
}

/* Samples i .. i + 15 (ops/cores_level.h, WAI_RECON_FN). */
#define RECON_STEP(KIND, LANES)                                                              \
    {                                                                                        \
        const v128_t p = pred16(a + i, b + i, KIND);                                         \
        const v128_t lo = add_##LANES(wasm_u16x8_extend_low_u8x16(p), wasm_v128_load(r + i), q); \
        const v128_t hi =                                                                    \
            add_##LANES(wasm_u16x8_extend_high_u8x16(p), wasm_v128_load(r + i + 8), q);      \
        wasm_v128_store(out + i, wasm_u8x16_narrow_i16x8(lo, hi));                           \
    }

WAI_RECON_FN(recon, RECON_STEP)

#define LOOPS(E) E(dot) E(tap_i32) E(tap_i64x32) E(max_abs) E(recon)
WAI_CORES_LEVEL(wai_cores_init_simd128, LOOPS,
                c->dot_cols = COLS;
                c->motion_split = 1; /* measured: docs/performance.md, Issue 30 */)
#endif
