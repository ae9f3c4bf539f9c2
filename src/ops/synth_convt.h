/* SPDX-License-Identifier: BSD-2-Clause */
/* One layer of wai.neural.int_synth (integer-arithmetic.md, int_synth): a
 * transposed convolution with i32 weights [in][out][k][k], cropped by pad,
 * then Y = floor((acc + bias) / 2^shift) (shifts 64..127 exact), then ReLU
 * when the layer has one. The set's certificate (sets/int_synth_json.h)
 * keeps acc + bias within i64, so the arithmetic here is plain i64. */
#ifndef WAI_OPS_SYNTH_CONVT_H
#define WAI_OPS_SYNTH_CONVT_H

#include <stdint.h>

#include "common/exec.h"

/* A layer and the chain, as the set reader (sets/int_synth_json.h) fills
 * them. */
typedef struct wai_synth_layer {
    uint32_t in, out, k, stride, pad, out_pad;
    uint32_t shift;   /* 0..127 */
    int relu;
    int32_t *weight;  /* [in][out][k][k] */
    int32_t *bias;    /* [out] */
} wai_synth_layer;

typedef struct wai_synth_model {
    uint32_t n_layers;
    wai_synth_layer *layers;
} wai_synth_model;

/* The layer's output side for an input side n: (n - 1)·stride + k + out_pad
 * - 2·pad (the caller has planned it at least 1). */
uint64_t wai_synth_out_side(const wai_synth_layer *l, uint64_t n);

/* in [l->in][n][n] -> out [l->out][m][m], m = wai_synth_out_side(l, n).
 * Each output is gathered from the inputs that reach it; the output
 * channels are split over ex's threads (the sums are exact, so any split
 * gives the same integers). */
void wai_synth_convt(const wai_exec *ex, const wai_synth_layer *l, const int64_t *in, uint32_t n,
                     int64_t *out);

/* floor(v / 2^s) for s in 0..127. */
int64_t wai_floor_shift_i64(int64_t v, uint32_t s);

#endif
