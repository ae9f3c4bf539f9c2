/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: MLGraphBuilder driven by the input, one method call after
 * another with operands taken from those made so far and options read
 * from the bytes (any length, any value, an operand of another builder,
 * after build).
 *
 * Invariants: every call is ok or a WebNN status (out_of_memory past the
 * heap's ceiling; invalid_argument only for a NULL operand or an
 * operation selector past its enum), never a crash; an ok call's operand has a valid
 * descriptor; a refused call adds no operand; build takes the last operand
 * (and a second when there is one), and a built graph, when small,
 * computes on both kernel sets, the same graph built twice over the same
 * calls. Nothing is left on the heap. */
#include <stdio.h>
#include <string.h>

#include "webnn_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPERANDS 64
#define LIST 10 /* the longest list read: past a rank's 8, to be refused */

typedef struct bytes {
    const uint8_t *p;
    size_t n;
} bytes;

static uint32_t take(bytes *b) {
    if (!b->n) return 0;
    b->n--;
    return *b->p++;
}

/* A list of small values: its length (0: not given) and entries. */
static const uint32_t *list(bytes *b, uint32_t *v, size_t *n, uint32_t most) {
    uint32_t len = take(b) % (LIST + 2);
    if (len == 0) {
        *n = 0;
        return NULL;
    }
    *n = len - 1;
    for (size_t i = 0; i < *n; i++) v[i] = take(b) % most;
    return v;
}

typedef struct state {
    wai_ml_graph_builder *b, *other;
    wai_ml_operand *ops[MAX_OPERANDS];
    size_t n;
    int caller_error; /* a NULL operand or an operation selector out of its enum:
                       * invalid_argument may follow */
    char name[8];
} state;

static const wai_ml_operand *pick(state *s, bytes *in) {
    uint32_t k = take(in);
    if (k == 255 || !s->n) {
        s->caller_error = 1;
        return NULL;
    }
    if (k == 254 && s->other) {
        /* An operand of another builder: TypeError. */
        wai_ml_operand_descriptor d = {WAI_ML_FLOAT32, 1, {2}};
        wai_ml_operand *o = NULL;
        if (wai_ml_input(s->other, "x", &d, &o) != WAI_ok) s->caller_error = 1; /* made once */
        return o;
    }
    return s->ops[k % s->n];
}

/* Which of n operations (binary, unary, reduce): C's selector of what
 * JavaScript names as methods, so one past the last is the caller's error. */
static uint32_t selector(state *s, bytes *in, uint32_t n) {
    uint32_t k = take(in) % (n + 1);
    if (k == n) s->caller_error = 1;
    return k;
}

static void descriptor(bytes *in, wai_ml_operand_descriptor *d) {
    memset(d, 0, sizeof *d);
    uint32_t t = take(in);
    d->data_type = t < 200   ? WAI_ML_FLOAT32
                   : t < 240 ? WAI_ML_FLOAT16
                             : (wai_ml_operand_data_type)(t % 8);
    d->rank = take(in) % 6;
    for (uint32_t i = 0; i < d->rank; i++) d->shape[i] = take(in) % 5; /* 0 is refused */
}

