/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 F, DQ and CD level's loops (ops/cores.h): the three tap loops in
 * 512-bit lanes, the inverse GDN's sums of squares with 64-bit multiplies
 * and its value (an integer root eight or sixteen lanes at a time, the
 * sixteen from a seed),
 * requantisation, and the largest |x|; their tails run the C loops
 * (ops/cores_c.h). Its pair dot product stays AVX2's (F and DQ alone have
 * no 512-bit i16 multiply). */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include <immintrin.h>

#include "ops/cores_c.h"
#include "ops/cores_level.h"
#include "ops/x86/isqrt_seed.h"

/* One broadcast multiply-add loop per lane type and multiply (ops/cores_level.h):
 * LANES values of T per register, SET1 broadcasts a weight, MUL multiplies (its
 * result is the exact product: see each use), ADD accumulates. */
#define TAP_LOOP(NAME, TARGET, T, LANES, SET1, MUL, ADD)                                   \
    WAI_TAP_LOOP(NAME, __attribute__((target(TARGET))), T, __m512i, LANES, _mm512_loadu_si512, \
                 _mm512_storeu_si512, SET1, MUL, ADD)

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

/* isqrt of 16 u32 lanes from a seed (docs/integer-operators.md, "The root
 * from a seed"). Each n > 0 is scaled by 4^s into m in [2^30, 2^32), whose
 * root shifted right by s is n's. Bucket i = m >> 22 gives T = isqrt(i ·
 * 2^22) and V ~ 2^24 / (2T + D + 1) (D: the bucket's most root above T);
 * d = (m - T²) · V >> 24 is the root's excess over T or one less, never
 * more (rem · V < 66 · 2^24: no overflow), so one step where the remainder
 * still holds 2r + 1 makes r exact. Integer only. */
__attribute__((target("avx512f,avx512cd"))) static __m512i isqrt16_u32(__m512i n) {
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i s = _mm512_srli_epi32(_mm512_lzcnt_epi32(n), 1); /* n = 0: 16 */
    const __m512i m = _mm512_sllv_epi32(n, _mm512_add_epi32(s, s));
    /* n = 0 gives m = 0 and bucket 0 - LO: held at 0, its lane zeroed below. */
    __m512i i = _mm512_max_epi32(
        _mm512_sub_epi32(_mm512_srli_epi32(m, WAI_ISQRT_SEED_SHIFT),
                         _mm512_set1_epi32(WAI_ISQRT_SEED_LO)),
        _mm512_setzero_si512());
    const __m512i e = _mm512_i32gather_epi32(i, (const void *)wai_isqrt_seed, 4);
    const __m512i t = _mm512_and_si512(e, _mm512_set1_epi32(0xFFFF));
    const __m512i rem = _mm512_sub_epi32(m, _mm512_mullo_epi32(t, t));
    __m512i r = _mm512_add_epi32(
        t, _mm512_srli_epi32(_mm512_mullo_epi32(rem, _mm512_srli_epi32(e, 16)), WAI_ISQRT_SEED_K));
    /* r <= isqrt(m) < 2^16: r² and m - r² fit u32. */
    const __m512i left = _mm512_sub_epi32(m, _mm512_mullo_epi32(r, r));
    const __mmask16 up = _mm512_cmpge_epu32_mask(left, _mm512_add_epi32(_mm512_add_epi32(r, r), one));
    r = _mm512_mask_add_epi32(r, up, r, one);
    return _mm512_maskz_srlv_epi32(_mm512_test_epi32_mask(n, n), r, s);
}

/* n = beta + floor(sum / 2^gf) where it is >= 0, else 0, for 8 lanes (see
 * igdn_value). */
__attribute__((target("avx512f"))) static inline __m512i value_n(const uint64_t *sum,
                                                                  __m128i sg, __m512i vb,
                                                                  int beta_neg) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i t = _mm512_sra_epi64(_mm512_loadu_si512(sum), sg);
    __m512i s = _mm512_add_epi64(t, vb);
    __mmask8 tneg = _mm512_cmplt_epi64_mask(t, zero), sneg = _mm512_cmplt_epi64_mask(s, zero);
    __mmask8 z = beta_neg ? (__mmask8)(tneg | sneg) : (__mmask8)(tneg & sneg);
    return _mm512_maskz_mov_epi64((__mmask8)~z, s);
}

/* round_shift(x * r, afrac) for 8 lanes: the exact product (|x| < 2^31, r
 * < 2^32), then floor plus the bit below. */
__attribute__((target("avx512f,avx512dq"))) static inline void value_out(
    int64_t *y, const int64_t *x, __m512i r, __m128i sa, __m128i sa1, int r16) {
    /* r < 2^16 (the seeded root's lanes): one vpmuldq of the low halves,
     * |x| < 2^31, is the product; else the three-uop vpmullq. */
    __m512i v = r16 ? _mm512_mul_epi32(_mm512_loadu_si512(x), r)
                    : _mm512_mullo_epi64(_mm512_loadu_si512(x), r);
    __m512i q = _mm512_add_epi64(_mm512_sra_epi64(v, sa),
                                 _mm512_and_si512(_mm512_srl_epi64(v, sa1), _mm512_set1_epi64(1)));
    _mm512_storeu_si512(y, q);
}

