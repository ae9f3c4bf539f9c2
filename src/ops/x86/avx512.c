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

/* isqrt of 8 u64 lanes, digit by digit (two bits of n a step): from the
 * largest power of 4 at most the largest lane, r + bit is subtracted where
 * it fits and r takes the bit; the steps are as many as the largest lane
 * needs, so small values cost few. Integer only, exact. */
__attribute__((target("avx512f"))) static __m512i isqrt8(__m512i n) {
    uint64_t top = _mm512_reduce_or_epi64(n);
    if (top == 0) return n;
    int e = (63 - __builtin_clzll(top)) & ~1; /* bit e: the power of 4 <= top */
    __m512i r = _mm512_setzero_si512(), rem = n;
    for (; e >= 0; e -= 2) {
        const __m512i bit = _mm512_set1_epi64((long long)((uint64_t)1 << e));
        const __m512i trial = _mm512_add_epi64(r, bit); /* r < 2^33, bit <= 2^62 */
        const __mmask8 ge = _mm512_cmpge_epu64_mask(rem, trial);
        rem = _mm512_mask_sub_epi64(rem, ge, rem, trial);
        r = _mm512_mask_add_epi64(_mm512_srli_epi64(r, 1), ge, _mm512_srli_epi64(r, 1), bit);
    }
    return r;
}

/* The value (cores.h) eight lanes at a time: t = floor(sum / 2^gf) by an
 * arithmetic shift (a count of 63 gives the same -1 or 0 as any count past
 * it); n = t + beta wrapped in u64, which is n itself where n >= 0, zero
 * where n < 0 (by beta's sign: with beta >= 0, n < 0 only when t < 0 and
 * the signed sum is; with beta < 0, whenever t < 0 or the sum is); then the
 * root, the exact product and round_shift as floor plus the bit below. The
 * tail and the shifts 0 and 64 up run the C loop. */
__attribute__((target("avx512f,avx512dq"))) static void igdn_value(
    int64_t *y, const int64_t *x, const uint64_t *sum, size_t n, int64_t beta, uint32_t gf,
    uint32_t afrac) {
    size_t i = 0;
    if (afrac >= 1 && afrac <= 63) {
        const __m512i vb = _mm512_set1_epi64(beta), zero = _mm512_setzero_si512();
        const __m512i one = _mm512_set1_epi64(1);
        const __m128i sg = _mm_cvtsi32_si128(gf >= 63 ? 63 : (int)gf);
        const __m128i sa = _mm_cvtsi32_si128((int)afrac), sa1 = _mm_cvtsi32_si128((int)afrac - 1);
        for (; i + 8 <= n; i += 8) {
            __m512i t = _mm512_sra_epi64(_mm512_loadu_si512(sum + i), sg);
            __m512i s = _mm512_add_epi64(t, vb);
            __mmask8 tneg = _mm512_cmplt_epi64_mask(t, zero), sneg = _mm512_cmplt_epi64_mask(s, zero);
            __mmask8 z = beta >= 0 ? (__mmask8)(tneg & sneg) : (__mmask8)(tneg | sneg);
            __m512i r = isqrt8(_mm512_maskz_mov_epi64((__mmask8)~z, s));
            __m512i v = _mm512_mullo_epi64(_mm512_loadu_si512(x + i), r);
            __m512i q = _mm512_add_epi64(_mm512_sra_epi64(v, sa),
                                         _mm512_and_si512(_mm512_srl_epi64(v, sa1), one));
            _mm512_storeu_si512(y + i, q);
        }
    }
    if (i < n) wai_cores_portable()->igdn_value(y + i, x + i, sum + i, n - i, beta, gf, afrac);
}

void wai_cores_init_avx512(wai_cores *c) {
    c->tap_i32 = tap_i32;
    c->tap_i64 = tap_i64;
    c->tap_i64x32 = tap_i64x32;
    c->igdn_acc64 = igdn_acc64;
    c->igdn_value = igdn_value;
}
#endif
