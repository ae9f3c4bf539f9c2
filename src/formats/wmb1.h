/* WMB1, wai.neural.int_mlicpp's one-file set (integer-payloads §14, read
 * from a set as model.wmb): the magic, then four sections, each a u32
 * length and that many bytes: h_s, entropy and g_s (WHM1 networks) and
 * the tables (a JSON text). Nothing follows the fourth. */
#ifndef WAI_FORMATS_WMB1_H
#define WAI_FORMATS_WMB1_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

enum { WAI_WMB1_HS, WAI_WMB1_ENTROPY, WAI_WMB1_GS, WAI_WMB1_TABLES, WAI_WMB1_SECTIONS };

typedef struct wai_wmb1 {
    const uint8_t *section[WAI_WMB1_SECTIONS]; /* views into the bundle */
    size_t len[WAI_WMB1_SECTIONS];
} wai_wmb1;

/* The sections; model_mismatch for a short bundle, another magic, a
 * section past the end or a byte after the fourth. */
wai_status wai_wmb1_split(const uint8_t *data, size_t len, wai_wmb1 *out);

#endif