/* The value (cores.h) eight lanes at a time: t = floor(sum / 2^gf) by an
 * arithmetic shift (a count of 63 gives the same -1 or 0 as any count past
 * it); n = t + beta wrapped in u64, which is n itself where n >= 0, zero
 * where n < 0 (by beta's sign: with beta >= 0, n < 0 only when t < 0 and
 * the signed sum is; with beta < 0, whenever t < 0 or the sum is); then the
 * root, the exact product and round_shift as floor plus the bit below. The
 * tail and the shifts 0 and 64 up run the C loop. */
__attribute__((target("avx512f,avx512dq,avx512cd"))) static void igdn_value(
    int64_t *y, const int64_t *x, const uint64_t *sum, size_t n, int64_t beta, uint32_t gf,
    uint32_t afrac) {
    size_t i = 0;
    if (afrac >= 1 && afrac <= 63) {
        const __m512i vb = _mm512_set1_epi64(beta);
        const __m128i sg = _mm_cvtsi32_si128(gf >= 63 ? 63 : (int)gf);
        const __m128i sa = _mm_cvtsi32_si128((int)afrac), sa1 = _mm_cvtsi32_si128((int)afrac - 1);
        const int bneg = beta < 0;
        for (; i + 16 <= n; i += 16) {
            __m512i n0 = value_n(sum + i, sg, vb, bneg), n1 = value_n(sum + i + 8, sg, vb, bneg);
            uint64_t top = _mm512_reduce_or_epi64(_mm512_or_si512(n0, n1));
            __m512i r0 = n0, r1 = n1; /* all zero when top is */
            const int r16 = top <= 0xFFFFFFFFu;
            if (!r16) {
                r0 = isqrt8(n0), r1 = isqrt8(n1);
            } else if (top) {
                /* Both halves as one vector of 16 u32, the roots widened back. */
                __m512i n32 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(n0)),
                                                 _mm512_cvtepi64_epi32(n1), 1);
                __m512i r = isqrt16_u32(n32);
                r0 = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(r));
                r1 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(r, 1));
            }
            value_out(y + i, x + i, r0, sa, sa1, r16);
            value_out(y + i + 8, x + i + 8, r1, sa, sa1, r16);
        }
        for (; i + 8 <= n; i += 8)
            value_out(y + i, x + i, isqrt8(value_n(sum + i, sg, vb, bneg)), sa, sa1, 0);
    }
    if (i < n) wai_igdn_value_c(y + i, x + i, sum + i, n - i, beta, gf, afrac);
}

/* The limbs of the squares (cores.h) for a channel pair and 16 positions a
 * step: each square once (vpmuldq: |x| < 2^31), then per limb the even
 * channel's field in the low half of each 32-bit pair lane and the odd's
 * in the high, the two 8-lane halves packed into one vector. Positions
 * past np load as zero (masked), so the tail needs no C loop. */
__attribute__((target("avx512f"))) static void igdn_limbs(int16_t *limbs, const int64_t *x,
                                                           size_t positions, size_t c, size_t np,
                                                           size_t cols, int lsq) {
    const size_t npairs = (c + 1) / 2, lstride = npairs * 2 * cols;
    const __m512i low15 = _mm512_set1_epi64(0x7FFF);
    /* Lanes 0, 2, .., 14 of a then of b, as 32-bit: each 64-bit lane's low half. */
    const __m512i pack = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    for (size_t p = 0; p < npairs; p++) {
        const int64_t *x0 = x + 2 * p * positions, *x1 = x0 + positions;
        const int odd = 2 * p + 1 < c;
        int16_t *d = limbs + p * 2 * cols;
        for (size_t t = 0; t < cols; t += 16) {
            size_t left = np > t ? np - t : 0;
            __mmask8 m0 = left >= 8 ? 0xFF : (__mmask8)((1u << left) - 1);
            __mmask8 m1 = left >= 16 ? 0xFF : left <= 8 ? 0 : (__mmask8)((1u << (left - 8)) - 1);
            __m512i a0 = _mm512_maskz_loadu_epi64(m0, x0 + t), a1 = _mm512_maskz_loadu_epi64(m1, x0 + t + 8);
            __m512i b0 = _mm512_setzero_si512(), b1 = b0;
            if (odd)
                b0 = _mm512_maskz_loadu_epi64(m0, x1 + t), b1 = _mm512_maskz_loadu_epi64(m1, x1 + t + 8);
            a0 = _mm512_mul_epi32(a0, a0), a1 = _mm512_mul_epi32(a1, a1);
            b0 = _mm512_mul_epi32(b0, b0), b1 = _mm512_mul_epi32(b1, b1);
            for (int k = 0; k < lsq; k++) {
                const __m128i sh = _mm_cvtsi32_si128(15 * k);
                __m512i w0 = _mm512_or_si512(
                    _mm512_and_si512(_mm512_srl_epi64(a0, sh), low15),
                    _mm512_slli_epi64(_mm512_and_si512(_mm512_srl_epi64(b0, sh), low15), 16));
                __m512i w1 = _mm512_or_si512(
                    _mm512_and_si512(_mm512_srl_epi64(a1, sh), low15),
                    _mm512_slli_epi64(_mm512_and_si512(_mm512_srl_epi64(b1, sh), low15), 16));
                _mm512_storeu_si512(d + (size_t)k * lstride + 2 * t,
                                    _mm512_permutex2var_epi32(w0, pack, w1));
            }
        }
    }
}

