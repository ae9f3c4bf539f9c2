/* SPDX-License-Identifier: BSD-2-Clause */
/* neural-dispatch §2: the tier a decode needs. */
#include "wai/wai_dispatch.h"

#include <string.h>

wai_tier wai_dispatch_registered_tier(const wai_capability *cap) {
    if (!cap || !cap->registry_class) return WAI_TIER_NONE;
    if (strcmp(cap->registry_class, "NeuralIntegerExact") == 0) return WAI_TIER_DECODE_EQUIVALENCE;
    if (strcmp(cap->registry_class, "NeuralEntropyExact") == 0)
        return WAI_TIER_ENTROPY_CONSISTENCY;
    return WAI_TIER_NONE; /* "none for every other" class */
}

wai_status wai_dispatch_demand(const wai_capability *cap, const wai_dispatch_options *opt,
                               wai_tier *needed) {
    if (!cap || !needed) return WAI_invalid_argument;
    for (size_t i = 0; opt && i < sizeof opt->reserved; i++)
        if (opt->reserved[i]) return WAI_invalid_argument;
    wai_tier t = wai_dispatch_registered_tier(cap);
    /* Conditions 2 and 3 can only raise the need to decode-equivalence;
     * every other intent or pin token, registered or not, adds nothing. */
    if (opt && opt->intent && strcmp(opt->intent, "replicate") == 0)
        t = WAI_TIER_DECODE_EQUIVALENCE;
    if (opt && opt->pin_tier && strcmp(opt->pin_tier, "decode-equivalence") == 0)
        t = WAI_TIER_DECODE_EQUIVALENCE;
    *needed = t;
    return WAI_ok;
}
