/* SPDX-License-Identifier: BSD-2-Clause */
/* conv2d and convTranspose2d (the spec's method steps, in their order):
 * validation and the output's shape. */
#include <string.h>

#include "webnn/ml.h"

void wai_ml_conv2d_options_default(wai_ml_conv2d_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->groups = 1;
}

void wai_ml_conv_transpose2d_options_default(wai_ml_conv_transpose2d_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->groups = 1;
}

static int is_float(const wai_ml_operand *o) {
    wai_ml_operand_data_type t = wai_ml_operand_descriptor_of(o)->data_type;
    return t == WAI_ML_FLOAT32 || t == WAI_ML_FLOAT16;
}

/* A sequence option: NULL takes def (n items); any other size than n is
 * TypeError; zero items refused where nonzero says so. */
static wai_status sequence(wai_ml_context *c, const char *what, const char *name,
                           const uint32_t *v, size_t size, size_t n, uint32_t def, int nonzero,
                           uint32_t *out) {
    if (!v) {
        for (size_t i = 0; i < n; i++) out[i] = def;
        return WAI_ok;
    }
    if (size != n)
        return wai_ml_fail(c, WAI_TypeError, "%s: %s has %zu items, not %zu", what, name, size, n);
    for (size_t i = 0; i < n; i++) {
        if (nonzero && v[i] == 0)
            return wai_ml_fail(c, WAI_TypeError, "%s: %s holds a 0", what, name);
        out[i] = v[i];
    }
    return WAI_ok;
}

/* The checks both convolutions open with: the builder, the operands, the
 * types and ranks (both rank 4, float32 or float16, the filter's type the
 * input's). */
static wai_status operands_ok(wai_ml_graph_builder *b, const char *what,
                              const wai_ml_operand *input, const wai_ml_operand *filter,
                              const wai_ml_operand *bias) {
    const wai_ml_operand *ops[3] = {input, filter, bias};
    wai_ml_context *c = wai_ml_builder_context(b);
    wai_status st = wai_ml_builder_check(b, what, ops, 3);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *x = wai_ml_operand_descriptor_of(input),
                                    *w = wai_ml_operand_descriptor_of(filter);
    if (!is_float(input))
        return wai_ml_fail(c, WAI_TypeError, "%s: the input is %s, not float32 or float16", what,
                           wai_ml_data_type_name(x->data_type));
    if (x->rank != 4) return wai_ml_fail(c, WAI_TypeError, "%s: the input has rank %u, not 4",
                                         what, x->rank);
    if (w->rank != 4) return wai_ml_fail(c, WAI_TypeError, "%s: the filter has rank %u, not 4",
                                         what, w->rank);
    if (w->data_type != x->data_type)
        return wai_ml_fail(c, WAI_TypeError, "%s: the filter is %s, the input %s", what,
                           wai_ml_data_type_name(w->data_type), wai_ml_data_type_name(x->data_type));
    return WAI_ok;
}

/* The bias: shape [outputChannels], the input's type. */
static wai_status bias_ok(wai_ml_context *c, const char *what, const wai_ml_operand *bias,
                          const wai_ml_operand *input, uint64_t out_channels) {
    if (!bias) return WAI_ok;
    const wai_ml_operand_descriptor *d = wai_ml_operand_descriptor_of(bias);
    if (d->rank != 1 || d->shape[0] != out_channels)
        return wai_ml_fail(c, WAI_TypeError, "%s: the bias is not of shape [%llu]", what,
                           (unsigned long long)out_channels);
    if (d->data_type != wai_ml_operand_descriptor_of(input)->data_type)
        return wai_ml_fail(c, WAI_TypeError, "%s: the bias's type is not the input's", what);
    return WAI_ok;
}

static void unpack_input(const wai_ml_operand_descriptor *x, int layout, uint32_t *n, uint32_t *ch,
                         uint32_t *h, uint32_t *w) {
    *n = x->shape[0];
    if (layout == WAI_ML_NHWC) *h = x->shape[1], *w = x->shape[2], *ch = x->shape[3];
    else *ch = x->shape[1], *h = x->shape[2], *w = x->shape[3];
}

