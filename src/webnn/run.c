/* Running a graph (dispatch's compute request): each operator in order on
 * float32 buffers, in the layouts the kernels take (NCHW input, OIHW or
 * IOHW filter), each buffer freed after its last reader. */
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

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

/* A convolution in the kernels' layouts: the input and filter permuted
 * where they are not, the output permuted back. */
static wai_status run_conv(wai_ml_context *c, const wai_ml_graph *g, wai_ml_op *op,
                           const float *const *in, float *out) {
    const wai_allocator *a = c->alloc;
    const wai_ml_operand_descriptor *xd = &g->descs[op->inputs[0]], *wd = &g->descs[op->inputs[1]];
    const wai_ml_operand_descriptor *yd = &g->descs[op->output];
    const int nhwc = op->a.conv.input_layout == WAI_ML_NHWC;
    const uint32_t *fp = filter_perm(op);
    const int filter_moves = fp[0] != 0 || fp[1] != 1 || fp[2] != 2;
    wai_ml_operand_descriptor x2 = nhwc ? permuted(xd, NHWC_TO_NCHW) : *xd;
    wai_ml_operand_descriptor w2 = permuted(wd, fp);
    wai_ml_operand_descriptor y2 = nhwc ? permuted(yd, NHWC_TO_NCHW) : *yd;
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
    wai_ml_kernel_args k = {c, op, g->constants[op->inputs[1]] != NULL, ins, ds,
                            nhwc ? yb : out, &y2, c->exec};
    int conv2d = op->kind == WAI_ML_OP_CONV2D;
    st = WAI_NotSupportedError;
    if (c->kernels == WAI_ML_KERNELS_BEST)
        st = conv2d ? wai_ml_dnnl_conv2d(&k) : wai_ml_dnnl_conv_transpose2d(&k);
    if (st == WAI_NotSupportedError)
        st = conv2d ? wai_ml_ref_conv2d(&k) : wai_ml_ref_conv_transpose2d(&k);
    if (st == WAI_ok && nhwc) wai_ml_permute(yb, &y2, NCHW_TO_NHWC, out);
done:
    wai_free(a, xb), wai_free(a, wb), wai_free(a, yb);
    return st;
}

static wai_status run_op(wai_ml_context *c, const wai_ml_graph *g, wai_ml_op *op,
                         const float *const *in, float *out) {
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
    wai_ml_kernel_args k = {c, op, 0, in, dp, out, &g->descs[op->output], c->exec};
    wai_status st = WAI_ok;
    switch (op->kind) {
    case WAI_ML_OP_CONV2D:
    case WAI_ML_OP_CONV_TRANSPOSE2D: st = run_conv(c, g, op, in, out); break;
    case WAI_ML_OP_BINARY: wai_ml_ref_binary(&k); break;
    case WAI_ML_OP_UNARY:
    case WAI_ML_OP_LEAKY_RELU:
    case WAI_ML_OP_CLAMP: wai_ml_ref_unary(&k); break;
    case WAI_ML_OP_CONCAT: wai_ml_ref_concat(&k); break;
    case WAI_ML_OP_RESHAPE:
        memcpy(out, in[0], (size_t)wai_ml_elements(k.out_d) * sizeof(float));
        break;
    case WAI_ML_OP_SLICE: wai_ml_ref_slice(&k); break;
    case WAI_ML_OP_TRANSPOSE: wai_ml_ref_transpose(&k); break;
    case WAI_ML_OP_PAD: wai_ml_ref_pad(&k); break;
    case WAI_ML_OP_REDUCE: wai_ml_ref_reduce(&k); break;
    }
    wai_free(c->alloc, many);
    return st;
}

wai_status wai_ml_graph_run(wai_ml_graph *g, const float *const *inputs, float *const *outputs) {
    wai_ml_context *c = g->context;
    const wai_allocator *a = c->alloc;
    const uint32_t n = g->n_operands;
    float **buf = wai_alloc_zeroed(a, n ? n : 1, sizeof *buf);
    const float **val = wai_alloc_zeroed(a, n ? n : 1, sizeof *val);
    uint8_t *keep = wai_alloc_zeroed(a, n ? n : 1, 1);
    const float **in = NULL;
    uint32_t max_in = 1;
    for (uint32_t k = 0; k < g->n_ops; k++)
        if (g->ops[k].n_inputs > max_in) max_in = g->ops[k].n_inputs;
    in = wai_alloc_zeroed(a, max_in, sizeof *in);
    wai_status st = buf && val && keep && in ? WAI_ok : WAI_out_of_memory;
    for (uint32_t i = 0; st == WAI_ok && i < n; i++) val[i] = g->constants[i];
    for (uint32_t i = 0; st == WAI_ok && i < g->n_inputs; i++) val[g->inputs[i].operand] = inputs[i];
    for (uint32_t i = 0; st == WAI_ok && i < g->n_outputs; i++) keep[g->outputs[i].operand] = 1;
    for (uint32_t k = 0; st == WAI_ok && k < g->n_ops; k++) {
        wai_ml_op *op = &g->ops[k];
        const wai_ml_operand_descriptor *od = &g->descs[op->output];
        size_t e = (size_t)wai_ml_elements(od);
        float *o = wai_alloc_array(a, e, sizeof *o);
        if (!o) {
            st = WAI_out_of_memory;
            break;
        }
        buf[op->output] = o;
        val[op->output] = o;
        for (uint32_t j = 0; j < op->n_inputs; j++) in[j] = val[op->inputs[j]];
        if ((st = run_op(c, g, op, in, o)) != WAI_ok) break;
        if (od->data_type == WAI_ML_FLOAT16) round_f16(o, e);
        /* What no later operator reads goes now. */
        for (uint32_t j = 0; j < op->n_inputs; j++) {
            uint32_t id = op->inputs[j];
            if (g->last_use[id] == k && buf[id] && !keep[id]) {
                wai_free(a, buf[id]);
                buf[id] = NULL;
                val[id] = NULL;
            }
        }
    }
    for (uint32_t i = 0; st == WAI_ok && i < g->n_outputs; i++) {
        uint32_t id = g->outputs[i].operand;
        memcpy(outputs[i], val[id], (size_t)wai_ml_elements(&g->descs[id]) * sizeof(float));
    }
    for (uint32_t i = 0; buf && i < n; i++) wai_free(a, buf[i]);
    wai_free(a, buf), wai_free(a, val), wai_free(a, keep), wai_free(a, in);
    if (st == WAI_out_of_memory) return wai_ml_fail(c, st, "dispatch: out of memory");
    return st;
}
