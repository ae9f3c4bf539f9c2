/* SPDX-License-Identifier: BSD-2-Clause */
/* The AArch64 level's loops (ops/cores.h): Advanced SIMD (NEON), part of
 * every ARMv8-A CPU, so the level needs no detection. Built for aarch64
 * only; empty elsewhere (32-bit ARM runs the portable loops). */
#ifndef WAI_OPS_ARM_ARM_H
#define WAI_OPS_ARM_ARM_H

#include "ops/cores.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#define WAI_ARM_NEON 1
#else
#define WAI_ARM_NEON 0
#endif

#if WAI_ARM_NEON
void wai_cores_init_neon(wai_cores *c); /* ops/arm/neon.c */
#endif

#endif
