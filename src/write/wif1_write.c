/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIF1 writer (integer-payloads §16): an intra frame (table, then its
 * stream or nested WIH1) or an inter frame (vectors, stream); the written
 * bytes parsed back, so it refuses what a parser refuses. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

static void put_header(uint8_t *b, const wai_wif1_parts *p) {
    memcpy(b, "WIF1\x01", 5);
    b[5] = p->kind;
    b[6] = p->keyframe;
    b[7] = p->mv_precision;
    wai_store_u32s(b + 8, (const uint32_t[]){p->h, p->w, p->block, p->q, (uint32_t)p->offset}, 5);
    wai_store_u16le(b + 28, (uint16_t)p->cdf_len);
    wai_store_u16le(b + 30, 0);
}

wai_status wai_wif1_write(const wai_allocator *a, const wai_wif1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (p->cdf_len > 0xFFFF) return WAI_field_range;
    if (p->stream_len > UINT32_MAX || p->key_len > UINT32_MAX) return WAI_stream_length;
    uint8_t header[WAI_WIF1_HEADER_BYTES];
    put_header(header, p);
    wai_wif1 f;
    wai_status st = wai_wif1_parse(header, sizeof header, p->keyframe, &f);
    /* An inter frame of a 1x1 block grid still needs its vectors: never ok. */
    if ((st = wai_header_passed(st)) != WAI_ok) return st;
    int inter = p->kind == WAI_WIF1_INTER, has_key = !inter && p->keyframe == 1;
    uint64_t total = WAI_WIF1_HEADER_BYTES + (inter ? 4 * f.nb : 4 * (uint64_t)p->cdf_len) +
                     (has_key ? 4 + (uint64_t)p->key_len : 4 + (uint64_t)p->stream_len);
    uint8_t *b;
    if ((st = wai_write_buffer(a, total, header, sizeof header, &b)) != WAI_ok) return st;
    size_t at = WAI_WIF1_HEADER_BYTES;
    if (inter) {
        for (uint64_t i = 0; i < 2 * f.nb; i++, at += 2)
            wai_store_u16le(b + at, (uint16_t)p->vectors[i]);
    } else {
        for (uint32_t i = 0; i < p->cdf_len; i++, at += 4) wai_store_u32le(b + at, p->cdf[i]);
    }
    const uint8_t *tail = has_key ? p->key : p->stream;
    size_t tail_len = has_key ? p->key_len : p->stream_len;
    wai_put_sized(b + at, tail, tail_len);
    return wai_written(a, b, (size_t)total, wai_wif1_parse(b, (size_t)total, p->keyframe, &f),
                       out, out_len);
}
