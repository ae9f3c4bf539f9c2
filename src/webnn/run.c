/* SPDX-License-Identifier: BSD-2-Clause */
/* Running a graph (dispatch's compute request): each operator in order on
 * float32 buffers in the graph's arena, in the layouts the kernels take
 * (NCHW input or the plan's blocked one, OIHW or IOHW filter). */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise */
#include <sys/mman.h>
#endif
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

/* The arena's first touch faults in every page of it; on Linux, where
 * transparent huge pages are given on request, 2 MiB pages make that a few
 * hundred faults instead of tens of thousands (the synthesis of a 512 x 768
 * picture has some 200 MB of activations). Advice only: nothing changes
 * where it is not taken. */
static void advise_huge_pages(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    const uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    const uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p, (void)bytes;
#endif
}

/* Values of a float16 operand are float16 values: each result rounded. */
static void round_f16(float *v, size_t n) {
    for (size_t i = 0; i < n; i++) v[i] = wai_ml_f32_from_f16(wai_ml_f16_from_f32(v[i]));
}

/* The descriptor of d with axes permuted. */
static wai_ml_operand_descriptor permuted(const wai_ml_operand_descriptor *d, const uint32_t *perm) {
    wai_ml_operand_descriptor r = *d;
    for (uint32_t i = 0; i < d->rank; i++) r.shape[i] = d->shape[perm[i]];
    return r;
}

static const uint32_t NHWC_TO_NCHW[4] = {0, 3, 1, 2}, NCHW_TO_NHWC[4] = {0, 2, 3, 1};

/* The permutation taking a filter of `layout` to OIHW (conv2d) or IOHW
 * (convTranspose2d). */
static const uint32_t *filter_perm(const wai_ml_op *op) {
    static const uint32_t id[4] = {0, 1, 2, 3};
    static const uint32_t hwio_oihw[4] = {3, 2, 0, 1}, ohwi_oihw[4] = {0, 3, 1, 2},
                          ihwo_oihw[4] = {3, 0, 1, 2};
    static const uint32_t hwoi_iohw[4] = {3, 2, 0, 1}, ohwi_iohw[4] = {3, 0, 1, 2};
    int l = op->a.conv.filter_layout;
    if (op->kind == WAI_ML_OP_CONV2D)
        return l == WAI_ML_CONV2D_HWIO ? hwio_oihw
               : l == WAI_ML_CONV2D_OHWI ? ohwi_oihw
               : l == WAI_ML_CONV2D_IHWO ? ihwo_oihw : id;
    return l == WAI_ML_CONVT_HWOI ? hwoi_iohw : l == WAI_ML_CONVT_OHWI ? ohwi_iohw : id;
}

/* A convolution's epilogue (run_plan.c): each entry's operator, the other
 * operand of a binary one, and whether the chain's value is its first. */
typedef struct epilogue {
    const wai_ml_op *ops[WAI_ML_MAX_EPILOGUE];
    const float *other[WAI_ML_MAX_EPILOGUE];
    int value_first[WAI_ML_MAX_EPILOGUE];
    uint32_t n;
} epilogue;

static void epilogue_of(const wai_ml_graph *g, const wai_ml_op *op, const float *const *val,
                        epilogue *e) {
    uint32_t v = op->output;
    e->n = op->n_epilogue;
    for (uint32_t i = 0; i < e->n; i++) {
        const wai_ml_op *x = &g->ops[op->epilogue[i]];
        e->ops[i] = x;
        e->value_first[i] = x->inputs[0] == v;
        e->other[i] = x->kind == WAI_ML_OP_BINARY ? val[x->inputs[e->value_first[i] ? 1 : 0]]
                                                   : NULL;
        v = x->output;
    }
}

/* The reference convolution on a blocked input or output: through NCHW
 * copies. */
static wai_status ref_conv(const wai_ml_kernel_args *k) {
    const wai_allocator *a = k->context->alloc;
    const int conv2d = k->op->kind == WAI_ML_OP_CONV2D;
    const uint64_t temp = 4 * ((k->src_block ? wai_ml_elements(k->in_d[0]) : 0) +
                               (k->dst_block ? wai_ml_elements(k->out_d) : 0));
    if (!wai_ml_graph_take(k->graph, temp)) return WAI_cost_over_limit;
    float *xb = NULL, *yb = NULL;
    const float *ins[3] = {k->in[0], k->in[1], k->op->n_inputs > 2 ? k->in[2] : NULL};
    wai_ml_kernel_args r = *k;
    r.in = ins;
    wai_status st = WAI_out_of_memory;
    if (k->src_block) {
        if (!(xb = wai_alloc_array(a, (size_t)wai_ml_elements(k->in_d[0]), sizeof *xb))) goto done;
        wai_ml_from_blocked(k->in[0], k->in_d[0], k->src_block, xb);
        ins[0] = xb;
    }
    if (k->dst_block && !(r.out = yb = wai_alloc_array(a, (size_t)wai_ml_elements(k->out_d),
                                                       sizeof *yb)))
        goto done;
    st = conv2d ? wai_ml_ref_conv2d(&r) : wai_ml_ref_conv_transpose2d(&r);
    if (st == WAI_ok && yb) wai_ml_to_blocked(yb, k->out_d, k->dst_block, k->out);
done:
    wai_free(a, xb), wai_free(a, yb);
    wai_ml_graph_give(k->graph, temp);
    return st;
}

