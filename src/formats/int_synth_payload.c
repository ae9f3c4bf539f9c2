/* SPDX-License-Identifier: BSD-2-Clause */
/* The int_synth payload (int_synth.h). Layout, little-endian:
 *    0 u32 H   4 u32 W   8 u16 C   10 u8 S_log2   11 reserved 0
 *   12 C·S·S i8 latents */
#include "formats/int_synth_payload.h"

#include <string.h>

#include "common/checked.h"
#include "common/reader.h"

wai_status wai_int_synth_parse(const uint8_t *data, size_t len, wai_int_synth_payload *out) {
    memset(out, 0, sizeof *out);
    if (!data || len < WAI_INT_SYNTH_HEADER_BYTES) return WAI_payload_malformed;
    out->height = wai_load_u32le(data);
    out->width = wai_load_u32le(data + 4);
    out->c = wai_load_u16le(data + 8);
    out->s_log2 = data[10];
    if (out->height < 1 || out->width < 1 || data[11] != 0 || out->c < 1)
        return WAI_payload_malformed;
    /* C·S·S = C·2^(2·S_log2) at most 2^26 (reading R4: equality passes). */
    if (out->s_log2 > 13 || ((uint64_t)out->c << (2 * out->s_log2)) > WAI_CAP_ELEMENTS)
        return WAI_payload_malformed;
    out->s = 1u << out->s_log2;
    const uint64_t n = (uint64_t)out->c << (2 * out->s_log2);
    if ((uint64_t)len - WAI_INT_SYNTH_HEADER_BYTES != n) return WAI_payload_malformed;
    out->latents = (const int8_t *)(const void *)(data + WAI_INT_SYNTH_HEADER_BYTES);
    return WAI_ok;
}

void wai_int_synth_describe(const wai_int_synth_payload *p, wai_text *t) {
    wai_text_printf(t, "{\"height\": %u, \"width\": %u, \"channels\": %u, \"side\": %u}",
                    p->height, p->width, p->c, p->s);
}
