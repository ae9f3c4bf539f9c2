/* SPDX-License-Identifier: BSD-2-Clause */
/* concat, reshape, slice, transpose and pad (the spec's method steps). */
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

#define TENSOR_COUNT_MAX 8192 /* the spec's "valid tensor count" */

wai_status wai_ml_concat(wai_ml_graph_builder *b, const wai_ml_operand *const *inputs,
                         size_t n_inputs, uint32_t axis, const wai_ml_operator_options *o,
                         wai_ml_operand **out) {
    if (!b || (!inputs && n_inputs) || !out) return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_what(what, sizeof what, "concat", o ? o->label : NULL);
    wai_ml_context *c = wai_ml_builder_context(b);
    for (size_t i = 0; i < n_inputs; i++)
        if (!inputs[i]) return WAI_invalid_argument;
    wai_status st = wai_ml_builder_check(b, what, inputs, n_inputs);
    if (st != WAI_ok) return st;
    if (n_inputs == 0 || n_inputs > TENSOR_COUNT_MAX)
        return wai_ml_fail(c, WAI_TypeError, "%s: %zu inputs (1 to %d)", what, n_inputs,
                           TENSOR_COUNT_MAX);
    const wai_ml_operand_descriptor *first = wai_ml_operand_descriptor_of(inputs[0]);
    if (axis >= first->rank)
        return wai_ml_fail(c, WAI_TypeError, "%s: axis %u of rank %u", what, axis, first->rank);
    wai_ml_operand_descriptor y = *first;
    uint64_t size = first->shape[axis];
    for (size_t i = 1; i < n_inputs; i++) {
        const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(inputs[i]);
        if (d->data_type != first->data_type)
            return wai_ml_fail(c, WAI_TypeError, "%s: input %zu's type is not the first's", what, i);
        if (d->rank != first->rank)
            return wai_ml_fail(c, WAI_TypeError, "%s: input %zu's rank is not the first's", what, i);
        for (uint32_t k = 0; k < d->rank; k++)
            if (k != axis && d->shape[k] != first->shape[k])
                return wai_ml_fail(c, WAI_TypeError, "%s: input %zu differs in dimension %u", what,
                                   i, k);
        size += d->shape[axis];
        if (size > INT32_MAX)
            return wai_ml_fail(c, WAI_TypeError, "%s: the axis's size is too large", what);
    }
    y.shape[axis] = (uint32_t)size;
    if (!wai_ml_dimensions_ok(&y)) return wai_ml_fail(c, WAI_TypeError, "%s: the output is too "
                                                                        "large", what);
    wai_ml_op r = {.kind = WAI_ML_OP_CONCAT};
    r.a.axis = axis;
    return wai_ml_builder_add(b, &r, inputs, (uint32_t)n_inputs, &y, out);
}

wai_status wai_ml_reshape(wai_ml_graph_builder *b, const wai_ml_operand *input,
                          const uint32_t *new_shape, size_t new_shape_size,
                          const wai_ml_operator_options *o, wai_ml_operand **out) {
    if (!b || !input || (!new_shape && new_shape_size) || !out) return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "reshape", o ? o->label : NULL, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    if (new_shape_size > WAI_ML_MAX_RANK)
        return wai_ml_fail(c, WAI_TypeError, "%s: rank %zu (at most %d)", what, new_shape_size,
                           WAI_ML_MAX_RANK);
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    wai_ml_operand_descriptor y = *d;
    y.rank = (uint32_t)new_shape_size;
    for (size_t i = 0; i < new_shape_size; i++) {
        if (new_shape[i] == 0 || new_shape[i] > INT32_MAX)
            return wai_ml_fail(c, WAI_TypeError, "%s: dimension %zu is not valid", what, i);
        y.shape[i] = new_shape[i];
    }
    if (!wai_ml_dimensions_ok(&y) || wai_ml_elements(&y) != wai_ml_elements(d))
        return wai_ml_fail(c, WAI_TypeError, "%s: the new shape holds another number of "
                                             "elements", what);
    wai_ml_op r = {.kind = WAI_ML_OP_RESHAPE};
    return wai_ml_builder_add(b, &r, &input, 1, &y, out);
}

wai_status wai_ml_slice(wai_ml_graph_builder *b, const wai_ml_operand *input,
                        const uint32_t *starts, size_t starts_size, const uint32_t *sizes,
                        size_t sizes_size, const wai_ml_slice_options *o, wai_ml_operand **out) {
    if (!b || !input || (!starts && starts_size) || (!sizes && sizes_size) || !out)
        return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "slice", o ? o->label : NULL, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    for (size_t i = 0; i < sizes_size; i++)
        if (sizes[i] == 0) return wai_ml_fail(c, WAI_TypeError, "%s: sizes holds a 0", what);
    if (starts_size != d->rank || sizes_size != d->rank)
        return wai_ml_fail(c, WAI_TypeError, "%s: starts and sizes must have %u items", what,
                           d->rank);
    if (o && o->strides && o->strides_size != d->rank)
        return wai_ml_fail(c, WAI_TypeError, "%s: strides must have %u items", what, d->rank);
    wai_ml_op r = {.kind = WAI_ML_OP_SLICE};
    wai_ml_operand_descriptor y = *d;
    for (uint32_t i = 0; i < d->rank; i++) {
        uint32_t stride = o && o->strides ? o->strides[i] : 1;
        if (stride < 1) return wai_ml_fail(c, WAI_TypeError, "%s: a stride is 0", what);
        if (starts[i] > d->shape[i] || (uint64_t)starts[i] + sizes[i] > d->shape[i])
            return wai_ml_fail(c, WAI_TypeError, "%s: dimension %u: [%u, %llu) is outside %u",
                               what, i, starts[i], (unsigned long long)starts[i] + sizes[i],
                               d->shape[i]);
        y.shape[i] = sizes[i] / stride + (sizes[i] % stride != 0);
        r.a.slice.starts[i] = starts[i];
        r.a.slice.strides[i] = stride;
    }
    return wai_ml_builder_add(b, &r, &input, 1, &y, out);
}

