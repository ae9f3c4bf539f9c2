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
    if (!wai_fits_size(total)) return WAI_too_large;
    uint8_t *b = wai_alloc(a, (size_t)total);
    if (!b) return WAI_out_of_memory;
    memcpy(b, "WIH1\x01\0\0\0", 8);
    const uint32_t dims[6] = {p->m, p->sh, p->sw, p->n_z, p->zh, p->zw};
    for (int i = 0; i < 6; i++) wai_store_u32le(b + 8 + 4 * i, dims[i]);
    size_t at = WAI_WIH1_HEADER_BYTES;
    wai_store_u32le(b + at, (uint32_t)p->z_len);
    if (p->z_len) memcpy(b + at + 4, p->z_stream, p->z_len);
    at += 4 + p->z_len;
    wai_store_u32le(b + at, (uint32_t)p->y_len);
    if (p->y_len) memcpy(b + at + 4, p->y_stream, p->y_len);
    wai_wih1 check;
    wai_status st = wai_wih1_parse(b, (size_t)total, 0, &check);
    if (st != WAI_ok) {
        wai_free(a, b);
        return st;
    }
    *out = b;
    *out_len = (size_t)total;
    return WAI_ok;
}
