/* SPDX-License-Identifier: BSD-2-Clause */
/* Planning (integer-payloads §7 "Planning the networks", reading N6) and
 * the parameter sums of the exactness rule (docs/integer-operators.md).
 * Every size is a saturating 64-bit value: a chain that leaves 64 bits ends
 * at UINT64_MAX, past the cap, so every target refuses alike (R4: equality
 * with the cap is allowed). */
#include "ops/plan.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"

#define CAP WAI_CAP_ELEMENTS

/* The running shape; h stays 1 in a 1-D network. */
typedef struct shape {
    uint64_t c, h, w;
} shape;

/* A convolution's output side once its kernel fits: floor((n + 2pad −
 * k)/stride) + 1. A kernel larger than the padded side leaves no output:
 * 0 here, which passes rule 2's output check so that rule 3 refuses it. */
static uint64_t conv_side(uint64_t padded, uint64_t k, uint64_t stride) {
    return k <= padded ? (padded - k) / stride + 1 : 0;
}

/* A transposed convolution's uncropped side, (n − 1)·stride + k + opad,
 * for n >= 1 (every running side is: the input's by contract, a layer's
 * output by rule 3). */
static uint64_t convt_side(uint64_t n, uint64_t stride, uint64_t k, uint64_t opad) {
    return wai_sat_add(wai_sat_add(wai_sat_mul(n - 1, stride), k), opad);
}

/* Its cropped side; 0 (no output) when the crop 2·pad takes it all, so
 * that rule 3, not rule 2, refuses. */
static uint64_t crop_side(uint64_t u, uint64_t pad) { return u > 2 * pad ? u - 2 * pad : 0; }

/* Rule 1 (model_mismatch): the layer fits the running channel count and
 * its shifts are in range. */
static wai_status rule1(const wai_model *m, const wai_layer *l, const shape *in) {
    switch (l->kind) {
    case WAI_LAYER_CONV:
        if (m->dims != 2) return WAI_model_mismatch;
        /* fall through */
    case WAI_LAYER_CONV_T:
        if (l->cin != in->c || l->cout == 0 || l->k == 0 || l->stride == 0 ||
            m->shift >= 128 || l->n_weights != wai_layer_weight_count(l, m->dims))
            return WAI_model_mismatch;
        return WAI_ok;
    case WAI_LAYER_IGDN:
        return (l->c != in->c || m->gf >= 128) ? WAI_model_mismatch : WAI_ok;
    case WAI_LAYER_RELU:
        return WAI_ok;
    case WAI_LAYER_LEAKY:
        return l->lshift >= 64 ? WAI_model_mismatch : WAI_ok;
    }
    return WAI_model_mismatch;
}

/* Plans one layer on *in: rules 1, 2, 3 in N6's order, filling *e. */
static wai_status plan_layer(const wai_model *m, const wai_layer *l, const shape *in,
                             wai_plan_layer *e) {
    wai_status st = rule1(m, l, in);
    if (st != WAI_ok) return st;
    memset(e, 0, sizeof *e);
    e->kind = l->kind;
    e->in_c = (uint32_t)in->c;
    e->in_h = (uint32_t)in->h;
    e->in_w = (uint32_t)in->w;
    e->in_elems = in->c * in->h * in->w;   /* <= 2^26: checked before */
    shape out = *in;
    const int one_d = m->dims == 1;
    const uint64_t twopad = 2 * (uint64_t)l->pad;

    if (l->kind == WAI_LAYER_CONV) {
        /* Rule 2: the padded sides, then the output. */
        uint64_t ph = wai_sat_add(in->h, twopad), pw = wai_sat_add(in->w, twopad);
        if (ph > CAP || pw > CAP) return WAI_too_large;
        out.c = l->cout;
        out.h = conv_side(ph, l->k, l->stride);
        out.w = conv_side(pw, l->k, l->stride);
        if (wai_sat_mul3(out.c, out.h, out.w) > CAP) return WAI_too_large;
        /* Rule 3: the kernel fits the padded input. */
        if (l->k > ph || l->k > pw) return WAI_model_mismatch;
        e->macs = wai_sat_mul(wai_sat_mul3(out.c, out.h, out.w),
                              wai_sat_mul3(l->cin, l->k, l->k));
    } else if (l->kind == WAI_LAYER_CONV_T) {
        /* Rule 2: the uncropped sides, the uncropped plane, the output. */
        uint64_t uh = one_d ? 1 : convt_side(in->h, l->stride, l->k, l->opad);
        uint64_t uw = convt_side(in->w, l->stride, l->k, l->opad);
        if (uh > CAP || uw > CAP) return WAI_too_large;
        uint64_t plane = wai_sat_mul3(l->cout, uh, uw);
        if (plane > CAP) return WAI_too_large;
        out.c = l->cout;
        out.h = one_d ? 1 : crop_side(uh, l->pad);
        out.w = crop_side(uw, l->pad);
        /* Never fires once the plane passes (the output is a crop of it);
         * kept in its place, as §7 lists it. */
        if (wai_sat_mul3(out.c, out.h, out.w) > CAP) return WAI_too_large;
        /* Rule 3: the crop leaves an output. */
        if ((!one_d && twopad >= uh) || twopad >= uw) return WAI_model_mismatch;
        e->uh = (uint32_t)uh;
        e->uw = (uint32_t)uw;
        e->uncropped_elems = plane;
        uint64_t per_in = wai_sat_mul(l->cout, l->k);
        if (!one_d) per_in = wai_sat_mul(per_in, l->k);
        e->macs = wai_sat_mul(e->in_elems, per_in);
    } else if (l->kind == WAI_LAYER_IGDN) {
        e->macs = wai_sat_mul(e->in_elems, l->c);
    }
    /* ReLU, leaky ReLU and IGDN keep the shape, already within the cap. */
    e->out_c = (uint32_t)out.c;
    e->out_h = (uint32_t)out.h;
    e->out_w = (uint32_t)out.w;
    e->out_elems = out.c * out.h * out.w;
    e->work_bytes = wai_sat_mul(wai_sat_add(wai_sat_add(e->in_elems, e->out_elems),
                                            e->uncropped_elems), 8);
    return WAI_ok;
}

