/* SPDX-License-Identifier: BSD-2-Clause */
/* build() and MLGraph, and MLContext.dispatch() (webnn.md §7.1, §8.3.1). */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "webnn/builder.h"

void wai_ml_graph_free(wai_ml_graph *g);

static int by_name(const void *a, const void *b) {
    return strcmp(((const wai_ml_io *)a)->name, ((const wai_ml_io *)b)->name);
}

static char *copy_str(const wai_allocator *a, const char *s) {
    size_t n = strlen(s);
    char *c = wai_alloc(a, n + 1);
    if (c) memcpy(c, s, n + 1);
    return c;
}

/* The graph of the operators the outputs reach: their operands'
 * descriptors, the constants they read, the inputs, and each operand's
 * last reader. */
static wai_status make_graph(wai_ml_graph_builder *b, const wai_ml_named_operand *outputs,
                             size_t n_outputs, wai_ml_graph *g) {
    const wai_allocator *a = b->context->alloc;
    const uint32_t n = b->n_operands;
    uint8_t *need = wai_alloc_zeroed(a, n ? n : 1, 1);
    g->n_operands = n;
    g->descs = wai_alloc_array(a, n ? n : 1, sizeof *g->descs);
    g->constants = wai_alloc_zeroed(a, n ? n : 1, sizeof *g->constants);
    g->last_use = wai_alloc_array(a, n ? n : 1, sizeof *g->last_use);
    g->outputs = wai_alloc_zeroed(a, n_outputs, sizeof *g->outputs);
    if (!need || !g->descs || !g->constants || !g->last_use || !g->outputs) {
        wai_free(a, need);
        return WAI_out_of_memory;
    }
    /* Reachability, walking operators backwards (inputs precede). */
    for (size_t i = 0; i < n_outputs; i++) need[outputs[i].operand->id] = 1;
    uint32_t n_ops = 0;
    for (uint32_t k = b->n_ops; k-- > 0;) {
        const wai_ml_op *op = &b->ops[k];
        if (!need[op->output]) continue;
        n_ops++;
        for (uint32_t j = 0; j < op->n_inputs; j++) need[op->inputs[j]] = 1;
    }
    g->ops = wai_alloc_zeroed(a, n_ops ? n_ops : 1, sizeof *g->ops);
    if (!g->ops) {
        wai_free(a, need);
        return WAI_out_of_memory;
    }
    for (uint32_t k = 0; k < b->n_ops; k++) {
        const wai_ml_op *op = &b->ops[k];
        if (!need[op->output]) continue;
        wai_ml_op *d = &g->ops[g->n_ops];
        *d = *op;
        d->backend = NULL;
        d->inputs = wai_alloc_array(a, op->n_inputs ? op->n_inputs : 1, sizeof *d->inputs);
        if (!d->inputs) break;
        memcpy(d->inputs, op->inputs, (size_t)op->n_inputs * sizeof *d->inputs);
        g->n_ops++;
    }
    wai_status st = g->n_ops == n_ops ? WAI_ok : WAI_out_of_memory;
    uint32_t n_in = 0;
    for (uint32_t i = 0; st == WAI_ok && i < n; i++) {
        const wai_ml_operand *o = b->operands[i];
        g->descs[i] = o->desc;
        g->last_use[i] = UINT32_MAX;
        if (need[i] && o->kind == WAI_ML_INPUT) n_in++;
        /* Borrowed until the build succeeds, then the graph's (build). */
        if (need[i] && o->kind == WAI_ML_CONSTANT) g->constants[i] = o->values;
    }
    for (uint32_t k = 0; st == WAI_ok && k < g->n_ops; k++)
        for (uint32_t j = 0; j < g->ops[k].n_inputs; j++) g->last_use[g->ops[k].inputs[j]] = k;
    if (st == WAI_ok && !(g->inputs = wai_alloc_zeroed(a, n_in ? n_in : 1, sizeof *g->inputs)))
        st = WAI_out_of_memory;
    for (uint32_t i = 0; st == WAI_ok && i < n; i++)
        if (need[i] && b->operands[i]->kind == WAI_ML_INPUT) {
            wai_ml_io *io = &g->inputs[g->n_inputs];
            if (!(io->name = copy_str(a, b->operands[i]->name))) st = WAI_out_of_memory;
            else io->operand = i, g->n_inputs++;
        }
    for (size_t i = 0; st == WAI_ok && i < n_outputs; i++) {
        wai_ml_io *io = &g->outputs[g->n_outputs];
        if (!(io->name = copy_str(a, outputs[i].name))) st = WAI_out_of_memory;
        else io->operand = outputs[i].operand->id, g->n_outputs++;
    }
    wai_free(a, need);
    if (st == WAI_ok) {
        qsort(g->inputs, g->n_inputs, sizeof *g->inputs, by_name);
        qsort(g->outputs, g->n_outputs, sizeof *g->outputs, by_name);
    }
    return st;
}

