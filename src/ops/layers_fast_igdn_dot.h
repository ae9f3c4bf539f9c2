/* SPDX-License-Identifier: BSD-2-Clause */
/* The inverse GDN with its sums of squares on the pair dot product loop
 * (used by ops/layers_fast_igdn.c; the method and its exactness argument
 * are at the top of layers_fast_igdn_dot.c). Internal to the fast kernels. */
#ifndef WAI_OPS_LAYERS_FAST_IGDN_DOT_H
#define WAI_OPS_LAYERS_FAST_IGDN_DOT_H

#include <stddef.h>
#include <stdint.h>

#include "common/exec.h"
#include "ops/model.h"

/* Runs the inverse GDN l (its exactness bound already passed with A = a,
 * and A^2 * max G_i <= 2^63 - 1) on x into y, which may be x itself.
 * Returns 1 when it wrote y; 0, having written nothing, when this path
 * does not take the call (A above 2^31 - 1, a gamma above 2^31 - 2^15 - 1,
 * temporaries past WAI_DOT_TEMP_MAX, or no memory for them, which come
 * from ex->alloc): the caller then runs another path. Blocks of positions
 * are split over up to ex's threads, each with its own buffers, the packed
 * gamma shared read-only. */
int wai_igdn_dot(const wai_exec *ex, const wai_layer *l, uint32_t gf, uint32_t afrac,
                 const int64_t *x, size_t positions, int64_t *y, uint64_t a);

#endif
