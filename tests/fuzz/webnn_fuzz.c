/* SPDX-License-Identifier: BSD-2-Clause */
/* See webnn_fuzz.h. */
#include "webnn_fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "webnn/ml.h"

void fuzz_expect_webnn(wai_status st) {
    if (st == WAI_ok || st == WAI_out_of_memory) return;
    if (wai_status_kind_of(st) != WAI_KIND_WEBNN) __builtin_trap();
}

void fuzz_expect_descriptor(const wai_ml_operand_descriptor *d) {
    if (!d || d->rank > WAI_ML_MAX_RANK || !wai_ml_data_type_name(d->data_type)) __builtin_trap();
    for (uint32_t i = 0; i < d->rank; i++)
        if (d->shape[i] < 1) __builtin_trap();
}

static uint64_t elements(const wai_ml_operand_descriptor *d) {
    uint64_t n = 1;
    for (uint32_t i = 0; i < d->rank; i++) n *= d->shape[i];
    return n;
}

/* The graph's work: each operator's output elements times what one reads
 * (a convolution's filter, a reduction's input), saturating. */
static uint64_t work_of(const wai_ml_graph *g) {
    uint64_t w = 0;
    for (uint32_t i = 0; i < g->n_ops; i++) {
        const wai_ml_op *op = &g->ops[i];
        uint64_t out = elements(&g->descs[op->output]), per = 1;
        if (op->kind == WAI_ML_OP_CONV2D || op->kind == WAI_ML_OP_CONV_TRANSPOSE2D)
            per = elements(&g->descs[op->inputs[1]]);
        else if (op->kind == WAI_ML_OP_REDUCE)
            per = elements(&g->descs[op->inputs[0]]);
        if (out > (1u << 22) || per > (1u << 22)) return UINT64_MAX;
        w += out * per;
        if (w > ((uint64_t)1 << 40)) return UINT64_MAX;
    }
    return w;
}

/* The most work a graph computed here may have. libFuzzer counts a loop's
 * trips as coverage, so the campaign's corpora drift to the largest graphs
 * allowed: at 2^22, a padded 4-million-element graph on the reference
 * kernels took 1.4 s an input (2^18 still let 0.4 s through) and held
 * fuzz_webnn_builder to under 2,000 executions a second; at 2^16 its
 * corpus still ran 1,290 a second, at 2^13 2,260. Edges and odd shapes
 * show at any size; the one path only a larger graph takes, an elementwise
 * operator split over threads (2 x 16,384 elements), is held bit-exact by
 * webnn_fast_elementwise_bits. */
#define SMALL_WORK (1u << 13)

void fuzz_run_small(wai_ml_context *c, wai_ml_graph *g, uint32_t seed) {
    if (work_of(g) > SMALL_WORK) return;
    size_t ni = wai_ml_graph_input_count(g), no = wai_ml_graph_output_count(g);
    wai_ml_named_tensor ins[16], outs[16];
    if (ni > 16 || no > 16) return;
    memset(ins, 0, sizeof ins);
    memset(outs, 0, sizeof outs);
    wai_status st = WAI_ok;
    for (size_t i = 0; i < ni && st == WAI_ok; i++) {
        const wai_ml_operand_descriptor *d;
        ins[i].name = wai_ml_graph_input_at(g, i, &d);
        wai_ml_tensor_descriptor td = {*d, 0, 1};
        st = wai_ml_create_tensor(c, &td, &ins[i].tensor);
        size_t bytes = (size_t)elements(d) * wai_ml_data_type_size(d->data_type);
        uint8_t *v = st == WAI_ok ? malloc(bytes ? bytes : 1) : NULL;
        if (v) {
            /* Small values of either sign, so pow, exp and log see all kinds. */
            uint32_t x = seed + (uint32_t)i * 0x9e3779b9u;
            for (size_t k = 0; k < bytes; k++) {
                x = x * 1664525u + 1013904223u;
                v[k] = (uint8_t)(x >> 24);
            }
            if (d->data_type == WAI_ML_FLOAT32)
                for (size_t k = 0; k + 4 <= bytes; k += 4) {
                    float f = (float)((int)(v[k] % 64) - 32) / 8.0f;
                    memcpy(v + k, &f, 4);
                }
            st = wai_ml_write_tensor(c, ins[i].tensor, v, bytes);
            if (st != WAI_ok) __builtin_trap();
        }
        free(v);
    }
    for (size_t i = 0; i < no && st == WAI_ok; i++) {
        const wai_ml_operand_descriptor *d;
        outs[i].name = wai_ml_graph_output_at(g, i, &d);
        wai_ml_tensor_descriptor td = {*d, 1, 0};
        st = wai_ml_create_tensor(c, &td, &outs[i].tensor);
    }
    if (st == WAI_ok && seed % 4 == 0) {
        /* One run in four first within a limit near what the graph holds
         * (a decode's max_memory, src/webnn/backend.c): it runs or stops
         * with cost_over_limit, giving back every temporary, and a graph
         * so stopped runs whole afterwards. */
        g->limit = wai_ml_graph_bytes(g) + (seed >> 2) % 65536;
        const wai_status within = wai_ml_dispatch(c, g, ins, ni, outs, no);
        g->limit = UINT64_MAX;
        if (within != WAI_cost_over_limit) fuzz_expect_webnn(within);
        if (g->temp != 0) __builtin_trap();
    }
    if (st == WAI_ok) {
        st = wai_ml_dispatch(c, g, ins, ni, outs, no);
        fuzz_expect_webnn(st);
    }
    for (size_t i = 0; i < no && st == WAI_ok; i++) {
        const wai_ml_operand_descriptor *d = wai_ml_tensor_descriptor_of(outs[i].tensor), *gd;
        wai_ml_graph_output_at(g, i, &gd);
        if (!wai_ml_descriptor_equal(d, gd)) __builtin_trap();
        size_t bytes = (size_t)elements(d) * wai_ml_data_type_size(d->data_type);
        uint8_t *v = malloc(bytes ? bytes : 1);
        if (v && wai_ml_read_tensor(c, outs[i].tensor, v, bytes) != WAI_ok) __builtin_trap();
        free(v);
    }
    for (size_t i = 0; i < 16; i++) {
        wai_ml_tensor_destroy(ins[i].tensor);
        wai_ml_tensor_destroy(outs[i].tensor);
    }
}
