/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: format detection, the shared framing checks and every whole
 * parse of the codec table (WIV1, WIF1, WIH1, WIA1, WIS1, WIM1, WIC1 and
 * WCF1, keyframe-1 nesting included; int_synth's header; B18F), for every
 * capability, on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "wai/wai_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const wai_capability *detected = wai_capability_detect(data, size);
    if (detected && wai_format_detect(data, size) != detected->format) __builtin_trap();
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        wai_status s = wai_check_framing(c, data, size);
        if (!wai_status_name(s)) __builtin_trap();
        wai_checked checked;
        wai_status p = wai_check_payload(c, data, size, &checked);
        if (!wai_status_name(p)) __builtin_trap();
        /* The whole parse starts with the framing checks. */
        if (s != WAI_ok && p != s) __builtin_trap();
    }
    return 0;
}
