/* SPDX-License-Identifier: BSD-2-Clause */
/* The reductions (the spec's "creating reduction operation" steps). */

#include "webnn/ml.h"

static const char *const reduce_names[] = {"reduceL1",   "reduceL2",      "reduceLogSum",
                                           "reduceLogSumExp", "reduceMax", "reduceMean",
                                           "reduceMin",  "reduceProduct", "reduceSum",
                                           "reduceSumSquare"};

wai_status wai_ml_reduce(wai_ml_graph_builder *b, wai_ml_reduce_op op, const wai_ml_operand *input,
                         const wai_ml_reduce_options *o, wai_ml_operand **out) {
    if (!b || !input || !out || (unsigned)op > WAI_ML_REDUCE_SUM_SQUARE ||
        (o && !o->axes && o->axes_size))
        return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, reduce_names[op], o ? o->label : NULL, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    if (d->data_type != WAI_ML_FLOAT32 && d->data_type != WAI_ML_FLOAT16)
        return wai_ml_fail(c, WAI_TypeError, "%s: the input is %s, not float32 or float16", what,
                           wai_ml_data_type_name(d->data_type));
    uint32_t axes = 0;
    if (!o || !o->axes) {
        axes = d->rank ? (uint32_t)((1ull << d->rank) - 1) : 0;
    } else {
        for (size_t i = 0; i < o->axes_size; i++) {
            uint32_t a = o->axes[i];
            if (a >= d->rank) return wai_ml_fail(c, WAI_TypeError, "%s: axis %u of rank %u", what,
                                                 a, d->rank);
            if (axes & (1u << a)) return wai_ml_fail(c, WAI_TypeError, "%s: axis %u twice", what, a);
            axes |= 1u << a;
        }
    }
    int keep = o && o->keep_dimensions;
    wai_ml_operand_descriptor y = *d;
    y.rank = 0;
    for (uint32_t i = 0; i < d->rank; i++) {
        if (!(axes & (1u << i))) y.shape[y.rank++] = d->shape[i];
        else if (keep) y.shape[y.rank++] = 1;
    }
    wai_ml_op r = {.kind = WAI_ML_OP_REDUCE};
    r.sub = op;
    r.a.reduce.axes = axes;
    r.a.reduce.keep = keep;
    return wai_ml_builder_add(b, &r, &input, 1, &y, out);
}
