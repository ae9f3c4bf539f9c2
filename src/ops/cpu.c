/* See cpu.h. The compiler runtime's CPU model answers; nothing is cached
 * here (the context keeps the answer). */
#include "ops/cpu.h"

int wai_cpu_isa(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    /* CD (the lane leading-zero count of the inverse GDN's root) comes with
     * F on every AVX-512 CPU; asked all the same. */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd")) {
        if (!__builtin_cpu_supports("avx512bw")) return WAI_FAST_ISA_AVX512;
        if (!__builtin_cpu_supports("avx512vnni")) return WAI_FAST_ISA_AVX512BW;
        return WAI_FAST_ISA_VNNI;
    }
    if (__builtin_cpu_supports("avx2")) return WAI_FAST_ISA_AVX2;
#endif
    return WAI_FAST_ISA_PORTABLE;
}
