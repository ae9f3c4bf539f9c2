/* SPDX-License-Identifier: BSD-2-Clause */
/* WIC1 parse (wic1.h). Layout, little-endian:
 *    0 "WIC1"  4 version 1  5..7 reserved 0  8 u32 n_frames
 *   12 n_frames x (u32 F, then F bytes: a WCF1 frame) */
#include "formats/wic1.h"

#include <string.h>

#include "common/checked.h"

wai_status wai_wic1_parse(const uint8_t *data, size_t len, wai_wic1 *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIC1,
                                    WAI_WIC1_HEADER_BYTES, WAI_RESERVED(5, 3));
    if (st != WAI_ok) return st;
    out->n_frames = wai_load_u32le(data + 8);
    if (out->n_frames == 0) return WAI_field_range;
    if (out->n_frames > WAI_CAP_FRAMES) return WAI_too_large;
    out->frames = data + r.pos;
    for (uint32_t i = 0; i < out->n_frames; i++) {
        uint32_t n;
        const uint8_t *bytes;
        if ((st = wai_read_u32(&r, &n)) != WAI_ok || (st = wai_read_span(&r, n, &bytes)) != WAI_ok)
            return WAI_stream_length;
        /* F's bytes are one WCF1 payload, its magic checked with WCF1
         * wanted (reading S15). */
        wai_wcf1 f;
        if ((st = wai_wcf1_parse(bytes, n, &f)) != WAI_ok) return st;
        if (f.kind != (i ? WAI_WCF1_INTER : WAI_WCF1_INTRA)) return WAI_field_range;
        if (i == 0) {
            out->first = f;
            if (wai_sat_mul(out->n_frames, wai_sat_mul3(f.h, f.w, 3)) > WAI_CAP_CLIP_BYTES)
                return WAI_too_large;
        } else if (!wai_wcf1_same_header(&f, &out->first)) {
            return WAI_geometry_mismatch;
        }
    }
    out->frames_len = r.pos - WAI_WIC1_HEADER_BYTES;
    return wai_reader_left(&r) ? WAI_trailing : WAI_ok;
}

void wai_wic1_next(const wai_wic1 *c, size_t *at, const uint8_t **frame, size_t *len) {
    const uint32_t n = wai_load_u32le(c->frames + *at);
    *frame = c->frames + *at + 4;
    *len = n;
    *at += 4 + (size_t)n;
}

void wai_wic1_describe(const wai_wic1 *c, wai_text *t) {
    wai_text_printf(t,
                    "{\"n_frames\": %u, \"h\": %u, \"w\": %u, \"m\": %u, \"sh\": %u, \"sw\": %u, "
                    "\"cf\": %u}",
                    c->n_frames, c->first.h, c->first.w, c->first.m, c->first.sh, c->first.sw,
                    c->first.cf);
}
