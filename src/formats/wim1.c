/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1 parse (wim1.h). Layout, little-endian:
 *    0 "WIM1"  4 u32 H  8 u32 W  12 u16 Cz  14 u16 Zh  16 u16 Zw  18 u16 Cy
 *   20 u16 Yh  22 u16 Yw  24 u16 K  26 u16 reserved  28 u32 Lz  32 u32 Ly
 *   36 the z stream, then the y stream */
#include "formats/wim1.h"

#include <string.h>

#include "common/checked.h"
#include "common/reader.h"

wai_status wai_wim1_parse(const uint8_t *data, size_t len, wai_wim1 *out) {
    memset(out, 0, sizeof *out);
    if (!data || len < WAI_WIM1_HEADER_BYTES || memcmp(data, "WIM1", 4) != 0)
        return WAI_payload_malformed;
    if (wai_load_u16le(data + 26) != 0) return WAI_payload_malformed;
    out->h = wai_load_u32le(data + 4);
    out->w = wai_load_u32le(data + 8);
    out->cz = wai_load_u16le(data + 12);
    out->zh = wai_load_u16le(data + 14);
    out->zw = wai_load_u16le(data + 16);
    out->cy = wai_load_u16le(data + 18);
    out->yh = wai_load_u16le(data + 20);
    out->yw = wai_load_u16le(data + 22);
    out->k = wai_load_u16le(data + 24);
    if (!out->h || !out->w || !out->cz || !out->zh || !out->zw || !out->cy || !out->yh ||
        !out->yw || !out->k)
        return WAI_payload_malformed;
    if (out->cy % out->k != 0) return WAI_payload_malformed;
    if (wai_sat_mul3(out->cz, out->zh, out->zw) > WAI_CAP_ELEMENTS ||
        wai_sat_mul(3, wai_sat_mul3(out->cy, out->yh, out->yw)) > WAI_CAP_ELEMENTS ||
        wai_sat_mul3(3, out->h, out->w) > WAI_CAP_ELEMENTS)
        return WAI_payload_malformed;
    const uint64_t lz = wai_load_u32le(data + 28), ly = wai_load_u32le(data + 32);
    if ((uint64_t)len != WAI_WIM1_HEADER_BYTES + lz + ly) return WAI_payload_malformed;
    out->z = data + WAI_WIM1_HEADER_BYTES;
    out->lz = (size_t)lz;
    out->y = out->z + lz;
    out->ly = (size_t)ly;
    return WAI_ok;
}

void wai_wim1_describe(const wai_wim1 *v, wai_text *t) {
    wai_text_printf(t,
                    "{\"h\": %u, \"w\": %u, \"cz\": %u, \"zh\": %u, \"zw\": %u, \"cy\": %u, "
                    "\"yh\": %u, \"yw\": %u, \"k\": %u, \"z_bytes\": %llu, \"y_bytes\": %llu}",
                    v->h, v->w, v->cz, v->zh, v->zw, v->cy, v->yh, v->yw, v->k,
                    (unsigned long long)v->lz, (unsigned long long)v->ly);
}
