/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIS1 writer (integer-payloads §6): header, ranges, lengths,
 * offsets, medians, tables and the stream, the written bytes parsed back. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

static void put_header(uint8_t *b, const wai_wis1_parts *p) {
    memcpy(b, "WIS1\x01", 5);
    b[5] = p->afrac;
    wai_store_u16le(b + 6, 0);
    wai_store_u32s(b + 8, (const uint32_t[]){p->c, p->sh, p->sw, p->s, p->attr, p->n_gaussians},
                   6);
}

wai_status wai_wis1_write(const wai_allocator *a, const wai_wis1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (p->stream_len > UINT32_MAX) return WAI_stream_length;
    uint8_t header[WAI_WIS1_HEADER_BYTES];
    put_header(header, p);
    /* Steps 1-6 on the header alone (the sections are then "not present"). */
    wai_wis1 v;
    wai_status st = wai_wis1_parse(header, sizeof header, &v);
    if ((st = wai_header_passed(st)) != WAI_ok) return st;
    /* The first rules of step 7, which the parse of the written bytes would
     * reach first: ranges, then lengths. Checking them here keeps a bad
     * length from sizing the buffer. */
    for (uint32_t i = 0; i < p->attr; i++)
        if (!wai_f32_range_valid(p->ranges[2 * (size_t)i], p->ranges[2 * (size_t)i + 1]))
            return WAI_field_range;
    uint64_t entries = 0;
    for (uint32_t k = 0; k < p->c; k++) {
        if (p->lengths[k] < 3 || p->lengths[k] > WAI_CDF_MAX_LEN_T4097) return WAI_field_range;
        entries += p->lengths[k];
    }
    uint64_t total = WAI_WIS1_HEADER_BYTES + 8 * (uint64_t)p->attr + 14 * (uint64_t)p->c +
                     4 * entries + 4 + (uint64_t)p->stream_len;
    uint8_t *b;
    if ((st = wai_write_buffer(a, total, header, sizeof header, &b)) != WAI_ok) return st;
    size_t at = WAI_WIS1_HEADER_BYTES;
    for (uint32_t i = 0; i < 2 * p->attr; i++, at += 4) wai_store_u32le(b + at, p->ranges[i]);
    for (uint32_t k = 0; k < p->c; k++, at += 2) wai_store_u16le(b + at, p->lengths[k]);
    for (uint32_t k = 0; k < p->c; k++, at += 4) wai_store_u32le(b + at, (uint32_t)p->offsets[k]);
    for (uint32_t k = 0; k < p->c; k++, at += 8) wai_store_u64le(b + at, (uint64_t)p->medians[k]);
    for (uint64_t i = 0; i < entries; i++, at += 4) wai_store_u32le(b + at, p->cdfs[i]);
    wai_put_sized(b + at, p->stream, p->stream_len);
    return wai_written(a, b, (size_t)total, wai_wis1_parse(b, (size_t)total, &v), out, out_len);
}