/* max |x|: vpabsq then an unsigned max (|-2^63| is 2^63 as u64), four
 * vectors a step. */
__attribute__((target("avx512f"))) static uint64_t max_abs(const int64_t *x, size_t n) {
    __m512i m0 = _mm512_setzero_si512(), m1 = m0, m2 = m0, m3 = m0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        m0 = _mm512_max_epu64(m0, _mm512_abs_epi64(_mm512_loadu_si512(x + i)));
        m1 = _mm512_max_epu64(m1, _mm512_abs_epi64(_mm512_loadu_si512(x + i + 8)));
        m2 = _mm512_max_epu64(m2, _mm512_abs_epi64(_mm512_loadu_si512(x + i + 16)));
        m3 = _mm512_max_epu64(m3, _mm512_abs_epi64(_mm512_loadu_si512(x + i + 24)));
    }
    for (; i + 8 <= n; i += 8)
        m0 = _mm512_max_epu64(m0, _mm512_abs_epi64(_mm512_loadu_si512(x + i)));
    uint64_t a = _mm512_reduce_max_epu64(
        _mm512_max_epu64(_mm512_max_epu64(m0, m1), _mm512_max_epu64(m2, m3)));
    uint64_t t = wai_max_abs_i64(x + i, n - i);
    return t > a ? t : a;
}

/* Requantisation (cores.h) eight lanes at a time where the row allows it:
 * when every |acc| < 2^p and |m| < 2^q with p + q <= 63 the product is
 * exact in i64 (vpmullq), then round_shift as floor plus the bit below, then
 * + b (the sum the bound keeps in i64). Other rows, shifts 0 and 64 up, and
 * the tail run the C loop. */
__attribute__((target("avx512f,avx512dq"))) static void requant(int64_t *y, size_t ys,
                                                                 const uint64_t *acc, size_t n,
                                                                 int64_t m, uint32_t shift,
                                                                 int64_t b) {
    size_t i = 0;
    if (shift >= 1 && shift <= 63 && n >= 8) {
        __m512i top = _mm512_setzero_si512();
        for (size_t t = 0; t + 8 <= n; t += 8)
            top = _mm512_max_epu64(top, _mm512_abs_epi64(_mm512_loadu_si512(acc + t)));
        uint64_t amax = _mm512_reduce_max_epu64(top);
        uint64_t mabs = m < 0 ? 0 - (uint64_t)m : (uint64_t)m;
        int pa = amax ? 64 - __builtin_clzll(amax) : 0, pm = mabs ? 64 - __builtin_clzll(mabs) : 0;
        if (pa + pm <= 63) {
            const __m512i vm = _mm512_set1_epi64(m), vb = _mm512_set1_epi64(b);
            const __m512i one = _mm512_set1_epi64(1);
            const __m128i sh = _mm_cvtsi32_si128((int)shift), sh1 = _mm_cvtsi32_si128((int)shift - 1);
            for (; i + 8 <= n; i += 8) {
                __m512i v = _mm512_mullo_epi64(_mm512_loadu_si512(acc + i), vm);
                __m512i q = _mm512_add_epi64(
                    _mm512_add_epi64(_mm512_sra_epi64(v, sh),
                                     _mm512_and_si512(_mm512_srl_epi64(v, sh1), one)),
                    vb);
                if (ys == 1) {
                    _mm512_storeu_si512(y + i, q);
                } else {
                    int64_t tmp[8];
                    _mm512_storeu_si512(tmp, q);
                    for (int k = 0; k < 8; k++) y[(i + (size_t)k) * ys] = tmp[k];
                }
            }
        }
    }
    if (i < n) wai_requant_c(y + i * ys, ys, acc + i, n - i, m, shift, b);
}

#define LOOPS(E)                                                                     \
    E(tap_i32) E(tap_i64) E(tap_i64x32) E(igdn_acc64) E(igdn_value) E(igdn_limbs) E(max_abs) \
    E(requant)
WAI_CORES_LEVEL(wai_cores_init_avx512, LOOPS, )
#endif
