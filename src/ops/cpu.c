/* SPDX-License-Identifier: BSD-2-Clause */
/* See cpu.h. The CPU is asked directly (CPUID, and XGETBV for the register
 * state the operating system saves), so the library needs nothing of the
 * compiler's runtime; nothing is cached here (the context keeps the
 * answer). */
#include "ops/cpu.h"

#include <string.h>

#include "ops/arm/arm.h"
#include "ops/wasm/wasm.h"

/* Every public level's name, whatever the build. */
static const char *const names[] = {"host",     "portable",   "avx2",    "avx512",
                                    "avx512bw", "avx512vnni", "wasm128", "neon"};
#define N_NAMES (sizeof names / sizeof names[0])

const char *wai_cpu_level_name(wai_cpu_level l) {
    return (unsigned)l < N_NAMES ? names[l] : NULL;
}

int wai_cpu_level_from_name(const char *name, wai_cpu_level *out) {
    for (unsigned i = 0; name && i < N_NAMES; i++)
        if (strcmp(names[i], name) == 0) {
            *out = (wai_cpu_level)i;
            return 1;
        }
    return 0;
}

/* This build's architecture's levels, in order: the public one of each
 * internal level (a new architecture's chain is its own rows). */
static const wai_cpu_level chain[] = {
    WAI_CPU_PORTABLE,
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    WAI_CPU_X86_AVX2, WAI_CPU_X86_AVX512, WAI_CPU_X86_AVX512BW, WAI_CPU_X86_AVX512VNNI,
#elif WAI_WASM_SIMD
    WAI_CPU_WASM_SIMD128,
#elif WAI_ARM_NEON
    WAI_CPU_ARM_NEON,
#endif
};
#define N_CHAIN (int)(sizeof chain / sizeof chain[0])

int wai_cpu_isa_capped(wai_cpu_level cap, int *isa) {
    const int host = wai_cpu_isa();
    if (cap == WAI_CPU_HOST) {
        *isa = host;
        return 1;
    }
    for (int i = 0; i < N_CHAIN; i++)
        if (chain[i] == cap) {
            *isa = i < host ? i : host;
            return 1;
        }
    return 0;
}

wai_cpu_level wai_cpu_level_of_isa(int isa) {
    return isa >= 0 && isa < N_CHAIN ? chain[isa] : WAI_CPU_PORTABLE;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <stdint.h>

/* XCR0: which register state the OS saves and restores. */
static uint64_t xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

#define BIT(r, n) (((r) >> (n)) & 1u)

int wai_cpu_isa(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return WAI_FAST_ISA_PORTABLE;
    /* AVX needs the OS to save the YMM state (XCR0 bits 1 and 2). */
    if (!BIT(c, 27) || !BIT(c, 28) || (xcr0() & 0x6) != 0x6) return WAI_FAST_ISA_PORTABLE;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !BIT(b, 5)) return WAI_FAST_ISA_PORTABLE;
    /* AVX-512 F, DQ and CD (CD, the lane leading-zero count of the inverse
     * GDN's root, comes with F on every AVX-512 CPU; asked all the same),
     * and the opmask and ZMM state saved (XCR0 bits 5 to 7). */
    if (!BIT(b, 16) || !BIT(b, 17) || !BIT(b, 28) || (xcr0() & 0xE6) != 0xE6)
        return WAI_FAST_ISA_AVX2;
    if (!BIT(b, 30)) return WAI_FAST_ISA_AVX512;
    if (!BIT(c, 11)) return WAI_FAST_ISA_AVX512BW;
    return WAI_FAST_ISA_VNNI;
}
#elif WAI_WASM_SIMD
/* A module built for SIMD128 does not load where it is missing. */
int wai_cpu_isa(void) { return WAI_FAST_ISA_WASM128; }
#elif WAI_ARM_NEON
/* Advanced SIMD is part of every AArch64 CPU (ARMv8-A). */
int wai_cpu_isa(void) { return WAI_FAST_ISA_NEON; }
#else
int wai_cpu_isa(void) { return WAI_FAST_ISA_PORTABLE; }
#endif
