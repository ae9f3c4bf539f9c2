/* SPDX-License-Identifier: BSD-2-Clause */
#include "formats/wiv1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

uint64_t wai_blocks_per_frame(uint32_t h, uint32_t w, uint32_t block) {
    return wai_sat_mul(wai_ceil_div(h, block), wai_ceil_div(w, block));
}

/* §3's field rules, in the order it lists them, then the keyframe kind. */
static wai_status check_fields(const wai_wiv1 *v, int capability_keyframe) {
    if (v->mv_precision != 1 && v->mv_precision != 2) return WAI_field_range;
    if (v->keyframe > 1) return WAI_field_range;
    if (v->n_frames < 1) return WAI_field_range;
    if (v->h < 1 || v->w < 1) return WAI_field_range;
    if (v->block < 1) return WAI_field_range;
    if (v->q < 1 || v->q > 65535) return WAI_field_range;
    if (v->cdf_len < 3 || v->cdf_len > 4097) return WAI_field_range; /* reading R5 */
    if (v->n_frames == 1 && (v->mv_precision != 1 || v->block != 1)) return WAI_field_range;
    if (v->keyframe != capability_keyframe) return WAI_keyframe_capability_mismatch;
    return WAI_ok;
}

/* §7's caps in §3's order: frame, clip, frame count, vector field. */
static wai_status check_caps(const wai_wiv1 *v) {
    uint64_t frame = wai_sat_mul3(v->h, v->w, 3);
    if (frame > WAI_CAP_ELEMENTS) return WAI_too_large;
    if (wai_sat_mul(v->n_frames, frame) > WAI_CAP_CLIP_BYTES) return WAI_too_large;
    if (v->n_frames > WAI_CAP_FRAMES) return WAI_too_large;
    if (wai_sat_mul3(2, v->nb, v->n_frames - 1) > WAI_CAP_ELEMENTS) return WAI_too_large;
    return WAI_ok;
}

wai_status wai_wiv1_parse(const uint8_t *data, size_t len, int capability_keyframe,
                          wai_wiv1 *out) {
    wai_reader r;
    wai_status st =
        wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIV1, WAI_WIV1_HEADER_BYTES,
                        WAI_RESERVED(7, 1) | WAI_RESERVED(34, 2));
    if (st != WAI_ok) return st;
    out->mv_precision = data[5];
    out->keyframe = data[6];
    wai_load_u32s(data + 8,
                  (uint32_t *const[]){&out->n_frames, &out->h, &out->w, &out->block, &out->q}, 5);
    out->offset = wai_i32_from_u32(wai_load_u32le(data + 28));
    out->cdf_len = wai_load_u16le(data + 32);
    if ((st = check_fields(out, capability_keyframe)) != WAI_ok) return st;
    out->nb = wai_blocks_per_frame(out->h, out->w, out->block);
    out->nbx = (uint32_t)wai_ceil_div(out->w, out->block);
    if ((st = check_caps(out)) != WAI_ok) return st;

    if ((st = wai_read_cdf_section(&r, out->cdf_len, WAI_CDF_T4097, &out->cdf)) != WAI_ok)
        return st;
    uint64_t vector_bytes = 4 * out->nb * (out->n_frames - 1); /* within the cap: fits */
    if ((st = wai_read_span(&r, vector_bytes, &out->vectors)) != WAI_ok) return st;
    if ((st = wai_read_stream_section(&r, &out->residual)) != WAI_ok) return st;
    if (out->keyframe == 1)
        return wai_read_nested_keyframe(&r, &out->key, &out->key_len, &out->key_header);
    return wai_reader_left(&r) ? WAI_trailing : WAI_ok;
}

void wai_wiv1_describe(const wai_wiv1 *v, wai_text *t) {
    wai_text_printf(t,
                    "{\"mv_precision\": %u, \"keyframe\": %u, \"n_frames\": %u, \"h\": %u, "
                    "\"w\": %u, \"block\": %u, \"q\": %u, \"offset\": %d, \"cdf_len\": %u, "
                    "\"stream_bytes\": %llu",
                    v->mv_precision, v->keyframe, v->n_frames, v->h, v->w, v->block, v->q,
                    v->offset, v->cdf_len, (unsigned long long)v->residual.len);
    if (v->keyframe) {
        wai_text_printf(t, ", \"keyframe_payload\": ");
        wai_wih1_describe(&v->key_header, t);
    }
    wai_text_printf(t, "}");
}
