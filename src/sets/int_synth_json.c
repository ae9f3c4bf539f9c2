/* SPDX-License-Identifier: BSD-2-Clause */
/* int_synth.json (int_synth_json.h). */
#include "sets/int_synth_json.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/int128.h"
#include "common/json.h"

#define BAD WAI_payload_malformed

/* A member that is a non-negative integer below 2^32; absent: dflt (or
 * refused when dflt is UINT64_MAX). */
static int u32_member(const wai_json_value *o, const char *key, uint64_t dflt, uint32_t *out) {
    const wai_json_value *v = wai_json_object_get(o, key);
    uint64_t u;
    if (!v) {
        if (dflt == UINT64_MAX) return 0;
        *out = (uint32_t)dflt;
        return 1;
    }
    if (!wai_json_get_u64(v, &u) || u > UINT32_MAX) return 0;
    *out = (uint32_t)u;
    return 1;
}

/* An array of exactly n integers fitting i32, into a fresh buffer. */
static wai_status i32_array(const wai_allocator *a, const wai_json_value *v, uint64_t n,
                            int32_t **out) {
    if (!v || wai_json_type_of(v) != WAI_JSON_ARRAY || wai_json_array_len(v) != n) return BAD;
    if (!(*out = wai_alloc_array(a, n ? (size_t)n : 1, sizeof **out))) return WAI_out_of_memory;
    for (size_t i = 0; i < (size_t)n; i++)
        if (!wai_json_get_i32(wai_json_array_at(v, i), &(*out)[i])) return BAD;
    return WAI_ok;
}

static wai_status read_layer(const wai_allocator *a, const wai_json_value *o, wai_synth_layer *l) {
    if (wai_json_type_of(o) != WAI_JSON_OBJECT) return BAD;
    uint32_t shift;
    if (!u32_member(o, "in_ch", UINT64_MAX, &l->in) || !u32_member(o, "out_ch", UINT64_MAX, &l->out) ||
        !u32_member(o, "k", UINT64_MAX, &l->k) || !u32_member(o, "stride", UINT64_MAX, &l->stride) ||
        !u32_member(o, "pad", UINT64_MAX, &l->pad) || !u32_member(o, "out_pad", 0, &l->out_pad) ||
        !u32_member(o, "shift", 0, &shift))
        return BAD;
    if (l->out < 1 || l->k < 1 || l->stride < 1 || shift > 127) return BAD;
    l->shift = shift;
    const wai_json_value *relu = wai_json_object_get(o, "relu");
    if (relu && wai_json_type_of(relu) != WAI_JSON_BOOL) return BAD; /* null is not absent (S2) */
    l->relu = relu ? wai_json_bool(relu) : 0;
    /* in·out·k·k weights: a count past 64 bits cannot be an array's. */
    uint64_t n;
    if (!wai_mul_u64(l->in, l->out, &n) || !wai_mul_u64(n, l->k, &n) || !wai_mul_u64(n, l->k, &n))
        return BAD;
    wai_status st = i32_array(a, wai_json_object_get(o, "weight"), n, &l->weight);
    if (st == WAI_ok) st = i32_array(a, wai_json_object_get(o, "bias"), l->out, &l->bias);
    return st;
}

wai_status wai_synth_model_read(const wai_allocator *a, const uint8_t *text, size_t len,
                                wai_synth_model *m) {
    memset(m, 0, sizeof *m);
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(a, text, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return BAD;
    const wai_json_value *root = wai_json_root(doc);
    const wai_json_value *layers =
        wai_json_type_of(root) == WAI_JSON_OBJECT ? wai_json_object_get(root, "layers") : NULL;
    wai_status st = BAD;
    size_t n = layers && wai_json_type_of(layers) == WAI_JSON_ARRAY ? wai_json_array_len(layers) : 0;
    if (n >= 1 && n <= UINT32_MAX) {
        st = (m->layers = wai_alloc_zeroed(a, n, sizeof *m->layers)) ? WAI_ok : WAI_out_of_memory;
        for (size_t i = 0; st == WAI_ok && i < n; i++, m->n_layers++)
            st = read_layer(a, wai_json_array_at(layers, i), &m->layers[i]);
        if (st != WAI_ok && m->n_layers < n) m->n_layers++; /* the part read is freed too */
    }
    wai_json_free(doc);
    /* The chain: each layer takes the channels the one before gives. */
    for (uint32_t i = 1; st == WAI_ok && i < m->n_layers; i++)
        if (m->layers[i].in != m->layers[i - 1].out) st = BAD;
    if (st == WAI_ok && !wai_synth_model_certified(m)) st = BAD;
    return st;
}

void wai_synth_model_free(const wai_allocator *a, wai_synth_model *m) {
    for (uint32_t i = 0; m->layers && i < m->n_layers; i++) {
        wai_free(a, m->layers[i].weight);
        wai_free(a, m->layers[i].bias);
    }
    wai_free(a, m->layers);
    memset(m, 0, sizeof *m);
}

int wai_synth_model_certified(const wai_synth_model *m) {
    const wai_u128 limit = wai_u128_from_u64((uint64_t)INT64_MAX);
    uint64_t A = 128; /* |x| of an i8 latent */
    for (uint32_t li = 0; li < m->n_layers; li++) {
        const wai_synth_layer *l = &m->layers[li];
        const uint64_t kk = (uint64_t)l->k * l->k;
        uint64_t next = 0;
        for (uint32_t o = 0; o < l->out; o++) {
            /* S_o, saturating: a sum past 2^64 is past every bound. */
            uint64_t s = 0;
            for (uint32_t i = 0; i < l->in; i++) {
                const int32_t *w = l->weight + ((uint64_t)i * l->out + o) * kk;
                for (uint64_t t = 0; t < kk; t++) s = wai_sat_add(s, wai_abs_i64(w[t]));
            }
            /* T = A·S_o + |bias_o|, exact; at most 2^63 - 1. */
            wai_u128 T = wai_u128_add(wai_u128_mul_u64(A, s),
                                      wai_u128_from_u64(wai_abs_i64(l->bias[o])));
            if (wai_u128_cmp(T, limit) > 0) return 0;
            /* ceil(T / 2^shift): T < 2^63, so a shift of 63 or more gives 0 or 1. */
            uint64_t t = T.lo, q = l->shift >= 64 ? 0 : t >> l->shift;
            if (l->shift >= 64 ? t != 0 : (t & (((uint64_t)1 << l->shift) - 1)) != 0) q++;
            if (q > next) next = q;
        }
        A = next;
    }
    return 1;
}
