/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 BW level's loop (ops/cores.h): the pair dot product in
 * 512-bit lanes through vpmaddwd. */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include "ops/x86/dot_body.h"

/* vpmaddwd adds two i16 products into each 32-bit lane, modulo 2^32. */
#define MADD512(a, x, w) _mm512_add_epi32((a), _mm512_madd_epi16((x), (w)))

WAI_DOT512_LEVEL(wai_cores_init_avx512bw, "avx512f,avx512bw", MADD512)
#endif
