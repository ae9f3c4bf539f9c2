/* SPDX-License-Identifier: BSD-2-Clause */
/* The x86-64 levels' loops (ops/cores.h), one file per level, each filling
 * the entries it makes faster. They are built on x86-64 with GCC or Clang
 * only (their functions carry the level's target attribute, so the rest of
 * the library needs no -m flag), and empty elsewhere. */
#ifndef WAI_OPS_X86_X86_H
#define WAI_OPS_X86_X86_H

#include "ops/cores.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WAI_X86_SIMD 1
#else
#define WAI_X86_SIMD 0
#endif

#if WAI_X86_SIMD
void wai_cores_init_avx2(wai_cores *c);       /* ops/x86/avx2.c */
void wai_cores_init_avx512(wai_cores *c);     /* ops/x86/avx512.c: F and DQ */
void wai_cores_init_avx512bw(wai_cores *c);   /* ops/x86/avx512bw.c */
void wai_cores_init_avx512vnni(wai_cores *c); /* ops/x86/avx512vnni.c */
#endif

#endif
