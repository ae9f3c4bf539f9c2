/* SPDX-License-Identifier: BSD-2-Clause */
/* WIV1's JSON form (integer-payloads §10; docs/json-forms.md):
 *   - mv_precision absent is 1; only 1 and 2 convert (field_range);
 *   - a one-frame clip is written with mv_precision 1 and block 1, whatever
 *     the form states;
 *   - mvs holds one list per frame, the first empty; a frame's list shorter
 *     than its block grid is padded with (0, 0); a longer one, or a vector
 *     outside i16, is field_range;
 *   - rmax is not carried;
 *   - wai.video.int_hyper's keyframe is its WIH1 form, member "keyframe". */
#include "write/json_forms.h"

#include <string.h>

#include "common/alloc.h"
#include "write/json_form.h"
#include "write/payloads.h"

/* The vectors of frames 1.. from mvs, each list padded to nb. */
static wai_status read_vectors(const wai_json_value *mvs, const wai_wiv1 *v, int16_t *vec) {
    for (uint32_t f = 1; f < v->n_frames; f++) {
        const wai_json_value *list = wai_json_array_at(mvs, f);
        if (wai_json_type_of(list) != WAI_JSON_ARRAY) return WAI_payload_malformed;
        const size_t n = wai_json_array_len(list);
        if (n > v->nb) return WAI_field_range;
        int16_t *at = vec + 2 * (size_t)(f - 1) * v->nb;
        for (size_t i = 0; i < n; i++) {
            const wai_json_value *pair = wai_json_array_at(list, i);
            if (wai_json_type_of(pair) != WAI_JSON_ARRAY || wai_json_array_len(pair) != 2)
                return WAI_payload_malformed;
            for (size_t c = 0; c < 2; c++) {
                int64_t x;
                wai_status st = wai_jf_int_value(wai_json_array_at(pair, c), INT16_MIN, INT16_MAX, &x);
                if (st != WAI_ok) return st;
                at[2 * i + c] = (int16_t)x;
            }
        }
    }
    return WAI_ok;
}

wai_status wai_wiv1_from_json(const wai_allocator *a, const wai_json_value *root, int keyframe,
                              uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    int64_t n, h, w, mvp, block, q, offset;
    wai_status st;
    if ((st = wai_jf_int(root, "n_frames", 1, 0, UINT32_MAX, 0, &n)) != WAI_ok ||
        (st = wai_jf_int(root, "h", 1, 0, UINT32_MAX, 0, &h)) != WAI_ok ||
        (st = wai_jf_int(root, "w", 1, 0, UINT32_MAX, 0, &w)) != WAI_ok ||
        (st = wai_jf_int(root, "mv_precision", 0, 1, 2, 1, &mvp)) != WAI_ok ||
        (st = wai_jf_int(root, "block", 1, 0, UINT32_MAX, 0, &block)) != WAI_ok ||
        (st = wai_jf_int(root, "q", 1, 0, UINT32_MAX, 0, &q)) != WAI_ok ||
        (st = wai_jf_int(root, "offset", 1, INT32_MIN, INT32_MAX, 0, &offset)) != WAI_ok)
        return st;
    const wai_json_value *mvs = wai_json_object_get(root, "mvs");
    const wai_json_value *key = wai_json_object_get(root, "keyframe");
    if (!mvs || wai_json_type_of(mvs) != WAI_JSON_ARRAY) return WAI_payload_malformed;
    if ((key != NULL) != (keyframe == 1)) return WAI_keyframe_capability_mismatch;
    if (key && wai_json_type_of(key) != WAI_JSON_OBJECT) return WAI_payload_malformed;
    wai_wiv1_parts p;
    memset(&p, 0, sizeof p);
    p.mv_precision = (uint8_t)mvp;
    p.keyframe = (uint8_t)keyframe;
    p.n_frames = (uint32_t)n, p.h = (uint32_t)h, p.w = (uint32_t)w;
    p.block = (uint32_t)block, p.q = (uint32_t)q, p.offset = (int32_t)offset;
    if (p.n_frames == 1) p.mv_precision = 1, p.block = 1;
    uint32_t *cdf = NULL;
    uint8_t *stream = NULL, *wih1 = NULL;
    int16_t *vec = NULL;
    if ((st = wai_jf_u32_array(a, root, "cdf", &cdf, &p.cdf_len)) != WAI_ok) goto done;
    p.cdf = cdf;
    /* The header's checks before anything is sized by it (nb among them). */
    wai_wiv1 v;
    if ((st = wai_wiv1_check_header(&p, &v)) != WAI_ok) goto done;
    if (wai_json_array_len(mvs) != p.n_frames) {
        st = WAI_field_range;   /* one list per frame */
        goto done;
    }
    const wai_json_value *first = wai_json_array_at(mvs, 0);
    if (wai_json_type_of(first) != WAI_JSON_ARRAY || wai_json_array_len(first) != 0) {
        st = WAI_field_range;   /* frame 0 has no vector */
        goto done;
    }
    const uint64_t n_vec = v.nb * (p.n_frames - 1);   /* within the field's cap */
    if (n_vec && !(vec = wai_alloc_zeroed(a, (size_t)(2 * n_vec), sizeof *vec))) {
        st = WAI_out_of_memory;
        goto done;
    }
    if ((st = read_vectors(mvs, &v, vec)) != WAI_ok) goto done;
    p.vectors = vec;
    if ((st = wai_jf_bytes(a, root, "stream", &stream, &p.stream_len)) != WAI_ok) goto done;
    p.stream = stream;
    if (key) {
        if ((st = wai_wih1_from_json(a, key, &wih1, &p.key_len)) != WAI_ok) goto done;
        p.key = wih1;
    }
    st = wai_wiv1_write(a, &p, out, out_len);
done:
    wai_free(a, cdf);
    wai_free(a, vec);
    wai_free(a, stream);
    wai_free(a, wih1);
    return st;
}

void wai_wiv1_emit_json(wai_text *t, const wai_wiv1 *v) {
    wai_text_printf(t,
                    "{\n  \"n_frames\": %u, \"h\": %u, \"w\": %u, \"mv_precision\": %u, "
                    "\"block\": %u, \"q\": %u, \"offset\": %d,\n  \"cdf\": ",
                    v->n_frames, v->h, v->w, v->mv_precision, v->block, v->q, (int)v->offset);
    wai_jf_put_table(t, v->cdf, v->cdf_len);
    wai_text_printf(t, ",\n  \"mvs\": [[]");
    for (uint32_t f = 1; f < v->n_frames; f++) {
        wai_text_printf(t, ",\n    [");
        for (uint64_t i = 0; i < v->nb; i++) {
            int16_t dy, dx;
            wai_wiv1_vector(v, (uint64_t)(f - 1) * v->nb + i, &dy, &dx);
            wai_text_printf(t, "%s[%d, %d]", i ? ", " : "", dy, dx);
        }
        wai_text_printf(t, "]");
    }
    wai_text_printf(t, "],\n  \"stream\": ");
    wai_jf_put_b64(t, v->residual.bytes, v->residual.len);
    if (v->keyframe) {
        wai_text_printf(t, ",\n  \"keyframe\": ");
        wai_wih1_emit_json(t, &v->key_header, 2);
    }
    wai_text_printf(t, "\n}\n");
}
