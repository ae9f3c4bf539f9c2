/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference reductions: each output the fold of its input elements,
 * in double. */
#include <math.h>

#include "webnn/ml.h"

/* The input offset of reduced element r of output o: o's coordinates are
 * the kept axes', r's the reduced axes', both row-major. */
static uint64_t source_of(const wai_ml_operand_descriptor *x, uint32_t axes, uint64_t o,
                          uint64_t r) {
    uint64_t src = 0, stride = 1;
    for (uint32_t a = x->rank; a-- > 0;) {
        uint64_t *from = (axes & (1u << a)) ? &r : &o;
        src += (*from % x->shape[a]) * stride;
        *from /= x->shape[a];
        stride *= x->shape[a];
    }
    return src;
}

void wai_ml_ref_reduce(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *x = k->in_d[0];
    const uint32_t axes = k->op->a.reduce.axes;
    const int op = k->op->sub;
    const float *in = k->in[0];
    uint64_t count = 1;
    for (uint32_t a = 0; a < x->rank; a++)
        if (axes & (1u << a)) count *= x->shape[a];
    const uint64_t n_out = wai_ml_elements(k->out_d);
    for (uint64_t o = 0; o < n_out; o++) {
        double acc = op == WAI_ML_REDUCE_MAX ? -INFINITY : op == WAI_ML_REDUCE_MIN ? INFINITY
                     : op == WAI_ML_REDUCE_PRODUCT ? 1.0 : 0.0;
        /* LogSumExp subtracts the largest value first, so no exponent
         * overflows. */
        double top = -INFINITY;
        if (op == WAI_ML_REDUCE_LOG_SUM_EXP)
            for (uint64_t r = 0; r < count; r++) {
                double v = in[source_of(x, axes, o, r)];
                if (v > top || isnan(v)) top = v;
            }
        int nan = 0;
        for (uint64_t r = 0; r < count; r++) {
            double v = in[source_of(x, axes, o, r)];
            switch (op) {
            case WAI_ML_REDUCE_L1: acc += fabs(v); break;
            case WAI_ML_REDUCE_L2:
            case WAI_ML_REDUCE_SUM_SQUARE: acc += v * v; break;
            case WAI_ML_REDUCE_LOG_SUM_EXP: acc += isinf(top) ? exp(v) : exp(v - top); break;
            case WAI_ML_REDUCE_MAX: if (isnan(v)) nan = 1; else if (v > acc) acc = v; break;
            case WAI_ML_REDUCE_MIN: if (isnan(v)) nan = 1; else if (v < acc) acc = v; break;
            case WAI_ML_REDUCE_PRODUCT: acc *= v; break;
            default: acc += v; break; /* LogSum, Mean, Sum */
            }
        }
        switch (op) {
        case WAI_ML_REDUCE_L2: acc = sqrt(acc); break;
        case WAI_ML_REDUCE_LOG_SUM: acc = log(acc); break;
        case WAI_ML_REDUCE_LOG_SUM_EXP: acc = isinf(top) ? log(acc) : top + log(acc); break;
        case WAI_ML_REDUCE_MEAN: acc /= (double)count; break;
        default: break;
        }
        k->out[o] = nan ? NAN : (float)acc;
    }
}
