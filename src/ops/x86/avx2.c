/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX2 level's loops (ops/cores.h): the i32 tap loop, the i64 one for
 * x in i32 (AVX2 has no 64-bit multiply, only 32x32->64), and the pair dot
 * product through vpmaddwd. */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include "ops/cores_level.h"
#include "ops/x86/dot_body.h"

#define LOAD256(p) _mm256_loadu_si256((const __m256i *)(p))
#define STORE256(p, v) _mm256_storeu_si256((__m256i *)(p), (v))

/* vpmulld keeps the low 32 bits of each product, which is the product
 * itself (the caller proved it fits i32). */
WAI_TAP_LOOP(tap_i32, __attribute__((target("avx2"))), int32_t, __m256i, 8, LOAD256, STORE256,
             _mm256_set1_epi32, _mm256_mullo_epi32, _mm256_add_epi32)

/* vpmuldq multiplies the low 32-bit halves, sign-extended: exact when
 * every x fits i32 (the weights are i16). */
WAI_TAP_LOOP(tap_i64x32, __attribute__((target("avx2"))), int64_t, __m256i, 4, LOAD256, STORE256,
             _mm256_set1_epi64x, _mm256_mul_epi32, _mm256_add_epi64)

/* d[0..8) += the 8 lanes of a, sign-extended and shifted left by shl. */
__attribute__((target("avx2"))) static inline void flush256(uint64_t *d, __m256i a,
                                                             unsigned shl) {
    const __m128i sh = _mm_cvtsi32_si128((int)shl);
    __m256i lo = _mm256_sll_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(a)), sh);
    __m256i hi = _mm256_sll_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(a, 1)), sh);
    _mm256_storeu_si256((__m256i *)d, _mm256_add_epi64(_mm256_loadu_si256((__m256i *)d), lo));
    _mm256_storeu_si256((__m256i *)(d + 4),
                        _mm256_add_epi64(_mm256_loadu_si256((__m256i *)(d + 4)), hi));
}

#define NV256 2
/* vpmaddwd adds two i16 products into each 32-bit lane, modulo 2^32. */
#define MADD256(a, x, w) _mm256_add_epi32((a), _mm256_madd_epi16((x), (w)))

__attribute__((target("avx2"))) static void dot(uint64_t *acc64, const int16_t *x,
                                                size_t pstride, const ptrdiff_t *toff, size_t nt,
                                                const int16_t *wp, size_t np, unsigned shl) {
    WAI_DOT_BODY(__m256i, NV256, 8, _mm256_setzero_si256(), LOAD256, _mm256_set1_epi32, MADD256,
                 flush256)
}

#define LOOPS(E) E(tap_i32) E(tap_i64x32) E(dot)
WAI_CORES_LEVEL(wai_cores_init_avx2, LOOPS, c->dot_cols = NV256 * 8;)
#endif
