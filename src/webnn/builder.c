/* SPDX-License-Identifier: BSD-2-Clause */
/* MLGraphBuilder and MLOperand (webnn.md §7.1; the spec's MLGraphBuilder
 * interface): the records of a graph being built, its inputs and
 * constants. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "webnn/builder.h"

wai_status wai_ml_graph_builder_create(wai_ml_context *c, wai_ml_graph_builder **out) {
    if (!c || !out) return WAI_invalid_argument;
    *out = wai_alloc_zeroed(c->alloc, 1, sizeof **out);
    if (!*out) return WAI_out_of_memory;
    (*out)->context = c;
    return WAI_ok;
}

void wai_ml_graph_builder_destroy(wai_ml_graph_builder *b) {
    if (!b) return;
    const wai_allocator *a = b->context->alloc;
    for (uint32_t i = 0; i < b->n_operands; i++) {
        wai_free(a, b->operands[i]->name);
        wai_free(a, b->operands[i]->values);
        wai_free(a, b->operands[i]);
    }
    for (uint32_t i = 0; i < b->n_ops; i++) wai_free(a, b->ops[i].inputs);
    wai_free(a, b->operands);
    wai_free(a, b->ops);
    wai_free(a, b);
}

wai_ml_context *wai_ml_builder_context(const wai_ml_graph_builder *b) { return b->context; }

const wai_ml_operand_descriptor *wai_ml_operand_descriptor_of(const wai_ml_operand *o) {
    return o ? &o->desc : NULL;
}

const char *wai_ml_what(char *buf, size_t size, const char *op, const char *label) {
    if (label && label[0]) snprintf(buf, size, "%s '%.40s'", op, label);
    else snprintf(buf, size, "%s", op);
    return buf;
}

wai_status wai_ml_builder_check(wai_ml_graph_builder *b, const char *what,
                                const wai_ml_operand *const *operands, size_t n) {
    if (b->built) return wai_ml_fail(b->context, WAI_InvalidStateError, "%s: the builder has "
                                                                       "built its graph", what);
    for (size_t i = 0; i < n; i++)
        if (operands[i] && operands[i]->builder != b)
            return wai_ml_fail(b->context, WAI_TypeError, "%s: operand %zu is another "
                                                          "builder's", what, i);
    return WAI_ok;
}

/* Grows *v (of *cap items of size each) to hold one more. */
static int grow(const wai_allocator *a, void **v, uint32_t *cap, uint32_t n, size_t size) {
    if (n < *cap) return 1;
    uint32_t c = *cap ? *cap * 2 : 16;
    void *nv = wai_alloc_array(a, c, size);
    if (!nv) return 0;
    if (n) memcpy(nv, *v, (size_t)n * size);
    wai_free(a, *v);
    *v = nv;
    *cap = c;
    return 1;
}

/* A new operand of desc, or NULL (out of memory). */
static wai_ml_operand *new_operand(wai_ml_graph_builder *b, const wai_ml_operand_descriptor *d,
                                   wai_ml_operand_kind kind) {
    const wai_allocator *a = b->context->alloc;
    if (b->n_operands == UINT32_MAX - 1 ||
        !grow(a, (void **)&b->operands, &b->cap_operands, b->n_operands, sizeof *b->operands))
        return NULL;
    wai_ml_operand *o = wai_alloc_zeroed(a, 1, sizeof *o);
    if (!o) return NULL;
    o->builder = b;
    o->id = b->n_operands;
    o->desc = *d;
    o->kind = kind;
    b->operands[b->n_operands++] = o;
    return o;
}

wai_status wai_ml_builder_add(wai_ml_graph_builder *b, const wai_ml_op *op,
                              const wai_ml_operand *const *inputs, uint32_t n_inputs,
                              const wai_ml_operand_descriptor *desc, wai_ml_operand **out) {
    const wai_allocator *a = b->context->alloc;
    *out = NULL;
    uint32_t *ids = wai_alloc_array(a, n_inputs ? n_inputs : 1, sizeof *ids);
    if (!ids || !grow(a, (void **)&b->ops, &b->cap_ops, b->n_ops, sizeof *b->ops)) {
        wai_free(a, ids);
        return wai_ml_fail(b->context, WAI_out_of_memory, "out of memory");
    }
    wai_ml_operand *o = new_operand(b, desc, WAI_ML_COMPUTED);
    if (!o) {
        wai_free(a, ids);
        return wai_ml_fail(b->context, WAI_out_of_memory, "out of memory");
    }
    for (uint32_t i = 0; i < n_inputs; i++) ids[i] = inputs[i]->id;
    wai_ml_op *r = &b->ops[b->n_ops];
    *r = *op;
    r->inputs = ids;
    r->n_inputs = n_inputs;
    r->output = o->id;
    o->producer = b->n_ops++;
    *out = o;
    return WAI_ok;
}

/* ---- inputs and constants ---------------------------------------------------- */

/* This build computes float32 and float16; the spec lets an
 * implementation support fewer types than it lists (opSupportLimits). */
static int type_supported(wai_ml_operand_data_type t) {
    return t == WAI_ML_FLOAT32 || t == WAI_ML_FLOAT16;
}

