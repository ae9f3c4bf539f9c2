/* SPDX-License-Identifier: BSD-2-Clause */
/* The instruction set levels the fast kernels have loops for (ops/cores.h),
 * and the detection of the CPU's, which a context does once, when it is
 * created (src/lib.c). */
#ifndef WAI_OPS_CPU_H
#define WAI_OPS_CPU_H

#include "wai/wai.h"

/* Levels, in order: each level's loops need the CPU features of its own
 * and of the levels below, and not of the higher ones. */
#define WAI_FAST_ISA_PORTABLE 0
#define WAI_FAST_ISA_AVX2 1
#define WAI_FAST_ISA_AVX512 2   /* AVX-512 F, DQ and CD */
#define WAI_FAST_ISA_AVX512BW 3 /* and BW: 512-bit vpmaddwd */
#define WAI_FAST_ISA_VNNI 4     /* and VNNI: vpdpwssd */
/* wasm32 */
#define WAI_FAST_ISA_WASM128 1  /* SIMD128: i32x4.dot_i16x8_s */
/* aarch64 */
#define WAI_FAST_ISA_NEON 1     /* Advanced SIMD: smlal */
/* The most levels of any architecture's chain. */
#define WAI_FAST_ISA_BEST 4

/* The best level this CPU runs (wasm32: WASM128 where built with SIMD128;
 * aarch64: NEON; PORTABLE elsewhere). */
int wai_cpu_isa(void);

/* The level a context's kernels run at for the public cap (wai_settings
 * cpu_level): the CPU's best for WAI_CPU_HOST, else the cap held to the
 * CPU's; 0 for a cap of another architecture than this build's. */
int wai_cpu_isa_capped(wai_cpu_level cap, int *isa);

/* The public name of an internal level (this build's architecture). */
wai_cpu_level wai_cpu_level_of_isa(int isa);

#endif
