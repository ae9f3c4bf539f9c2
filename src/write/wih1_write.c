/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIH1 writer (integer-payloads §4): header and the two streams, the
 * written bytes parsed back. */
#include "write/payloads.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

wai_status wai_wih1_write(const wai_allocator *a, const wai_wih1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (p->z_len > UINT32_MAX || p->y_len > UINT32_MAX) return WAI_stream_length;
    uint64_t total = (uint64_t)WAI_WIH1_HEADER_BYTES + 8 + p->z_len + p->y_len;
    uint8_t *b;
    wai_status st = wai_write_buffer(a, total, (const uint8_t *)"WIH1\x01\0\0\0", 8, &b);
    if (st != WAI_ok) return st;
    wai_store_u32s(b + 8, (const uint32_t[]){p->m, p->sh, p->sw, p->n_z, p->zh, p->zw}, 6);
    size_t at = WAI_WIH1_HEADER_BYTES;
    at += wai_put_sized(b + at, p->z_stream, p->z_len);
    wai_put_sized(b + at, p->y_stream, p->y_len);
    wai_wih1 check;
    return wai_written(a, b, (size_t)total, wai_wih1_parse(b, (size_t)total, 0, &check), out,
                       out_len);
}
