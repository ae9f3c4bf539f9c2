/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference data movement: concat, slice, transpose (permute) and pad,
 * each an index computation per output element. */
#include <string.h>

#include "webnn/ml.h"

/* Row-major strides of d. */
static void strides_of(const wai_ml_operand_descriptor *d, uint64_t *st) {
    uint64_t s = 1;
    for (uint32_t i = d->rank; i-- > 0;) {
        st[i] = s;
        s *= d->shape[i];
    }
}

/* Output element i's index along each axis of y. */
static void unravel(uint64_t i, const wai_ml_operand_descriptor *y, uint64_t *idx) {
    for (uint32_t d = y->rank; d-- > 0;) {
        idx[d] = i % y->shape[d];
        i /= y->shape[d];
    }
}

void wai_ml_permute(const float *in, const wai_ml_operand_descriptor *d, const uint32_t *perm,
                    float *out) {
    uint64_t st[WAI_ML_MAX_RANK], idx[WAI_ML_MAX_RANK];
    wai_ml_operand_descriptor y = *d;
    for (uint32_t i = 0; i < d->rank; i++) y.shape[i] = d->shape[perm[i]];
    strides_of(d, st);
    const uint64_t n = wai_ml_elements(d);
    for (uint64_t i = 0; i < n; i++) {
        unravel(i, &y, idx);
        uint64_t src = 0;
        for (uint32_t a = 0; a < y.rank; a++) src += idx[a] * st[perm[a]];
        out[i] = in[src];
    }
}

void wai_ml_ref_transpose(const wai_ml_kernel_args *k) {
    wai_ml_permute(k->in[0], k->in_d[0], k->op->a.permutation, k->out);
}

void wai_ml_ref_concat(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *y = k->out_d;
    const uint32_t axis = k->op->a.axis;
    /* outer: the product of the dimensions before the axis; inner: after. */
    uint64_t outer = 1, inner = 1;
    for (uint32_t i = 0; i < axis; i++) outer *= y->shape[i];
    for (uint32_t i = axis + 1; i < y->rank; i++) inner *= y->shape[i];
    uint64_t at = 0;
    for (uint32_t j = 0; j < k->op->n_inputs; j++) {
        const uint64_t run = (uint64_t)k->in_d[j]->shape[axis] * inner;
        for (uint64_t o = 0; o < outer; o++)
            memcpy(k->out + o * y->shape[axis] * inner + at, k->in[j] + o * run,
                   (size_t)run * sizeof(float));
        at += run;
    }
}

void wai_ml_ref_slice(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *x = k->in_d[0], *y = k->out_d;
    uint64_t st[WAI_ML_MAX_RANK], idx[WAI_ML_MAX_RANK];
    strides_of(x, st);
    const uint64_t n = wai_ml_elements(y);
    for (uint64_t i = 0; i < n; i++) {
        unravel(i, y, idx);
        uint64_t src = 0;
        for (uint32_t a = 0; a < y->rank; a++)
            src += (k->op->a.slice.starts[a] + idx[a] * k->op->a.slice.strides[a]) * st[a];
        k->out[i] = k->in[0][src];
    }
}

void wai_ml_ref_pad(const wai_ml_kernel_args *k) {
    const wai_ml_operand_descriptor *x = k->in_d[0], *y = k->out_d;
    uint64_t st[WAI_ML_MAX_RANK], idx[WAI_ML_MAX_RANK];
    strides_of(x, st);
    const uint64_t n = wai_ml_elements(y);
    const int mode = k->op->a.pad.mode;
    for (uint64_t i = 0; i < n; i++) {
        unravel(i, y, idx);
        uint64_t src = 0;
        int outside = 0;
        for (uint32_t a = 0; a < y->rank; a++) {
            int64_t p = (int64_t)idx[a] - k->op->a.pad.begin[a], size = x->shape[a];
            if (p < 0 || p >= size) {
                if (mode == WAI_ML_PAD_CONSTANT) outside = 1;
                else if (mode == WAI_ML_PAD_EDGE) p = p < 0 ? 0 : size - 1;
                /* Reflection mirrors about the edge element (not repeating
                 * it); the builder kept the padding under the size. */
                else p = p < 0 ? -p : 2 * (size - 1) - p;
            }
            src += (uint64_t)p * st[a];
        }
        k->out[i] = outside ? k->op->a.pad.value : k->in[0][src];
    }
}

/* nChw{B}c: channel c of position p = h * W + w of image n at
 * ((n * C/B + c/B) * H * W + p) * B + c % B; both layouts hold the same
 * C * H * W values of an image, so block cb of image n starts where
 * channel cb * B does in NCHW. */
void wai_ml_to_blocked(const float *in, const wai_ml_operand_descriptor *d, uint32_t B, float *out) {
    const size_t N = d->shape[0], C = d->shape[1], HW = (size_t)d->shape[2] * d->shape[3];
    for (size_t base = 0; base < N * C * HW; base += B * HW)
        for (size_t p = 0; p < HW; p++)
            for (size_t c = 0; c < B; c++) out[base + p * B + c] = in[base + c * HW + p];
}

void wai_ml_from_blocked(const float *in, const wai_ml_operand_descriptor *d, uint32_t B,
                         float *out) {
    const size_t N = d->shape[0], C = d->shape[1], HW = (size_t)d->shape[2] * d->shape[3];
    for (size_t base = 0; base < N * C * HW; base += B * HW)
        for (size_t c = 0; c < B; c++)
            for (size_t p = 0; p < HW; p++) out[base + c * HW + p] = in[base + p * B + c];
}
