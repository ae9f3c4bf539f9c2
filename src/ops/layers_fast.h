/* Fast versions of the heavy layers (ops/layers.h has the reference path).
 * Each has exactly its reference's signature and semantics: the same
 * geometry checks, the same exactness bound checked first (writing nothing
 * on refusal), the same output layout, and bit-identical output; the
 * differential test (tests/unit/test_layers_diff.c) holds them to it.
 *
 * They pick, per call, from A (the input's max |x|) and the parameter sums,
 * the narrowest exact accumulation (i32, i32 chunked over input channels and
 * widened to i64, or i64; for the inverse GDN i64 or i128), and on x86-64 an
 * AVX2 or AVX-512 inner loop when the CPU has it (detected per call). Shapes
 * outside the tiled path (k or stride above 8) run the reference. The
 * transposed convolution with A < 2^31 runs as i16 pair dot products
 * (layers_fast_dot.c) when its weight sums allow 32-bit chunks.
 *
 * Threads (an exec's n_threads) split the convolutions by (bands of)
 * output rows and the in-place inverse GDN by blocks of positions; each
 * output is computed whole by one thread, by the same steps, so the bits
 * do not depend on the count. Refusals are decided before any thread
 * starts.
 *
 * wai_conv_t2d_fast does not use `scratch` (it accumulates in tiles and
 * requantises straight into y); the argument stays for the shared
 * signature. */
#ifndef WAI_OPS_LAYERS_FAST_H
#define WAI_OPS_LAYERS_FAST_H

#include "ops/exec.h"
#include "ops/layers.h"

wai_status wai_conv2d_fast(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                           const int64_t *x, uint32_t h, uint32_t w,
                           int64_t *y, uint32_t oh, uint32_t ow);

/* ex (NULL: the default allocator, one thread): what its temporaries come
 * from and how many threads it may split the output rows over. */
wai_status wai_conv_t2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                             int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow);

wai_status wai_igdn_fast(const wai_layer *l, const uint64_t *sums, uint32_t gf, uint32_t afrac,
                         const int64_t *x, size_t positions, int64_t *y);

/* The inverse GDN in place: x is both input and output ([c][positions]).
 * The same checks, refusals (x untouched) and bits as wai_igdn_fast; it
 * needs c * 32 i64 of working memory per thread, from ex (out_of_memory,
 * x untouched, when it cannot have one), and splits the positions over up
 * to ex's threads, as many as keep those buffers within WAI_DOT_TEMP_MAX. */
wai_status wai_igdn_fast_inplace(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t gf, uint32_t afrac, int64_t *x, size_t positions);

/* ---- for tests and benchmarks --------------------------------------------- */

/* Instruction sets, in order: each level's kernels need the CPU features of
 * its own and not the higher ones. */
#define WAI_FAST_ISA_PORTABLE 0
#define WAI_FAST_ISA_AVX2 1
#define WAI_FAST_ISA_AVX512 2   /* AVX-512 F and DQ */
#define WAI_FAST_ISA_AVX512BW 3 /* and BW: 512-bit vpmaddwd */
#define WAI_FAST_ISA_VNNI 4     /* and VNNI: vpdpwssd */
#define WAI_FAST_ISA_BEST 4

/* The best level this CPU runs (PORTABLE off x86-64). */
int wai_fast_isa_detected(void);

/* The fast layers using at most the level isa_cap (and at most what the CPU
 * has), so every kernel can be held to the reference on one machine. */
wai_status wai_conv2d_fast_isa(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                               const int64_t *x, uint32_t h, uint32_t w, int64_t *y, uint32_t oh,
                               uint32_t ow, int isa_cap);
wai_status wai_conv_t2d_fast_isa(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                                 int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow,
                                 int isa_cap);
/* The convolution with ex's threads (NULL: one) splitting its output rows,
 * at most isa_cap: wai_conv2d_fast_isa's checks, refusals and bits. */
wai_status wai_conv2d_fast_ex(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                              uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                              int64_t *y, uint32_t oh, uint32_t ow, int isa_cap);
wai_status wai_igdn_fast_isa(const wai_layer *l, const uint64_t *sums, uint32_t gf,
                             uint32_t afrac, const int64_t *x, size_t positions, int64_t *y,
                             int isa_cap);

#endif
