/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: whole neural decodes (integer-payloads §4-§7, §16) against a
 * fixed small set, the corpus's set0 of each family, built into the target.
 *
 * Input: a whole payload. Its magic picks the capability (WIH1, WIA1, WIS1,
 * WIM1 against the corpus's two-slice bundle, WIC1 and WCF1 against the
 * six-frame clip's WCB1;
 * WIV1 and WIF1 by their keyframe byte, keyframe 1 only) and so the set;
 * any other input is ignored.
 *
 * Invariants: neural_fixture.h's checked decode: the cost query and the
 * decode refuse alike, the declared cost is the decode's and the limit
 * refuses exactly the work above it, accepted outputs have their kind's
 * shape and add up to the declared bytes, and a warm and a cold set cache
 * give the same result. */
#include "neural_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fix_state *s = fix_get();
    const wai_capability *cap = wai_capability_detect(data, size);
    int family = fix_family_of(cap);
    if (family < 0) return 0;
    fix_decode_checked(s, cap, s->sets[family], data, size);
    return 0;
}
