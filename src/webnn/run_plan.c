/* SPDX-License-Identifier: BSD-2-Clause */
/* The run plan of a graph, made once at build: what runs fused, in which
 * layout each activation lives, and where in one arena.
 *
 * - Epilogues. Where the context computes on oneDNN, a convolution absorbs
 *   the chain of element-wise operators that alone read its value (relu,
 *   sqrt, abs, clamp; add or mul with an operand of the output's
 *   shape, sub or div by one), as oneDNN post-ops: the inverse GDN's
 *   sqrt(conv(x^2)) * x is one pass instead of three. The chain's other
 *   operands must exist before the convolution runs.
 * - Layouts. oneDNN's convolutions want channels in blocks (nChw16c with
 *   AVX-512); an activation that only convolutions and same-shape
 *   element-wise operators touch stays in that layout from producer to
 *   consumers, so no reorder runs between layers. Element-wise operators
 *   tie their operands' layouts together (union-find); anything else, a
 *   graph output or channels the block does not divide keep a group plain.
 * - Arena. Every computed value gets a place in one buffer, reused once
 *   its last reader has run (best fit over a free list): a run touches the
 *   graph's peak of live activations, not their sum, and a second run
 *   touches no new page. */
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

/* ---- epilogues ------------------------------------------------------------ */

static int is_conv(const wai_ml_op *op) {
    return op->kind == WAI_ML_OP_CONV2D || op->kind == WAI_ML_OP_CONV_TRANSPOSE2D;
}

/* Whether op, reading the chain's value v, can be a post-op: its other
 * operand (binary) is of its output's shape and ready before the
 * convolution at index conv (producer[] gives each computed operand's op). */
static int fusible(const wai_ml_graph *g, const wai_ml_op *op, uint32_t v, const uint32_t *producer,
                   uint32_t conv) {
    if (g->descs[op->output].data_type != WAI_ML_FLOAT32) return 0;
    switch (op->kind) {
    /* leakyRelu is left out: oneDNN 2.6's relu post-op with a slope gave
     * values 1e-3 off the definition in test_webnn_fast.c. */
    case WAI_ML_OP_CLAMP: return 1;
    case WAI_ML_OP_UNARY:
        return op->sub == WAI_ML_RELU || op->sub == WAI_ML_SQRT || op->sub == WAI_ML_ABS;
    case WAI_ML_OP_BINARY: {
        if (op->inputs[0] == op->inputs[1]) return 0;
        const int first = op->inputs[0] == v;
        const uint32_t other = op->inputs[first ? 1 : 0];
        if (op->sub != WAI_ML_ADD && op->sub != WAI_ML_MUL &&
            !((op->sub == WAI_ML_SUB || op->sub == WAI_ML_DIV) && first))
            return 0;
        if (!wai_ml_descriptor_equal(&g->descs[other], &g->descs[op->output])) return 0;
        return producer[other] == UINT32_MAX || producer[other] < conv;
    }
    default: return 0;
    }
}

static int is_output(const wai_ml_graph *g, uint32_t id) {
    for (uint32_t i = 0; i < g->n_outputs; i++)
        if (g->outputs[i].operand == id) return 1;
    return 0;
}

static void plan_epilogues(wai_ml_graph *g, const uint32_t *producer, const uint32_t *readers) {
    for (uint32_t k = 0; k < g->n_ops; k++) {
        wai_ml_op *op = &g->ops[k];
        if (!is_conv(op) || op->fused_away || op->a.conv.input_layout != WAI_ML_NCHW ||
            g->descs[op->output].data_type != WAI_ML_FLOAT32)
            continue;
        uint32_t v = op->output;
        while (op->n_epilogue < WAI_ML_MAX_EPILOGUE && readers[v] == 1 && !is_output(g, v)) {
            const uint32_t c = g->last_use[v];
            wai_ml_op *next = &g->ops[c];
            if (next->fused_away || !fusible(g, next, v, producer, k)) break;
            next->fused_away = 1;
            op->epilogue[op->n_epilogue++] = c;
            v = next->output;
        }
        op->result = v;
    }
}

/* ---- layouts -------------------------------------------------------------- */

static uint32_t find(uint32_t *parent, uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b) {
    a = find(parent, a), b = find(parent, b);
    if (a != b) parent[a] = b;
}

