/* The AVX-512 VNNI level's loop (ops/cores.h): the pair dot product as one
 * vpdpwssd, the multiply and the add fused (the same sum modulo 2^32 as
 * vpmaddwd + vpaddd). */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include "ops/x86/dot_body.h"

__attribute__((target("avx512f,avx512bw,avx512vnni"))) static void dot(
    uint64_t *acc64, const int16_t *x, size_t pstride, const ptrdiff_t *toff, size_t nt,
    const int16_t *wp, size_t np, unsigned shl) {
    WAI_DOT_BODY(__m512i, WAI_DOT_NV512, 16, _mm512_setzero_si512(), _mm512_loadu_si512,
                 _mm512_set1_epi32, _mm512_dpwssd_epi32, wai_flush512)
}

void wai_cores_init_avx512vnni(wai_cores *c) {
    c->dot = dot;
    c->dot_cols = WAI_DOT_NV512 * 16;
}
#endif
