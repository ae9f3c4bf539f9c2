/* SPDX-License-Identifier: BSD-2-Clause */
/* Format detection: the magic a payload opens with. */
#include "wai/wai_format.h"

#include <string.h>

static const struct {
    wai_format format;
    char magic[5];
} magics[] = {
    {WAI_FORMAT_WIV1, "WIV1"}, {WAI_FORMAT_WIH1, "WIH1"}, {WAI_FORMAT_WIA1, "WIA1"},
    {WAI_FORMAT_WIS1, "WIS1"}, {WAI_FORMAT_WIF1, "WIF1"}, {WAI_FORMAT_WCF1, "WCF1"},
    {WAI_FORMAT_WIC1, "WIC1"}, {WAI_FORMAT_WIM1, "WIM1"}, {WAI_FORMAT_B18F, "B18F"},
};

#define N_MAGICS (sizeof magics / sizeof magics[0])

const char *wai_format_name(wai_format f) {
    if (f == WAI_FORMAT_INT_SYNTH) return "int_synth";
    for (size_t i = 0; i < N_MAGICS; i++)
        if (magics[i].format == f) return magics[i].magic;
    return "none";
}

wai_format wai_format_detect(const uint8_t *data, size_t len) {
    if (!data || len < 4) return WAI_FORMAT_NONE;
    for (size_t i = 0; i < N_MAGICS; i++)
        if (memcmp(data, magics[i].magic, 4) == 0) return magics[i].format;
    return WAI_FORMAT_NONE;
}

int wai_format_is_section2(wai_format f) {
    return f >= WAI_FORMAT_WIV1 && f <= WAI_FORMAT_WIC1;
}
