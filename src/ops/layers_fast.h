/* SPDX-License-Identifier: BSD-2-Clause */
/* Fast versions of the heavy layers (ops/layers.h has the reference path).
 * Each has exactly its reference's signature and semantics: the same
 * geometry checks, the same exactness bound checked first (writing nothing
 * on refusal), the same output layout, and bit-identical output; the
 * differential test (tests/unit/test_layers_diff.c) holds them to it.
 *
 * They pick, per call, from A (the input's max |x|) and the parameter sums,
 * the narrowest exact accumulation (i32, i32 chunked over input channels and
 * widened to i64, or i64; for the inverse GDN i64 or i128), and run it with
 * the exec's inner loops (ops/cores.h: on x86-64, AVX2 or AVX-512 ones). Shapes
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

#include "common/exec.h"
#include "ops/layers.h"

/* ex (NULL: the default allocator, one thread, the portable loops): what
 * a kernel's temporaries come from, the threads it may split its work over
 * and the inner loops it runs (ops/cores.h), all of which leave the bits
 * as they are. */
wai_status wai_conv2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t shift, const int64_t *x, uint32_t h, uint32_t w, int64_t *y,
                           uint32_t oh, uint32_t ow);

wai_status wai_conv_t2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                             int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow);

/* One-dimensional (WAM1): on the pair dot product path where it takes
 * the call (layers_fast_dot.h), else the reference. scratch as the
 * reference's (used only on its path). */
wai_status wai_conv_t1d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t len, int64_t *scratch,
                             int64_t *y, uint32_t olen);

/* On the calling thread (a layer 0's inverse GDN, whose input is the
 * caller's). */
wai_status wai_igdn_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                         uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                         int64_t *y);

/* The inverse GDN in place: x is both input and output ([c][positions]).
 * The same checks, refusals (x untouched) and bits as wai_igdn_fast; it
 * needs c * 32 i64 of working memory per thread, from ex (out_of_memory,
 * x untouched, when it cannot have one), and splits the positions over up
 * to ex's threads, as many as keep those buffers within WAI_DOT_TEMP_MAX. */
wai_status wai_igdn_fast_inplace(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t gf, uint32_t afrac, int64_t *x, size_t positions);

#endif