wai_status wai_ml_build(wai_ml_graph_builder *b, const wai_ml_named_operand *outputs,
                        size_t n_outputs, wai_ml_graph **out) {
    if (!b || !out || (!outputs && n_outputs)) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_context *c = b->context;
    wai_status st = wai_ml_builder_check(b, "build", NULL, 0);
    if (st != WAI_ok) return st;
    if (n_outputs == 0) return wai_ml_fail(c, WAI_TypeError, "build: no outputs");
    for (size_t i = 0; i < n_outputs; i++) {
        const wai_ml_operand *o = outputs[i].operand;
        if (!outputs[i].name || !outputs[i].name[0])
            return wai_ml_fail(c, WAI_TypeError, "build: output %zu has an empty name", i);
        if (!o || o->builder != b)
            return wai_ml_fail(c, WAI_TypeError, "build: output '%.60s' is another builder's",
                               outputs[i].name);
        if (o->kind != WAI_ML_COMPUTED)
            return wai_ml_fail(c, WAI_TypeError, "build: output '%.60s' is an input or a "
                                                 "constant", outputs[i].name);
        /* A record's keys are distinct. */
        for (size_t j = 0; j < i; j++)
            if (strcmp(outputs[j].name, outputs[i].name) == 0)
                return wai_ml_fail(c, WAI_TypeError, "build: output '%.60s' is named twice",
                                   outputs[i].name);
    }
    wai_ml_graph *g = wai_alloc_zeroed(c->alloc, 1, sizeof *g);
    if (!g) return wai_ml_fail(c, WAI_out_of_memory, "out of memory");
    g->context = c;
    g->limit = UINT64_MAX;
    g->next = c->graphs;
    c->graphs = g;
    if ((st = make_graph(b, outputs, n_outputs, g)) != WAI_ok ||
        (st = wai_ml_plan(g) ? WAI_ok : WAI_out_of_memory) != WAI_ok) {
        /* The constants stay the builder's: it may build again. */
        for (uint32_t i = 0; g->constants && i < g->n_operands; i++) g->constants[i] = NULL;
        wai_ml_graph_free(g);
        return wai_ml_fail(c, st, "build: out of memory");
    }
    /* A builder builds once: its constants' values move to the graph
     * rather than being copied, so a graph's constants are held once. */
    for (uint32_t i = 0; i < g->n_operands; i++)
        if (g->constants[i]) b->operands[i]->values = NULL;
    b->built = 1;
    *out = g;
    return WAI_ok;
}

static void release(wai_ml_graph *g) {
    const wai_allocator *a = g->context->alloc;
    for (uint32_t i = 0; g->constants && i < g->n_operands; i++) wai_free(a, g->constants[i]);
    for (uint32_t k = 0; g->ops && k < g->n_ops; k++) {
        wai_free(a, g->ops[k].inputs);
        wai_ml_dnnl_op_free(a, g->ops[k].backend);
    }
    for (uint32_t i = 0; g->inputs && i < g->n_inputs; i++) wai_free(a, g->inputs[i].name);
    for (uint32_t i = 0; g->outputs && i < g->n_outputs; i++) wai_free(a, g->outputs[i].name);
    wai_free(a, g->constants), wai_free(a, g->ops), wai_free(a, g->inputs);
    wai_free(a, g->outputs), wai_free(a, g->descs), wai_free(a, g->last_use);
    wai_free(a, g->blocked), wai_free(a, g->offset), wai_free(a, g->arena);
    wai_free(a, g->scratch.alloc);
    wai_ml_context *c = g->context;
    wai_ml_graph *next = g->next;
    memset(g, 0, sizeof *g);
    g->context = c;
    g->next = next;
    g->destroyed = 1;
}

