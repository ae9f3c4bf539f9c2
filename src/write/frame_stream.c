/* SPDX-License-Identifier: BSD-2-Clause */
/* Split and join (include/wai/wai_write.h). §2's canonical end does not
 * close the other form: a stream whose first state is under 2^31 can end
 * canonically and decode the same steps (see
 * tests/fuzz/regressions/fuzz_wiv1/README.md); join writes such a clip in
 * the encoder's form. */
#include "wai/wai_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/wif1.h"
#include "formats/wiv1.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

/* A growing list of rANS steps. */
typedef struct step_list {
    const wai_allocator *a;
    wai_rans_step *s;
    size_t n, cap;
} step_list;

static wai_status reserve(step_list *l, size_t more) {
    if (l->cap - l->n >= more) return WAI_ok;
    size_t cap = l->cap ? l->cap : 4096;
    while (cap - l->n < more) {
        if (cap > SIZE_MAX / 2 / sizeof *l->s) return WAI_out_of_memory;
        cap *= 2;
    }
    wai_rans_step *grown = wai_alloc_array(l->a, cap, sizeof *grown);
    if (!grown) return WAI_out_of_memory;
    if (l->n) memcpy(grown, l->s, l->n * sizeof *grown);
    wai_free(l->a, l->s);
    l->s = grown;
    l->cap = cap;
    return WAI_ok;
}

/* Appends the steps of n symbols of d. */
static wai_status read_steps(step_list *l, wai_rans_dec *d, const wai_cdf_table *t, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        wai_status st = reserve(l, WAI_RANS_MAX_STEPS_PER_SYMBOL);
        if (st != WAI_ok) return st;
        size_t k;
        if ((st = wai_rans_decode_steps(d, t, l->s + l->n, &k)) != WAI_ok) return st;
        l->n += k;
    }
    return WAI_ok;
}

void wai_payloads_free(const wai_allocator *a, wai_payload *p, uint32_t n) {
    if (!p) return;
    for (uint32_t i = 0; i < n; i++) wai_free(a, p[i].data);
    wai_free(a, p);
}

/* The keyframe kind a WIV1 or WIF1 header states (byte 6), so one parse
 * takes either capability's payloads; a value past 1 is parsed as 0 and
 * refused there. */
static int keyframe_of(const uint8_t *b, size_t len) {
    return len > 6 && b[6] == 1;
}

static void vectors_of(const uint8_t *bytes, uint64_t n, int16_t *out) {
    for (uint64_t i = 0; i < 2 * n; i++) out[i] = wai_i16_from_u16(wai_load_u16le(bytes + 2 * i));
}

wai_status wai_wiv1_split(const wai_allocator *a, const uint8_t *clip, size_t len,
                          wai_payload **frames, uint32_t *n_frames) {
    *frames = NULL;
    *n_frames = 0;
    wai_wiv1 v;
    wai_status st = wai_wiv1_parse(clip, len, keyframe_of(clip, len), &v);
    if (st != WAI_ok) return st;
    /* Keyframe 1: frame 0 is the nested WIH1, and the stream codes frames 1
     * on (integer-payloads §16: the group's intra frame carries it). */
    const uint32_t first = v.keyframe ? 1 : 0;
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_from_bytes(cdf, v.cdf, v.cdf_len);
    wai_cdf_table t;
    if ((st = wai_cdf_table_init(&t, a, cdf, v.cdf_len, 16)) != WAI_ok) return st;
    wai_payload *out = wai_alloc_zeroed(a, v.n_frames, sizeof *out);
    int16_t *vectors = v.n_frames > 1 ? wai_alloc_array(a, 2 * v.nb, sizeof *vectors) : NULL;
    step_list steps = {a, NULL, 0, 0};
    if (!out || (v.n_frames > 1 && !vectors)) st = WAI_out_of_memory;
    wai_rans_dec d;
    wai_rans_dec_init(&d, v.residual.bytes, v.residual.len);
    uint64_t samples = (uint64_t)v.h * v.w * 3;
    if (st == WAI_ok && first == v.n_frames) st = wai_rans_end_canonical(&d);
    for (uint32_t f = 0; f < v.n_frames && st == WAI_ok; f++) {
        uint8_t *stream = NULL;
        size_t stream_len = 0;
        if (f >= first) {
            steps.n = 0;
            if ((st = read_steps(&steps, &d, &t, samples)) != WAI_ok) break;
            if (f + 1 == v.n_frames && (st = wai_rans_end_canonical(&d)) != WAI_ok) break;
            st = wai_rans_encode_steps(a, &t, steps.s, steps.n, &stream, &stream_len);
            if (st != WAI_ok) break;
        }
        wai_wif1_parts p = {0};
        p.keyframe = v.keyframe;
        p.h = v.h;
        p.w = v.w;
        p.stream = stream;
        p.stream_len = stream_len;
        if (f == 0) {
            p.kind = WAI_WIF1_INTRA;
            p.q = v.q;
            p.offset = v.offset;
            p.cdf = cdf;
            p.cdf_len = v.cdf_len;
            p.key = v.key;
            p.key_len = v.key_len;
        } else {
            p.kind = WAI_WIF1_INTER;
            p.mv_precision = v.mv_precision;
            p.block = v.block;
            vectors_of(v.vectors + 4 * (size_t)(f - 1) * v.nb, v.nb, vectors);
            p.vectors = vectors;
        }
        st = wai_wif1_write(a, &p, &out[f].data, &out[f].len);
        wai_free(a, stream);
    }
    wai_free(a, steps.s);
    wai_free(a, vectors);
    wai_cdf_table_free(&t, a);
    if (st != WAI_ok) {
        wai_payloads_free(a, out, v.n_frames);
        return st;
    }
    *frames = out;
    *n_frames = v.n_frames;
    return WAI_ok;
}

