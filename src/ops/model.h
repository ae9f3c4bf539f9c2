/* SPDX-License-Identifier: BSD-2-Clause */
/* An integer network (WHM1, 2-D; WAM1, 1-D) as parsed: its header and its
 * layers with their parameters in native integers. The byte layout and the
 * arithmetic are in docs/integer-operators.md (from
 * ../shared/design/integer-arithmetic.md); planning is ops/plan.h,
 * exactness ops/bounds.h, the layers ops/layers.h. */
#ifndef WAI_OPS_MODEL_H
#define WAI_OPS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/checked.h"
#include "wai/wai.h"

typedef enum wai_layer_kind {
    WAI_LAYER_CONV_T = 0,   /* transposed convolution */
    WAI_LAYER_CONV = 1,     /* convolution (WHM1 only) */
    WAI_LAYER_IGDN = 2,     /* inverse GDN */
    WAI_LAYER_RELU = 3,
    WAI_LAYER_LEAKY = 4
} wai_layer_kind;

typedef struct wai_layer {
    wai_layer_kind kind;
    /* CONV_T, CONV */
    uint32_t cin, cout, k, stride, pad;
    uint32_t opad;            /* CONV_T only */
    /* CONV_T: [cin][cout][k][k] ([cin][cout][k] in WAM1);
     * CONV: [cout][cin][k][k]. n_weights entries. */
    int16_t *weights;
    uint64_t n_weights;
    int64_t *mult;            /* [cout] */
    int64_t *bias;            /* [cout] */
    /* IGDN */
    uint32_t c;
    int32_t *gamma;           /* [c][c]: row i feeds output channel i */
    int64_t *beta;            /* [c] */
    /* LEAKY */
    int64_t slope;
    uint32_t lshift;
} wai_layer;

typedef struct wai_model {
    int dims;                 /* 2 for WHM1, 1 for WAM1 */
    uint32_t afrac, gf, shift;
    uint32_t n_layers;
    wai_layer *layers;
    /* Every array above lives in one block owned by the model. */
    void *storage;
} wai_model;

/* The weights a (transposed) convolution's fields call for: cin·cout·k·k,
 * or cin·cout·k in a 1-D network (WAM1); saturated past 64 bits, which no
 * file holds. The parse reads this many; planning rule 1 and the writer
 * hold a hand-built layer's n_weights to it. */
static inline uint64_t wai_layer_weight_count(const wai_layer *l, int dims) {
    uint64_t n = wai_sat_mul3(l->cin, l->cout, l->k);
    return dims == 1 ? n : wai_sat_mul(n, l->k);
}

#endif
