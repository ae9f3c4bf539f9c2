/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIA1 writer (integer-payloads §5): header, medians, tables and the
 * stream, the written bytes parsed back. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

static void put_header(uint8_t *b, const wai_wia1_parts *p) {
    memcpy(b, "WIA1\x01", 5);
    b[5] = p->afrac;
    wai_store_u16le(b + 6, 0);
    wai_store_u32s(b + 8, (const uint32_t[]){p->sr, p->n_ch, p->lat_len, p->t_out,
                                              (uint32_t)p->offset},
                   5);
    wai_store_u16le(b + 28, (uint16_t)p->cdf_len);
    wai_store_u16le(b + 30, 0);
}

wai_status wai_wia1_write(const wai_allocator *a, const wai_wia1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (p->cdf_len > 0xFFFF) return WAI_field_range; /* a u16 field cannot hold it */
    if (p->stream_len > UINT32_MAX) return WAI_stream_length;
    uint8_t header[WAI_WIA1_HEADER_BYTES];
    put_header(header, p);
    /* Steps 1-6 on the header alone (the sections are then "not present"),
     * so nothing is sized from a header a parser refuses. */
    wai_wia1 v;
    wai_status st = wai_wia1_parse(header, sizeof header, &v);
    if ((st = wai_header_passed(st)) != WAI_ok) return st;
    uint64_t entries = (uint64_t)p->n_ch * p->cdf_len; /* within the caps: fits */
    uint64_t total = WAI_WIA1_HEADER_BYTES + 8 * (uint64_t)p->n_ch + 4 * entries + 4 +
                     (uint64_t)p->stream_len;
    uint8_t *b;
    if ((st = wai_write_buffer(a, total, header, sizeof header, &b)) != WAI_ok) return st;
    size_t at = WAI_WIA1_HEADER_BYTES;
    for (uint32_t k = 0; k < p->n_ch; k++, at += 8) wai_store_u64le(b + at, (uint64_t)p->medians[k]);
    for (uint64_t i = 0; i < entries; i++, at += 4) wai_store_u32le(b + at, p->cdfs[i]);
    wai_put_sized(b + at, p->stream, p->stream_len);
    return wai_written(a, b, (size_t)total, wai_wia1_parse(b, (size_t)total, &v), out, out_len);
}
