/* SPDX-License-Identifier: BSD-2-Clause */
/* Planning a parsed network on an input shape (integer-payloads §7,
 * "Planning the networks", in reading N6's order), and the per-layer
 * parameter sums the exactness rule reads.
 *
 * Lowering (docs/integer-operators.md "Lowering") is split in two here:
 *   - wai_sums: the per-model part, a function of the parameters alone
 *     (S_o and the IGDN row sums), computed once per parsed set and kept
 *     with it;
 *   - wai_plan: the per-shape part (shapes, buffers, work), formed for each
 *     payload's input shape.
 * Neither refuses anything beyond the planning rules (N6).
 *
 * Shapes. A 2-D network (WHM1) runs on [c, h, w]. A 1-D network (WAM1) runs
 * on [c, len], which the plan writes as [c, 1, len]: h is 1 throughout and
 * only w (the length) is transformed; its transposed convolution has k taps
 * (cout·k weights per input channel). */
#ifndef WAI_OPS_PLAN_H
#define WAI_OPS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "ops/model.h"

typedef struct wai_plan_layer {
    wai_layer_kind kind;
    uint32_t in_c, in_h, in_w;
    uint32_t out_c, out_h, out_w;
    uint64_t in_elems, out_elems;
    /* CONV_T: the uncropped plane it accumulates into, cout·uh·uw (uh = 1
     * for a 1-D network); 0 for every other kind. */
    uint32_t uh, uw;
    uint64_t uncropped_elems;
    /* §7's multiply-accumulates: CONV out_elems·cin·k·k; CONV_T
     * in_elems·cout·k·k (in_elems·cout·k in 1-D); IGDN in_elems·c; ReLU and
     * leaky ReLU 0. Saturates at UINT64_MAX (past any cost limit). */
    uint64_t macs;
    /* 8·(in_elems + out_elems + uncropped_elems): the i64 buffers live
     * while the layer runs (§7 "the buffers"). */
    uint64_t work_bytes;
} wai_plan_layer;

typedef struct wai_plan {
    int dims;                     /* the model's: 2 or 1 */
    uint32_t in_c, in_h, in_w;
    uint32_t out_c, out_h, out_w; /* the last layer's output (the input with no layers) */
    uint64_t out_elems;
    uint64_t macs;                /* Σ layers' macs, saturating */
    /* The working bytes the network declares: the largest layer's
     * work_bytes; 8·in_elems for a network of no layers. The latents
     * before and the output step after are the caller's to add. */
    uint64_t work_bytes;
    uint32_t n_layers;
    wai_plan_layer *layers;       /* [n_layers], NULL when none */
} wai_plan;

/* Plans m on [c, h, w] (a 1-D model: h must be 1, w is the length). Checks,
 * refusing with the first that fails: the input within the cap, c·h·w <=
 * 2^26 (too_large); then per layer rule 1 (model_mismatch), rule 2
 * (too_large), rule 3 (model_mismatch), each in N6's order. Sizes are exact
 * 64-bit or saturated, so a size past 64 bits is past the cap. A zero
 * input side, or h != 1 for a 1-D model, is invalid_argument (the formats
 * refuse zero sides at their header). Allocates (one array) only after
 * every layer has planned. On failure *out is empty (safe to free). */
wai_status wai_plan_model(const wai_allocator *a, const wai_model *m, uint32_t c, uint32_t h,
                          uint32_t w, wai_plan *out);

void wai_plan_free(const wai_allocator *a, wai_plan *p);

/* ---- parameter sums (the per-model part of lowering) -------------------- */

typedef struct wai_layer_sums {
    /* CONV: S_o = Σ |W[o][·][·][·]|; CONV_T: S_o = Σ |W[·][o][·][·]|, both
     * [cout]. IGDN: Σ_j |gamma[i][j]|, [c]. NULL (n = 0) for other kinds.
     * Each fits: a row holds at most len/2 weights of |W| <= 2^15 (or c
     * gammas of |gamma| <= 2^31 with c² <= len/4), and saturates at
     * UINT64_MAX only for a file past 2^48 bytes, where the exactness rule
     * then refuses. */
    uint64_t *sums;
    uint32_t n;
    uint64_t max;                 /* the largest entry; 0 when n = 0 */
} wai_layer_sums;

typedef struct wai_sums {
    uint32_t n_layers;
    wai_layer_sums *layers;       /* [n_layers] */
    void *storage;                /* the one block holding every array */
} wai_sums;

/* Computes every layer's sums. Refuses nothing (a parsed model's arrays
 * are as long as its fields say); out_of_memory only. */
wai_status wai_sums_compute(const wai_allocator *a, const wai_model *m, wai_sums *out);

void wai_sums_free(const wai_allocator *a, wai_sums *s);

#endif
