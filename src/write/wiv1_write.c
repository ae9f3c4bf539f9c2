/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIV1 writer (integer-payloads §3): header, table, vectors, the
 * residual stream and, for keyframe 1, the nested WIH1; the written bytes
 * parsed back, so it refuses what a parser refuses, with its code. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

/* Header bytes of a clip; the parse of these alone checks steps 1-6. */
static void put_header(uint8_t *b, const wai_wiv1_parts *p) {
    memcpy(b, "WIV1\x01", 5);
    b[5] = p->mv_precision;
    b[6] = p->keyframe;
    b[7] = 0;
    wai_store_u32s(b + 8, (const uint32_t[]){p->n_frames, p->h, p->w, p->block, p->q,
                                              (uint32_t)p->offset},
                   6);
    wai_store_u16le(b + 32, (uint16_t)p->cdf_len);
    wai_store_u16le(b + 34, 0);
}

wai_status wai_wiv1_check_header(const wai_wiv1_parts *p, wai_wiv1 *v) {
    if (p->cdf_len > 0xFFFF) return WAI_field_range;
    uint8_t header[WAI_WIV1_HEADER_BYTES];
    put_header(header, p);
    wai_status st = wai_wiv1_parse(header, sizeof header, p->keyframe, v);
    return wai_header_passed(st);
}

wai_status wai_wiv1_write(const wai_allocator *a, const wai_wiv1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    /* Steps 1-6 first, so nothing is sized from a header a parser refuses. */
    wai_wiv1 v;
    wai_status st = wai_wiv1_check_header(p, &v);
    if (st != WAI_ok) return st;
    if (p->stream_len > UINT32_MAX || p->key_len > UINT32_MAX) return WAI_stream_length;
    uint64_t n_vectors = v.nb * (p->n_frames - 1);
    uint64_t total = WAI_WIV1_HEADER_BYTES + 4 * (uint64_t)p->cdf_len + 4 * n_vectors + 4 +
                     p->stream_len + (p->keyframe ? 4 + (uint64_t)p->key_len : 0);
    uint8_t *b;
    if ((st = wai_write_buffer(a, total, NULL, 0, &b)) != WAI_ok) return st;
    put_header(b, p);
    size_t at = WAI_WIV1_HEADER_BYTES;
    for (uint32_t i = 0; i < p->cdf_len; i++, at += 4) wai_store_u32le(b + at, p->cdf[i]);
    for (uint64_t i = 0; i < 2 * n_vectors; i++, at += 2)
        wai_store_u16le(b + at, (uint16_t)p->vectors[i]);
    at += wai_put_sized(b + at, p->stream, p->stream_len);
    if (p->keyframe) wai_put_sized(b + at, p->key, p->key_len);
    return wai_written(a, b, (size_t)total, wai_wiv1_parse(b, (size_t)total, p->keyframe, &v),
                       out, out_len);
}