wai_status wai_ml_input(wai_ml_graph_builder *b, const char *name,
                        const wai_ml_operand_descriptor *d, wai_ml_operand **out) {
    if (!b || !name || !d || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_status st = wai_ml_builder_check(b, "input", NULL, 0);
    if (st != WAI_ok) return st;
    if (!name[0]) return wai_ml_fail(b->context, WAI_TypeError, "input: the name is empty");
    for (uint32_t i = 0; i < b->n_operands; i++)
        if (b->operands[i]->kind == WAI_ML_INPUT && strcmp(b->operands[i]->name, name) == 0)
            return wai_ml_fail(b->context, WAI_TypeError, "input: '%.60s' is named twice", name);
    if (!wai_ml_dimensions_ok(d))
        return wai_ml_fail(b->context, WAI_TypeError, "input '%.60s': the descriptor's shape or "
                                                      "type is not valid", name);
    if (!type_supported(d->data_type))
        return wai_ml_fail(b->context, WAI_TypeError, "input '%.60s': %s is not supported by "
                                                      "this build", name,
                           wai_ml_data_type_name(d->data_type));
    size_t n = strlen(name);
    char *copy = wai_alloc(b->context->alloc, n + 1);
    wai_ml_operand *o = copy ? new_operand(b, d, WAI_ML_INPUT) : NULL;
    if (!o) {
        wai_free(b->context->alloc, copy);
        return wai_ml_fail(b->context, WAI_out_of_memory, "out of memory");
    }
    memcpy(copy, name, n + 1);
    o->name = copy;
    *out = o;
    return WAI_ok;
}

/* A constant operand of d holding the bytes at data (their type d's). */
static wai_status add_constant(wai_ml_graph_builder *b, const char *what,
                               const wai_ml_operand_descriptor *d, const void *data, size_t len,
                               wai_ml_operand **out) {
    if (!wai_ml_dimensions_ok(d))
        return wai_ml_fail(b->context, WAI_TypeError, "%s: the descriptor's shape or type is "
                                                      "not valid", what);
    if (!type_supported(d->data_type))
        return wai_ml_fail(b->context, WAI_TypeError, "%s: %s is not supported by this build",
                           what, wai_ml_data_type_name(d->data_type));
    size_t n = (size_t)wai_ml_elements(d), es = wai_ml_data_type_size(d->data_type);
    if (len != n * es)
        return wai_ml_fail(b->context, WAI_TypeError, "%s: %zu bytes for a descriptor of %zu",
                           what, len, n * es);
    float *v = wai_alloc_array(b->context->alloc, n, sizeof *v);
    wai_ml_operand *o = v ? new_operand(b, d, WAI_ML_CONSTANT) : NULL;
    if (!o) {
        wai_free(b->context->alloc, v);
        return wai_ml_fail(b->context, WAI_out_of_memory, "out of memory");
    }
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        if (d->data_type == WAI_ML_FLOAT16) {
            uint16_t h = (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
            v[i] = wai_ml_f32_from_f16(h);
        } else {
            memcpy(&v[i], p + 4 * i, 4);
        }
    }
    o->values = v;
    *out = o;
    return WAI_ok;
}

wai_status wai_ml_constant(wai_ml_graph_builder *b, const wai_ml_operand_descriptor *d,
                           const void *data, size_t len, wai_ml_operand **out) {
    if (!b || !d || !out || (!data && len)) return WAI_invalid_argument;
    *out = NULL;
    wai_status st = wai_ml_builder_check(b, "constant", NULL, 0);
    return st == WAI_ok ? add_constant(b, "constant", d, data, len, out) : st;
}

wai_status wai_ml_constant_scalar(wai_ml_graph_builder *b, wai_ml_operand_data_type t,
                                  double value, wai_ml_operand **out) {
    if (!b || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_status st = wai_ml_builder_check(b, "constant", NULL, 0);
    if (st != WAI_ok) return st;
    wai_ml_operand_descriptor d = {t, 0, {0}};
    uint8_t bytes[4];
    if (t == WAI_ML_FLOAT16) {
        uint16_t h = wai_ml_f16_from_f32((float)value);
        bytes[0] = (uint8_t)h, bytes[1] = (uint8_t)(h >> 8);
        return add_constant(b, "constant", &d, bytes, 2, out);
    }
    float f = (float)value;
    memcpy(bytes, &f, 4);
    return add_constant(b, "constant", &d, bytes, t == WAI_ML_FLOAT32 ? 4 : 0, out);
}

wai_status wai_ml_constant_tensor(wai_ml_graph_builder *b, const wai_ml_tensor *t,
                                  wai_ml_operand **out) {
    if (!b || !t || !out) return WAI_invalid_argument;
    *out = NULL;
    if (t->context != b->context)
        return wai_ml_fail(b->context, WAI_TypeError, "constant: the tensor is another "
                                                      "context's");
    if (t->destroyed) return wai_ml_fail(b->context, WAI_TypeError, "constant: the tensor was "
                                                                    "destroyed");
    if (!t->constant)
        return wai_ml_fail(b->context, WAI_TypeError, "constant: the tensor is not a constant "
                                                      "tensor");
    wai_status st = wai_ml_builder_check(b, "constant", NULL, 0);
    return st == WAI_ok ? add_constant(b, "constant", &t->desc.desc, t->data, t->bytes, out) : st;
}

wai_status wai_ml_begin(wai_ml_graph_builder *b, const char *op, const char *label,
                        const wai_ml_operand *const *operands, size_t n, char what[64],
                        wai_ml_context **c) {
    wai_ml_what(what, 64, op, label);
    *c = wai_ml_builder_context(b);
    return wai_ml_builder_check(b, what, operands, n);
}
