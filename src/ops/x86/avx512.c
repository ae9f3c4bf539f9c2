/* The AVX-512 F and DQ level's loops (ops/cores.h): the three tap loops in
 * 512-bit lanes and the inverse GDN's sums of squares with 64-bit
 * multiplies. Its pair dot product stays AVX2's (F and DQ alone have no
 * 512-bit i16 multiply). */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include <immintrin.h>

/* One broadcast multiply-add loop per lane type and multiply: LANES values
 * of T per register, SET1 broadcasts a weight, MUL multiplies (its result
 * is the exact product: see each use), ADD accumulates. */
#define TAP_LOOP(NAME, TARGET, T, LANES, SET1, MUL, ADD)                                    \
    __attribute__((target(TARGET))) static void NAME(T *acc, size_t nob, const T *const *xp, \
                                                     const T *wts, size_t nt, size_t tw) {   \
        for (size_t ob = 0; ob < nob; ob++) {                                                \
            const T *wv = wts + ob * WAI_TAP_NTMAX;                                          \
            for (size_t t0 = 0; t0 < tw; t0 += WAI_TAP_G) {                                  \
                T *a = acc + ob * WAI_TAP_TW + t0;                                           \
                __m512i r[WAI_TAP_G / LANES];                                                \
                for (int v = 0; v < WAI_TAP_G / LANES; v++)                                  \
                    r[v] = _mm512_loadu_si512(a + LANES * v);                                \
                for (size_t j = 0; j < nt; j++) {                                            \
                    const __m512i c = SET1(wv[j]);                                           \
                    const T *p = xp[j] + t0;                                                 \
                    for (int v = 0; v < WAI_TAP_G / LANES; v++)                              \
                        r[v] = ADD(r[v], MUL(c, _mm512_loadu_si512(p + LANES * v)));         \
                }                                                                            \
                for (int v = 0; v < WAI_TAP_G / LANES; v++)                                  \
                    _mm512_storeu_si512(a + LANES * v, r[v]);                                \
            }                                                                                \
        }                                                                                    \
    }

/* i32 accumulators: vpmulld keeps the low 32 bits, the product itself (the
 * caller proved it fits i32). */
TAP_LOOP(tap_i32, "avx512f", int32_t, 16, _mm512_set1_epi32, _mm512_mullo_epi32,
         _mm512_add_epi32)

/* i64 accumulators: vpmullq keeps the low 64 bits of the product, which is
 * the product (the bound keeps it in i64). */
TAP_LOOP(tap_i64, "avx512f,avx512dq", int64_t, 8, _mm512_set1_epi64, _mm512_mullo_epi64,
         _mm512_add_epi64)

/* Every x in i32: vpmuldq (32x32->64) is the cheaper multiply (measured:
 * 196 vs 257 ms on bench_layers' conv_t2d). */
TAP_LOOP(tap_i64x32, "avx512f", int64_t, 8, _mm512_set1_epi64, _mm512_mul_epi32,
         _mm512_add_epi64)

/* The portable loop's C, vectorised by the compiler with 64-bit
 * multiplies. */
__attribute__((target("avx512f,avx512dq"))) static void igdn_acc64(
    int64_t *acc, const int64_t *x, size_t positions, size_t p0, size_t np, const int32_t *gamma,
    size_t c, size_t nib) {
    WAI_IGDN_ACC64_BODY
}

void wai_cores_init_avx512(wai_cores *c) {
    c->tap_i32 = tap_i32;
    c->tap_i64 = tap_i64;
    c->tap_i64x32 = tap_i64x32;
    c->igdn_acc64 = igdn_acc64;
}
#endif