static void pack_output(wai_ml_operand_descriptor *y, int layout, uint32_t n, uint32_t ch,
                        uint64_t h, uint64_t w) {
    y->rank = 4;
    y->shape[0] = n;
    if (layout == WAI_ML_NHWC) y->shape[1] = (uint32_t)h, y->shape[2] = (uint32_t)w, y->shape[3] = ch;
    else y->shape[1] = ch, y->shape[2] = (uint32_t)h, y->shape[3] = (uint32_t)w;
}

#define DIM_OK(v) ((v) >= 1 && (v) <= (int64_t)INT32_MAX)

/* padding, strides and dilations, which both convolutions read first and
 * in this order. */
static wai_status spatial(wai_ml_context *c, const char *what, const uint32_t *padding,
                          size_t padding_size, const uint32_t *strides, size_t strides_size,
                          const uint32_t *dilations, size_t dilations_size, wai_ml_conv_attrs *a) {
    wai_status st;
    if ((st = sequence(c, what, "padding", padding, padding_size, 4, 0, 0, a->padding)) ||
        (st = sequence(c, what, "strides", strides, strides_size, 2, 1, 1, a->strides)) ||
        (st = sequence(c, what, "dilations", dilations, dilations_size, 2, 1, 1, a->dilations)))
        return st;
    return WAI_ok;
}

/* groups (refused when 0), the layouts and the bias, as the op keeps them. */
static wai_status grouping(wai_ml_context *c, const char *what, uint32_t groups, int input_layout,
                           int filter_layout, const wai_ml_operand *bias, wai_ml_conv_attrs *a) {
    if (groups == 0) return wai_ml_fail(c, WAI_TypeError, "%s: groups is 0", what);
    a->groups = groups;
    a->input_layout = input_layout;
    a->filter_layout = filter_layout;
    a->has_bias = bias != NULL;
    return WAI_ok;
}

/* The output [n, oc, sides] in the input's layout, checked, and the op
 * recorded over its operands. */
static wai_status add_conv(wai_ml_graph_builder *b, const char *what, const wai_ml_op *op,
                           const wai_ml_operand *input, const wai_ml_operand *filter,
                           const wai_ml_operand *bias, int layout, uint32_t n, uint32_t oc,
                           const int64_t sides[2], wai_ml_operand **out) {
    wai_ml_operand_descriptor y = *wai_ml_operand_descriptor_of(input);
    pack_output(&y, layout, n, oc, (uint64_t)sides[0], (uint64_t)sides[1]);
    if (!wai_ml_dimensions_ok(&y))
        return wai_ml_fail(wai_ml_builder_context(b), WAI_TypeError, "%s: the output is too large",
                           what);
    const wai_ml_operand *ins[3] = {input, filter, bias};
    return wai_ml_builder_add(b, op, ins, bias ? 3 : 2, &y, out);
}

/* What both convolutions check first: the arguments, the operands, the
 * layouts (filter_max the kind's last filter layout); then *what names
 * the operation for messages and op is empty but for its kind. */
