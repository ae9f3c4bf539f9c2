/* SPDX-License-Identifier: BSD-2-Clause */
/* The WHM1 / WAM1 writer (integer-payloads §9): a model, parsed or built
 * by hand, back to its bytes (formats/whm1.h has the parse). */
#include "gen/set_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"
#include "formats/whm1.h"

static void put_u32(uint8_t **p, uint32_t v) {
    wai_store_u32le(*p, v);
    *p += 4;
}

static void put_u64(uint8_t **p, uint64_t v) {
    wai_store_u64le(*p, v);
    *p += 8;
}

/* Two's complement of a signed value as unsigned, without a signed
 * overflow (the conversion to unsigned is defined modulo 2^n). */
static uint64_t u64_of(int64_t v) { return (uint64_t)v; }

wai_status wai_model_write(const wai_allocator *a, const wai_model *m, uint8_t **out,
                           size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (m->dims != 1 && m->dims != 2) return WAI_invalid_argument;
    if (m->n_layers > 0 && !m->layers) return WAI_invalid_argument;
    uint64_t total = WAI_WHM1_HEADER_BYTES;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        if ((uint32_t)l->kind > WAI_LAYER_LEAKY || !wai_whm1_tag_allowed((uint32_t)l->kind, m->dims))
            return WAI_invalid_argument;
        wai_layer_counts c = wai_whm1_counts(l, m->dims);
        int conv = l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV;
        if (conv && (l->n_weights != c.weights || (c.weights && !l->weights) ||
                     (c.per_out && (!l->mult || !l->bias))))
            return WAI_invalid_argument;
        if (l->kind == WAI_LAYER_IGDN && c.beta && (!l->gamma || !l->beta))
            return WAI_invalid_argument;
        uint64_t head = 1 + (l->kind == WAI_LAYER_CONV_T ? 24
                             : l->kind == WAI_LAYER_CONV ? 20
                             : l->kind == WAI_LAYER_IGDN ? 4
                             : l->kind == WAI_LAYER_LEAKY ? 12 : 0);
        total = wai_sat_add(total, wai_sat_add(head, wai_whm1_param_bytes(&c)));
    }
    if (!wai_fits_size(total)) return WAI_too_large;
    uint8_t *b = wai_alloc(a, (size_t)total);
    if (!b) return WAI_out_of_memory;
    uint8_t *p = b;
    memcpy(p, wai_whm1_magic(m->dims), 4);
    p += 4;
    put_u32(&p, m->afrac);
    put_u32(&p, m->gf);
    put_u32(&p, m->shift);
    put_u32(&p, m->n_layers);
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        wai_layer_counts c = wai_whm1_counts(l, m->dims);
        *p++ = (uint8_t)l->kind;
        switch (l->kind) {
        case WAI_LAYER_CONV_T:
        case WAI_LAYER_CONV:
            put_u32(&p, l->cin);
            put_u32(&p, l->cout);
            put_u32(&p, l->k);
            put_u32(&p, l->stride);
            put_u32(&p, l->pad);
            if (l->kind == WAI_LAYER_CONV_T) put_u32(&p, l->opad);
            for (uint64_t j = 0; j < c.weights; j++, p += 2)
                wai_store_u16le(p, (uint16_t)u64_of(l->weights[j]));
            for (uint64_t j = 0; j < c.per_out; j++) put_u64(&p, u64_of(l->mult[j]));
            for (uint64_t j = 0; j < c.per_out; j++) put_u64(&p, u64_of(l->bias[j]));
            break;
        case WAI_LAYER_IGDN:
            put_u32(&p, l->c);
            for (uint64_t j = 0; j < c.gamma; j++) put_u32(&p, (uint32_t)u64_of(l->gamma[j]));
            for (uint64_t j = 0; j < c.beta; j++) put_u64(&p, u64_of(l->beta[j]));
            break;
        case WAI_LAYER_RELU:
            break;
        case WAI_LAYER_LEAKY:
            put_u64(&p, u64_of(l->slope));
            put_u32(&p, l->lshift);
            break;
        }
    }
    *out = b;
    *out_len = (size_t)total;
    return WAI_ok;
}
