/* The SIMD128 level's loops (ops/cores.h): the pair dot product through
 * i32x4.dot_i16x8_s (the twin of x86's vpmaddwd: two i16 products summed
 * into each 32-bit lane, modulo 2^32), the i32 tap loop, the i64 tap loop
 * for x in i32 through i64x2.extmul, and the largest |x|. The engine maps
 * each v128 value onto a machine register (x86-64: 16 XMM registers), so
 * a loop keeps at most 8 accumulators live. Relaxed SIMD has no 16-bit dot
 * product with an add (its dot is 8-bit), so none is used (docs/web.md). */
#include "ops/wasm/wasm.h"

#if WAI_WASM_SIMD
#include <string.h>
#include <wasm_simd128.h>

#include "ops/bounds.h"

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
static void tap_i32(int32_t *acc, size_t nob, const int32_t *const *xp, const int32_t *wts,
                    size_t nt, size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        const int32_t *wv = wts + ob * WAI_TAP_NTMAX;
        for (size_t t0 = 0; t0 < tw; t0 += WAI_TAP_G) {
            int32_t *a = acc + ob * WAI_TAP_TW + t0;
            v128_t r[WAI_TAP_G / 4];
            for (int v = 0; v < WAI_TAP_G / 4; v++) r[v] = wasm_v128_load(a + 4 * v);
            for (size_t j = 0; j < nt; j++) {
                const v128_t c = wasm_i32x4_splat(wv[j]);
                const int32_t *p = xp[j] + t0;
                for (int v = 0; v < WAI_TAP_G / 4; v++)
                    r[v] = wasm_i32x4_add(r[v], wasm_i32x4_mul(c, wasm_v128_load(p + 4 * v)));
            }
            for (int v = 0; v < WAI_TAP_G / 4; v++) wasm_v128_store(a + 4 * v, r[v]);
        }
    }
}

/* Every x fits i32 (and the weights are i16): the low halves of four i64
 * lanes gathered into one vector, and i64x2.extmul's exact 32 x 32 -> 64
 * products of its halves. A strip is done in halves of 16 columns (8
 * accumulators). */
static void tap_i64x32(int64_t *acc, size_t nob, const int64_t *const *xp, const int64_t *wts,
                       size_t nt, size_t tw) {
    enum { H = WAI_TAP_G / 2 };
    for (size_t ob = 0; ob < nob; ob++) {
        const int64_t *wv = wts + ob * WAI_TAP_NTMAX;
        for (size_t t0 = 0; t0 < tw; t0 += H) {
            int64_t *a = acc + ob * WAI_TAP_TW + t0;
            v128_t r[H / 2];
            for (int v = 0; v < H / 2; v++) r[v] = wasm_v128_load(a + 2 * v);
            for (size_t j = 0; j < nt; j++) {
                const v128_t c = wasm_i32x4_splat((int32_t)wv[j]);
                const int64_t *p = xp[j] + t0;
                for (int v = 0; v < H / 2; v += 2) {
                    const v128_t lo32 = wasm_i32x4_shuffle(wasm_v128_load(p + 2 * v),
                                                           wasm_v128_load(p + 2 * v + 2), 0, 2, 4, 6);
                    r[v] = wasm_i64x2_add(r[v], wasm_i64x2_extmul_low_i32x4(lo32, c));
                    r[v + 1] = wasm_i64x2_add(r[v + 1], wasm_i64x2_extmul_high_i32x4(lo32, c));
                }
            }
            for (int v = 0; v < H / 2; v++) wasm_v128_store(a + 2 * v, r[v]);
        }
    }
}

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

void wai_cores_init_simd128(wai_cores *c) {
    c->dot = dot;
    c->dot_cols = COLS;
    c->tap_i32 = tap_i32;
    c->tap_i64x32 = tap_i64x32;
    c->max_abs = max_abs;
}
#endif
