/* Fast versions of the heavy layers (ops/layers.h has the reference path).
 * Each has exactly its reference's signature and semantics: the same
 * geometry checks, the same exactness bound checked first (writing nothing
 * on refusal), the same output layout, and bit-identical output; the
 * differential test (tests/unit/test_layers_diff.c) holds them to it.
 *
 * They pick, per call, from A (the input's max |x|) and the parameter sums,
 * the narrowest exact accumulation (i32, i32 chunked over input channels and
 * widened to i64, or i64; for the inverse GDN i64 or i128), and on x86-64 an
 * AVX2 or AVX-512 inner loop at the exec's level (ops/cpu.h). Shapes
 * outside the tiled path (k or stride above 8) run the reference. The
 * transposed convolution with A < 2^31 runs as i16 pair dot products
 * (layers_fast_dot.c) when its weight sums allow 32-bit chunks.
 *
 * Threads (an exec's pool) split the convolutions by (bands of)
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

#include "ops/cpu.h"
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

/* wai_igdn_fast at ex's level (NULL: the CPU's), on the calling thread
 * (a layer 0's inverse GDN, whose input is the caller's). */
wai_status wai_igdn_fast_ex(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                            uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                            int64_t *y);

/* The inverse GDN in place: x is both input and output ([c][positions]).
 * The same checks, refusals (x untouched) and bits as wai_igdn_fast; it
 * needs c * 32 i64 of working memory per thread, from ex (out_of_memory,
 * x untouched, when it cannot have one), and splits the positions over up
 * to ex's threads, as many as keep those buffers within WAI_DOT_TEMP_MAX. */
wai_status wai_igdn_fast_inplace(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t gf, uint32_t afrac, int64_t *x, size_t positions);

/* ---- for tests and benchmarks --------------------------------------------- */

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
