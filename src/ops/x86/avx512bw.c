/* The AVX-512 BW level's loop (ops/cores.h): the pair dot product in
 * 512-bit lanes through vpmaddwd. */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include "ops/x86/dot_body.h"

/* vpmaddwd adds two i16 products into each 32-bit lane, modulo 2^32. */
#define MADD512(a, x, w) _mm512_add_epi32((a), _mm512_madd_epi16((x), (w)))

__attribute__((target("avx512f,avx512bw"))) static void dot(uint64_t *acc64, const int16_t *x,
                                                            size_t pstride,
                                                            const ptrdiff_t *toff, size_t nt,
                                                            const int16_t *wp, size_t np,
                                                            unsigned shl) {
    WAI_DOT_BODY(__m512i, WAI_DOT_NV512, 16, _mm512_setzero_si512(), _mm512_loadu_si512,
                 _mm512_set1_epi32, MADD512, wai_flush512)
}

void wai_cores_init_avx512bw(wai_cores *c) {
    c->dot = dot;
    c->dot_cols = WAI_DOT_NV512 * 16;
}
#endif
