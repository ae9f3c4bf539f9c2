/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference convolutions: the definitions written out, every sum in
 * double. Input NCHW; filter OIHW (conv2d) or IOHW (convTranspose2d);
 * output NCHW of the shape the builder inferred. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

wai_status wai_ml_ref_conv2d(const wai_ml_kernel_args *k) {
    const wai_ml_conv_attrs *a = &k->op->a.conv;
    const uint32_t *xs = k->in_d[0]->shape, *ws = k->in_d[1]->shape, *ys = k->out_d->shape;
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
    const int64_t O = ws[0], CG = ws[1], KH = ws[2], KW = ws[3], OH = ys[2], OW = ys[3];
    const int64_t OG = O / a->groups;
    const float *x = k->in[0], *w = k->in[1], *bias = a->has_bias ? k->in[2] : NULL;
    for (int64_t n = 0; n < N; n++)
        for (int64_t o = 0; o < O; o++) {
            const int64_t g = o / OG;
            for (int64_t oy = 0; oy < OH; oy++)
                for (int64_t ox = 0; ox < OW; ox++) {
                    double s = bias ? bias[o] : 0.0;
                    for (int64_t ci = 0; ci < CG; ci++) {
                        const int64_t c = g * CG + ci;
                        for (int64_t ky = 0; ky < KH; ky++) {
                            int64_t iy = oy * a->strides[0] + ky * a->dilations[0] - a->padding[0];
                            if (iy < 0 || iy >= H) continue;
                            for (int64_t kx = 0; kx < KW; kx++) {
                                int64_t ix = ox * a->strides[1] + kx * a->dilations[1] -
                                             a->padding[2];
                                if (ix < 0 || ix >= W) continue;
                                s += (double)x[((n * C + c) * H + iy) * W + ix] *
                                     w[((o * CG + ci) * KH + ky) * KW + kx];
                            }
                        }
                    }
                    k->out[((n * O + o) * OH + oy) * OW + ox] = (float)s;
                }
        }
    (void)C;
    return WAI_ok;
}

wai_status wai_ml_ref_conv_transpose2d(const wai_ml_kernel_args *k) {
    const wai_ml_conv_attrs *a = &k->op->a.conv;
    const uint32_t *xs = k->in_d[0]->shape, *ws = k->in_d[1]->shape, *ys = k->out_d->shape;
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
    const int64_t OL = ws[1], KH = ws[2], KW = ws[3], O = ys[1], OH = ys[2], OW = ys[3];
    const int64_t CG = C / a->groups;
    const float *x = k->in[0], *w = k->in[1], *bias = a->has_bias ? k->in[2] : NULL;
    const wai_allocator *al = k->exec ? k->exec->alloc : NULL;
    const uint64_t temp = (uint64_t)(O * OH * OW) * sizeof(double);
    if (!wai_ml_graph_take(k->graph, temp)) return WAI_cost_over_limit;
    double *acc = wai_alloc_array(al, (size_t)(O * OH * OW), sizeof *acc);
    if (!acc) {
        wai_ml_graph_give(k->graph, temp);
        return WAI_out_of_memory;
    }
    for (int64_t n = 0; n < N; n++) {
        for (int64_t o = 0; o < O; o++)
            for (int64_t p = 0; p < OH * OW; p++) acc[o * OH * OW + p] = bias ? bias[o] : 0.0;
        /* Each input value scattered through each tap: output (iy * s +
         * ky * d - pad_begin) of the group's output channels. */
        for (int64_t c = 0; c < C; c++) {
            const int64_t g = c / CG;
            for (int64_t iy = 0; iy < H; iy++)
                for (int64_t ix = 0; ix < W; ix++) {
                    const double v = x[((n * C + c) * H + iy) * W + ix];
                    for (int64_t ol = 0; ol < OL; ol++) {
                        const int64_t o = g * OL + ol;
                        for (int64_t ky = 0; ky < KH; ky++) {
                            int64_t oy = iy * a->strides[0] + ky * a->dilations[0] - a->padding[0];
                            if (oy < 0 || oy >= OH) continue;
                            for (int64_t kx = 0; kx < KW; kx++) {
                                int64_t ox = ix * a->strides[1] + kx * a->dilations[1] -
                                             a->padding[2];
                                if (ox < 0 || ox >= OW) continue;
                                acc[(o * OH + oy) * OW + ox] +=
                                    v * w[((c * OL + ol) * KH + ky) * KW + kx];
                            }
                        }
                    }
                }
        }
        for (int64_t i = 0; i < O * OH * OW; i++) k->out[n * O * OH * OW + i] = (float)acc[i];
    }
    wai_free(al, acc);
    wai_ml_graph_give(k->graph, temp);
    return WAI_ok;
}