/* A convolution in the kernels' layouts: the input and filter permuted
 * where they are not, the output permuted back; then its epilogue, where
 * the kernel did not apply it. */
static wai_status run_conv(wai_ml_context *c, wai_ml_graph *g, wai_ml_op *op,
                           const float *const *in, const float *const *val, float *out) {
    const wai_allocator *a = c->alloc;
    const wai_ml_operand_descriptor *xd = &g->descs[op->inputs[0]], *wd = &g->descs[op->inputs[1]];
    const wai_ml_operand_descriptor *yd = &g->descs[op->output];
    const int nhwc = op->a.conv.input_layout == WAI_ML_NHWC;
    const uint32_t *fp = filter_perm(op);
    const int filter_moves = fp[0] != 0 || fp[1] != 1 || fp[2] != 2;
    wai_ml_operand_descriptor x2 = nhwc ? permuted(xd, NHWC_TO_NCHW) : *xd;
    wai_ml_operand_descriptor w2 = permuted(wd, fp);
    wai_ml_operand_descriptor y2 = nhwc ? permuted(yd, NHWC_TO_NCHW) : *yd;
    const uint64_t temp = 4 * ((nhwc ? wai_ml_elements(xd) + wai_ml_elements(yd) : 0) +
                               (filter_moves ? wai_ml_elements(wd) : 0));
    if (!wai_ml_graph_take(g, temp)) return WAI_cost_over_limit;
    float *xb = nhwc ? wai_alloc_array(a, (size_t)wai_ml_elements(xd), sizeof(float)) : NULL;
    float *wb = filter_moves ? wai_alloc_array(a, (size_t)wai_ml_elements(wd), sizeof(float)) : NULL;
    float *yb = nhwc ? wai_alloc_array(a, (size_t)wai_ml_elements(yd), sizeof(float)) : NULL;
    wai_status st = WAI_out_of_memory;
    if ((nhwc && (!xb || !yb)) || (filter_moves && !wb)) goto done;
    if (nhwc) wai_ml_permute(in[0], xd, NHWC_TO_NCHW, xb);
    if (filter_moves) wai_ml_permute(in[1], wd, fp, wb);
    const float *ins[3] = {nhwc ? xb : in[0], filter_moves ? wb : in[1],
                           op->n_inputs > 2 ? in[2] : NULL};
    const wai_ml_operand_descriptor *ds[3] = {&x2, &w2,
                                              op->n_inputs > 2 ? &g->descs[op->inputs[2]] : NULL};
    epilogue e;
    epilogue_of(g, op, val, &e);
    int done = 0;
    wai_ml_kernel_args k = {c, op, g->constants[op->inputs[1]] != NULL, ins, ds,
                            nhwc ? yb : out, &y2, &c->exec,
                            g->blocked[op->inputs[0]] ? g->block : 0,
                            g->blocked[op->result] ? g->block : 0,
                            e.ops, e.other, e.n, &done, g};
    wai_status (*fast)(const wai_ml_kernel_args *) =
        op->kind == WAI_ML_OP_CONV2D ? c->table.conv2d : c->table.conv_transpose2d;
    st = fast ? fast(&k) : WAI_NotSupportedError;
    if (st == WAI_NotSupportedError) st = ref_conv(&k);
    if (st == WAI_ok && nhwc) wai_ml_permute(yb, &y2, NCHW_TO_NHWC, out);
    for (uint32_t i = 0; st == WAI_ok && !done && i < e.n; i++)
        wai_ml_epilogue_apply(&c->exec, e.ops[i], e.other[i], out, (size_t)wai_ml_elements(yd),
                              e.value_first[i]);
done:
    wai_free(a, xb), wai_free(a, wb), wai_free(a, yb);
    wai_ml_graph_give(g, temp);
    return st;
}

