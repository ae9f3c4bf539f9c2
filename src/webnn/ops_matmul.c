/* SPDX-License-Identifier: BSD-2-Clause */
/* The builder's matrix products (webnn.md's gemm and matmul): each
 * operand's type and shape checked as the method steps say, the output's
 * descriptor made. */
#include <string.h>

#include "webnn/ml.h"

static int float_type(wai_ml_operand_data_type t) {
    return t == WAI_ML_FLOAT32 || t == WAI_ML_FLOAT16;
}

/* A value cast to the operands' type, as an attribute is (float16 rounds). */
static float cast_to(double v, wai_ml_operand_data_type t) {
    float f = (float)v;
    return t == WAI_ML_FLOAT16 ? wai_ml_f32_from_f16(wai_ml_f16_from_f32(f)) : f;
}

void wai_ml_gemm_options_default(wai_ml_gemm_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
    o->alpha = 1.0;
    o->beta = 1.0;
}

wai_status wai_ml_gemm(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                       const wai_ml_gemm_options *o, wai_ml_operand **out) {
    if (!b || !a || !bb || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_ml_gemm_options def;
    if (!o) {
        wai_ml_gemm_options_default(&def);
        o = &def;
    }
    const wai_ml_operand *ops[3] = {a, bb, o->c};
    uint32_t n = o->c ? 3 : 2;
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "gemm", o->label, ops, n, what, &c);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *da = wai_ml_operand_descriptor_of(a),
                                    *db = wai_ml_operand_descriptor_of(bb);
    if (!float_type(da->data_type) || da->data_type != db->data_type)
        return wai_ml_fail(c, WAI_TypeError, "%s: a and b must be both float32 or both float16",
                           what);
    if (da->rank != 2 || db->rank != 2)
        return wai_ml_fail(c, WAI_TypeError, "%s: a and b must be of rank 2 (%u, %u)", what,
                           da->rank, db->rank);
    uint32_t m = o->a_transpose ? da->shape[1] : da->shape[0];
    uint32_t ka = o->a_transpose ? da->shape[0] : da->shape[1];
    uint32_t kb = o->b_transpose ? db->shape[1] : db->shape[0];
    uint32_t nn = o->b_transpose ? db->shape[0] : db->shape[1];
    if (ka != kb)
        return wai_ml_fail(c, WAI_TypeError, "%s: a's columns (%u) are not b's rows (%u)", what, ka,
                           kb);
    if (o->c) {
        const wai_ml_operand_descriptor *dc = wai_ml_operand_descriptor_of(o->c);
        /* Unidirectional: c's shape, right-aligned, 1 or the target's. */
        const uint32_t target[2] = {m, nn};
        int ok = dc->data_type == da->data_type && dc->rank <= 2;
        for (uint32_t i = 0; ok && i < dc->rank; i++) {
            uint32_t d = dc->shape[dc->rank - 1 - i], t = target[1 - i];
            ok = d == 1 || d == t;
        }
        if (!ok)
            return wai_ml_fail(c, WAI_TypeError,
                               "%s: c must be of a's type and broadcast to [%u, %u]", what, m, nn);
    }
    wai_ml_op r = {.kind = WAI_ML_OP_GEMM};
    r.a.gemm.alpha = cast_to(o->alpha, da->data_type);
    r.a.gemm.beta = cast_to(o->beta, da->data_type);
    r.a.gemm.a_transpose = o->a_transpose != 0;
    r.a.gemm.b_transpose = o->b_transpose != 0;
    r.a.gemm.has_c = o->c != NULL;
    wai_ml_operand_descriptor y = {da->data_type, 2, {m, nn}};
    if (!wai_ml_dimensions_ok(&y)) return wai_ml_fail(c, WAI_TypeError, "%s: output too large", what);
    return wai_ml_builder_add(b, &r, ops, n, &y, out);
}

wai_status wai_ml_matmul(wai_ml_graph_builder *b, const wai_ml_operand *a, const wai_ml_operand *bb,
                         const wai_ml_operator_options *o, wai_ml_operand **out) {
    if (!b || !a || !bb || !out) return WAI_invalid_argument;
    *out = NULL;
    const wai_ml_operand *ops[2] = {a, bb};
    char what[64];
    wai_ml_context *c;
    wai_status st = wai_ml_begin(b, "matmul", o ? o->label : NULL, ops, 2, what, &c);
    if (st != WAI_ok) return st;
    const wai_ml_operand_descriptor *da = wai_ml_operand_descriptor_of(a),
                                    *db = wai_ml_operand_descriptor_of(bb);
    if (!float_type(da->data_type) || da->data_type != db->data_type)
        return wai_ml_fail(c, WAI_TypeError, "%s: a and b must be both float32 or both float16",
                           what);
    if (da->rank < 2 || db->rank < 2)
        return wai_ml_fail(c, WAI_TypeError, "%s: a and b must be of rank 2 or more (%u, %u)", what,
                           da->rank, db->rank);
    uint32_t k = da->shape[da->rank - 1];
    if (db->shape[db->rank - 2] != k)
        return wai_ml_fail(c, WAI_TypeError, "%s: a's columns (%u) are not b's rows (%u)", what, k,
                           db->shape[db->rank - 2]);
    /* The leading dimensions broadcast; the last two are [M, N]. */
    wai_ml_operand_descriptor ba = *da, bbd = *db, y;
    ba.rank -= 2;
    bbd.rank -= 2;
    if (!wai_ml_broadcast(&ba, &bbd, &y))
        return wai_ml_fail(c, WAI_TypeError, "%s: the batch dimensions do not broadcast", what);
    if (y.rank + 2 > WAI_ML_MAX_RANK)
        return wai_ml_fail(c, WAI_TypeError, "%s: the output's rank is past %u", what,
                           WAI_ML_MAX_RANK);
    y.shape[y.rank] = da->shape[da->rank - 2];
    y.shape[y.rank + 1] = db->shape[db->rank - 1];
    y.rank += 2;
    y.data_type = da->data_type;
    if (!wai_ml_dimensions_ok(&y)) return wai_ml_fail(c, WAI_TypeError, "%s: output too large", what);
    wai_ml_op r = {.kind = WAI_ML_OP_MATMUL};
    return wai_ml_builder_add(b, &r, ops, 2, &y, out);
}
