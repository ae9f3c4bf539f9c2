/* SPDX-License-Identifier: BSD-2-Clause */
/* MLContext and MLTensor (webnn.md §8.3; include/wai/wai_webnn.h). */
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

void wai_ml_context_options_default(wai_ml_context_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->power_preference = WAI_ML_POWER_DEFAULT;
    o->accelerated = 1;
    o->device_type = WAI_ML_DEVICE_CPU;
    o->kernels = WAI_ML_KERNELS_BEST;
}

wai_status wai_ml_create_context(wai_context *ctx, const wai_ml_context_options *options,
                                 wai_ml_context **out) {
    if (!ctx || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_context_options def;
    if (!options) {
        wai_ml_context_options_default(&def);
        options = &def;
    }
    for (size_t i = 0; i < sizeof options->reserved; i++)
        if (options->reserved[i]) return WAI_invalid_argument;
    if ((unsigned)options->power_preference > WAI_ML_POWER_LOW_POWER ||
        (unsigned)options->kernels > WAI_ML_KERNELS_REFERENCE)
        return WAI_TypeError;
    /* This build computes on the CPU alone. */
    if (options->device_type != WAI_ML_DEVICE_CPU) return WAI_NotSupportedError;
    const wai_allocator *a = wai_context_allocator(ctx);
    wai_ml_context *c = wai_alloc_zeroed(a, 1, sizeof *c);
    if (!c) return WAI_out_of_memory;
    c->ctx = ctx;
    c->alloc = a;
    c->exec.alloc = a;
    c->exec.ctx = ctx;
    c->kernels = options->kernels;
    wai_ml_kernel_table_init(&c->table, options->kernels);
    *out = c;
    return WAI_ok;
}

void wai_ml_kernel_table_init(wai_ml_kernel_table *t, wai_ml_kernels kernels) {
    memset(t, 0, sizeof *t);
    if (kernels != WAI_ML_KERNELS_BEST) return; /* the reference, every operator */
    if (wai_ml_dnnl_available()) {
        t->conv2d = wai_ml_dnnl_conv2d;
        t->conv_transpose2d = wai_ml_dnnl_conv_transpose2d;
    }
    t->binary = wai_ml_fast_binary;
    t->unary = wai_ml_fast_unary;
}

void wai_ml_graph_free(wai_ml_graph *g);

void wai_ml_context_destroy(wai_ml_context *c) {
    if (!c) return;
    /* MLContext.lost resolves when the context is destroyed (webnn.md
     * §8.3); its graphs and tensors are still there for the callback. */
    if (c->on_lost) c->on_lost(c->on_lost_user, "the context was destroyed");
    while (c->graphs) wai_ml_graph_free(c->graphs);
    wai_ml_dnnl_context_free(c);
    while (c->tensors) {
        wai_ml_tensor *t = c->tensors;
        c->tensors = t->next;
        wai_free(c->alloc, t->data);
        wai_free(c->alloc, t);
    }
    wai_free(c->alloc, c);
}

wai_status wai_ml_context_on_lost(wai_ml_context *c, wai_ml_lost_fn fn, void *user) {
    if (!c) return WAI_invalid_argument;
    c->on_lost = fn;
    c->on_lost_user = user;
    return WAI_ok;
}

int wai_ml_context_accelerated(const wai_ml_context *c) {
    (void)c;
    return 0;
}


/* ---- tensors -------------------------------------------------------------- */

static wai_status new_tensor(wai_ml_context *c, const wai_ml_tensor_descriptor *d, int constant,
                             wai_ml_tensor **out) {
    *out = NULL;
    if (!wai_ml_dimensions_ok(&d->desc))
        return wai_ml_fail(c, WAI_TypeError, "createTensor: the descriptor's shape or type is "
                                             "not valid");
    size_t bytes = (size_t)wai_ml_elements(&d->desc) * wai_ml_data_type_size(d->desc.data_type);
    wai_ml_tensor *t = wai_alloc_zeroed(c->alloc, 1, sizeof *t);
    uint8_t *data = t ? wai_alloc_zeroed(c->alloc, bytes, 1) : NULL;
    if (!data) {
        wai_free(c->alloc, t);
        return wai_ml_fail(c, WAI_UnknownError, "createTensor: no memory for %zu bytes", bytes);
    }
    t->context = c;
    t->desc = *d;
    t->constant = constant;
    t->data = data;
    t->bytes = bytes;
    t->next = c->tensors;
    c->tensors = t;
    *out = t;
    return WAI_ok;
}

wai_status wai_ml_create_tensor(wai_ml_context *c, const wai_ml_tensor_descriptor *d,
                                wai_ml_tensor **out) {
    if (!c || !d || !out) return WAI_invalid_argument;
    return new_tensor(c, d, 0, out);
}

wai_status wai_ml_create_constant_tensor(wai_ml_context *c, const wai_ml_operand_descriptor *d,
                                         const void *data, size_t len, wai_ml_tensor **out) {
    if (!c || !d || !out || (!data && len)) return WAI_invalid_argument;
    wai_ml_tensor_descriptor td = {*d, 0, 0};
    wai_status st = new_tensor(c, &td, 1, out);
    if (st != WAI_ok) return st;
    if (len != (*out)->bytes) {
        size_t want = (*out)->bytes;
        wai_ml_tensor_destroy(*out);
        *out = NULL;
        return wai_ml_fail(c, WAI_TypeError, "createConstantTensor: %zu bytes for a "
                                             "descriptor of %zu", len, want);
    }
    memcpy((*out)->data, data, len);
    return WAI_ok;
}

/* The checks readTensor and writeTensor share. */
static wai_status usable(wai_ml_context *c, const wai_ml_tensor *t, size_t len, int write,
                         const char *what) {
    if (t->context != c) return wai_ml_fail(c, WAI_TypeError, "%s: the tensor is another "
                                                             "context's", what);
    if (t->destroyed) return wai_ml_fail(c, WAI_TypeError, "%s: the tensor was destroyed", what);
    if (write ? !t->desc.writable : !t->desc.readable)
        return wai_ml_fail(c, WAI_TypeError, "%s: the tensor is not %s", what,
                           write ? "writable" : "readable");
    if (len != t->bytes)
        return wai_ml_fail(c, WAI_TypeError, "%s: %zu bytes for a tensor of %zu", what, len,
                           t->bytes);
    return WAI_ok;
}

wai_status wai_ml_write_tensor(wai_ml_context *c, wai_ml_tensor *t, const void *data,
                               size_t len) {
    if (!c || !t || (!data && len)) return WAI_invalid_argument;
    wai_status st = usable(c, t, len, 1, "writeTensor");
    if (st == WAI_ok && len) memcpy(t->data, data, len);
    return st;
}

wai_status wai_ml_read_tensor(wai_ml_context *c, const wai_ml_tensor *t, void *out,
                              size_t len) {
    if (!c || !t || (!out && len)) return WAI_invalid_argument;
    wai_status st = usable(c, t, len, 0, "readTensor");
    if (st == WAI_ok && len) memcpy(out, t->data, len);
    return st;
}

const wai_ml_operand_descriptor *wai_ml_tensor_descriptor_of(const wai_ml_tensor *t) {
    return t ? &t->desc.desc : NULL;
}

/* The bytes go now; the handle stays valid (and refused as destroyed)
 * until its context is destroyed, as the spec's [[isDestroyed]] needs. */
void wai_ml_tensor_destroy(wai_ml_tensor *t) {
    if (!t || t->destroyed) return;
    t->destroyed = 1;
    wai_free(t->context->alloc, t->data);
    t->data = NULL;
}
