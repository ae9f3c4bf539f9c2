/* SPDX-License-Identifier: BSD-2-Clause */
/* The one-file parameter sets of §14 and §17.3 (WMB1, WCB1): a magic, then
 * sections, each a u32 length and that many bytes; nothing after the last. */
#ifndef WAI_FORMATS_BUNDLE_H
#define WAI_FORMATS_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

#define WAI_BUNDLE_MAX_SECTIONS 5

/* WMB1 (§14): h_s, entropy, g_s (WHM1 networks), the tables (JSON). */
enum { WAI_WMB1_HS, WAI_WMB1_ENTROPY, WAI_WMB1_GS, WAI_WMB1_TABLES, WAI_WMB1_SECTIONS };
/* WCB1 (§17.3): ctx, prior, dec, recon (WHM1 networks), the tables (JSON). */
enum { WAI_WCB1_CTX, WAI_WCB1_PRIOR, WAI_WCB1_DEC, WAI_WCB1_RECON, WAI_WCB1_TABLES,
       WAI_WCB1_SECTIONS };

typedef struct wai_bundle {
    const uint8_t *section[WAI_BUNDLE_MAX_SECTIONS]; /* views into the file */
    size_t len[WAI_BUNDLE_MAX_SECTIONS];
} wai_bundle;

/* The n sections of a file of `magic`; model_mismatch for a short file,
 * another magic, a section past the end or a byte after the last. */
wai_status wai_bundle_split(const uint8_t *data, size_t len, const char magic[4], unsigned n,
                            wai_bundle *out);

#endif