/* The group's frames parsed, checked against frame 0 and each other. */
static wai_status check_group(const wai_payload *frames, uint32_t n, wai_wif1 *parsed) {
    if (n < 1) return WAI_field_range;
    /* Every frame of the group is of frame 0's capability. */
    int keyframe = keyframe_of(frames[0].data, frames[0].len);
    for (uint32_t i = 0; i < n; i++) {
        wai_status st = wai_wif1_parse(frames[i].data, frames[i].len, keyframe, &parsed[i]);
        if (st != WAI_ok) return st;
        if ((parsed[i].kind == WAI_WIF1_INTER) != (i > 0)) return WAI_field_range;
        if (parsed[i].h != parsed[0].h || parsed[i].w != parsed[0].w)
            return WAI_geometry_mismatch;
        if (i > 1 && (parsed[i].block != parsed[1].block ||
                      parsed[i].mv_precision != parsed[1].mv_precision))
            return WAI_field_range;
    }
    return WAI_ok;
}

wai_status wai_wif1_join(const wai_allocator *a, const wai_payload *frames, uint32_t n_frames,
                         uint8_t **clip, size_t *len) {
    *clip = NULL;
    *len = 0;
    if (n_frames > WAI_CAP_FRAMES) return WAI_too_large;
    wai_wif1 *parsed = wai_alloc_array(a, n_frames ? n_frames : 1, sizeof *parsed);
    if (!parsed) return WAI_out_of_memory;
    wai_status st = check_group(frames, n_frames, parsed);
    if (st != WAI_ok) {
        wai_free(a, parsed);
        return st;
    }
    const wai_wif1 *intra = &parsed[0];
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_from_bytes(cdf, intra->cdf, intra->cdf_len);
    wai_cdf_table t;
    if ((st = wai_cdf_table_init(&t, a, cdf, intra->cdf_len, 16)) != WAI_ok) {
        wai_free(a, parsed);
        return st;
    }
    uint64_t nb = n_frames > 1 ? parsed[1].nb : 0;
    uint64_t n_vectors = nb * (n_frames - 1);
    /* The clip caps (checked again when the clip is written) bound this. */
    if (wai_sat_mul3(2, nb, n_frames - 1) > WAI_CAP_ELEMENTS ||
        wai_sat_mul(n_frames, wai_sat_mul3(intra->h, intra->w, 3)) > WAI_CAP_CLIP_BYTES)
        st = WAI_too_large;
    int16_t *vectors = st == WAI_ok && n_vectors ? wai_alloc_array(a, 2 * n_vectors, 2) : NULL;
    if (n_vectors && st == WAI_ok && !vectors) st = WAI_out_of_memory;
    step_list steps = {a, NULL, 0, 0};
    uint64_t samples = (uint64_t)intra->h * intra->w * 3;
    const int keyed = intra->keyframe == 1;
    for (uint32_t i = 0; i < n_frames && st == WAI_ok; i++) {
        if (i == 0 && keyed) continue; /* the keyframe: a WIH1, no stream */
        wai_rans_dec d;
        wai_rans_dec_init(&d, parsed[i].residual.bytes, parsed[i].residual.len);
        if ((st = read_steps(&steps, &d, &t, samples)) == WAI_ok) st = wai_rans_end_canonical(&d);
        if (i > 0) vectors_of(parsed[i].vectors, nb, vectors + 2 * nb * (i - 1));
    }
    uint8_t *stream = NULL;
    size_t stream_len = 0;
    if (st == WAI_ok) st = wai_rans_encode_steps(a, &t, steps.s, steps.n, &stream, &stream_len);
    if (st == WAI_ok) {
        wai_wiv1_parts p = {0};
        p.mv_precision = n_frames > 1 ? parsed[1].mv_precision : 1;
        p.block = n_frames > 1 ? parsed[1].block : 1;
        p.n_frames = n_frames;
        p.keyframe = keyed;
        p.key = keyed ? intra->key : NULL;
        p.key_len = keyed ? intra->key_len : 0;
        p.h = intra->h;
        p.w = intra->w;
        p.q = intra->q;
        p.offset = intra->offset;
        p.cdf = cdf;
        p.cdf_len = intra->cdf_len;
        p.vectors = vectors;
        p.stream = stream;
        p.stream_len = stream_len;
        st = wai_wiv1_write(a, &p, clip, len);
    }
    wai_free(a, stream);
    wai_free(a, steps.s);
    wai_free(a, vectors);
    wai_cdf_table_free(&t, a);
    wai_free(a, parsed);
    return st;
}
