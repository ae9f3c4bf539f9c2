/* WMB1 sections (wmb1.h). */
#include "formats/wmb1.h"

#include <string.h>

#include "common/reader.h"

wai_status wai_wmb1_split(const uint8_t *data, size_t len, wai_wmb1 *out) {
    memset(out, 0, sizeof *out);
    wai_reader r;
    wai_reader_init(&r, data, len);
    const uint8_t *magic;
    if (wai_read_span(&r, 4, &magic) != WAI_ok || memcmp(magic, "WMB1", 4) != 0)
        return WAI_model_mismatch;
    for (int i = 0; i < WAI_WMB1_SECTIONS; i++) {
        uint32_t n;
        if (wai_read_u32(&r, &n) != WAI_ok || wai_read_span(&r, n, &out->section[i]) != WAI_ok)
            return WAI_model_mismatch;
        out->len[i] = n;
    }
    return wai_reader_left(&r) ? WAI_model_mismatch : WAI_ok;
}
