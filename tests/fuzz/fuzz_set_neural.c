/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: a neural decode's set members (WHM1 networks, WAM1, the
 * entropy.json of §9) against a fixed payload, the corpus's set0 payloads
 * built into the target.
 *
 * Input: one byte that picks the member, then the member's bytes:
 *   0 hyper g_s.whm, 1 hyper h_s.whm, 2 hyper entropy.json (image0.wih1),
 *   3 audio model.wam (clip0.wia1), 4 splat g_s.whm (attrs0.wis1),
 *   5 the WMB1 bundle model.wmb (mlic/valid/two_slices/image.wim1),
 *   6 the WCB1 bundle model.wcb (cond/valid/six_frames/clip.wic1);
 * the byte is taken modulo 7. The set's other members are set0's.
 *
 * Invariants: neural_fixture.h's checked decode of the fixed payload
 * through that set (every §7 step 1-4 refusal of a bad member is the cost
 * query's too; an accepted decode has the declared shape and bytes; warm
 * and cold set caches agree). */
#include "embedded.h"
#include "neural_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    int family;
    const char *member;
    const char *payload;
} picks[] = {
    {FIX_HYPER, "g_s.whm", "hyper/image0.wih1"},     {FIX_HYPER, "h_s.whm", "hyper/image0.wih1"},
    {FIX_HYPER, "entropy.json", "hyper/image0.wih1"}, {FIX_AUDIO, "model.wam", "audio/clip0.wia1"},
    {FIX_SPLAT, "g_s.whm", "splat/attrs0.wis1"},
    {FIX_MLIC, "model.wmb", "mlic/valid/two_slices/image.wim1"},
    {FIX_COND, "model.wcb", "cond/valid/six_frames/clip.wic1"},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    fix_state *s = fix_get();
    unsigned k = data[0] % (sizeof picks / sizeof picks[0]);
    const wai_embedded_file *p = wai_embedded_find(picks[k].payload);
    if (!p) __builtin_trap();
    wai_set *set = fix_set_with(s->warm, picks[k].family, picks[k].member, data + 1, size - 1);
    fix_decode_checked(s, wai_capability_detect(p->data, p->len), set, p->data, p->len);
    wai_set_destroy(set);
    return 0;
}
