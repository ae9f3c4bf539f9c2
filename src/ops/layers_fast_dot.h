/* SPDX-License-Identifier: BSD-2-Clause */
/* The i16 pair-dot-product path of the fast transposed convolution (used by
 * ops/layers_fast.c; the method and its exactness argument are at the top
 * of layers_fast_dot.c). Internal to the fast kernels. */
#ifndef WAI_OPS_LAYERS_FAST_DOT_H
#define WAI_OPS_LAYERS_FAST_DOT_H

#include <stdint.h>

#include "common/exec.h"
#include "ops/layers.h"

/* Runs the transposed convolution l (geometry already checked, its
 * exactness bound already passed with A = a) on x into y through i16 pair
 * dot products, with the pair dot product loop of ex's table
 * (ops/cores.h).
 * Returns 1 when it wrote y; 0, having written nothing, when this path does
 * not take the call (A above 32767 * 2^15, where the high limb leaves
 * i16; a weight sum too large for any 32-bit chunk; k or stride above 8;
 * temporaries past WAI_DOT_TEMP_MAX; or no memory for them, which come
 * from ex->alloc): the caller then runs another path. Bands of output rows
 * are split over up to ex->n_threads threads, each with its own band
 * buffer, the packed weights shared read-only. */
/* The most bytes its temporaries (packed weights, every thread's band of
 * i16 rows) take together; also the bound on the in-place inverse GDN's
 * side buffers, so a decode's temporaries stay within it whatever the
 * thread count. */
#define WAI_DOT_TEMP_MAX ((size_t)4 << 20)

int wai_conv_t2d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                     uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow, uint64_t a);

/* The same for a convolution of stride 1 and padding at most k - 1 (the
 * transposed convolution of stride 1, padding k - 1 - pad, its kernel
 * flipped: layers_fast_dot.c); 0, having written nothing, for any other. */
int wai_conv2d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                   uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow, uint64_t a);

/* The same for a one-dimensional transposed convolution (WAM1: weights
 * [cin][cout][k]; x [cin][len], y [cout][olen]), as one row. */
int wai_conv_t1d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                     uint32_t len, int64_t *y, uint32_t olen, uint64_t a);

#endif
