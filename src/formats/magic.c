/* SPDX-License-Identifier: BSD-2-Clause */
/* Format detection: the magic a payload opens with. */
#include "wai/wai_format.h"

#include <string.h>

/* Each format once: its name, whether a payload opens with that name as
 * its four-byte magic (int_synth's has none: it decodes only when named),
 * and whether it is framed as integer-payloads §2 (magic, version,
 * sections) or, as WIM1's and B18F's are, by rules of its own. */
static const struct {
    wai_format format;
    char name[10];
    unsigned char has_magic, section2;
} magics[] = {
    {WAI_FORMAT_WIV1, "WIV1", 1, 1}, {WAI_FORMAT_WIH1, "WIH1", 1, 1},
    {WAI_FORMAT_WIA1, "WIA1", 1, 1}, {WAI_FORMAT_WIS1, "WIS1", 1, 1},
    {WAI_FORMAT_WIF1, "WIF1", 1, 1}, {WAI_FORMAT_WCF1, "WCF1", 1, 1},
    {WAI_FORMAT_WIC1, "WIC1", 1, 1}, {WAI_FORMAT_WIM1, "WIM1", 1, 0},
    {WAI_FORMAT_INT_SYNTH, "int_synth", 0, 0}, {WAI_FORMAT_B18F, "B18F", 1, 0},
};

#define N_MAGICS (sizeof magics / sizeof magics[0])

const char *wai_format_name(wai_format f) {
    for (size_t i = 0; i < N_MAGICS; i++)
        if (magics[i].format == f) return magics[i].name;
    return "none";
}

wai_format wai_format_detect(const uint8_t *data, size_t len) {
    if (!data || len < 4) return WAI_FORMAT_NONE;
    for (size_t i = 0; i < N_MAGICS; i++)
        if (magics[i].has_magic && memcmp(data, magics[i].name, 4) == 0) return magics[i].format;
    return WAI_FORMAT_NONE;
}

int wai_format_is_section2(wai_format f) {
    for (size_t i = 0; i < N_MAGICS; i++)
        if (magics[i].format == f) return magics[i].section2;
    return 0;
}
