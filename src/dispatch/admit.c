/* SPDX-License-Identifier: BSD-2-Clause */
/* neural-dispatch §3: which paths may run a decode, before the device is
 * asked anything. */
#include "wai/wai_dispatch.h"

wai_status wai_dispatch_admit(const wai_capability *cap, wai_tier needed, const wai_path *path) {
    if (!cap || !path || !wai_path_valid(path) || !wai_tier_name(needed))
        return WAI_invalid_argument;
    if (path->arithmetic == WAI_ARITHMETIC_FLOAT) {
        /* Its result depends on what the backend chooses per device, so it
         * can never promise the same bytes everywhere. */
        return needed == WAI_TIER_DECODE_EQUIVALENCE ? WAI_dispatch_tier_refused : WAI_ok;
    }
    /* An integer path computes the registration's integer networks, which
     * only a capability registered at decode-equivalence has. */
    return wai_dispatch_registered_tier(cap) == WAI_TIER_DECODE_EQUIVALENCE
               ? WAI_ok
               : WAI_dispatch_arithmetic_mismatch;
}
