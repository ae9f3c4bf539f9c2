/* The capabilities libwai knows: integer-payloads §1, §13 and §14. Each row is
 * the spec's. */
#include "wai/wai_format.h"

#include <string.h>

#define INT_EXACT "NeuralIntegerExact"
#define DECODE_EQ "decode-equivalence"

static const wai_capability capabilities[] = {
    {"wai.video.int_motion", WAI_FORMAT_WIV1, 0, 0, INT_EXACT, DECODE_EQ, {NULL}},
    {"wai.video.int_hyper", WAI_FORMAT_WIV1, 1, 0, INT_EXACT, DECODE_EQ,
     {"entropy.json", "g_s.whm", "h_s.whm", NULL}},
    {"wai.neural.int_hyper", WAI_FORMAT_WIH1, -1, 0, INT_EXACT, DECODE_EQ,
     {"entropy.json", "g_s.whm", "h_s.whm", NULL}},
    {"wai.audio.int_codec", WAI_FORMAT_WIA1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wam", NULL}},
    {"wai.splat.int_codec", WAI_FORMAT_WIS1, -1, 0, INT_EXACT, DECODE_EQ, {"g_s.whm", NULL}},
    {"wai.video.int_motion.frame", WAI_FORMAT_WIF1, 0, 1, INT_EXACT, DECODE_EQ, {NULL}},
    {"wai.video.int_hyper.frame", WAI_FORMAT_WIF1, 1, 1, INT_EXACT, DECODE_EQ,
     {"entropy.json", "g_s.whm", "h_s.whm", NULL}},
    {"wai.video.int_cond", WAI_FORMAT_WIC1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wcb", NULL}},
    {"wai.video.int_cond.frame", WAI_FORMAT_WCF1, -1, 1, INT_EXACT, DECODE_EQ,
     {"model.wcb", NULL}},
    {"wai.neural.int_synth", WAI_FORMAT_INT_SYNTH, -1, 0, INT_EXACT, DECODE_EQ,
     {"int_synth.json", NULL}},
    {"wai.neural.int_mlicpp", WAI_FORMAT_WIM1, -1, 0, INT_EXACT, DECODE_EQ, {"model.wmb", NULL}},
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
static const char *const decoded[] = {"wai.video.int_motion", "wai.video.int_motion.frame"};

int wai_capability_has_decoder(const wai_capability *cap) {
    if (!cap) return 0;
    for (size_t i = 0; i < sizeof decoded / sizeof decoded[0]; i++)
        if (strcmp(cap->name, decoded[i]) == 0) return 1;
    return 0;
}
