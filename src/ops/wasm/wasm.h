/* SPDX-License-Identifier: BSD-2-Clause */
/* The WebAssembly level's loops (ops/cores.h): SIMD128, built where the
 * compiler targets it (-msimd128: every browser and node since 2021; a
 * module compiled so does not load where SIMD128 is missing, so the level
 * needs no detection). Empty elsewhere. */
#ifndef WAI_OPS_WASM_WASM_H
#define WAI_OPS_WASM_WASM_H

#include "ops/cores.h"

#if defined(__wasm__) && defined(__wasm_simd128__)
#define WAI_WASM_SIMD 1
#else
#define WAI_WASM_SIMD 0
#endif

#if WAI_WASM_SIMD
void wai_cores_init_simd128(wai_cores *c); /* ops/wasm/simd128.c */
#endif

#endif
