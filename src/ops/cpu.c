/* See cpu.h. The CPU is asked directly (CPUID, and XGETBV for the register
 * state the operating system saves), so the library needs nothing of the
 * compiler's runtime; nothing is cached here (the context keeps the
 * answer). */
#include "ops/cpu.h"

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
#else
int wai_cpu_isa(void) { return WAI_FAST_ISA_PORTABLE; }
#endif