static wai_status run_op(wai_ml_context *c, wai_ml_graph *g, wai_ml_op *op,
                         const float *const *in, const float *const *val, float *out) {
    const wai_ml_operand_descriptor *ds[WAI_ML_MAX_RANK + 2];
    const wai_ml_operand_descriptor *const *dp = ds;
    const wai_ml_operand_descriptor **many = NULL;
    if (op->n_inputs > sizeof ds / sizeof *ds) {
        if (!(many = wai_alloc_array(c->alloc, op->n_inputs, sizeof *many)))
            return WAI_out_of_memory;
        dp = many;
    }
    const wai_ml_operand_descriptor **fill = many ? many : ds;
    for (uint32_t i = 0; i < op->n_inputs; i++) fill[i] = &g->descs[op->inputs[i]];
    wai_ml_kernel_args k = {c, op, 0, in, dp, out, &g->descs[op->output], &c->exec,
                            0, 0, NULL, NULL, 0, NULL, g};
    const wai_ml_kernel_table *t = &c->table;
    wai_status st = WAI_ok;
    switch (op->kind) {
    case WAI_ML_OP_CONV2D:
    case WAI_ML_OP_CONV_TRANSPOSE2D: st = run_conv(c, g, op, in, val, out); break;
    case WAI_ML_OP_BINARY:
        if (!t->binary || !t->binary(&k)) wai_ml_ref_binary(&k);
        break;
    case WAI_ML_OP_UNARY:
    case WAI_ML_OP_LEAKY_RELU:
    case WAI_ML_OP_CLAMP:
        if (!t->unary || !t->unary(&k)) wai_ml_ref_unary(&k);
        break;
    case WAI_ML_OP_CONCAT: wai_ml_ref_concat(&k); break;
    case WAI_ML_OP_RESHAPE:
        memcpy(out, in[0], (size_t)wai_ml_elements(k.out_d) * sizeof(float));
        break;
    case WAI_ML_OP_SLICE: wai_ml_ref_slice(&k); break;
    case WAI_ML_OP_TRANSPOSE: wai_ml_ref_transpose(&k); break;
    case WAI_ML_OP_PAD: wai_ml_ref_pad(&k); break;
    case WAI_ML_OP_REDUCE: wai_ml_ref_reduce(&k); break;
    case WAI_ML_OP_GEMM: wai_ml_ref_gemm(&k); break;
    case WAI_ML_OP_MATMUL: wai_ml_ref_matmul(&k); break;
    }
    wai_free(c->alloc, many);
    return st;
}

/* Every operator in order, each writing its result to its place in the
 * graph's arena (run_plan.c; made at the first run and kept), absorbed ones
 * skipped; then the outputs copied out. */
wai_status wai_ml_graph_run(wai_ml_graph *g, const float *const *inputs, float *const *outputs) {
    wai_ml_context *c = g->context;
    const wai_allocator *a = c->alloc;
    const uint32_t n = g->n_operands;
    uint32_t max_in = 1;
    for (uint32_t k = 0; k < g->n_ops; k++)
        if (g->ops[k].n_inputs > max_in) max_in = g->ops[k].n_inputs;
    /* The run's pointers: every operand's values, an operator's inputs,
     * and (run_op) the descriptors of one with many; checked with the
     * arena (counted from the build) before the first run allocates it. */
    const uint64_t temp = ((uint64_t)n + 2 * (uint64_t)max_in + 1) * sizeof(void *);
    if (!wai_ml_graph_take(g, temp))
        return wai_ml_fail(c, WAI_cost_over_limit, "dispatch: past the graph's memory limit");
    if (!g->arena) {
        const size_t floats = g->arena_floats ? g->arena_floats : 1;
        if (!(g->arena = wai_alloc_array(a, floats, sizeof(float)))) {
            wai_ml_graph_give(g, temp);
            return wai_ml_fail(c, WAI_out_of_memory, "dispatch: out of memory");
        }
        advise_huge_pages(g->arena, floats * sizeof(float));
    }
    const float **val = wai_alloc_zeroed(a, n ? n : 1, sizeof *val);
    const float **in = wai_alloc_zeroed(a, max_in, sizeof *in);
    wai_status st = val && in ? WAI_ok : WAI_out_of_memory;
    for (uint32_t i = 0; st == WAI_ok && i < n; i++)
        val[i] = g->offset[i] != WAI_ML_NOWHERE ? g->arena + g->offset[i] : g->constants[i];
    for (uint32_t i = 0; st == WAI_ok && i < g->n_inputs; i++) val[g->inputs[i].operand] = inputs[i];
    for (uint32_t k = 0; st == WAI_ok && k < g->n_ops; k++) {
        wai_ml_op *op = &g->ops[k];
        if (op->fused_away) continue;
        const wai_ml_operand_descriptor *od = &g->descs[op->result];
        float *o = g->arena + g->offset[op->result];
        for (uint32_t j = 0; j < op->n_inputs; j++) in[j] = val[op->inputs[j]];
        if ((st = run_op(c, g, op, in, val, o)) != WAI_ok) break;
        if (od->data_type == WAI_ML_FLOAT16) round_f16(o, (size_t)wai_ml_elements(od));
    }
    for (uint32_t i = 0; st == WAI_ok && i < g->n_outputs; i++) {
        uint32_t id = g->outputs[i].operand;
        memcpy(outputs[i], val[id], (size_t)wai_ml_elements(&g->descs[id]) * sizeof(float));
    }
    wai_free(a, val), wai_free(a, in);
    wai_ml_graph_give(g, temp);
    if (st == WAI_out_of_memory) return wai_ml_fail(c, st, "dispatch: out of memory");
    if (st == WAI_cost_over_limit)
        return wai_ml_fail(c, st, "dispatch: past the graph's memory limit");
    return st;
}
