/* The instruction set levels the fast kernels have loops for (ops/cores.h),
 * and the detection of the CPU's, which a context does once, when it is
 * created (src/lib.c). */
#ifndef WAI_OPS_CPU_H
#define WAI_OPS_CPU_H

/* Levels, in order: each level's loops need the CPU features of its own
 * and of the levels below, and not of the higher ones. */
#define WAI_FAST_ISA_PORTABLE 0
#define WAI_FAST_ISA_AVX2 1
#define WAI_FAST_ISA_AVX512 2   /* AVX-512 F, DQ and CD */
#define WAI_FAST_ISA_AVX512BW 3 /* and BW: 512-bit vpmaddwd */
#define WAI_FAST_ISA_VNNI 4     /* and VNNI: vpdpwssd */
#define WAI_FAST_ISA_BEST 4

/* The best level this CPU runs (PORTABLE off x86-64). */
int wai_cpu_isa(void);

#endif
