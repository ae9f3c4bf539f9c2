/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast element-wise kernels: contiguous float loops the compiler
 * vectorises, split over the context's threads.
 *
 * Why they equal the reference bit for bit: the reference computes each
 * value in double and rounds once to float. For +, -, *, / and sqrt of
 * float operands, double (53 bits >= 2 * 24 + 2) rounding followed by float
 * rounding gives the correctly rounded float result, which is what the
 * float operation gives directly (IEEE 754); max, min, abs, neg, relu,
 * clamp and identity round nothing, and leakyRelu's alpha * x is one
 * product. test_webnn_fast.c holds every case to the reference. */
#include <math.h>

#include "webnn/ml.h"

/* A share is at least this many values: smaller work stays on one thread. */
#define GRAIN 16384u

typedef struct job {
    const wai_ml_op *op;
    const float *a, *b; /* b NULL: unary; a_one / b_one: a single value */
    int a_one, b_one;
    float *out;
    size_t n;
    unsigned shares;
} job;

static inline float max_f(float a, float b) { return isnan(a) || isnan(b) ? NAN : a > b ? a : b; }
static inline float min_f(float a, float b) { return isnan(a) || isnan(b) ? NAN : a < b ? a : b; }

#define LOOP(expr)                                                                 \
    for (size_t i = lo; i < hi; i++) {                                             \
        const float x = j->a_one ? a0 : j->a[i];                                   \
        const float y = j->b ? (j->b_one ? b0 : j->b[i]) : 0.0f;                   \
        (void)y;                                                                   \
        o[i] = (expr);                                                             \
    }

static void run_share(void *arg, unsigned s) {
    const job *j = arg;
    const size_t lo = j->n * s / j->shares, hi = j->n * (s + 1) / j->shares;
    const float a0 = j->a[0], b0 = j->b ? j->b[0] : 0.0f;
    float *o = j->out;
    const wai_ml_op *op = j->op;
    switch (op->kind) {
    case WAI_ML_OP_BINARY:
        switch (op->sub) {
        case WAI_ML_ADD: LOOP(x + y); break;
        case WAI_ML_SUB: LOOP(x - y); break;
        case WAI_ML_MUL: LOOP(x * y); break;
        case WAI_ML_DIV: LOOP(x / y); break;
        case WAI_ML_MAX: LOOP(max_f(x, y)); break;
        default: LOOP(min_f(x, y)); break;
        }
        break;
    case WAI_ML_OP_LEAKY_RELU: {
        const float al = op->a.alpha;
        LOOP(x < 0 ? al * x : x);
        break;
    }
    case WAI_ML_OP_CLAMP: {
        const float l = op->a.clamp.lo, h = op->a.clamp.hi;
        LOOP(x < l ? l : x > h ? h : x);
        break;
    }
    default:
        switch (op->sub) {
        case WAI_ML_ABS: LOOP(fabsf(x)); break;
        case WAI_ML_NEG: LOOP(-x); break;
        case WAI_ML_SQRT: LOOP(sqrtf(x)); break;
        case WAI_ML_RELU: LOOP(x > 0 ? x : isnan(x) ? x : 0.0f); break;
        default: LOOP(x); break;
        }
    }
}

static void run(const wai_ml_exec *ex, job *j) {
    unsigned t = wai_ml_threads(ex);
    size_t most = j->n / GRAIN;
    if (most < 1) most = 1;
    j->shares = t < most ? t : (unsigned)most;
    wai_ml_parallel(ex, j->shares, run_share, j);
}

static int unary_applies(const wai_ml_op *op) {
    if (op->kind == WAI_ML_OP_LEAKY_RELU || op->kind == WAI_ML_OP_CLAMP) return 1;
    return op->kind == WAI_ML_OP_UNARY &&
           (op->sub == WAI_ML_ABS || op->sub == WAI_ML_NEG || op->sub == WAI_ML_SQRT ||
            op->sub == WAI_ML_RELU || op->sub == WAI_ML_IDENTITY);
}

int wai_ml_fast_unary(const wai_ml_kernel_args *k) {
    if (!unary_applies(k->op)) return 0;
    job j = {k->op, k->in[0], NULL, 0, 0, k->out, (size_t)wai_ml_elements(k->out_d), 1};
    run(k->exec, &j);
    return 1;
}

int wai_ml_fast_binary(const wai_ml_kernel_args *k) {
    if (k->op->sub == WAI_ML_POW) return 0;
    const uint64_t n = wai_ml_elements(k->out_d);
    const uint64_t na = wai_ml_elements(k->in_d[0]), nb = wai_ml_elements(k->in_d[1]);
    /* Broadcasting to the output, an operand of as many values is of its
     * shape (leading ones aside), so its values are in the output's order. */
    const int a_one = na == 1 && n != 1, b_one = nb == 1 && n != 1;
    if ((na != n && !a_one) || (nb != n && !b_one)) return 0;
    job j = {k->op, k->in[0], k->in[1], a_one, b_one, k->out, (size_t)n, 1};
    run(k->exec, &j);
    return 1;
}

void wai_ml_epilogue_apply(const wai_ml_exec *ex, const wai_ml_op *op, const float *other, float *v,
                           size_t n, int value_first) {
    job j = {op, v, other, 0, 0, v, n, 1};
    if (op->kind == WAI_ML_OP_BINARY && !value_first) j.a = other, j.b = v;
    else if (op->kind != WAI_ML_OP_BINARY) j.b = NULL;
    run(ex, &j);
}
