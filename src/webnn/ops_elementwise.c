/* SPDX-License-Identifier: BSD-2-Clause */
/* Element-wise binary and unary operations, relu, sigmoid, tanh,
 * leakyRelu and clamp (the spec's method steps). */
#include <math.h>
#include <string.h>

#include "webnn/ml.h"

static const char *const binary_names[] = {"add", "sub", "mul", "div", "max", "min", "pow"};
static const char *const unary_names[] = {"abs",  "ceil",       "cos",        "erf",  "exp",
                                          "floor", "identity",  "log",        "neg",  "reciprocal",
                                          "roundEven", "sin",   "sign",       "sqrt", "tan",
                                          "relu", "sigmoid",    "tanh"};

static int is_float_type(wai_ml_operand_data_type t) {
    return t == WAI_ML_FLOAT32 || t == WAI_ML_FLOAT16;
}

wai_status wai_ml_binary(wai_ml_graph_builder *b, wai_ml_binary_op op, const wai_ml_operand *a,
                         const wai_ml_operand *bb, const wai_ml_operator_options *o,
                         wai_ml_operand **out) {
    if (!b || !a || !bb || !out || (unsigned)op > WAI_ML_POW) return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_what(what, sizeof what, binary_names[op], o ? o->label : NULL);
    wai_ml_context *c = wai_ml_builder_context(b);
    const wai_ml_operand *ops[2] = {a, bb};
    wai_status st = wai_ml_builder_check(b, what, ops, 2);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *da = wai_ml_operand_descriptor_of(a),
                                    *db = wai_ml_operand_descriptor_of(bb);
    if (da->data_type != db->data_type)
        return wai_ml_fail(c, WAI_TypeError, "%s: a is %s, b %s", what,
                           wai_ml_data_type_name(da->data_type), wai_ml_data_type_name(db->data_type));
    wai_ml_operand_descriptor y;
    if (!wai_ml_broadcast(da, db, &y))
        return wai_ml_fail(c, WAI_TypeError, "%s: the shapes do not broadcast", what);
    wai_ml_op r = {.kind = WAI_ML_OP_BINARY};
    r.sub = op;
    return wai_ml_builder_add(b, &r, ops, 2, &y, out);
}

wai_status wai_ml_add(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                      wai_ml_operand **out) {
    return wai_ml_binary(b, WAI_ML_ADD, a, bb, NULL, out);
}
wai_status wai_ml_sub(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                      wai_ml_operand **out) {
    return wai_ml_binary(b, WAI_ML_SUB, a, bb, NULL, out);
}
wai_status wai_ml_mul(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                      wai_ml_operand **out) {
    return wai_ml_binary(b, WAI_ML_MUL, a, bb, NULL, out);
}
wai_status wai_ml_div(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                      wai_ml_operand **out) {
    return wai_ml_binary(b, WAI_ML_DIV, a, bb, NULL, out);
}

/* An operation whose output is a copy of its input's descriptor. */
static wai_status same_shape(wai_ml_graph_builder *b, const char *what, const wai_ml_op *op,
                             const wai_ml_operand *input, wai_ml_operand **out) {
    wai_ml_context *c = wai_ml_builder_context(b);
    wai_status st = wai_ml_builder_check(b, what, &input, 1);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    /* Every float operation here takes float32 and float16, the types this
     * build computes. */
    if (!is_float_type(d->data_type))
        return wai_ml_fail(c, WAI_TypeError, "%s: the input is %s, not float32 or float16", what,
                           wai_ml_data_type_name(d->data_type));
    return wai_ml_builder_add(b, op, &input, 1, d, out);
}

wai_status wai_ml_unary(wai_ml_graph_builder *b, wai_ml_unary_op op, const wai_ml_operand *input,
                        const wai_ml_operator_options *o, wai_ml_operand **out) {
    if (!b || !input || !out || (unsigned)op > WAI_ML_TANH) return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_what(what, sizeof what, unary_names[op], o ? o->label : NULL);
    wai_ml_op r = {.kind = WAI_ML_OP_UNARY};
    r.sub = op;
    return same_shape(b, what, &r, input, out);
}

void wai_ml_leaky_relu_options_default(wai_ml_leaky_relu_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->alpha = 0.01;
}

wai_status wai_ml_leaky_relu(wai_ml_graph_builder *b, const wai_ml_operand *input,
                             const wai_ml_leaky_relu_options *o, wai_ml_operand **out) {
    if (!b || !input || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_leaky_relu_options def;
    if (!o) {
        wai_ml_leaky_relu_options_default(&def);
        o = &def;
    }
    char what[64];
    wai_ml_what(what, sizeof what, "leakyRelu", o->label);
    wai_ml_op r = {.kind = WAI_ML_OP_LEAKY_RELU};
    /* alpha cast to the input's type (float16 rounds further at run). */
    r.a.alpha = (float)o->alpha;
    if (wai_ml_operand_descriptor_of(input)->data_type == WAI_ML_FLOAT16)
        r.a.alpha = wai_ml_f32_from_f16(wai_ml_f16_from_f32(r.a.alpha));
    return same_shape(b, what, &r, input, out);
}

void wai_ml_clamp_options_default(wai_ml_clamp_options *o) {
    if (o) memset(o, 0, sizeof *o);
}

wai_status wai_ml_clamp(wai_ml_graph_builder *b, const wai_ml_operand *input,
                        const wai_ml_clamp_options *o, wai_ml_operand **out) {
    if (!b || !input || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_clamp_options def;
    if (!o) {
        wai_ml_clamp_options_default(&def);
        o = &def;
    }
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "clamp", o->label, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    /* Not given: -Infinity and +Infinity (reading W1: the algorithm's text
     * swaps them, which would refuse every clamp without options). */
    float lo = o->has_min_value ? (float)o->min_value : -INFINITY;
    float hi = o->has_max_value ? (float)o->max_value : INFINITY;
    if (wai_ml_operand_descriptor_of(input)->data_type == WAI_ML_FLOAT16) {
        lo = wai_ml_f32_from_f16(wai_ml_f16_from_f32(lo));
        hi = wai_ml_f32_from_f16(wai_ml_f16_from_f32(hi));
    }
    if (lo > hi) return wai_ml_fail(c, WAI_TypeError, "%s: minValue %g is greater than maxValue "
                                                      "%g", what, (double)lo, (double)hi);
    wai_ml_op r = {.kind = WAI_ML_OP_CLAMP};
    r.a.clamp.lo = lo;
    r.a.clamp.hi = hi;
    return same_shape(b, what, &r, input, out);
}
