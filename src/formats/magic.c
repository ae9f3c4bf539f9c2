/* Format detection and the framing every §2 format shares (steps 1-2). */
#include "wai/wai_format.h"

#include <string.h>

#include "formats/sections.h"

static const struct {
    wai_format format;
    char magic[5];
} magics[] = {
    {WAI_FORMAT_WIV1, "WIV1"}, {WAI_FORMAT_WIH1, "WIH1"}, {WAI_FORMAT_WIA1, "WIA1"},
    {WAI_FORMAT_WIS1, "WIS1"}, {WAI_FORMAT_WIF1, "WIF1"}, {WAI_FORMAT_WCF1, "WCF1"},
    {WAI_FORMAT_WIC1, "WIC1"}, {WAI_FORMAT_WIM1, "WIM1"},
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

/* WIM1's fixed header (§14): the parser's first check is its length. */
#define WIM1_HEADER_BYTES 36

wai_status wai_check_framing(const wai_capability *cap, const uint8_t *data, size_t len) {
    if (!cap || (!data && len)) return WAI_invalid_argument;
    /* A capability with no payload format libwai reads (wai.neural.bmshj2018)
     * has no framing to check, and no integer decoder here. */
    if (cap->format == WAI_FORMAT_NONE) return WAI_unsupported_capability;
    if (cap->format == WAI_FORMAT_INT_SYNTH) return WAI_ok;
    if (cap->format == WAI_FORMAT_WIM1) {
        if (len < WIM1_HEADER_BYTES || wai_format_detect(data, len) != WAI_FORMAT_WIM1)
            return WAI_payload_malformed;
        return WAI_ok;
    }
    /* Steps 1 and 2; no fixed header beyond the version byte is asked for. */
    wai_reader r;
    wai_reader_init(&r, data, len);
    return wai_parse_framing(&r, cap->format, 5);
}
