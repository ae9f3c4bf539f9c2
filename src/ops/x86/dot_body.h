/* SPDX-License-Identifier: BSD-2-Clause */
/* The register-tiled pair dot product (ops/cores.h, wai_dot_fn) written
 * once for the levels that have one (avx2.c, avx512bw.c, avx512vnni.c):
 * WAI_DOT_NO output channels times NV vectors of LANES 32-bit lanes stay in
 * registers across every pair and tap of the call. Included only where
 * WAI_X86_SIMD holds. */
#ifndef WAI_OPS_X86_DOT_BODY_H
#define WAI_OPS_X86_DOT_BODY_H

#include <immintrin.h>
#include <string.h>

#include "ops/cores.h"

/* The weight pair at p as one 32-bit lane (memcpy: no aliasing). */
static inline int32_t wai_pair_at(const int16_t *p) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

#define WAI_DOT_BODY(VT, NV, LANES, ZERO, LOAD, SET1, DP, FLUSH)                          \
    VT acc[WAI_DOT_NO][NV];                                                             \
    for (int o = 0; o < WAI_DOT_NO; o++)                                                \
        for (int v = 0; v < NV; v++) acc[o][v] = ZERO;                                  \
    for (size_t p = 0; p < np; p++) {                                                   \
        for (size_t j = 0; j < nt; j++) {                                               \
            const int16_t *xj = x + p * pstride + toff[j];                              \
            const int16_t *wj = wp + (p * nt + j) * WAI_DOT_NO * 2;                     \
            VT xv[NV];                                                                  \
            for (int v = 0; v < NV; v++) xv[v] = LOAD(xj + 2 * LANES * v);              \
            for (int o = 0; o < WAI_DOT_NO; o++) {                                      \
                const VT wb = SET1(wai_pair_at(wj + 2 * o));                            \
                for (int v = 0; v < NV; v++) acc[o][v] = DP(acc[o][v], xv[v], wb);      \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    for (int o = 0; o < WAI_DOT_NO; o++)                                                \
        for (int v = 0; v < NV; v++)                                                    \
            FLUSH(acc64 + (size_t)(o * NV + v) * LANES, acc[o][v], shl);

/* d[0..16) += the 16 lanes of a, sign-extended and shifted left by shl
 * (modulo 2^64). */
__attribute__((target("avx512f"))) static inline void wai_flush512(uint64_t *d, __m512i a,
                                                                    unsigned shl) {
    const __m128i sh = _mm_cvtsi32_si128((int)shl);
    __m512i lo = _mm512_sll_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(a)), sh);
    __m512i hi = _mm512_sll_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(a, 1)), sh);
    _mm512_storeu_si512(d, _mm512_add_epi64(_mm512_loadu_si512(d), lo));
    _mm512_storeu_si512(d + 8, _mm512_add_epi64(_mm512_loadu_si512(d + 8), hi));
}

/* Six 512-bit vectors of 16 columns: 96 columns a call. */
#define WAI_DOT_NV512 6

/* A 512-bit level's whole dot loop and init, for its TARGET and its
 * multiply-add DP: the levels differ in nothing else. */
#define WAI_DOT512_LEVEL(INIT, TARGET, DP)                                                 \
    __attribute__((target(TARGET))) static void dot(uint64_t *acc64, const int16_t *x,     \
                                                    size_t pstride, const ptrdiff_t *toff, \
                                                    size_t nt, const int16_t *wp, size_t np, \
                                                    unsigned shl) {                        \
        WAI_DOT_BODY(__m512i, WAI_DOT_NV512, 16, _mm512_setzero_si512(), _mm512_loadu_si512, \
                     _mm512_set1_epi32, DP, wai_flush512)                                  \
    }                                                                                      \
    void INIT(wai_cores *c) {                                                              \
        c->dot = dot;                                                                      \
        c->dot_cols = WAI_DOT_NV512 * 16;                                                  \
    }

#endif