wai_status wai_ml_transpose(wai_ml_graph_builder *b, const wai_ml_operand *input,
                            const wai_ml_transpose_options *o, wai_ml_operand **out) {
    if (!b || !input || !out) return WAI_invalid_argument;
    *out = NULL;
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "transpose", o ? o->label : NULL, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    wai_ml_op r = {.kind = WAI_ML_OP_TRANSPOSE};
    if (!o || !o->permutation) {
        for (uint32_t i = 0; i < d->rank; i++) r.a.permutation[i] = d->rank - 1 - i;
    } else {
        if (o->permutation_size != d->rank)
            return wai_ml_fail(c, WAI_TypeError, "%s: the permutation must have %u items", what,
                               d->rank);
        uint32_t seen = 0;
        for (uint32_t i = 0; i < d->rank; i++) {
            uint32_t p = o->permutation[i];
            if (p >= d->rank) return wai_ml_fail(c, WAI_TypeError, "%s: axis %u of rank %u", what,
                                                 p, d->rank);
            if (seen & (1u << p))
                return wai_ml_fail(c, WAI_TypeError, "%s: axis %u twice", what, p);
            seen |= 1u << p;
            r.a.permutation[i] = p;
        }
    }
    /* The output's shape is the input's permuted (reading W2: the method
     * steps copy the input's descriptor). */
    wai_ml_operand_descriptor y = *d;
    for (uint32_t i = 0; i < d->rank; i++) y.shape[i] = d->shape[r.a.permutation[i]];
    return wai_ml_builder_add(b, &r, &input, 1, &y, out);
}

void wai_ml_pad_options_default(wai_ml_pad_options *o) {
    if (o) memset(o, 0, sizeof *o);
}

wai_status wai_ml_pad(wai_ml_graph_builder *b, const wai_ml_operand *input,
                      const uint32_t *beginning_padding, size_t beginning_size,
                      const uint32_t *ending_padding, size_t ending_size,
                      const wai_ml_pad_options *o, wai_ml_operand **out) {
    if (!b || !input || (!beginning_padding && beginning_size) || (!ending_padding && ending_size) ||
        !out)
        return WAI_invalid_argument;
    *out = NULL;
    wai_ml_pad_options def;
    if (!o) {
        wai_ml_pad_options_default(&def);
        o = &def;
    }
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "pad", o->label, &input, 1, what, &c);
    if (st != WAI_ok) return st;
    if ((unsigned)o->mode > WAI_ML_PAD_REFLECTION)
        return wai_ml_fail(c, WAI_TypeError, "%s: no such mode", what);
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(input);
    if (beginning_size != d->rank || ending_size != d->rank)
        return wai_ml_fail(c, WAI_TypeError, "%s: the paddings must have %u items", what, d->rank);
    wai_ml_op r = {.kind = WAI_ML_OP_PAD};
    wai_ml_operand_descriptor y = *d;
    for (uint32_t i = 0; i < d->rank; i++) {
        if (o->mode == WAI_ML_PAD_REFLECTION &&
            (beginning_padding[i] >= d->shape[i] || ending_padding[i] >= d->shape[i]))
            return wai_ml_fail(c, WAI_TypeError, "%s: reflection pads dimension %u by as much as "
                                                 "its size", what, i);
        uint64_t s = (uint64_t)d->shape[i] + beginning_padding[i] + ending_padding[i];
        if (s > INT32_MAX) return wai_ml_fail(c, WAI_TypeError, "%s: dimension %u is too large",
                                              what, i);
        y.shape[i] = (uint32_t)s;
        r.a.pad.begin[i] = beginning_padding[i];
        r.a.pad.end[i] = ending_padding[i];
    }
    if (!wai_ml_dimensions_ok(&y)) return wai_ml_fail(c, WAI_TypeError, "%s: the output is too "
                                                                        "large", what);
    r.a.pad.mode = o->mode;
    r.a.pad.value = (float)o->value;
    if (d->data_type == WAI_ML_FLOAT16) r.a.pad.value = wai_ml_f32_from_f16(wai_ml_f16_from_f32(r.a.pad.value));
    return wai_ml_builder_add(b, &r, &input, 1, &y, out);
}
