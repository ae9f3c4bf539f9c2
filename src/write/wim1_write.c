/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIM1 writer (integer-payloads §14): the 36-byte header and the two
 * streams with no length prefix, the written bytes parsed back. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

wai_status wai_wim1_write(const wai_allocator *a, const wai_wim1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    const wai_wih1_parts *l = &p->latents;
    if (l->z_len > UINT32_MAX || l->y_len > UINT32_MAX) return WAI_stream_length;
    const uint32_t u16s[8] = {l->n_z, l->zh, l->zw, l->m, l->sh, l->sw, p->k, 0};
    for (int i = 0; i < 8; i++)
        if (u16s[i] > UINT16_MAX) return WAI_payload_malformed;
    uint64_t total = (uint64_t)WAI_WIM1_HEADER_BYTES + l->z_len + l->y_len;
    uint8_t *b;
    wai_status st = wai_write_buffer(a, total, (const uint8_t *)"WIM1", 4, &b);
    if (st != WAI_ok) return st;
    wai_store_u32s(b + 4, (const uint32_t[]){p->h, p->w}, 2);
    for (int i = 0; i < 8; i++) wai_store_u16le(b + 12 + 2 * i, (uint16_t)u16s[i]);
    wai_store_u32s(b + 28, (const uint32_t[]){(uint32_t)l->z_len, (uint32_t)l->y_len}, 2);
    if (l->z_len) memcpy(b + WAI_WIM1_HEADER_BYTES, l->z_stream, l->z_len);
    if (l->y_len) memcpy(b + WAI_WIM1_HEADER_BYTES + l->z_len, l->y_stream, l->y_len);
    wai_wim1 check;
    return wai_written(a, b, (size_t)total, wai_wim1_parse(b, (size_t)total, &check), out,
                       out_len);
}
