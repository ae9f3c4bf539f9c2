/* SPDX-License-Identifier: BSD-2-Clause */
/* The entropy model's integer steps between the coder's symbols and the
 * networks' values: E2, a symbol rebuilt as a latent value, and E3, the
 * bucket that picks a conditional symbol's table from its scale. */
#ifndef WAI_ENTROPY_MODEL_H
#define WAI_ENTROPY_MODEL_H

#include <stdint.h>

#include "wai/wai.h"

/* E2: s * 2^afrac + base into *out; field_range when it leaves i64. */
wai_status wai_dequantize(int64_t s, uint32_t afrac, int64_t base, int64_t *out);

/* E3, the ceil bucket rule (integer-payloads §4 step 3): with sigma' =
 * max(sigma, e_0), b = N - 1 - #{ i < N - 1 : sigma' <= e_i }. n_edges >= 1
 * (0 gives 0). Read literally: no order of the edges is assumed. */
uint32_t wai_bucket(int64_t sigma, const int64_t *edges, uint32_t n_edges);

/* 1 when e_0 <= e_1 <= ... <= e_(N-2): the edges wai_bucket counts ascend. */
int wai_edges_ascend(const int64_t *edges, uint32_t n_edges);

/* wai_bucket for ascending edges (wai_edges_ascend): b is then the number of
 * e_i (i < N - 1) below sigma', found by halving, branch-free (log2 N
 * steps instead of N - 1 compares; the latent decode's per-symbol cost). */
uint32_t wai_bucket_ascending(int64_t sigma, const int64_t *edges, uint32_t n_edges);

#endif
