/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference element-wise kernels: each value in double, rounded once
 * to float. Binary operations broadcast (numpy). */
#include <math.h>

#include "webnn/ml.h"

/* Strides of d's elements, broadcast into out's rank (0 where d's
 * dimension is 1 or absent). */
static void broadcast_strides(const wai_ml_operand_descriptor *d,
                              const wai_ml_operand_descriptor *out, uint64_t *st) {
    uint64_t s = 1;
    for (uint32_t i = out->rank; i-- > 0;) {
        uint32_t j = i + d->rank >= out->rank ? i + d->rank - out->rank : UINT32_MAX;
        if (j == UINT32_MAX || d->shape[j] == 1) {
            st[i] = 0;
        } else {
            st[i] = s;
        }
        if (j != UINT32_MAX) s *= d->shape[j];
    }
}

static double binary(int op, double a, double b) {
    switch (op) {
    case WAI_ML_ADD: return a + b;
    case WAI_ML_SUB: return a - b;
    case WAI_ML_MUL: return a * b;
    case WAI_ML_DIV: return a / b;
    case WAI_ML_MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    case WAI_ML_MIN: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    default: return pow(a, b);
    }
}

void wai_ml_ref_binary(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *y = k->out_d;
    uint64_t sa[WAI_ML_MAX_RANK], sb[WAI_ML_MAX_RANK], idx[WAI_ML_MAX_RANK] = {0};
    broadcast_strides(k->in_d[0], y, sa);
    broadcast_strides(k->in_d[1], y, sb);
    const uint64_t n = wai_ml_elements(y);
    uint64_t ia = 0, ib = 0;
    for (uint64_t i = 0; i < n; i++) {
        /* Float operands: the sum or product of two floats is exact in
         * double, so one rounding gives the correctly rounded result. */
        k->out[i] = (float)binary(k->op->sub, k->in[0][ia], k->in[1][ib]);
        /* The next index, odometer-style. */
        for (uint32_t d = y->rank; d-- > 0;) {
            ia += sa[d], ib += sb[d];
            if (++idx[d] < y->shape[d]) break;
            ia -= sa[d] * y->shape[d], ib -= sb[d] * y->shape[d];
            idx[d] = 0;
        }
    }
}

static double unary(int op, double x) {
    switch (op) {
    case WAI_ML_ABS: return fabs(x);
    case WAI_ML_CEIL: return ceil(x);
    case WAI_ML_COS: return cos(x);
    case WAI_ML_ERF: return erf(x);
    case WAI_ML_EXP: return exp(x);
    case WAI_ML_FLOOR: return floor(x);
    case WAI_ML_IDENTITY: return x;
    case WAI_ML_LOG: return log(x);
    case WAI_ML_NEG: return -x;
    case WAI_ML_RECIPROCAL: return 1.0 / x;
    case WAI_ML_ROUND_EVEN: return nearbyint(x); /* the default rounding: to even */
    case WAI_ML_SIN: return sin(x);
    case WAI_ML_SIGN: return x > 0 ? 1.0 : x < 0 ? -1.0 : x; /* NaN stays NaN, -0 stays -0 */
    case WAI_ML_SQRT: return sqrt(x);
    case WAI_ML_TAN: return tan(x);
    case WAI_ML_RELU: return x > 0 ? x : isnan(x) ? x : 0.0;
    case WAI_ML_SIGMOID: return 1.0 / (1.0 + exp(-x));
    default: return tanh(x);
    }
}

void wai_ml_ref_unary(const wai_ml_kernel_args *k) {
    const wai_ml_op *op = k->op;
    const uint64_t n = wai_ml_elements(k->out_d);
    const float *x = k->in[0];
    for (uint64_t i = 0; i < n; i++) {
        double v = x[i], r;
        if (op->kind == WAI_ML_OP_LEAKY_RELU) r = v < 0 ? (double)op->a.alpha * v : v;
        else if (op->kind == WAI_ML_OP_CLAMP) r = v < op->a.clamp.lo ? op->a.clamp.lo
                                                  : v > op->a.clamp.hi ? op->a.clamp.hi : v;
        else r = unary(op->sub, v);
        k->out[i] = (float)r;
    }
}