static void plan_layouts(wai_ml_graph *g, const uint32_t *producer, uint32_t *parent,
                         uint8_t *plain) {
    const uint32_t n = g->n_operands, B = g->block;
    for (uint32_t i = 0; i < n; i++) {
        const wai_ml_operand_descriptor *d = &g->descs[i];
        parent[i] = i;
        plain[i] = producer[i] == UINT32_MAX || d->rank != 4 ||
                   d->data_type != WAI_ML_FLOAT32 || d->shape[1] % B != 0 || is_output(g, i);
    }
    for (uint32_t k = 0; k < g->n_ops; k++) {
        const wai_ml_op *op = &g->ops[k];
        if (op->fused_away) continue;
        switch (op->kind) {
        case WAI_ML_OP_CONV2D:
        case WAI_ML_OP_CONV_TRANSPOSE2D:
            /* Input and result each free; the filter and bias plain; an
             * epilogue's operands in its result's layout. */
            if (op->a.conv.input_layout != WAI_ML_NCHW)
                plain[op->inputs[0]] = plain[op->result] = 1;
            for (uint32_t j = 1; j < op->n_inputs; j++) plain[op->inputs[j]] = 1;
            for (uint32_t e = 0; e < op->n_epilogue; e++) {
                const wai_ml_op *x = &g->ops[op->epilogue[e]];
                for (uint32_t j = 0; j < x->n_inputs; j++) unite(parent, x->inputs[j], op->result);
            }
            break;
        case WAI_ML_OP_UNARY:
        case WAI_ML_OP_LEAKY_RELU:
        case WAI_ML_OP_CLAMP: unite(parent, op->inputs[0], op->output); break;
        default:
            if (op->kind == WAI_ML_OP_BINARY &&
                wai_ml_descriptor_equal(&g->descs[op->inputs[0]], &g->descs[op->output]) &&
                wai_ml_descriptor_equal(&g->descs[op->inputs[1]], &g->descs[op->output])) {
                unite(parent, op->inputs[0], op->output);
                unite(parent, op->inputs[1], op->output);
                break;
            }
            /* Broadcasting and the other operators read positions. */
            for (uint32_t j = 0; j < op->n_inputs; j++) plain[op->inputs[j]] = 1;
            plain[op->output] = 1;
        }
    }
    /* A group is plain when any member must be. Operands absorbed into an
     * epilogue are never stored, so they do not count. */
    for (uint32_t i = 0; i < n; i++) {
        const int absorbed = producer[i] != UINT32_MAX && g->offset[i] == WAI_ML_NOWHERE;
        if (plain[i] && !absorbed) plain[find(parent, i)] = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        g->blocked[i] = g->offset[i] != WAI_ML_NOWHERE && !plain[find(parent, i)];
}

/* ---- the arena ------------------------------------------------------------ */

typedef struct block {
    size_t at, size;
} block;

typedef struct free_list {
    block *b;
    uint32_t n;
} free_list;

/* Room for n floats, 64-byte aligned: the best fitting free block, or the
 * arena's end. */
static size_t take(free_list *f, size_t *end, size_t n) {
    n = (n + 15) & ~(size_t)15;
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->b[i].size >= n && (best == UINT32_MAX || f->b[i].size < f->b[best].size)) best = i;
    if (best == UINT32_MAX) {
        /* A free block at the end grows instead of leaving a hole. */
        for (uint32_t i = 0; i < f->n; i++)
            if (f->b[i].at + f->b[i].size == *end) {
                size_t at = f->b[i].at;
                *end = at + n;
                f->b[i] = f->b[--f->n];
                return at;
            }
        size_t at = *end;
        *end += n;
        return at;
    }
    size_t at = f->b[best].at;
    f->b[best].at += n, f->b[best].size -= n;
    if (f->b[best].size == 0) f->b[best] = f->b[--f->n];
    return at;
}

/* Returns [at, at + n) to the list, merged with its neighbours. */
static void give(free_list *f, size_t at, size_t n) {
    n = (n + 15) & ~(size_t)15;
    for (uint32_t i = 0; i < f->n;) {
        if (f->b[i].at + f->b[i].size == at) {
            at = f->b[i].at, n += f->b[i].size;
        } else if (at + n == f->b[i].at) {
            n += f->b[i].size;
        } else {
            i++;
            continue;
        }
        f->b[i] = f->b[--f->n];
    }
    f->b[f->n++] = (block){at, n};
}

static void plan_arena(wai_ml_graph *g, free_list *f) {
    size_t end = 0;
    for (uint32_t k = 0; k < g->n_ops; k++) {
        const wai_ml_op *op = &g->ops[k];
        if (!op->fused_away) {
            const uint32_t r = op->result;
            g->offset[r] = take(f, &end, (size_t)wai_ml_elements(&g->descs[r]));
        }
        for (uint32_t j = 0; j < op->n_inputs; j++) {
            const uint32_t id = op->inputs[j];
            if (g->last_use[id] != k || g->offset[id] == WAI_ML_NOWHERE || is_output(g, id))
                continue;
            /* An operand read twice by this op goes once. */
            int seen = 0;
            for (uint32_t i = 0; i < j; i++) seen |= op->inputs[i] == id;
            if (!seen) give(f, g->offset[id], (size_t)wai_ml_elements(&g->descs[id]));
        }
    }
    g->arena_floats = end;
}

int wai_ml_plan(wai_ml_graph *g) {
    const wai_allocator *a = g->context->alloc;
    const uint32_t n = g->n_operands ? g->n_operands : 1;
    uint32_t *producer = wai_alloc_array(a, n, sizeof *producer);
    uint32_t *readers = wai_alloc_zeroed(a, n, sizeof *readers);
    uint32_t *parent = wai_alloc_array(a, n, sizeof *parent);
    uint8_t *plain = wai_alloc_array(a, n, 1);
    free_list f = {wai_alloc_array(a, (size_t)g->n_ops + 1, sizeof(block)), 0};
    g->blocked = wai_alloc_zeroed(a, n, 1);
    g->offset = wai_alloc_array(a, n, sizeof *g->offset);
    int ok = producer && readers && parent && plain && f.b && g->blocked && g->offset;
    if (ok) {
        for (uint32_t i = 0; i < g->n_operands; i++)
            producer[i] = UINT32_MAX, g->offset[i] = WAI_ML_NOWHERE;
        for (uint32_t k = 0; k < g->n_ops; k++) {
            wai_ml_op *op = &g->ops[k];
            producer[op->output] = k;
            op->result = op->output;
            for (uint32_t j = 0; j < op->n_inputs; j++) readers[op->inputs[j]]++;
        }
        const int fast = g->context->table.conv2d != NULL;
        if (fast) plan_epilogues(g, producer, readers);
        plan_arena(g, &f);
        g->block = fast ? wai_ml_dnnl_block(g->context) : 0;
        if (g->block) plan_layouts(g, producer, parent, plain);
    }
    wai_free(a, producer), wai_free(a, readers), wai_free(a, parent), wai_free(a, plain);
    wai_free(a, f.b);
    return ok;
}
