/* One entry to every payload parser this build has, and the public reads of
 * fields a decode does not output (WIS1's presentation data). */
#include <string.h>

#include "formats/wia1.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "formats/wiv1.h"

wai_status wai_check_payload(const wai_capability *cap, const uint8_t *data, size_t len,
                             wai_checked *checked) {
    if (!cap || (!data && len)) return WAI_invalid_argument;
    if (checked) *checked = WAI_CHECKED_PARSE;
    switch (cap->format) {
    case WAI_FORMAT_WIV1: {
        wai_wiv1 v;
        return wai_wiv1_parse(data, len, cap->keyframe, &v);
    }
    case WAI_FORMAT_WIF1: {
        wai_wif1 f;
        return wai_wif1_parse(data, len, cap->keyframe, &f);
    }
    case WAI_FORMAT_WIH1: {
        wai_wih1 h;
        return wai_wih1_parse(data, len, 0, &h);
    }
    case WAI_FORMAT_WIA1: {
        wai_wia1 a;
        return wai_wia1_parse(data, len, &a);
    }
    case WAI_FORMAT_WIS1: {
        wai_wis1 s;
        return wai_wis1_parse(data, len, &s);
    }
    default:
        if (checked) *checked = WAI_CHECKED_FRAMING;
        return wai_check_framing(cap, data, len);
    }
}

/* Each bound (docs/reading-inputs.md): a stream "4 + L" is at most
 * 4 + (2^32 - 1) bytes; a table at most 4097 entries of 4 bytes; a tensor
 * the caps bound at 2^26 elements, so a count of channels, of planes or of
 * motion-vector components is at most 2^26. */
#define STREAM_MAX (UINT64_C(4) + UINT32_MAX)
#define TABLE_MAX (UINT64_C(4097) * 4)
#define ELEMS_MAX (UINT64_C(1) << 26)

/* WIH1: the header, then the hyper-latent and latent streams. */
#define WIH1_MAX (32 + 2 * STREAM_MAX)
/* WIV1: the header, the residual table, the vectors (2·nb·(n_frames − 1)
 * i16 components), the residual stream, and for keyframe 1 "4 + K", K a
 * WIH1. */
#define WIV1_K0_MAX (36 + TABLE_MAX + 2 * ELEMS_MAX + STREAM_MAX)
#define WIV1_K1_MAX (WIV1_K0_MAX + 4 + WIH1_MAX)
/* WIF1: the header, then the larger of an intra frame (table, then a
 * stream or "4 + K" with a WIH1) and an inter frame (2·nb i16 components
 * and a stream). */
#define WIF1_K0_MAX (32 + TABLE_MAX + STREAM_MAX)
#define WIF1_K1_MAX (32 + TABLE_MAX + 4 + WIH1_MAX)
#define WIF1_INTER_MAX (32 + 2 * ELEMS_MAX + STREAM_MAX)
/* WIA1: n_ch ≤ 2^26 (n_ch·lat_len is capped), each with a median and a
 * table, then the stream. */
#define WIA1_MAX (32 + ELEMS_MAX * (8 + TABLE_MAX) + STREAM_MAX)
/* WIS1: attr ≤ 2^26 ranges of 8 bytes; c ≤ 2^26 channels, each with a
 * length, an offset, a median and a table; then the stream. */
#define WIS1_MAX (32 + ELEMS_MAX * 8 + ELEMS_MAX * (2 + 4 + 8 + TABLE_MAX) + STREAM_MAX)

uint64_t wai_payload_max_bytes(const wai_capability *cap) {
    if (!cap) return UINT64_MAX;
    switch (cap->format) {
    case WAI_FORMAT_WIH1: return WIH1_MAX;
    case WAI_FORMAT_WIV1: return cap->keyframe == 1 ? WIV1_K1_MAX : WIV1_K0_MAX;
    case WAI_FORMAT_WIF1: {
        uint64_t intra = cap->keyframe == 1 ? WIF1_K1_MAX : WIF1_K0_MAX;
        return intra > WIF1_INTER_MAX ? intra : WIF1_INTER_MAX;
    }
    case WAI_FORMAT_WIA1: return WIA1_MAX;
    case WAI_FORMAT_WIS1: return WIS1_MAX;
    case WAI_FORMAT_INT_SYNTH: return 12 + ELEMS_MAX;
    default: return UINT64_MAX;
    }
}

wai_status wai_splat_presentation(const uint8_t *data, size_t len, wai_splat_info *info,
                                  uint32_t *ranges, size_t max_planes) {
    if (!info || (!data && len) || (!ranges && max_planes)) return WAI_invalid_argument;
    memset(info, 0, sizeof *info);
    wai_wis1 s;
    wai_status st = wai_wis1_parse(data, len, &s);
    if (st != WAI_ok) return st;
    info->side = s.s;
    info->planes = s.attr;
    info->n_gaussians = s.n_gaussians;
    for (uint32_t i = 0; i < s.attr && i < max_planes; i++)
        wai_wis1_range(&s, i, &ranges[2 * (size_t)i], &ranges[2 * (size_t)i + 1]);
    return WAI_ok;
}
