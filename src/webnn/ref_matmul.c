/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference matrix products: plain loops, every sum in double, then
 * rounded to float once (as every reference kernel). */
#include "webnn/ml.h"

/* out[M, N] = alpha * A' B' + beta * C, C broadcast from its shape. */
void wai_ml_ref_gemm(const wai_ml_kernel_args *k) {
    const wai_ml_op *op = k->op;
    const wai_ml_operand_descriptor *da = k->in_d[0];
    const uint32_t m = k->out_d->shape[0], n = k->out_d->shape[1];
    const uint32_t kk = op->a.gemm.a_transpose ? da->shape[0] : da->shape[1];
    const float *a = k->in[0], *b = k->in[1], *c = op->a.gemm.has_c ? k->in[2] : NULL;
    /* C's strides: 0 along a broadcast (or absent) dimension. */
    size_t cs0 = 0, cs1 = 0;
    if (c) {
        const wai_ml_operand_descriptor *dc = k->in_d[2];
        uint32_t rows = dc->rank == 2 ? dc->shape[0] : 1, cols = dc->rank >= 1 ? dc->shape[dc->rank - 1] : 1;
        cs1 = cols == 1 ? 0 : 1;
        cs0 = rows == 1 ? 0 : cols;
    }
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < n; j++) {
            double s = 0;
            for (uint32_t t = 0; t < kk; t++) {
                double x = op->a.gemm.a_transpose ? a[(size_t)t * m + i] : a[(size_t)i * kk + t];
                double y = op->a.gemm.b_transpose ? b[(size_t)j * kk + t] : b[(size_t)t * n + j];
                s += x * y;
            }
            s *= op->a.gemm.alpha;
            if (c) s += (double)op->a.gemm.beta * c[i * cs0 + j * cs1];
            k->out[(size_t)i * n + j] = (float)s;
        }
}

/* Each of the output's matrices: its batch index mapped into a's and b's
 * (a broadcast dimension reads index 0). */
void wai_ml_ref_matmul(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *da = k->in_d[0], *db = k->in_d[1], *dy = k->out_d;
    const uint32_t m = dy->shape[dy->rank - 2], n = dy->shape[dy->rank - 1];
    const uint32_t kk = da->shape[da->rank - 1];
    const uint32_t br = dy->rank - 2;
    size_t batches = 1;
    for (uint32_t i = 0; i < br; i++) batches *= dy->shape[i];
    for (size_t bi = 0; bi < batches; bi++) {
        /* bi's index along each batch dimension, last fastest. */
        size_t rest = bi, ia = 0, ib = 0, sa = 1, sb = 1;
        for (uint32_t d = br; d-- > 0;) {
            uint32_t idx = (uint32_t)(rest % dy->shape[d]);
            rest /= dy->shape[d];
            int ad = (int)d - (int)br + (int)(da->rank - 2), bd = (int)d - (int)br + (int)(db->rank - 2);
            if (ad >= 0) {
                uint32_t ext = da->shape[ad];
                ia += (ext == 1 ? 0 : idx) * sa;
                sa *= ext;
            }
            if (bd >= 0) {
                uint32_t ext = db->shape[bd];
                ib += (ext == 1 ? 0 : idx) * sb;
                sb *= ext;
            }
        }
        const float *a = k->in[0] + ia * (size_t)m * kk, *b = k->in[1] + ib * (size_t)kk * n;
        float *y = k->out + bi * (size_t)m * n;
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 0; j < n; j++) {
                double s = 0;
                for (uint32_t t = 0; t < kk; t++) s += (double)a[(size_t)i * kk + t] * b[(size_t)t * n + j];
                y[(size_t)i * n + j] = (float)s;
            }
    }
}
