/* SPDX-License-Identifier: BSD-2-Clause */
/* WCF1 parse (wcf1.h). Layout, little-endian:
 *    0 "WCF1"  4 version 1  5 kind  6..7 reserved 0
 *    8 u32 h  12 u32 w  16 u32 m  20 u32 sh  24 u32 sw  28 u32 cf
 *   32 u32 L, then L bytes of E1 stream */
#include "formats/wcf1.h"

#include <string.h>

#include "common/checked.h"

wai_status wai_wcf1_parse(const uint8_t *data, size_t len, wai_wcf1 *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WCF1,
                                    WAI_WCF1_HEADER_BYTES, WAI_RESERVED(6, 2));
    if (st != WAI_ok) return st;
    out->kind = data[5];
    wai_load_u32s(data + 8,
                  (uint32_t *const[]){&out->h, &out->w, &out->m, &out->sh, &out->sw, &out->cf}, 6);
    if (out->kind > WAI_WCF1_INTER || !out->h || !out->w || !out->m || !out->sh || !out->sw ||
        !out->cf)
        return WAI_field_range;
    if (wai_sat_mul3(out->h, out->w, 3) > WAI_CAP_ELEMENTS ||
        wai_sat_mul(2, wai_sat_mul3(out->m, out->sh, out->sw)) > WAI_CAP_ELEMENTS ||
        wai_sat_mul3(out->cf, out->sh, out->sw) > WAI_CAP_ELEMENTS)
        return WAI_too_large;
    return wai_read_last_stream(&r, &out->stream);
}

int wai_wcf1_same_header(const wai_wcf1 *a, const wai_wcf1 *b) {
    return a->h == b->h && a->w == b->w && a->m == b->m && a->sh == b->sh && a->sw == b->sw &&
           a->cf == b->cf;
}

void wai_wcf1_describe(const wai_wcf1 *f, wai_text *t) {
    wai_text_printf(t,
                    "{\"kind\": \"%s\", \"h\": %u, \"w\": %u, \"m\": %u, \"sh\": %u, \"sw\": %u, "
                    "\"cf\": %u, \"stream_bytes\": %llu}",
                    f->kind == WAI_WCF1_INTRA ? "intra" : "inter", f->h, f->w, f->m, f->sh, f->sw,
                    f->cf, (unsigned long long)f->stream.len);
}
