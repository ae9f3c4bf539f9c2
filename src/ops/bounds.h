/* SPDX-License-Identifier: BSD-2-Clause */
/* The exactness rule (design: integer-arithmetic.md, "Exactness"; payload
 * spec §7): before a layer runs, with A = max |X| over its whole input, the
 * layer is refused with field_range exactly when one of its bounds, computed
 * exactly, is exceeded. Nothing else about the values refuses, and a layer
 * that passes runs with no further checks: every product, partial sum and
 * requantised value its arithmetic forms then fits the type it is formed in.
 *
 * The per-output parameter sums (S_o for a (de)convolution, G_i for an
 * inverse GDN) depend on the model alone; the planner computes them once per
 * model (wai_layer_param_sums; ops/plan.h keeps them as wai_sums) and passes
 * them to every check. */
#ifndef WAI_OPS_BOUNDS_H
#define WAI_OPS_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "ops/model.h"
#include "wai/wai.h"

/* A = max |x[i]| as u64 (|INT64_MIN| = 2^63); 0 for n = 0. */
uint64_t wai_max_abs_i64(const int64_t *x, size_t n);

/* How many sums wai_layer_param_sums writes for l: cout for CONV and CONV_T, c for
 * IGDN, 0 for the others. */
uint32_t wai_layer_param_sum_count(const wai_layer *l);

/* Writes the parameter sums of l into sums[0 .. wai_layer_param_sum_count(l)):
 *   CONV, CONV_T: S_o = sum of |W| over output o's taps (all input channels,
 *     every kernel position); dims is the model's (2: k*k taps, 1: k taps);
 *   IGDN: G_i = sum over j of |gamma[i][j]|.
 * A sum past 64 bits saturates to UINT64_MAX: the bounds then give the same
 * answer as with the exact sum (A = 0 passes either way; A >= 1 makes the
 * product past 2^63 - 1 either way).
 * WAI_invalid_argument when a convolution's n_weights is not
 * cin * cout * taps (the planner has already refused such a model). */
wai_status wai_layer_param_sums(const wai_layer *l, int dims, uint64_t *sums);

/* (De)convolution with cout outputs:
 *   A * max_o S_o <= 2^63 - 1, and for each o
 *   floor_shift(A * S_o * |M[o]|, shift) + 1 + |B[o]| <= 2^63 - 1. */
wai_status wai_bound_conv(uint64_t a, const uint64_t *s, const int64_t *mult,
                          const int64_t *bias, uint32_t cout, uint32_t shift);

/* Inverse GDN with c channels:
 *   A^2 * max_i G_i <= 2^127 - 1, and for each i, with
 *   N_i = |beta[i]| + floor_shift(A^2 * G_i, gf), R_i = isqrt(N_i) + 1:
 *   floor_shift(A * R_i, afrac) + 1 <= 2^63 - 1. */
wai_status wai_bound_igdn(uint64_t a, const uint64_t *g, const int64_t *beta, uint32_t c,
                          uint32_t gf, uint32_t afrac);

/* Leaky ReLU: floor_shift(A * |slope|, lshift) + 1 <= 2^63 - 1. */
wai_status wai_bound_leaky(uint64_t a, int64_t slope, uint32_t lshift);

/* The bound of any layer kind (ReLU has none: WAI_ok). sums as from
 * wai_layer_param_sums (unused for ReLU and leaky ReLU); gf, shift, afrac are the
 * model's. */
wai_status wai_bound_layer(const wai_layer *l, const uint64_t *sums, uint32_t gf,
                           uint32_t shift, uint32_t afrac, uint64_t a);

#endif
