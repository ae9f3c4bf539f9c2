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
