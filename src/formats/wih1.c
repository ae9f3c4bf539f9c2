/* SPDX-License-Identifier: BSD-2-Clause */
#include "formats/wih1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

wai_status wai_wih1_parse(const uint8_t *data, size_t len, int nested, wai_wih1 *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIH1,
                                    WAI_WIH1_HEADER_BYTES, WAI_RESERVED(5, 3));
    if (st != WAI_ok) return st;
    uint32_t dims[6];
    for (int i = 0; i < 6; i++) dims[i] = wai_load_u32le(data + 8 + 4 * i);
    for (int i = 0; i < 6; i++)
        if (dims[i] < 1) return WAI_field_range;
    out->m = dims[0], out->sh = dims[1], out->sw = dims[2];
    out->n_z = dims[3], out->zh = dims[4], out->zw = dims[5];
    if (wai_sat_mul3(out->n_z, out->zh, out->zw) > WAI_CAP_ELEMENTS) return WAI_too_large;
    if (wai_sat_mul(2, wai_sat_mul3(out->m, out->sh, out->sw)) > WAI_CAP_ELEMENTS)
        return WAI_too_large;
    if ((st = wai_read_stream_section(&r, &out->z_stream)) != WAI_ok) return st;
    if ((st = wai_read_stream_section(&r, &out->y_stream)) != WAI_ok) return st;
    if (wai_reader_left(&r) != 0) return nested ? WAI_nested_length : WAI_trailing;
    return WAI_ok;
}

/* keyframe 1: u32 K, then exactly K bytes of WIH1 (reading R3). */
wai_status wai_read_nested_keyframe(wai_reader *r, const uint8_t **key, size_t *key_len,
                                    wai_wih1 *header) {
    uint32_t k;
    wai_status st = wai_read_u32(r, &k);
    if (st != WAI_ok) return st;
    if (k > wai_reader_left(r)) return WAI_stream_length;
    if (k < wai_reader_left(r)) return WAI_nested_length;
    if ((st = wai_read_span(r, k, key)) != WAI_ok) return st;
    *key_len = k;
    return wai_wih1_parse(*key, k, 1, header);
}

void wai_wih1_describe(const wai_wih1 *h, wai_text *t) {
    wai_text_printf(t,
                    "{\"m\": %u, \"sh\": %u, \"sw\": %u, \"n_z\": %u, \"zh\": %u, \"zw\": %u, "
                    "\"z_stream_bytes\": %llu, \"y_stream_bytes\": %llu}",
                    h->m, h->sh, h->sw, h->n_z, h->zh, h->zw, (unsigned long long)h->z_stream.len,
                    (unsigned long long)h->y_stream.len);
}
