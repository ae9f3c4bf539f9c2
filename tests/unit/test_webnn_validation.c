/* SPDX-License-Identifier: BSD-2-Clause */
/* The native WebNN's refusals: each step of the spec's method steps that
 * throws, as its own status, with a message; and the API around graphs and
 * tensors (contexts, dispatch, float16). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_ml.h"
#include "webnn/ml.h"

static wai_context *g_ctx;
static wai_ml_context *g_ml;

static wai_ml_operand_descriptor desc(uint32_t rank, const uint32_t *shape) {
    wai_ml_operand_descriptor d = {WAI_ML_FLOAT32, rank, {0}};
    for (uint32_t i = 0; i < rank; i++) d.shape[i] = shape[i];
    return d;
}

/* A fresh builder with an input "x" of shape s. */
static wai_ml_graph_builder *builder_with(uint32_t rank, const uint32_t *s, wai_ml_operand **x) {
    wai_ml_graph_builder *b;
    if (wai_ml_graph_builder_create(g_ml, &b) != WAI_ok) return NULL;
    wai_ml_operand_descriptor d = desc(rank, s);
    if (x && wai_ml_input(b, "x", &d, x) != WAI_ok) {
        wai_ml_graph_builder_destroy(b);
        return NULL;
    }
    return b;
}

static wai_ml_operand *constant(wai_ml_graph_builder *b, uint32_t rank, const uint32_t *s) {
    static float zeros[4096];
    wai_ml_operand_descriptor d = desc(rank, s);
    wai_ml_operand *o = NULL;
    wai_ml_constant(b, &d, zeros, 4 * (size_t)wai_ml_elements(&d), &o);
    return o;
}