/* Plans every layer; fills entries[] when it is not NULL. */
static wai_status plan_all(const wai_model *m, shape s, wai_plan *p, wai_plan_layer *entries) {
    p->macs = 0;
    p->work_bytes = wai_sat_mul(s.c * s.h * s.w, 8);
    for (uint32_t i = 0; i < m->n_layers; i++) {
        wai_plan_layer e;
        wai_status st = plan_layer(m, &m->layers[i], &s, &e);
        if (st != WAI_ok) return st;
        if (entries) entries[i] = e;
        p->macs = wai_sat_add(p->macs, e.macs);
        if (i == 0 || e.work_bytes > p->work_bytes) p->work_bytes = e.work_bytes;
        s.c = e.out_c;
        s.h = e.out_h;
        s.w = e.out_w;
    }
    p->out_c = (uint32_t)s.c;
    p->out_h = (uint32_t)s.h;
    p->out_w = (uint32_t)s.w;
    p->out_elems = s.c * s.h * s.w;
    return WAI_ok;
}

wai_status wai_plan_model(const wai_allocator *a, const wai_model *m, uint32_t c, uint32_t h,
                          uint32_t w, wai_plan *out) {
    memset(out, 0, sizeof *out);
    if ((m->dims != 1 && m->dims != 2) || (m->n_layers && !m->layers)) return WAI_invalid_argument;
    if (c == 0 || h == 0 || w == 0 || (m->dims == 1 && h != 1)) return WAI_invalid_argument;
    shape s = {c, h, w};
    if (wai_sat_mul3(c, h, w) > CAP) return WAI_too_large;

    /* Plan first, allocate after: a refused network costs no memory. */
    wai_plan p;
    memset(&p, 0, sizeof p);
    wai_status st = plan_all(m, s, &p, NULL);
    if (st != WAI_ok) return st;
    wai_plan_layer *entries = NULL;
    if (m->n_layers) {
        entries = wai_alloc_array(a, m->n_layers, sizeof *entries);
        if (!entries) return WAI_out_of_memory;
        (void)plan_all(m, s, &p, entries);
    }
    p.dims = m->dims;
    p.in_c = c;
    p.in_h = h;
    p.in_w = w;
    p.n_layers = m->n_layers;
    p.layers = entries;
    *out = p;
    return WAI_ok;
}

void wai_plan_free(const wai_allocator *a, wai_plan *p) {
    if (!p) return;
    wai_free(a, p->layers);
    memset(p, 0, sizeof *p);
}

/* ---- parameter sums ---------------------------------------------------- */

wai_status wai_sums_compute(const wai_allocator *a, const wai_model *m, wai_sums *out) {
    memset(out, 0, sizeof *out);
    if ((m->dims != 1 && m->dims != 2) || (m->n_layers && !m->layers)) return WAI_invalid_argument;
    /* The arrays are the model's own, already held in memory, so their
     * sizes are proven; a hand-built layer whose n_weights disagrees with
     * its fields is refused rather than read past. */
    /* The entries first, rounded to 8 so the sums after them are aligned
     * on every target. */
    const uint64_t head = (wai_sat_mul(m->n_layers, sizeof(wai_layer_sums)) + 7) & ~(uint64_t)7;
    uint64_t total = head;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        if ((l->kind == WAI_LAYER_CONV || l->kind == WAI_LAYER_CONV_T) &&
            (l->n_weights != wai_layer_weight_count(l, m->dims) || (l->n_weights && !l->weights)))
            return WAI_invalid_argument;
        if (l->kind == WAI_LAYER_IGDN && l->c && !l->gamma) return WAI_invalid_argument;
        total = wai_sat_add(total, wai_sat_mul(wai_layer_param_sum_count(l), 8));
    }
    if (total == 0) return WAI_ok;
    if (!wai_fits_size(total)) return WAI_out_of_memory;
    uint8_t *block = wai_alloc_zeroed(a, 1, (size_t)total);
    if (!block) return WAI_out_of_memory;
    out->storage = block;
    out->n_layers = m->n_layers;
    out->layers = (wai_layer_sums *)(void *)block;
    uint64_t *at = (uint64_t *)(void *)(block + (size_t)head);
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        wai_layer_sums *ls = &out->layers[i];
        ls->n = wai_layer_param_sum_count(l);
        if (ls->n == 0) continue;
        ls->sums = at;
        at += ls->n;
        wai_status st = wai_layer_param_sums(l, m->dims, ls->sums);
        if (st != WAI_ok) {
            wai_sums_free(a, out);
            return st;
        }
        for (uint32_t o = 0; o < ls->n; o++)
            if (ls->sums[o] > ls->max) ls->max = ls->sums[o];
    }
    return WAI_ok;
}

void wai_sums_free(const wai_allocator *a, wai_sums *s) {
    if (!s) return;
    wai_free(a, s->storage);
    memset(s, 0, sizeof *s);
}
