/* SPDX-License-Identifier: BSD-2-Clause */
#include "formats/wif1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/wiv1.h"

/* §16's field rules in its order; a field one kind does not use is 0. */
static wai_status check_fields(const wai_wif1 *f, int capability_keyframe) {
    int inter = f->kind == WAI_WIF1_INTER;
    if (f->kind > 1) return WAI_field_range;
    if (f->keyframe > 1) return WAI_field_range;
    if (inter ? (f->mv_precision != 1 && f->mv_precision != 2) : f->mv_precision != 0)
        return WAI_field_range;
    if (f->h < 1 || f->w < 1) return WAI_field_range;
    if (inter ? f->block < 1 : f->block != 0) return WAI_field_range;
    if (inter ? f->q != 0 : (f->q < 1 || f->q > 65535)) return WAI_field_range;
    if (inter && f->offset != 0) return WAI_field_range;
    if (inter ? f->cdf_len != 0 : (f->cdf_len < 3 || f->cdf_len > 4097)) return WAI_field_range;
    if (f->keyframe != capability_keyframe) return WAI_keyframe_capability_mismatch;
    return WAI_ok;
}

wai_status wai_wif1_parse(const uint8_t *data, size_t len, int capability_keyframe,
                          wai_wif1 *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIF1,
                                    WAI_WIF1_HEADER_BYTES, WAI_RESERVED(30, 2));
    if (st != WAI_ok) return st;
    out->kind = data[5];
    out->keyframe = data[6];
    out->mv_precision = data[7];
    wai_load_u32s(data + 8, (uint32_t *const[]){&out->h, &out->w, &out->block, &out->q}, 4);
    out->offset = wai_i32_from_u32(wai_load_u32le(data + 24));
    out->cdf_len = wai_load_u16le(data + 28);
    if ((st = check_fields(out, capability_keyframe)) != WAI_ok) return st;

    int inter = out->kind == WAI_WIF1_INTER;
    if (wai_sat_mul3(out->h, out->w, 3) > WAI_CAP_ELEMENTS) return WAI_too_large;
    if (inter) {
        out->nb = wai_blocks_per_frame(out->h, out->w, out->block);
        out->nbx = (uint32_t)wai_ceil_div(out->w, out->block);
        /* Reading R8: cannot fire once the frame cap passes; kept in its place. */
        if (wai_sat_mul(2, out->nb) > WAI_CAP_ELEMENTS) return WAI_too_large;
    }

    if (inter) {
        if ((st = wai_read_span(&r, 4 * out->nb, &out->vectors)) != WAI_ok) return st;
    } else {
        st = wai_read_cdf_section(&r, out->cdf_len, WAI_CDF_T4097, &out->cdf);
        if (st != WAI_ok) return st;
        if (out->keyframe == 1)
            return wai_read_nested_keyframe(&r, &out->key, &out->key_len, &out->key_header);
    }
    return wai_read_last_stream(&r, &out->residual);
}

void wai_wif1_describe(const wai_wif1 *f, wai_text *t) {
    wai_text_printf(t,
                    "{\"kind\": \"%s\", \"keyframe\": %u, \"mv_precision\": %u, \"h\": %u, "
                    "\"w\": %u, \"block\": %u, \"q\": %u, \"offset\": %d, \"cdf_len\": %u",
                    f->kind ? "inter" : "intra", f->keyframe, f->mv_precision, f->h, f->w,
                    f->block, f->q, f->offset, f->cdf_len);
    if (f->key) {
        wai_text_printf(t, ", \"keyframe_payload\": ");
        wai_wih1_describe(&f->key_header, t);
    } else {
        wai_text_printf(t, ", \"stream_bytes\": %llu", (unsigned long long)f->residual.len);
    }
    wai_text_printf(t, "}");
}
