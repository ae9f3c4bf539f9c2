/* SPDX-License-Identifier: BSD-2-Clause */
/* B18F parse (see b18f.h). Layout, little-endian:
 *    0  "B18F"   4  version 1   5..7 reserved 0
 *    8  u32 height   12 u32 width   16 u32 m   20 u32 lh   24 u32 lw
 *   28  u32 L, then L bytes of E1 stream */
#include "formats/b18f.h"

#include <string.h>

#include "common/checked.h"

wai_status wai_b18f_parse(const uint8_t *data, size_t len, wai_b18f *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_B18F,
                                    WAI_B18F_HEADER_BYTES, WAI_RESERVED(5, 3));
    if (st != WAI_ok) return st;
    wai_load_u32s(data + 8,
                  (uint32_t *const[]){&out->height, &out->width, &out->m, &out->lh, &out->lw}, 5);
    if (out->height < 1 || out->width < 1 || out->m < 1) return WAI_field_range;
    if (out->lh != wai_ceil_div(out->height, WAI_B18F_STRIDE) ||
        out->lw != wai_ceil_div(out->width, WAI_B18F_STRIDE))
        return WAI_field_range;
    if (wai_sat_mul3(out->m, out->lh, out->lw) > WAI_CAP_ELEMENTS ||
        wai_sat_mul3(3, out->height, out->width) > WAI_CAP_ELEMENTS)
        return WAI_too_large;
    return wai_read_last_stream(&r, &out->stream);
}

void wai_b18f_describe(const wai_b18f *b, wai_text *t) {
    wai_text_printf(t,
                    "{\"height\": %u, \"width\": %u, \"m\": %u, \"lh\": %u, \"lw\": %u, "
                    "\"stream_bytes\": %llu}",
                    b->height, b->width, b->m, b->lh, b->lw, (unsigned long long)b->stream.len);
}
