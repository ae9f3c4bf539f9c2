/* SPDX-License-Identifier: BSD-2-Clause */
/* A transposed convolution of few output channels as one matrix product and
 * a scatter (col2im), on oneDNN's sgemm.
 *
 * oneDNN's direct kernels pad a layer's output channels to a whole block:
 * the synthesis's last layer, 3 channels in blocks of 16, would do five
 * times its work. Instead, over bands of input rows (so the columns stay in
 * cache):
 *     col[(o * KH + ky) * KW + kx][p] = sum over c of w[c][o][ky][kx] * x[c][p]
 * one sgemm of the filter, as a C x (O * KH * KW) matrix, transposed, by the
 * band of the input, a C x P matrix (a blocked input is first transposed to
 * that, band by band); then each column value is added to the output at
 * (iy * sh + ky * dh - pad_top, ix * sw + kx * dw - pad_left) where that is
 * inside. The output starts as the bias. Any padding, stride, dilation and
 * output size; one group. */

#include <oneapi/dnnl/dnnl.h>

#include "webnn/dnnl_deconv_gemm.h"

/* The largest band of columns, in floats (1 MiB): a few input rows. */
#define BAND_FLOATS 262144u

int wai_ml_deconv_gemm_takes(const wai_ml_kernel_args *k, uint32_t block) {
    const wai_ml_conv_attrs *a = &k->op->a.conv;
    const uint32_t O = k->out_d->shape[1];
    return block && a->groups == 1 && 2 * O < block;
}

typedef struct dims {
    size_t N, C, H, W, O, KH, KW, OH, OW, M;
    size_t sh, sw, dh, dw, pt, pl;
} dims;

/* The first and past-the-last ix whose output column ix * s + kx * d - pl
 * is inside [0, OW). */
static void columns(const dims *d, size_t kx, size_t *lo, size_t *hi) {
    const long long off = (long long)(kx * d->dw) - (long long)d->pl;
    long long a = off >= 0 ? 0 : (-off + (long long)d->sw - 1) / (long long)d->sw;
    long long b = ((long long)d->OW - 1 - off);
    b = b < 0 ? -1 : b / (long long)d->sw;
    if (b > (long long)d->W - 1) b = (long long)d->W - 1;
    *lo = (size_t)a;
    *hi = b >= a ? (size_t)b + 1 : (size_t)a;
}

/* Adds a band's columns (rows iy0 .. iy0 + rows - 1 of the input) into
 * image n's output y. */
static void scatter(const dims *d, const float *col, size_t iy0, size_t rows, float *y) {
    const size_t P = rows * d->W, KK = d->KH * d->KW;
    for (size_t r = 0; r < d->M; r++) {
        const size_t o = r / KK, ky = (r / d->KW) % d->KH, kx = r % d->KW;
        size_t lo, hi;
        columns(d, kx, &lo, &hi);
        float *plane = y + o * d->OH * d->OW;
        for (size_t i = 0; i < rows; i++) {
            const long long oy = (long long)((iy0 + i) * d->sh + ky * d->dh) - (long long)d->pt;
            if (oy < 0 || oy >= (long long)d->OH) continue;
            const float *c = col + r * P + i * d->W;
            float *out = plane + (size_t)oy * d->OW;
            /* column off + ix * sw, inside [0, OW) for ix in [lo, hi) */
            const long long off = (long long)(kx * d->dw) - (long long)d->pl;
            for (size_t ix = lo; ix < hi; ix++) out[(size_t)(off + (long long)(ix * d->sw))] += c[ix];
        }
    }
}

wai_status wai_ml_deconv_gemm(const wai_ml_kernel_args *k) {
    const wai_ml_conv_attrs *a = &k->op->a.conv;
    const uint32_t *xs = k->in_d[0]->shape, *ws = k->in_d[1]->shape, *ys = k->out_d->shape;
    dims d = {xs[0], xs[1], xs[2], xs[3], ys[1], ws[2], ws[3], ys[2], ys[3], 0,
              a->strides[0], a->strides[1], a->dilations[0], a->dilations[1],
              a->padding[0], a->padding[2]};
    d.M = d.O * d.KH * d.KW;
    /* Rows a band holds: its columns and its transposed input both fit. */
    size_t rows = BAND_FLOATS / (d.M * d.W + d.C * d.W);
    if (rows < 1) rows = 1;
    if (rows > d.H) rows = d.H;
    const size_t col_floats = d.M * rows * d.W, xb_floats = k->src_block ? d.C * rows * d.W : 0;
    wai_status st = WAI_ok;
    float *const col = wai_ml_graph_scratch(k->graph, 4 * (col_floats + xb_floats), &st);
    if (!col) return st;
    float *const xt = col + col_floats;
    const float *w = k->in[1], *bias = a->has_bias ? k->in[2] : NULL;
    const size_t HW = d.H * d.W, B = k->src_block;
    for (size_t n = 0; n < d.N; n++) {
        const float *x = k->in[0] + n * d.C * HW;
        float *y = k->out + n * d.O * d.OH * d.OW;
        for (size_t o = 0; o < d.O; o++)
            for (size_t i = 0; i < d.OH * d.OW; i++) y[o * d.OH * d.OW + i] = bias ? bias[o] : 0.0f;
        for (size_t iy0 = 0; iy0 < d.H; iy0 += rows) {
            const size_t r = iy0 + rows <= d.H ? rows : d.H - iy0, P = r * d.W;
            const float *xb = x + iy0 * d.W;
            size_t ldb = HW;
            if (B) {
                /* nChw{B}c: channel c of position p at (c / B) * B * HW + p * B + c % B */
                float *t = xt;
                for (size_t c = 0; c < d.C; c++) {
                    const float *src = x + (c / B) * B * HW + iy0 * d.W * B + c % B;
                    for (size_t p = 0; p < P; p++) t[c * P + p] = src[p * B];
                }
                xb = t, ldb = P;
            }
            if (dnnl_sgemm('T', 'N', (dnnl_dim_t)d.M, (dnnl_dim_t)P, (dnnl_dim_t)d.C, 1.0f, w,
                           (dnnl_dim_t)d.M, xb, (dnnl_dim_t)ldb, 0.0f, col, (dnnl_dim_t)P) !=
                dnnl_success)
                return WAI_OperationError;
            scatter(&d, col, iy0, r, y);
        }
    }
    return WAI_ok;
}