/* A refusal with its code and a message. */
#define REFUSED(call, code)                                                                  \
    CHECK_MSG((call) == (code) && wai_ml_error_message(g_ml)[0], "%s: want %s (message '%s')", \
              #call, wai_status_name(code), wai_ml_error_message(g_ml))

static char g_lost_message[128];

static void on_lost(void *user, const char *message) {
    ++*(int *)user;
    snprintf(g_lost_message, sizeof g_lost_message, "%s", message);
}

static void test_contexts(void) {
    wai_ml_context_options o;
    wai_ml_context_options_default(&o);
    CHECK(o.accelerated == 1 && o.device_type == WAI_ML_DEVICE_CPU);
    wai_ml_context *c = NULL;
    o.device_type = WAI_ML_DEVICE_GPU;
    CHECK(wai_ml_create_context(g_ctx, &o, &c) == WAI_NotSupportedError && !c);
    o.device_type = WAI_ML_DEVICE_NPU;
    CHECK(wai_ml_create_context(g_ctx, &o, &c) == WAI_NotSupportedError && !c);
    wai_ml_context_options_default(&o);
    o.reserved[3] = 1;
    CHECK(wai_ml_create_context(g_ctx, &o, &c) == WAI_invalid_argument);
    CHECK(wai_ml_create_context(g_ctx, NULL, &c) == WAI_ok && !wai_ml_context_accelerated(c));
    CHECK(strcmp(wai_ml_error_message(c), "") == 0);
    /* MLContext.lost: once, when destroyed, with a message. */
    int lost_calls = 0;
    g_lost_message[0] = '\0';
    CHECK(wai_ml_context_on_lost(NULL, NULL, NULL) == WAI_invalid_argument);
    CHECK(wai_ml_context_on_lost(c, on_lost, &lost_calls) == WAI_ok);
    CHECK(lost_calls == 0);
    wai_ml_context_destroy(c);
    CHECK(lost_calls == 1 && g_lost_message[0]);
}

static void test_inputs_and_constants(void) {
    wai_ml_graph_builder *b = builder_with(0, NULL, NULL);
    if (!CHECK(b)) return;
    uint32_t s[2] = {2, 3}, z[2] = {2, 0};
    wai_ml_operand_descriptor d = desc(2, s), zero = desc(2, z), deep = desc(2, s);
    deep.rank = WAI_ML_MAX_RANK + 1;
    wai_ml_operand *o;
    REFUSED(wai_ml_input(b, "", &d, &o), WAI_TypeError);
    CHECK(wai_ml_input(b, "a", &d, &o) == WAI_ok);
    REFUSED(wai_ml_input(b, "a", &d, &o), WAI_TypeError);
    REFUSED(wai_ml_input(b, "z", &zero, &o), WAI_TypeError);
    REFUSED(wai_ml_input(b, "deep", &deep, &o), WAI_TypeError);
    wai_ml_operand_descriptor i32 = d;
    i32.data_type = WAI_ML_INT32;
    REFUSED(wai_ml_input(b, "i", &i32, &o), WAI_TypeError);
    float v[6] = {0};
    REFUSED(wai_ml_constant(b, &d, v, 20, &o), WAI_TypeError);
    CHECK(wai_ml_constant(b, &d, v, 24, &o) == WAI_ok);
    CHECK(wai_ml_constant_scalar(b, WAI_ML_FLOAT32, 2.5, &o) == WAI_ok &&
          wai_ml_operand_descriptor_of(o)->rank == 0);
    /* constant(tensor): a constant tensor of this context. */
    wai_ml_tensor *t, *ct;
    wai_ml_tensor_descriptor td = {d, 1, 1};
    CHECK(wai_ml_create_tensor(g_ml, &td, &t) == WAI_ok);
    REFUSED(wai_ml_constant_tensor(b, t, &o), WAI_TypeError);
    CHECK(wai_ml_create_constant_tensor(g_ml, &d, v, 24, &ct) == WAI_ok);
    CHECK(wai_ml_constant_tensor(b, ct, &o) == WAI_ok);
    wai_ml_tensor_destroy(ct);
    REFUSED(wai_ml_constant_tensor(b, ct, &o), WAI_TypeError);
    wai_ml_tensor_destroy(t);
    wai_ml_graph_builder_destroy(b);
}

static void test_conv2d(void) {
    uint32_t xs[4] = {1, 4, 7, 7};
    wai_ml_operand *x, *y;
    wai_ml_graph_builder *b = builder_with(4, xs, &x);
    if (!CHECK(b)) return;
    uint32_t ws[4] = {6, 2, 3, 3}, w3[3] = {6, 2, 3}, bad_ci[4] = {6, 3, 3, 3}, big[4] = {6, 4, 9, 9};
    uint32_t bs[1] = {6}, bs_bad[1] = {5};
    wai_ml_operand *w = constant(b, 4, ws), *bias = constant(b, 1, bs), *bias_bad = constant(b, 1, bs_bad);
    wai_ml_conv2d_options o;
    wai_ml_conv2d_options_default(&o);
    o.groups = 2;
    CHECK(wai_ml_conv2d(b, x, w, &o, &y) == WAI_ok);
    const wai_ml_operand_descriptor *yd = wai_ml_operand_descriptor_of(y);
    CHECK(yd->shape[0] == 1 && yd->shape[1] == 6 && yd->shape[2] == 5 && yd->shape[3] == 5);
    REFUSED(wai_ml_conv2d(b, x, constant(b, 3, w3), &o, &y), WAI_TypeError);   /* filter rank */
    REFUSED(wai_ml_conv2d(b, w, w, &o, &y), WAI_TypeError);                     /* 6 channels vs 2 a group */
    uint32_t pad3[3] = {1, 1, 1}, zero2[2] = {0, 1}, one[1] = {1};
    wai_ml_conv2d_options p = o;
    p.padding = pad3, p.padding_size = 3;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p = o, p.strides = zero2, p.strides_size = 2;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p = o, p.dilations = one, p.dilations_size = 1;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p = o, p.groups = 0;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p = o, p.groups = 3; /* 4 input channels in 3 groups */
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p = o;
    REFUSED(wai_ml_conv2d(b, x, constant(b, 4, bad_ci), &p, &y), WAI_TypeError);
    p.bias = bias_bad;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    p.bias = bias;
    CHECK(wai_ml_conv2d(b, x, w, &p, &y) == WAI_ok);
    p = o, p.groups = 1;
    REFUSED(wai_ml_conv2d(b, x, constant(b, 4, big), &p, &y), WAI_TypeError); /* 9x9 over 7x7 */
    p.filter_layout = (wai_ml_conv2d_filter_operand_layout)7;
    REFUSED(wai_ml_conv2d(b, x, w, &p, &y), WAI_TypeError);
    /* Another builder's operand; a built builder. */
    wai_ml_operand *x2;
    wai_ml_graph_builder *b2 = builder_with(4, xs, &x2);
    REFUSED(wai_ml_conv2d(b, x2, w, &o, &y), WAI_TypeError);
    wai_ml_graph *g;
    CHECK(wai_ml_conv2d(b, x, w, &o, &y) == WAI_ok);
    wai_ml_named_operand outs[1] = {{"y", y}};
    CHECK(wai_ml_build(b, outs, 1, &g) == WAI_ok);
    REFUSED(wai_ml_conv2d(b, x, w, &o, &y), WAI_InvalidStateError);
    REFUSED(wai_ml_build(b, outs, 1, &g), WAI_InvalidStateError);
    uint32_t s1[1] = {1};
    wai_ml_operand_descriptor d1 = desc(1, s1);
    REFUSED(wai_ml_input(b, "late", &d1, &x2), WAI_InvalidStateError);
    wai_ml_graph_builder_destroy(b2);
    wai_ml_graph_builder_destroy(b);
}

static void test_conv_transpose2d(void) {
    uint32_t xs[4] = {1, 4, 3, 3};
    wai_ml_operand *x, *y;
    wai_ml_graph_builder *b = builder_with(4, xs, &x);
    if (!CHECK(b)) return;
    uint32_t ws[4] = {4, 2, 3, 3}, ws_bad[4] = {3, 2, 3, 3}, bs[1] = {4};
    wai_ml_operand *w = constant(b, 4, ws), *bias = constant(b, 1, bs);
    wai_ml_conv_transpose2d_options o;
    wai_ml_conv_transpose2d_options_default(&o);
    uint32_t s2[2] = {2, 2}, op1[2] = {1, 1}, op2[2] = {2, 0}, os[2] = {8, 8}, os_bad[2] = {9, 8}, one[1] = {7};
    o.strides = s2, o.strides_size = 2, o.groups = 2;
    CHECK(wai_ml_conv_transpose2d(b, x, w, &o, &y) == WAI_ok);
    const wai_ml_operand_descriptor *yd = wai_ml_operand_descriptor_of(y);
    CHECK(yd->shape[1] == 4 && yd->shape[2] == 7 && yd->shape[3] == 7);
    wai_ml_conv_transpose2d_options p = o;
    p.output_padding = op1, p.output_padding_size = 2;
    CHECK(wai_ml_conv_transpose2d(b, x, w, &p, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->shape[2] == 8);
    p.output_padding = op2;
    REFUSED(wai_ml_conv_transpose2d(b, x, w, &p, &y), WAI_TypeError); /* outputPadding >= stride */
    p = o, p.output_sizes = os, p.output_sizes_size = 2;
    CHECK(wai_ml_conv_transpose2d(b, x, w, &p, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->shape[3] == 8);
    p.output_sizes = os_bad;
    REFUSED(wai_ml_conv_transpose2d(b, x, w, &p, &y), WAI_TypeError); /* 9 >= 7 + stride */
    p.output_sizes = one, p.output_sizes_size = 1;
    REFUSED(wai_ml_conv_transpose2d(b, x, w, &p, &y), WAI_TypeError);
    p = o;
    REFUSED(wai_ml_conv_transpose2d(b, x, constant(b, 4, ws_bad), &p, &y), WAI_TypeError);
    p.bias = w;
    REFUSED(wai_ml_conv_transpose2d(b, x, w, &p, &y), WAI_TypeError);
    p.bias = bias;
    CHECK(wai_ml_conv_transpose2d(b, x, w, &p, &y) == WAI_ok);
    p = o, p.groups = 0;
    REFUSED(wai_ml_conv_transpose2d(b, x, w, &p, &y), WAI_TypeError);
    wai_ml_graph_builder_destroy(b);
}

static void test_elementwise_and_movement(void) {
    uint32_t xs[3] = {2, 3, 4};
    wai_ml_operand *x, *y;
    wai_ml_graph_builder *b = builder_with(3, xs, &x);
    if (!CHECK(b)) return;
    uint32_t s34[2] = {3, 4}, s5[1] = {5}, s14[2] = {1, 4};
    CHECK(wai_ml_add(b, x, constant(b, 2, s34), &y) == WAI_ok);
    CHECK(wai_ml_mul(b, x, constant(b, 2, s14), &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->rank == 3);
    REFUSED(wai_ml_add(b, x, constant(b, 1, s5), &y), WAI_TypeError);
    wai_ml_operand *h;
    uint32_t s1[1] = {1};
    wai_ml_operand_descriptor hd = desc(1, s1);
    hd.data_type = WAI_ML_FLOAT16;
    CHECK(wai_ml_input(b, "h", &hd, &h) == WAI_ok);
    REFUSED(wai_ml_sub(b, x, h, &y), WAI_TypeError);
    wai_ml_clamp_options co;
    wai_ml_clamp_options_default(&co);
    CHECK(wai_ml_clamp(b, x, &co, &y) == WAI_ok);
    co.has_min_value = co.has_max_value = 1, co.min_value = 2, co.max_value = 1;
    REFUSED(wai_ml_clamp(b, x, &co, &y), WAI_TypeError);
    /* concat */
    const wai_ml_operand *two[2] = {x, x};
    CHECK(wai_ml_concat(b, two, 2, 2, NULL, &y) == WAI_ok && wai_ml_operand_descriptor_of(y)->shape[2] == 8);
    REFUSED(wai_ml_concat(b, two, 0, 0, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_concat(b, two, 2, 3, NULL, &y), WAI_TypeError);
    const wai_ml_operand *mixed[2] = {x, constant(b, 2, s34)};
    REFUSED(wai_ml_concat(b, mixed, 2, 0, NULL, &y), WAI_TypeError);
    uint32_t s234[3] = {2, 3, 5};
    const wai_ml_operand *other[2] = {x, constant(b, 3, s234)};
    REFUSED(wai_ml_concat(b, other, 2, 1, NULL, &y), WAI_TypeError);
    /* reshape */
    uint32_t r6_4[2] = {6, 4}, r5[1] = {24}, r0[2] = {24, 0}, r_bad[2] = {5, 5};
    CHECK(wai_ml_reshape(b, x, r6_4, 2, NULL, &y) == WAI_ok);
    CHECK(wai_ml_reshape(b, x, r5, 1, NULL, &y) == WAI_ok);
    REFUSED(wai_ml_reshape(b, x, r0, 2, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_reshape(b, x, r_bad, 2, NULL, &y), WAI_TypeError);
    /* slice */
    uint32_t st[3] = {0, 1, 1}, sz[3] = {2, 2, 3}, sz0[3] = {2, 0, 3}, sz_over[3] = {2, 3, 3};
    uint32_t strides0[3] = {1, 0, 1};
    CHECK(wai_ml_slice(b, x, st, 3, sz, 3, NULL, &y) == WAI_ok);
    REFUSED(wai_ml_slice(b, x, st, 3, sz0, 3, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_slice(b, x, st, 3, sz_over, 3, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_slice(b, x, st, 2, sz, 3, NULL, &y), WAI_TypeError);
    wai_ml_slice_options so = {strides0, 3, NULL};
    REFUSED(wai_ml_slice(b, x, st, 3, sz, 3, &so, &y), WAI_TypeError);
    /* transpose: the output's shape permuted (reading W2) */
    CHECK(wai_ml_transpose(b, x, NULL, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->shape[0] == 4 && wai_ml_operand_descriptor_of(y)->shape[2] == 2);
    uint32_t dup[3] = {0, 0, 1}, out_of[3] = {0, 1, 3};
    wai_ml_transpose_options to = {dup, 3, NULL};
    REFUSED(wai_ml_transpose(b, x, &to, &y), WAI_TypeError);
    to.permutation = out_of;
    REFUSED(wai_ml_transpose(b, x, &to, &y), WAI_TypeError);
    to.permutation_size = 2;
    REFUSED(wai_ml_transpose(b, x, &to, &y), WAI_TypeError);
    /* pad */
    uint32_t pb[3] = {0, 1, 2}, pe[3] = {1, 1, 4};
    wai_ml_pad_options po;
    wai_ml_pad_options_default(&po);
    CHECK(wai_ml_pad(b, x, pb, 3, pe, 3, &po, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->shape[2] == 10);
    REFUSED(wai_ml_pad(b, x, pb, 2, pe, 3, &po, &y), WAI_TypeError);
    po.mode = WAI_ML_PAD_REFLECTION;
    REFUSED(wai_ml_pad(b, x, pb, 3, pe, 3, &po, &y), WAI_TypeError); /* 4 >= 4 */
    /* reductions */
    uint32_t ax[2] = {0, 2}, ax_dup[2] = {1, 1}, ax_out[1] = {3};
    wai_ml_reduce_options ro = {ax, 2, 0, NULL};
    CHECK(wai_ml_reduce(b, WAI_ML_REDUCE_SUM, x, &ro, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->rank == 1);
    ro.keep_dimensions = 1;
    CHECK(wai_ml_reduce(b, WAI_ML_REDUCE_L2, x, &ro, &y) == WAI_ok &&
          wai_ml_operand_descriptor_of(y)->rank == 3);
    ro.axes = ax_dup;
    REFUSED(wai_ml_reduce(b, WAI_ML_REDUCE_MAX, x, &ro, &y), WAI_TypeError);
    ro.axes = ax_out, ro.axes_size = 1;
    REFUSED(wai_ml_reduce(b, WAI_ML_REDUCE_MIN, x, &ro, &y), WAI_TypeError);
    /* build's own checks */
    wai_ml_graph *g;
    wai_ml_named_operand none[1] = {{"", y}}, input_out[1] = {{"x", x}}, twice[2] = {{"a", y}, {"a", y}};
    REFUSED(wai_ml_build(b, none, 0, &g), WAI_TypeError);
    REFUSED(wai_ml_build(b, none, 1, &g), WAI_TypeError);
    REFUSED(wai_ml_build(b, input_out, 1, &g), WAI_TypeError);
    REFUSED(wai_ml_build(b, twice, 2, &g), WAI_TypeError);
    wai_ml_graph_builder_destroy(b);
}

/* A graph y = x * 2 + 1 and dispatch's checks. */
static void test_dispatch(void) {
    uint32_t s[1] = {3};
    wai_ml_operand *x, *two, *one, *t, *y = NULL;
    wai_ml_graph_builder *b = builder_with(1, s, &x);
    if (!CHECK(b)) return;
    CHECK(wai_ml_constant_scalar(b, WAI_ML_FLOAT32, 2, &two) == WAI_ok &&
          wai_ml_constant_scalar(b, WAI_ML_FLOAT32, 1, &one) == WAI_ok &&
          wai_ml_mul(b, x, two, &t) == WAI_ok && wai_ml_add(b, t, one, &y) == WAI_ok);
    wai_ml_graph *g;
    wai_ml_named_operand outs[1] = {{"y", y}};
    CHECK(wai_ml_build(b, outs, 1, &g) == WAI_ok);
    wai_ml_graph_builder_destroy(b); /* the graph lives on */
    CHECK(wai_ml_graph_input_count(g) == 1 && wai_ml_graph_output_count(g) == 1 &&
          wai_ml_graph_operator_count(g) == 2 && strcmp(wai_ml_graph_input_at(g, 0, NULL), "x") == 0);
    wai_ml_operand_descriptor d = desc(1, s);
    wai_ml_tensor_descriptor wd = {d, 0, 1}, rd = {d, 1, 0};
    wai_ml_tensor *tx = NULL, *ty = NULL, *tz = NULL;
    CHECK(wai_ml_create_tensor(g_ml, &wd, &tx) == WAI_ok && wai_ml_create_tensor(g_ml, &rd, &ty) == WAI_ok &&
          wai_ml_create_tensor(g_ml, &rd, &tz) == WAI_ok);
    const float in[3] = {1, -2, 0.5f};
    float out[3];
    REFUSED(wai_ml_write_tensor(g_ml, ty, in, 12), WAI_TypeError); /* not writable */
    REFUSED(wai_ml_write_tensor(g_ml, tx, in, 8), WAI_TypeError);
    CHECK(wai_ml_write_tensor(g_ml, tx, in, 12) == WAI_ok);
    REFUSED(wai_ml_read_tensor(g_ml, tx, out, 12), WAI_TypeError); /* not readable */
    wai_ml_named_tensor ins[1] = {{"x", tx}}, os[1] = {{"y", ty}}, wrong[1] = {{"z", ty}};
    wai_ml_named_tensor same[1] = {{"y", tx}};
    REFUSED(wai_ml_dispatch(g_ml, g, ins, 1, wrong, 1), WAI_TypeError);
    REFUSED(wai_ml_dispatch(g_ml, g, ins, 1, same, 1), WAI_TypeError); /* one tensor twice */
    REFUSED(wai_ml_dispatch(g_ml, g, ins, 0, os, 1), WAI_TypeError);
    CHECK(wai_ml_dispatch(g_ml, g, ins, 1, os, 1) == WAI_ok);
    CHECK(wai_ml_read_tensor(g_ml, ty, out, 12) == WAI_ok && out[0] == 3 && out[1] == -3 && out[2] == 2);
    uint32_t s4[1] = {4};
    wai_ml_tensor_descriptor bigd = {desc(1, s4), 1, 0};
    wai_ml_tensor *big;
    CHECK(wai_ml_create_tensor(g_ml, &bigd, &big) == WAI_ok);
    wai_ml_named_tensor bigs[1] = {{"y", big}};
    REFUSED(wai_ml_dispatch(g_ml, g, ins, 1, bigs, 1), WAI_TypeError); /* another descriptor */
    wai_ml_graph_destroy(g);
    REFUSED(wai_ml_dispatch(g_ml, g, ins, 1, os, 1), WAI_InvalidStateError);
    wai_ml_tensor_destroy(tx);
    REFUSED(wai_ml_write_tensor(g_ml, tx, in, 12), WAI_TypeError); /* destroyed */
    wai_ml_tensor_destroy(ty), wai_ml_tensor_destroy(tz), wai_ml_tensor_destroy(big);
}

/* A float16 graph computes float16 values: each result rounded. */
static void test_float16(void) {
    CHECK(wai_ml_f16_from_f32(1.0f) == 0x3C00 && wai_ml_f16_from_f32(65504.0f) == 0x7BFF &&
          wai_ml_f16_from_f32(65520.0f) == 0x7C00 && wai_ml_f16_from_f32(-0.0f) == 0x8000 &&
          wai_ml_f16_from_f32(5.9604645e-8f) == 0x0001 && wai_ml_f16_from_f32(2.9802322e-8f) == 0x0000);
    CHECK(wai_ml_f16_from_f32(1.0f + 1.0f / 2048) == 0x3C00); /* a tie, to even */
    CHECK(wai_ml_f16_from_f32(1.0f + 3.0f / 2048) == 0x3C02);
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) continue; /* NaNs */
        if (!CHECK(wai_ml_f16_from_f32(wai_ml_f32_from_f16((uint16_t)h)) == h)) break;
    }
    uint32_t s[1] = {2};
    wai_ml_graph_builder *b;
    CHECK(wai_ml_graph_builder_create(g_ml, &b) == WAI_ok);
    wai_ml_operand_descriptor d = desc(1, s);
    d.data_type = WAI_ML_FLOAT16;
    wai_ml_operand *x, *c, *y = NULL;
    const uint16_t k[2] = {0x3C00, 0x1400}; /* 1, 2^-10 */
    CHECK(wai_ml_input(b, "x", &d, &x) == WAI_ok && wai_ml_constant(b, &d, k, 4, &c) == WAI_ok &&
          wai_ml_add(b, x, c, &y) == WAI_ok);
    wai_ml_graph *g;
    wai_ml_named_operand outs[1] = {{"y", y}};
    CHECK(wai_ml_build(b, outs, 1, &g) == WAI_ok);
    wai_ml_graph_builder_destroy(b);
    wai_ml_tensor *tx = NULL, *ty = NULL;
    wai_ml_tensor_descriptor wd = {d, 0, 1}, rd = {d, 1, 0};
    CHECK(wai_ml_create_tensor(g_ml, &wd, &tx) == WAI_ok && wai_ml_create_tensor(g_ml, &rd, &ty) == WAI_ok);
    const uint16_t in[2] = {0x3C00, 0x3C00}; /* 1 + 1 = 2; 1 + 2^-10 stays 1 + 2^-10 */
    uint16_t out[2];
    wai_ml_named_tensor ins[1] = {{"x", tx}}, os[1] = {{"y", ty}};
    CHECK(wai_ml_write_tensor(g_ml, tx, in, 4) == WAI_ok && wai_ml_dispatch(g_ml, g, ins, 1, os, 1) == WAI_ok &&
          wai_ml_read_tensor(g_ml, ty, out, 4) == WAI_ok);
    CHECK(out[0] == 0x4000 && out[1] == 0x3C01);
    wai_ml_tensor_destroy(tx), wai_ml_tensor_destroy(ty);
    wai_ml_graph_destroy(g);
}

/* The description reader refuses what it does not know, as DataError. */
static void test_descriptions(void) {
    static const char good[] =
        "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float32\", "
        "\"shape\": [2]}}, \"constants\": {\"k\": {\"dataType\": \"float32\", \"shape\": [2], "
        "\"offset\": 4}}, \"operators\": [{\"name\": \"mul\", \"arguments\": [{\"a\": \"x\"}, "
        "{\"b\": \"k\"}], \"outputs\": \"y\"}], \"outputs\": {\"out\": \"y\"}}";
    const float weights[3] = {9, 2, 3};
    wai_ml_graph *g;
    CHECK(wai_ml_graph_from_json(g_ml, (const uint8_t *)good, sizeof good - 1,
                                 (const uint8_t *)weights, 12, NULL, 0, &g) == WAI_ok);
    CHECK(wai_ml_graph_output_count(g) == 1 && strcmp(wai_ml_graph_output_at(g, 0, NULL), "out") == 0);
    wai_ml_graph_destroy(g);
    /* Another input shape, given by the caller. */
    wai_ml_named_descriptor over = {"x", desc(0, NULL)};
    const wai_ml_operand_descriptor *od;
    CHECK(wai_ml_graph_from_json(g_ml, (const uint8_t *)good, sizeof good - 1,
                                 (const uint8_t *)weights, 12, &over, 1, &g) == WAI_ok);
    wai_ml_graph_output_at(g, 0, &od);
    CHECK(od->rank == 1 && od->shape[0] == 2);
    wai_ml_graph_destroy(g);
    static const char *const bad[] = {
        "not json",
        "{\"kind\": \"other\"}",
        "{\"kind\": \"wai-webnn-graph/1\", \"extra\": 1, \"operators\": []}",
        "{\"kind\": \"wai-webnn-graph/1\", \"operators\": [{\"name\": \"nope\", \"arguments\": [], "
        "\"outputs\": \"y\"}]}",
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {\"k\": {\"dataType\": \"float32\", "
        "\"shape\": [4], \"offset\": 4}}, \"operators\": []}",
        "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float32\", "
        "\"shape\": [2]}}, \"operators\": [{\"name\": \"relu\", \"arguments\": [{\"input\": \"q\"}], "
        "\"outputs\": \"y\"}]}",
        "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float32\", "
        "\"shape\": [2]}}, \"operators\": [{\"name\": \"relu\", \"arguments\": [{\"input\": \"x\"}, "
        "{\"options\": {\"alpha\": 1}}], \"outputs\": \"y\"}]}",
        "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"float32\", "
        "\"shape\": [2]}}, \"operators\": [{\"name\": \"relu\", \"arguments\": [{\"input\": \"x\"}], "
        "\"outputs\": \"x\"}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_MSG(wai_ml_graph_from_json(g_ml, (const uint8_t *)bad[i], strlen(bad[i]),
                                         (const uint8_t *)weights, 12, NULL, 0, &g) == WAI_DataError &&
                      !g && wai_ml_error_message(g_ml)[0],
                  "description %zu: %s", i, wai_ml_error_message(g_ml));
}

/* An allocator that notes the largest request. */
static void *largest_alloc(void *opaque, size_t size) {
    size_t *largest = opaque;
    if (size > *largest) *largest = size;
    return size <= ((size_t)1 << 26) ? malloc(size) : NULL;
}
static void largest_free(void *opaque, void *p) {
    (void)opaque;
    free(p);
}

/* A constant's shape is checked against its source before its buffer is
 * allocated: a 302-byte description (the fuzz campaign's, fuzz_bmshj_program)
 * whose constant claims 3333332 x 3 x 12 x 16 float32 (7.68 GB) at offset 0
 * of a small weights file asked for 7.68 GB before it was refused. */
static void test_description_sizes(void) {
    size_t largest = 0;
    wai_settings st;
    wai_settings_default(&st);
    st.allocator = (wai_allocator){largest_alloc, largest_free, &largest};
    wai_context *ctx;
    wai_ml_context *ml;
    if (!CHECK(wai_context_create(&st, &ctx) == WAI_ok)) return;
    if (!CHECK(wai_ml_create_context(ctx, NULL, &ml) == WAI_ok)) {
        wai_context_destroy(ctx);
        return;
    }
    static const char *const huge[] = {
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {\"w\": {\"dataType\": \"float32\", "
        "\"shape\": [3333332, 3, 12, 16], \"offset\": 0}}, \"operators\": []}",
        /* Inline values fewer than the shape's elements. */
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {\"w\": {\"dataType\": \"float32\", "
        "\"shape\": [3333332, 3, 12, 16], \"data\": [1, 2]}}, \"operators\": []}",
        /* A fill whose one value is not a number. */
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {\"w\": {\"dataType\": \"float32\", "
        "\"shape\": [3333332, 3, 12, 16], \"data\": [{}], \"fill\": true}}, \"operators\": []}",
    };
    const float weights[3] = {1, 2, 3};
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        wai_ml_graph *g = NULL;
        largest = 0;
        CHECK_MSG(wai_ml_graph_from_json(ml, (const uint8_t *)huge[i], strlen(huge[i]),
                                         (const uint8_t *)weights, 12, NULL, 0, &g) == WAI_DataError &&
                      !g,
                  "description %zu: %s", i, wai_ml_error_message(ml));
        CHECK_MSG(largest < ((size_t)1 << 20), "description %zu asked for %zu bytes", i, largest);
    }
    /* With a ceiling (a float decode's max_memory): a valid fill of 8 GB is
     * cost_over_limit with nothing of it allocated; constants are counted
     * as the graph holds them (float32), an inline one's bytes beside them
     * while it is written out. */
    static const char fill[] =
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {\"w\": {\"dataType\": \"float32\", "
        "\"shape\": [2147483647], \"data\": [0.5], \"fill\": true}}, \"operators\": []}";
    wai_ml_graph *g = NULL;
    largest = 0;
    CHECK(wai_ml_graph_from_json_within(ml, (const uint8_t *)fill, strlen(fill),
                                        (const uint8_t *)weights, 12, NULL, 0, (uint64_t)1 << 26,
                                        &g) == WAI_cost_over_limit &&
          !g && strstr(wai_ml_error_message(ml), "past 67108864 bytes"));
    CHECK_MSG(largest < ((size_t)1 << 20), "the fill asked for %zu bytes", largest);
    /* Two in the file (3 floats each: 24 bytes held) and one inline float16
     * (2 values: 8 bytes held, 4 written out): 36 bytes at most. Without an
     * output the build is TypeError, after every constant is read. */
    static const char three[] =
        "{\"kind\": \"wai-webnn-graph/1\", \"constants\": {"
        "\"a\": {\"dataType\": \"float32\", \"shape\": [3], \"offset\": 0}, "
        "\"b\": {\"dataType\": \"float32\", \"shape\": [3], \"offset\": 0}, "
        "\"h\": {\"dataType\": \"float16\", \"shape\": [2], \"data\": [1, 2]}}, "
        "\"operators\": []}";
    for (uint64_t limit = 34; limit <= 37; limit++) {
        wai_status want = limit < 36 ? WAI_cost_over_limit : WAI_TypeError;
        g = NULL;
        wai_status got = wai_ml_graph_from_json_within(ml, (const uint8_t *)three, strlen(three),
                                                       (const uint8_t *)weights, 12, NULL, 0,
                                                       limit, &g);
        CHECK_MSG(got == want && !g, "limit %llu: %s (%s)", (unsigned long long)limit,
                  wai_status_name(got), wai_ml_error_message(ml));
    }
    wai_ml_context_destroy(ml);
    wai_context_destroy(ctx);
}

/* gemm and matmul: each TypeError of their method steps, the output's
 * shape otherwise. */
static void test_matrix_products(void) {
    uint32_t s23[2] = {2, 3}, s34[2] = {3, 4}, s43[2] = {4, 3}, s24[2] = {2, 4}, s4[1] = {4};
    uint32_t s21[2] = {2, 1}, s3[1] = {3}, s234[3] = {2, 3, 4}, s5342[4] = {5, 1, 4, 2};
    wai_ml_operand *a, *y;
    wai_ml_graph_builder *b = builder_with(2, s23, &a);
    if (!CHECK(b)) return;
    wai_ml_operand *b34 = constant(b, 2, s34), *b43 = constant(b, 2, s43), *c24 = constant(b, 2, s24);
    wai_ml_operand *c4 = constant(b, 1, s4), *c21 = constant(b, 2, s21), *c3 = constant(b, 1, s3);
    wai_ml_operand *v3 = constant(b, 1, s3), *t234 = constant(b, 3, s234);
    wai_ml_gemm_options go;
    wai_ml_gemm_options_default(&go);
    CHECK(go.alpha == 1.0 && go.beta == 1.0 && !go.c && !go.a_transpose && !go.b_transpose);
    CHECK(wai_ml_gemm(b, a, b34, NULL, &y) == WAI_ok && wai_ml_operand_descriptor_of(y)->shape[0] == 2 &&
          wai_ml_operand_descriptor_of(y)->shape[1] == 4);
    REFUSED(wai_ml_gemm(b, a, b43, NULL, &y), WAI_TypeError);  /* K 3 against 4 */
    go.b_transpose = 1;
    CHECK(wai_ml_gemm(b, a, b43, &go, &y) == WAI_ok);
    go.b_transpose = 0;
    go.a_transpose = 1;                                        /* A' is [3, 2]: K 2 against 3 */
    REFUSED(wai_ml_gemm(b, a, b34, &go, &y), WAI_TypeError);
    go.a_transpose = 0;
    REFUSED(wai_ml_gemm(b, v3, b34, NULL, &y), WAI_TypeError); /* rank 1 */
    REFUSED(wai_ml_gemm(b, t234, b34, NULL, &y), WAI_TypeError);
    go.c = c24;
    CHECK(wai_ml_gemm(b, a, b34, &go, &y) == WAI_ok);
    go.c = c4;
    CHECK(wai_ml_gemm(b, a, b34, &go, &y) == WAI_ok);
    go.c = c21;
    CHECK(wai_ml_gemm(b, a, b34, &go, &y) == WAI_ok);
    go.c = c3;                                                 /* [3] does not broadcast to [2, 4] */
    REFUSED(wai_ml_gemm(b, a, b34, &go, &y), WAI_TypeError);
    go.c = t234;                                               /* rank 3 */
    REFUSED(wai_ml_gemm(b, a, b34, &go, &y), WAI_TypeError);
    /* matmul */
    CHECK(wai_ml_matmul(b, a, b34, NULL, &y) == WAI_ok && wai_ml_operand_descriptor_of(y)->rank == 2);
    REFUSED(wai_ml_matmul(b, a, b43, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_matmul(b, v3, b34, NULL, &y), WAI_TypeError);
    wai_ml_operand *big = constant(b, 4, s5342);               /* [5, 1, 4, 2] */
    wai_ml_operand *x234 = constant(b, 3, s234);               /* [2, 3, 4] */
    CHECK(wai_ml_matmul(b, x234, big, NULL, &y) == WAI_ok);    /* [5, 2, 3, 2] */
    const wai_ml_operand_descriptor *dy = y ? wai_ml_operand_descriptor_of(y) : NULL;
    CHECK(dy && dy->rank == 4 && dy->shape[0] == 5 && dy->shape[1] == 2 && dy->shape[2] == 3 &&
          dy->shape[3] == 2);
    uint32_t s334[3] = {3, 3, 4};
    wai_ml_operand *x334 = constant(b, 3, s334);
    REFUSED(wai_ml_matmul(b, x334, constant(b, 3, s234), NULL, &y), WAI_TypeError); /* K 4 vs 3 */
    uint32_t s342[3] = {3, 4, 2};
    REFUSED(wai_ml_matmul(b, x234, constant(b, 3, s342), NULL, &y), WAI_TypeError); /* batch 2 vs 3 */
    /* float16 with float32 */
    wai_ml_operand_descriptor h = desc(2, s34);
    h.data_type = WAI_ML_FLOAT16;
    wai_ml_operand *hb = NULL;
    static const uint16_t hz[12];
    CHECK(wai_ml_constant(b, &h, hz, sizeof hz, &hb) == WAI_ok);
    REFUSED(wai_ml_matmul(b, a, hb, NULL, &y), WAI_TypeError);
    REFUSED(wai_ml_gemm(b, a, hb, NULL, &y), WAI_TypeError);
    CHECK(wai_ml_gemm(NULL, a, b34, NULL, &y) == WAI_invalid_argument);
    CHECK(wai_ml_matmul(b, a, NULL, NULL, &y) == WAI_invalid_argument);
    wai_ml_graph_builder_destroy(b);
}

static void test_all(void) {
    if (!CHECK(wai_context_create(NULL, &g_ctx) == WAI_ok)) return;
    if (CHECK(wai_ml_create_context(g_ctx, NULL, &g_ml) == WAI_ok)) {
        test_contexts();
        test_inputs_and_constants();
        test_conv2d();
        test_conv_transpose2d();
        test_elementwise_and_movement();
        test_matrix_products();
        test_dispatch();
        test_float16();
        test_descriptions();
        test_description_sizes();
        wai_ml_context_destroy(g_ml);
    }
    wai_context_destroy(g_ctx);
}

void suite_webnn_validation(void) { harness_run("webnn_validation", test_all); }