static wai_status begin_conv(wai_ml_graph_builder *b, const wai_ml_operand *input,
                             const wai_ml_operand *filter, const wai_ml_operand *bias,
                             const char *name, const char *label, unsigned input_layout,
                             unsigned filter_layout, unsigned filter_max, wai_ml_op_kind kind,
                             wai_ml_operand **out, char what[64], wai_ml_op *op) {
    if (!b || !input || !filter || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_what(what, 64, name, label);
    wai_status st = operands_ok(b, what, input, filter, bias);
    if (st != WAI_ok) return st;
    if (input_layout > WAI_ML_NHWC || filter_layout > filter_max)
        return wai_ml_fail(wai_ml_builder_context(b), WAI_TypeError, "%s: no such layout", what);
    memset(op, 0, sizeof *op);
    op->kind = kind;
    return WAI_ok;
}

wai_status wai_ml_conv2d(wai_ml_graph_builder *b, const wai_ml_operand *input,
                         const wai_ml_operand *filter, const wai_ml_conv2d_options *o,
                         wai_ml_operand **out) {
    wai_ml_conv2d_options def;
    if (!o) {
        wai_ml_conv2d_options_default(&def);
        o = &def;
    }
    char what[64];
    wai_ml_op op;
    wai_status st = begin_conv(b, input, filter, o->bias, "conv2d", o->label, o->input_layout,
                               o->filter_layout, WAI_ML_CONV2D_IHWO, WAI_ML_OP_CONV2D, out, what,
                               &op);
    if (st != WAI_ok) return st;
    wai_ml_context *c = wai_ml_builder_context(b);
    wai_ml_conv_attrs *a = &op.a.conv;
    if ((st = spatial(c, what, o->padding, o->padding_size, o->strides, o->strides_size,
                      o->dilations, o->dilations_size, a)) ||
        (st = grouping(c, what, o->groups, o->input_layout, o->filter_layout, o->bias, a)))
        return st;
    uint32_t n, ic, ih, iw, oc, fic, fh, fw;
    unpack_input(wai_ml_operand_descriptor_of(input), o->input_layout, &n, &ic, &ih, &iw);
    const uint32_t *fs = wai_ml_operand_descriptor_of(filter)->shape;
    switch (o->filter_layout) {
    case WAI_ML_CONV2D_HWIO: fh = fs[0], fw = fs[1], fic = fs[2], oc = fs[3]; break;
    case WAI_ML_CONV2D_OHWI: oc = fs[0], fh = fs[1], fw = fs[2], fic = fs[3]; break;
    case WAI_ML_CONV2D_IHWO: fic = fs[0], fh = fs[1], fw = fs[2], oc = fs[3]; break;
    default: oc = fs[0], fic = fs[1], fh = fs[2], fw = fs[3]; break;
    }
    if (ic % o->groups) return wai_ml_fail(c, WAI_TypeError, "%s: %u input channels in %u "
                                                             "groups", what, ic, o->groups);
    if (ic / o->groups != fic)
        return wai_ml_fail(c, WAI_TypeError, "%s: the filter takes %u input channels, the input "
                                             "gives %u a group", what, fic, ic / o->groups);
    if (oc % o->groups) return wai_ml_fail(c, WAI_TypeError, "%s: %u output channels in %u "
                                                             "groups", what, oc, o->groups);
    if ((st = bias_ok(c, what, o->bias, input, oc)) != WAI_ok) return st;
    /* outputSize = (in - ((k - 1) * d + 1) + pad_b + pad_e) / stride + 1, floored. */
    int64_t sides[2];
    const uint32_t in_s[2] = {ih, iw}, k_s[2] = {fh, fw};
    for (int i = 0; i < 2; i++) {
        int64_t eff = ((int64_t)k_s[i] - 1) * a->dilations[i] + 1;
        int64_t num = (int64_t)in_s[i] - eff + a->padding[2 * i] + a->padding[2 * i + 1];
        /* floor(num / s) + 1; a negative num gives a size below 1. */
        sides[i] = num < 0 ? 0 : num / a->strides[i] + 1;
        if (!DIM_OK(sides[i]))
            return wai_ml_fail(c, WAI_TypeError, "%s: the output's %s is not a valid dimension "
                                                 "(the filter, dilated, is larger than the "
                                                 "padded input)", what, i ? "width" : "height");
    }
    return add_conv(b, what, &op, input, filter, o->bias, o->input_layout, n, oc, sides, out);
}

wai_status wai_ml_conv_transpose2d(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                   const wai_ml_operand *filter,
                                   const wai_ml_conv_transpose2d_options *o, wai_ml_operand **out) {
    wai_ml_conv_transpose2d_options def;
    if (!o) {
        wai_ml_conv_transpose2d_options_default(&def);
        o = &def;
    }
    char what[64];
    wai_ml_op op;
    wai_status st = begin_conv(b, input, filter, o->bias, "convTranspose2d", o->label,
                               o->input_layout, o->filter_layout, WAI_ML_CONVT_OHWI,
                               WAI_ML_OP_CONV_TRANSPOSE2D, out, what, &op);
    if (st != WAI_ok) return st;
    wai_ml_context *c = wai_ml_builder_context(b);
    wai_ml_conv_attrs *a = &op.a.conv;
    uint32_t opad[2], osz[2];
    if ((st = spatial(c, what, o->padding, o->padding_size, o->strides, o->strides_size,
                      o->dilations, o->dilations_size, a)) ||
        (st = sequence(c, what, "outputPadding", o->output_padding, o->output_padding_size, 2, 0,
                       0, opad)))
        return st;
    if (o->output_sizes) {
        if ((st = sequence(c, what, "outputSizes", o->output_sizes, o->output_sizes_size, 2, 0, 0,
                           osz)))
            return st;
    } else if (opad[0] >= a->strides[0] || opad[1] >= a->strides[1]) {
        return wai_ml_fail(c, WAI_TypeError, "%s: outputPadding must be less than strides",
                           what);
    }
    if ((st = grouping(c, what, o->groups, o->input_layout, o->filter_layout, o->bias, a)))
        return st;
    uint32_t n, ic, ih, iw, fic, foc, fh, fw;
    unpack_input(wai_ml_operand_descriptor_of(input), o->input_layout, &n, &ic, &ih, &iw);
    const uint32_t *fs = wai_ml_operand_descriptor_of(filter)->shape;
    switch (o->filter_layout) {
    case WAI_ML_CONVT_HWOI: fh = fs[0], fw = fs[1], foc = fs[2], fic = fs[3]; break;
    case WAI_ML_CONVT_OHWI: foc = fs[0], fh = fs[1], fw = fs[2], fic = fs[3]; break;
    default: fic = fs[0], foc = fs[1], fh = fs[2], fw = fs[3]; break;
    }
    if (ic != fic)
        return wai_ml_fail(c, WAI_TypeError, "%s: the filter takes %u input channels, the input "
                                             "has %u", what, fic, ic);
    /* A grouped transposed convolution reads ic / groups channels a group
     * (reading W4). */
    if (ic % o->groups)
        return wai_ml_fail(c, WAI_TypeError, "%s: %u input channels in %u groups", what, ic,
                           o->groups);
    uint64_t oc = (uint64_t)foc * o->groups;
    if (!DIM_OK((int64_t)oc))
        return wai_ml_fail(c, WAI_TypeError, "%s: %llu output channels", what,
                           (unsigned long long)oc);
    if ((st = bias_ok(c, what, o->bias, input, oc)) != WAI_ok) return st;
    /* calculated = (in - 1) * stride + (k - 1) * dilation + 1 - pad_b - pad_e. */
    int64_t sides[2];
    const uint32_t in_s[2] = {ih, iw}, k_s[2] = {fh, fw};
    for (int i = 0; i < 2; i++) {
        int64_t calc = ((int64_t)in_s[i] - 1) * a->strides[i] +
                       ((int64_t)k_s[i] - 1) * a->dilations[i] + 1 - a->padding[2 * i] -
                       a->padding[2 * i + 1];
        if (o->output_sizes) {
            if ((int64_t)osz[i] < calc || (int64_t)osz[i] >= calc + a->strides[i])
                return wai_ml_fail(c, WAI_TypeError, "%s: outputSizes' %s %u is outside [%lld, "
                                                     "%lld)", what, i ? "width" : "height",
                                   osz[i], (long long)calc, (long long)(calc + a->strides[i]));
            sides[i] = osz[i];
        } else {
            sides[i] = calc + opad[i];
        }
        if (!DIM_OK(sides[i]))
            return wai_ml_fail(c, WAI_TypeError, "%s: the output's %s is not a valid dimension",
                               what, i ? "width" : "height");
    }
    return add_conv(b, what, &op, input, filter, o->bias, o->input_layout, n, (uint32_t)oc, sides,
                    out);
}