/* Unlinks g from its context and frees it (context destruction, or a build
 * that failed). */
void wai_ml_graph_free(wai_ml_graph *g) {
    wai_ml_context *c = g->context;
    release(g);
    for (wai_ml_graph **p = &c->graphs; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    wai_free(c->alloc, g);
}

/* The memory goes now; the handle stays until its context goes. */
void wai_ml_graph_destroy(wai_ml_graph *g) {
    if (g && !g->destroyed) release(g);
}

size_t wai_ml_graph_input_count(const wai_ml_graph *g) { return g ? g->n_inputs : 0; }
size_t wai_ml_graph_output_count(const wai_ml_graph *g) { return g ? g->n_outputs : 0; }
size_t wai_ml_graph_operator_count(const wai_ml_graph *g) { return g ? g->n_ops : 0; }

static const char *io_at(const wai_ml_graph *g, const wai_ml_io *io, uint32_t n, size_t i,
                         const wai_ml_operand_descriptor **d) {
    if (!g || i >= n) return NULL;
    if (d) *d = &g->descs[io[i].operand];
    return io[i].name;
}

const char *wai_ml_graph_input_at(const wai_ml_graph *g, size_t i,
                                  const wai_ml_operand_descriptor **d) {
    return g ? io_at(g, g->inputs, g->n_inputs, i, d) : NULL;
}

const char *wai_ml_graph_output_at(const wai_ml_graph *g, size_t i,
                                   const wai_ml_operand_descriptor **d) {
    return g ? io_at(g, g->outputs, g->n_outputs, i, d) : NULL;
}

/* ---- dispatch ------------------------------------------------------------------- */

/* "validating tensors with descriptors": the names are exactly the graph's,
 * each tensor of its descriptor; order[i] is the tensor for io[i]. */
static wai_status match(wai_ml_context *c, const char *what, const wai_ml_io *io, uint32_t n,
                        const wai_ml_graph *g, const wai_ml_named_tensor *t, size_t nt,
                        wai_ml_tensor **order) {
    if (nt != n) return wai_ml_fail(c, WAI_TypeError, "dispatch: %zu %s for a graph of %u",
                                    nt, what, n);
    for (uint32_t i = 0; i < n; i++) order[i] = NULL;
    for (size_t k = 0; k < nt; k++) {
        uint32_t i = 0;
        while (i < n && (!t[k].name || strcmp(t[k].name, io[i].name) != 0)) i++;
        if (i == n || order[i])
            return wai_ml_fail(c, WAI_TypeError, "dispatch: %s '%.60s' is not the graph's, or "
                                                 "named twice", what, t[k].name ? t[k].name : "");
        if (!t[k].tensor || !wai_ml_descriptor_equal(&t[k].tensor->desc.desc, &g->descs[io[i].operand]))
            return wai_ml_fail(c, WAI_TypeError, "dispatch: %s '%.60s' has another descriptor",
                               what, io[i].name);
        order[i] = t[k].tensor;
    }
    return WAI_ok;
}

wai_status wai_ml_dispatch(wai_ml_context *c, wai_ml_graph *g, const wai_ml_named_tensor *inputs,
                           size_t n_inputs, const wai_ml_named_tensor *outputs,
                           size_t n_outputs) {
    if (!c || !g || (!inputs && n_inputs) || (!outputs && n_outputs)) return WAI_invalid_argument;
    if (g->context != c) return wai_ml_fail(c, WAI_TypeError, "dispatch: the graph is another "
                                                              "context's");
    if (g->destroyed)
        return wai_ml_fail(c, WAI_InvalidStateError, "dispatch: the graph was destroyed");
    /* Every tensor once, this context's, not destroyed. */
    for (size_t i = 0; i < n_inputs + n_outputs; i++) {
        const wai_ml_tensor *t = i < n_inputs ? inputs[i].tensor : outputs[i - n_inputs].tensor;
        if (!t) return wai_ml_fail(c, WAI_TypeError, "dispatch: a tensor is missing");
        for (size_t j = 0; j < i; j++)
            if ((j < n_inputs ? inputs[j].tensor : outputs[j - n_inputs].tensor) == t)
                return wai_ml_fail(c, WAI_TypeError, "dispatch: one tensor is given twice");
        if (t->context != c || t->destroyed)
            return wai_ml_fail(c, WAI_TypeError, "dispatch: a tensor is another context's or "
                                                 "destroyed");
    }
    /* float16 tensors run through float32 copies: the run's, counted. */
    uint64_t copies = 0;
    for (uint32_t i = 0; i < g->n_inputs + g->n_outputs; i++) {
        const wai_ml_io *io = i < g->n_inputs ? &g->inputs[i] : &g->outputs[i - g->n_inputs];
        const wai_ml_operand_descriptor *d = &g->descs[io->operand];
        if (d->data_type != WAI_ML_FLOAT32)
            copies = wai_sat_add(copies, wai_sat_mul(4, wai_ml_elements(d) + 1));
    }
    if (!wai_ml_graph_take(g, copies))
        return wai_ml_fail(c, WAI_cost_over_limit, "dispatch: past the graph's memory limit");
    const wai_allocator *a = c->alloc;
    wai_ml_tensor **in = wai_alloc_zeroed(a, g->n_inputs + 1, sizeof *in);
    wai_ml_tensor **out = wai_alloc_zeroed(a, g->n_outputs + 1, sizeof *out);
    const float **in_f = wai_alloc_zeroed(a, g->n_inputs + 1, sizeof *in_f);
    float **out_f = wai_alloc_zeroed(a, g->n_outputs + 1, sizeof *out_f);
    wai_status st = in && out && in_f && out_f ? WAI_ok : WAI_out_of_memory;
    if (st == WAI_ok) st = match(c, "inputs", g->inputs, g->n_inputs, g, inputs, n_inputs, in);
    if (st == WAI_ok)
        st = match(c, "outputs", g->outputs, g->n_outputs, g, outputs, n_outputs, out);
    /* float32 tensors are read and written in place; float16 ones through
     * float32 copies. */
    for (uint32_t i = 0; st == WAI_ok && i < g->n_inputs; i++) {
        const wai_ml_tensor *t = in[i];
        if (t->desc.desc.data_type == WAI_ML_FLOAT32) {
            in_f[i] = (const float *)(const void *)t->data;
            continue;
        }
        size_t e = t->bytes / 2;
        float *f = wai_alloc_array(a, e ? e : 1, sizeof *f);
        if (!f) st = WAI_out_of_memory;
        for (size_t k = 0; f && k < e; k++)
            f[k] = wai_ml_f32_from_f16((uint16_t)(t->data[2 * k] | t->data[2 * k + 1] << 8));
        in_f[i] = f;
    }
    for (uint32_t i = 0; st == WAI_ok && i < g->n_outputs; i++) {
        wai_ml_tensor *t = out[i];
        if (t->desc.desc.data_type == WAI_ML_FLOAT32) out_f[i] = (float *)(void *)t->data;
        else if (!(out_f[i] = wai_alloc_array(a, t->bytes / 2 + 1, sizeof(float))))
            st = WAI_out_of_memory;
    }
    if (st == WAI_ok) st = wai_ml_graph_run(g, in_f, out_f);
    for (uint32_t i = 0; st == WAI_ok && i < g->n_outputs; i++) {
        wai_ml_tensor *t = out[i];
        if (t->desc.desc.data_type == WAI_ML_FLOAT32) continue;
        for (size_t k = 0; k < t->bytes / 2; k++) {
            uint16_t h = wai_ml_f16_from_f32(out_f[i][k]);
            t->data[2 * k] = (uint8_t)h, t->data[2 * k + 1] = (uint8_t)(h >> 8);
        }
    }
    for (uint32_t i = 0; in && in_f && i < g->n_inputs; i++)
        if (in[i] && in[i]->desc.desc.data_type != WAI_ML_FLOAT32) wai_free(a, (void *)in_f[i]);
    for (uint32_t i = 0; out && out_f && i < g->n_outputs; i++)
        if (out[i] && out[i]->desc.desc.data_type != WAI_ML_FLOAT32) wai_free(a, out_f[i]);
    wai_free(a, in), wai_free(a, out), wai_free(a, in_f), wai_free(a, out_f);
    wai_ml_graph_give(g, copies);
    if (st == WAI_out_of_memory) return wai_ml_fail(c, st, "dispatch: out of memory");
    return st;
}
