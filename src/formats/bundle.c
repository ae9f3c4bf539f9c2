/* SPDX-License-Identifier: BSD-2-Clause */
/* Bundle sections (bundle.h). */
#include "formats/bundle.h"

#include <string.h>

#include "common/reader.h"

wai_status wai_bundle_split(const uint8_t *data, size_t len, const char magic[4], unsigned n,
                            wai_bundle *out) {
    memset(out, 0, sizeof *out);
    if (n > WAI_BUNDLE_MAX_SECTIONS) return WAI_invalid_argument;
    wai_reader r;
    wai_reader_init(&r, data, len);
    const uint8_t *m;
    if (wai_read_span(&r, 4, &m) != WAI_ok || memcmp(m, magic, 4) != 0) return WAI_model_mismatch;
    for (unsigned i = 0; i < n; i++) {
        uint32_t k;
        if (wai_read_u32(&r, &k) != WAI_ok || wai_read_span(&r, k, &out->section[i]) != WAI_ok)
            return WAI_model_mismatch;
        out->len[i] = k;
    }
    return wai_reader_left(&r) ? WAI_model_mismatch : WAI_ok;
}