static wai_status one_call(state *s, bytes *in, wai_ml_operand **out) {
    uint32_t v1[LIST + 2], v2[LIST + 2], v3[LIST + 2], v4[LIST + 2];
    size_t n1, n2;
    const uint32_t *l1, *l2;
    const wai_ml_operand *a, *bb;
    wai_ml_operand_descriptor d;
    switch (take(in) % 15) {
    case 0:
        descriptor(in, &d);
        snprintf(s->name, sizeof s->name, "i%u", take(in) % 8);
        return wai_ml_input(s->b, s->name, &d, out);
    case 1: {
        descriptor(in, &d);
        uint8_t buf[4096];
        size_t len = 1;
        for (uint32_t i = 0; i < d.rank; i++) len *= d.shape[i] ? d.shape[i] : 1;
        len *= wai_ml_data_type_size(d.data_type) ? wai_ml_data_type_size(d.data_type) : 1;
        if (len > sizeof buf) len = sizeof buf;
        for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)(i * 29 + 3);
        if (take(in) == 7) len--; /* the wrong length */
        return wai_ml_constant(s->b, &d, buf, len, out);
    }
    case 2: {
        wai_ml_conv2d_options o;
        wai_ml_conv2d_options_default(&o);
        a = pick(s, in), bb = pick(s, in);
        o.padding = list(in, v1, &o.padding_size, 4);
        o.strides = list(in, v2, &o.strides_size, 4);
        o.dilations = list(in, v3, &o.dilations_size, 3);
        o.groups = take(in) % 4;
        o.input_layout = (wai_ml_input_operand_layout)(take(in) % 3);
        o.filter_layout = (wai_ml_conv2d_filter_operand_layout)(take(in) % 5);
        if (take(in) & 1) o.bias = pick(s, in);
        return wai_ml_conv2d(s->b, a, bb, &o, out);
    }
    case 3: {
        wai_ml_conv_transpose2d_options o;
        wai_ml_conv_transpose2d_options_default(&o);
        a = pick(s, in), bb = pick(s, in);
        o.padding = list(in, v1, &o.padding_size, 4);
        o.strides = list(in, v2, &o.strides_size, 4);
        o.dilations = list(in, v3, &o.dilations_size, 3);
        o.output_padding = list(in, v4, &o.output_padding_size, 4);
        uint32_t sizes[LIST + 2];
        if (take(in) & 1) o.output_sizes = list(in, sizes, &o.output_sizes_size, 20);
        o.groups = take(in) % 4;
        o.input_layout = (wai_ml_input_operand_layout)(take(in) % 3);
        o.filter_layout = (wai_ml_conv_transpose2d_filter_operand_layout)(take(in) % 4);
        if (take(in) & 1) o.bias = pick(s, in);
        return wai_ml_conv_transpose2d(s->b, a, bb, &o, out);
    }
    case 4:
        a = pick(s, in), bb = pick(s, in);
        return wai_ml_binary(s->b, (wai_ml_binary_op)selector(s, in, 7), a, bb, NULL, out);
    case 5:
        a = pick(s, in);
        return wai_ml_unary(s->b, (wai_ml_unary_op)selector(s, in, 18), a, NULL, out);
    case 6: {
        wai_ml_leaky_relu_options o;
        wai_ml_leaky_relu_options_default(&o);
        o.alpha = ((double)take(in) - 128) / 16;
        return wai_ml_leaky_relu(s->b, pick(s, in), &o, out);
    }
    case 7: {
        wai_ml_clamp_options o;
        wai_ml_clamp_options_default(&o);
        uint32_t k = take(in);
        o.has_min_value = k & 1, o.has_max_value = (k >> 1) & 1;
        o.min_value = ((double)take(in) - 128) / 8;
        o.max_value = ((double)take(in) - 128) / 8;
        return wai_ml_clamp(s->b, pick(s, in), &o, out);
    }
    case 8: {
        const wai_ml_operand *v[4];
        size_t n = take(in) % 5;
        for (size_t i = 0; i < n; i++) v[i] = pick(s, in);
        return wai_ml_concat(s->b, n ? v : NULL, n, take(in) % 6, NULL, out);
    }
    case 9:
        a = pick(s, in);
        l1 = list(in, v1, &n1, 9);
        return wai_ml_reshape(s->b, a, l1, n1, NULL, out);
    case 10: {
        wai_ml_slice_options o = {NULL, 0, NULL};
        a = pick(s, in);
        l1 = list(in, v1, &n1, 5);
        l2 = list(in, v2, &n2, 5);
        o.strides = list(in, v3, &o.strides_size, 4);
        return wai_ml_slice(s->b, a, l1, n1, l2, n2, &o, out);
    }
    case 11: {
        wai_ml_transpose_options o = {NULL, 0, NULL};
        a = pick(s, in);
        o.permutation = list(in, v1, &o.permutation_size, 7);
        return wai_ml_transpose(s->b, a, &o, out);
    }
    case 12: {
        wai_ml_pad_options o;
        wai_ml_pad_options_default(&o);
        a = pick(s, in);
        l1 = list(in, v1, &n1, 4);
        l2 = list(in, v2, &n2, 4);
        o.mode = (wai_ml_padding_mode)(take(in) % 4);
        o.value = ((double)take(in) - 128) / 4;
        return wai_ml_pad(s->b, a, l1, n1, l2, n2, &o, out);
    }
    case 13: {
        wai_ml_reduce_options o = {NULL, 0, 0, NULL};
        a = pick(s, in);
        o.axes = list(in, v1, &o.axes_size, 7);
        o.keep_dimensions = take(in) & 1;
        return wai_ml_reduce(s->b, (wai_ml_reduce_op)selector(s, in, 10), a, &o, out);
    }
    default:
        /* A scalar constant of any type. */
        return wai_ml_constant_scalar(s->b, (wai_ml_operand_data_type)(take(in) % 9),
                                      ((double)take(in) - 128) / 4, out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_heap *heap;
    wai_context *ctx = fuzz_heap_held_context((size_t)128 << 20, &heap);
    const size_t held = heap->live;
    wai_ml_context_options co;
    wai_ml_context *c[2];
    for (int k = 0; k < 2; k++) {
        wai_ml_context_options_default(&co);
        co.kernels = k ? WAI_ML_KERNELS_REFERENCE : WAI_ML_KERNELS_BEST;
        if (wai_ml_create_context(ctx, &co, &c[k]) != WAI_ok) __builtin_trap();
    }
    /* The same calls on both contexts: the same answers. */
    wai_ml_graph *g[2] = {NULL, NULL};
    wai_status built[2] = {WAI_ok, WAI_ok};
    int oom = 0;
    for (int k = 0; k < 2; k++) {
        state s;
        memset(&s, 0, sizeof s);
        if (wai_ml_graph_builder_create(c[k], &s.b) != WAI_ok ||
            wai_ml_graph_builder_create(c[k], &s.other) != WAI_ok)
            __builtin_trap();
        bytes in = {data, size};
        while (in.n && s.n < MAX_OPERANDS) {
            wai_ml_operand *o = NULL;
            s.caller_error = 0;
            wai_status st = one_call(&s, &in, &o);
            /* A NULL where the API takes an operand, or an operation
             * selector past its enum, is the caller's error
             * (invalid_argument, docs/webnn.md "Errors"), not WebNN's. */
            if (st != WAI_invalid_argument || !s.caller_error) fuzz_expect_webnn(st);
            oom |= st == WAI_out_of_memory;
            if ((st == WAI_ok) != (o != NULL)) __builtin_trap();
            if (o) {
                fuzz_expect_descriptor(wai_ml_operand_descriptor_of(o));
                s.ops[s.n++] = o;
            }
        }
        if (s.n) {
            wai_ml_named_operand outs[2] = {{"y", s.ops[s.n - 1]}, {"z", s.ops[s.n / 2]}};
            size_t n_outs = s.n > 1 && s.ops[s.n / 2] != s.ops[s.n - 1] ? 2 : 1;
            wai_status st = built[k] = wai_ml_build(s.b, outs, n_outs, &g[k]);
            fuzz_expect_webnn(st);
            oom |= st == WAI_out_of_memory;
            if ((st == WAI_ok) != (g[k] != NULL)) __builtin_trap();
            /* A builder builds once. */
            wai_ml_graph *again = NULL;
            if (st == WAI_ok &&
                (wai_ml_build(s.b, outs, n_outs, &again) != WAI_InvalidStateError || again))
                __builtin_trap();
            wai_ml_operand *late = NULL;
            if (st == WAI_ok &&
                (wai_ml_unary(s.b, WAI_ML_RELU, s.ops[0], NULL, &late) != WAI_InvalidStateError ||
                 late))
                __builtin_trap();
        }
        wai_ml_graph_builder_destroy(s.b);
        wai_ml_graph_builder_destroy(s.other);
    }
    /* Validation does not depend on the kernels: the same calls build the
     * same way on both, unless memory ran out somewhere. */
    if (built[0] != built[1] && !oom) __builtin_trap();
    for (int k = 0; k < 2; k++)
        if (g[k]) fuzz_run_small(c[k], g[k], (uint32_t)size);
    for (int k = 0; k < 2; k++) wai_ml_context_destroy(c[k]);
    if (heap->live != held) __builtin_trap(); /* everything given back */
    return 0;
}
