/* The capabilities libwai knows: integer-payloads §1, §13 and §14, and the
 * floating-point capability neural-dispatch §6 dispatches. Each row is the
 * spec's; docs/dispatch.md lists them. */
#include "wai/wai_format.h"

#include <string.h>

#define INT_EXACT "NeuralIntegerExact"
#define DECODE_EQ "decode-equivalence"
/* The specs in the tree name no class for a capability whose networks are
 * not integer; "Neural" is libwai's name for it, and dispatch reads it as
 * neural-dispatch §2's "every other" class (docs/dispatch.md). */
#define NEURAL "Neural"

static const wai_capability capabilities[] = {
    {"wai.video.int_motion", WAI_FORMAT_WIV1, 0, 0, INT_EXACT, DECODE_EQ, {NULL}},
    {"wai.video.int_hyper", WAI_FORMAT_WIV1, 1, 0, INT_EXACT, DECODE_EQ,
     {"g_s.whm", "h_s.whm", "entropy.json", NULL}},
    {"wai.neural.int_hyper", WAI_FORMAT_WIH1, -1, 0, INT_EXACT, DECODE_EQ,
     {"g_s.whm", "h_s.whm", "entropy.json", NULL}},
    {"wai.audio.int_codec", WAI_FORMAT_WIA1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wam", NULL}},
    {"wai.splat.int_codec", WAI_FORMAT_WIS1, -1, 0, INT_EXACT, DECODE_EQ, {"g_s.whm", NULL}},
    {"wai.video.int_motion.frame", WAI_FORMAT_WIF1, 0, 1, INT_EXACT, DECODE_EQ, {NULL}},
    {"wai.video.int_hyper.frame", WAI_FORMAT_WIF1, 1, 1, INT_EXACT, DECODE_EQ,
     {"g_s.whm", "h_s.whm", "entropy.json", NULL}},
    {"wai.video.int_cond", WAI_FORMAT_WIC1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wcb", NULL}},
    {"wai.video.int_cond.frame", WAI_FORMAT_WCF1, -1, 1, INT_EXACT, DECODE_EQ,
     {"model.wcb", NULL}},
    {"wai.neural.int_synth", WAI_FORMAT_INT_SYNTH, -1, 0, INT_EXACT, DECODE_EQ,
     {"int_synth.json", NULL}},
    {"wai.neural.int_mlicpp", WAI_FORMAT_WIM1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wmb", NULL}},
    /* No WAI payload format libwai parses (WAI_FORMAT_NONE: never detected).
     * Its set's one member every path reads is the entropy stage's tables
     * (neural-dispatch §6.1, §6.3); each backend's program is more members,
     * which docs/dispatch.md lists. */
    {"wai.neural.bmshj2018", WAI_FORMAT_NONE, -1, 0, NEURAL, "none", {"cdfs_q3.json", NULL}},
};

#define N_CAPS (sizeof capabilities / sizeof capabilities[0])

size_t wai_capability_count(void) { return N_CAPS; }

const wai_capability *wai_capability_at(size_t i) {
    return i < N_CAPS ? &capabilities[i] : NULL;
}

const wai_capability *wai_capability_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < N_CAPS; i++)
        if (strcmp(capabilities[i].name, name) == 0) return &capabilities[i];
    return NULL;
}

const wai_capability *wai_capability_detect(const uint8_t *data, size_t len) {
    wai_format f = wai_format_detect(data, len);
    if (f == WAI_FORMAT_NONE) return NULL;
    int keyframe = -1;
    if (f == WAI_FORMAT_WIV1 || f == WAI_FORMAT_WIF1) keyframe = (len > 6 && data[6] == 1);
    for (size_t i = 0; i < N_CAPS; i++)
        if (capabilities[i].format == f &&
            (keyframe < 0 || capabilities[i].keyframe == keyframe))
            return &capabilities[i];
    return NULL;
}

/* Decoders join this list as they land (one issue per capability). */
static const char *const decoded[] = {"wai.video.int_motion", "wai.video.int_motion.frame",
                                      "wai.neural.int_hyper", "wai.audio.int_codec",
                                      "wai.splat.int_codec", "wai.video.int_hyper",
                                      "wai.video.int_hyper.frame"};

int wai_capability_has_decoder(const wai_capability *cap) {
    if (!cap) return 0;
    for (size_t i = 0; i < sizeof decoded / sizeof decoded[0]; i++)
        if (strcmp(cap->name, decoded[i]) == 0) return 1;
    return 0;
}
