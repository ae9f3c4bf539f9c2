/* SPDX-License-Identifier: BSD-2-Clause */
/* The AVX-512 VNNI level's loop (ops/cores.h): the pair dot product as one
 * vpdpwssd, the multiply and the add fused (the same sum modulo 2^32 as
 * vpmaddwd + vpaddd). */
#include "ops/x86/x86.h"

#if WAI_X86_SIMD
#include "ops/x86/dot_body.h"

WAI_DOT512_LEVEL(wai_cores_init_avx512vnni, "avx512f,avx512bw,avx512vnni",
                 _mm512_dpwssd_epi32)
#endif
