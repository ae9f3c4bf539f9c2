/* SPDX-License-Identifier: BSD-2-Clause */
/* The codec table: every capability libwai knows (integer-payloads §1, §13,
 * §14, and the floating-point capability neural-dispatch §6 dispatches),
 * each written once, in the spec's order. Adding a capability is its own
 * files and one entry here. docs/dispatch.md lists the rows. */
#include "decode/codec.h"

#include <string.h>

#include "common/context.h"

#include "decode/bmshj2018.h"
#include "decode/int_audio.h"
#include "decode/int_hyper.h"
#include "decode/int_cond.h"
#include "decode/int_hyper_video.h"
#include "decode/int_mlicpp.h"
#include "decode/int_motion.h"
#include "decode/int_splat.h"
#include "decode/int_synth.h"
#include "formats/b18f.h"
#include "formats/wic1.h"
#include "formats/wia1.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "formats/wim1.h"
#include "formats/wiv1.h"

#define INT_EXACT "NeuralIntegerExact"
#define DECODE_EQ "decode-equivalence"
/* The specs in the tree name no class for a capability whose networks are
 * not integer; "Neural" is libwai's name for it, and dispatch reads it as
 * neural-dispatch §2's "every other" class (docs/dispatch.md). */
#define NEURAL "Neural"
#define HYPER_SET {"g_s.whm", "h_s.whm", "entropy.json", NULL}

/* What each parse can refuse with, in §2's order: the framing (steps 1
 * and 2), the header (3 to 6), then the sections (7 and 8). A keyframe-1
 * form ends with its nested WIH1, so bytes after it are nested_length, not
 * trailing (reading R3); its WIH1's own codes are among these. */
#define FRAMING WAI_bad_magic, WAI_format_capability_mismatch, WAI_stream_length, WAI_version
#define HEADER WAI_reserved_nonzero, WAI_field_range
static const wai_status video_k0_codes[] = {FRAMING, HEADER, WAI_keyframe_capability_mismatch,
                                            WAI_too_large, WAI_cdf_malformed, WAI_trailing,
                                            WAI_ok};
static const wai_status video_k1_codes[] = {FRAMING, HEADER, WAI_keyframe_capability_mismatch,
                                            WAI_too_large, WAI_cdf_malformed, WAI_nested_length,
                                            WAI_ok};
/* The frame form's inter frames end with a stream: trailing as well. */
static const wai_status frame_k1_codes[] = {FRAMING, HEADER, WAI_keyframe_capability_mismatch,
                                            WAI_too_large, WAI_cdf_malformed, WAI_nested_length,
                                            WAI_trailing, WAI_ok};
static const wai_status wih1_codes[] = {FRAMING, HEADER, WAI_too_large, WAI_trailing, WAI_ok};
static const wai_status tables_codes[] = {FRAMING,           HEADER,       WAI_too_large,
                                          WAI_cdf_malformed, WAI_trailing, WAI_ok};
/* WCF1 (§17.1), and WIC1 (§17.2): its frames' codes, their kinds, the
 * clip's cap and header (readings S14-S16). */
static const wai_status wcf1_codes[] = {FRAMING, HEADER, WAI_too_large, WAI_trailing, WAI_ok};
static const wai_status wic1_codes[] = {FRAMING,      HEADER, WAI_too_large, WAI_geometry_mismatch,
                                        WAI_trailing, WAI_ok};
static const wai_status wim1_codes[] = {WAI_payload_malformed, WAI_ok};
static const wai_status synth_codes[] = {WAI_payload_malformed, WAI_ok};
static const wai_status b18f_codes[] = {FRAMING, HEADER, WAI_too_large, WAI_trailing, WAI_ok};

/* One row per capability, designated so each says what it is. Rows whose
 * decoders are still to come carry what the spec fixes of them (their
 * format, members and largest payload) and no ops. */
/* The image encoders' analysis networks (write/hyper_encode.c,
 * write/mlic_encode.c). */
#define ANALYSIS {"analysis.webnn.json", "analysis.f32", NULL}
#define INTEGER .networks = WAI_NETWORKS_INTEGER
static const wai_codec codecs[] = {
    {.cap = {"wai.video.int_motion", WAI_FORMAT_WIV1, 0, 0, INT_EXACT, DECODE_EQ, {NULL}},
     INTEGER, .output = WAI_OUTPUT_FRAME, .max_bytes = WAI_WIV1_K0_MAX_BYTES,
     .parse_codes = video_k0_codes, .ops = &wai_int_motion_ops},
    {.cap = {"wai.video.int_hyper", WAI_FORMAT_WIV1, 1, 0, INT_EXACT, DECODE_EQ, HYPER_SET},
     INTEGER, .output = WAI_OUTPUT_FRAME, .max_bytes = WAI_WIV1_K1_MAX_BYTES,
     .parse_codes = video_k1_codes, .encoder_members = ANALYSIS,
     .load_set = wai_int_hyper_load_set,
     .ops = &wai_int_hyper_clip_ops},
    {.cap = {"wai.neural.int_hyper", WAI_FORMAT_WIH1, -1, 0, INT_EXACT, DECODE_EQ, HYPER_SET},
     INTEGER, .output = WAI_OUTPUT_IMAGE, .max_bytes = WAI_WIH1_MAX_BYTES,
     .parse_codes = wih1_codes, .encoder_members = ANALYSIS,
     .load_set = wai_int_hyper_load_set, .ops = &wai_int_hyper_ops},
    {.cap = {"wai.audio.int_codec", WAI_FORMAT_WIA1, -1, 0, INT_EXACT, DECODE_EQ,
             {"model.wam", NULL}},
     INTEGER, .output = WAI_OUTPUT_PCM, .max_bytes = WAI_WIA1_MAX_BYTES,
     .parse_codes = tables_codes, .load_set = wai_int_audio_load_set, .ops = &wai_int_audio_ops},
    {.cap = {"wai.splat.int_codec", WAI_FORMAT_WIS1, -1, 0, INT_EXACT, DECODE_EQ,
             {"g_s.whm", NULL}},
     INTEGER, .output = WAI_OUTPUT_PLANES, .max_bytes = WAI_WIS1_MAX_BYTES,
     .parse_codes = tables_codes, .load_set = wai_int_splat_load_set, .ops = &wai_int_splat_ops},
    {.cap = {"wai.video.int_motion.frame", WAI_FORMAT_WIF1, 0, 1, INT_EXACT, DECODE_EQ, {NULL}},
     INTEGER, .output = WAI_OUTPUT_FRAME,
     .max_bytes = WAI_WIF1_MAX_BYTES(WAI_WIF1_K0_INTRA_MAX_BYTES), .parse_codes = video_k0_codes,
     .ops = &wai_int_motion_frame_ops},
    {.cap = {"wai.video.int_hyper.frame", WAI_FORMAT_WIF1, 1, 1, INT_EXACT, DECODE_EQ, HYPER_SET},
     INTEGER, .output = WAI_OUTPUT_FRAME,
     .max_bytes = WAI_WIF1_MAX_BYTES(WAI_WIF1_K1_INTRA_MAX_BYTES), .parse_codes = frame_k1_codes,
     .encoder_members = ANALYSIS,
     .load_set = wai_int_hyper_load_set, .ops = &wai_int_hyper_frame_ops},
    /* §17: a WIC1 clip of WCF1 frames and its frame form (docs/int_cond.md). */
    {.cap = {"wai.video.int_cond", WAI_FORMAT_WIC1, -1, 0, INT_EXACT, DECODE_EQ,
             {"model.wcb", NULL}},
     INTEGER, .output = WAI_OUTPUT_FRAME, .max_bytes = WAI_WIC1_MAX_BYTES,
     .parse_codes = wic1_codes, .load_set = wai_int_cond_load_set, .ops = &wai_int_cond_ops},
    {.cap = {"wai.video.int_cond.frame", WAI_FORMAT_WCF1, -1, 1, INT_EXACT, DECODE_EQ,
             {"model.wcb", NULL}},
     INTEGER, .output = WAI_OUTPUT_FRAME, .max_bytes = WAI_WCF1_MAX_BYTES,
     .parse_codes = wcf1_codes, .load_set = wai_int_cond_load_set, .ops = &wai_int_cond_frame_ops},
    /* §13: exactly 12 header bytes and one i8 per latent element (at most
     * 2^26); every refusal payload_malformed (docs/int_synth.md). */
    {.cap = {"wai.neural.int_synth", WAI_FORMAT_INT_SYNTH, -1, 0, INT_EXACT, DECODE_EQ,
             {"int_synth.json", NULL}},
     INTEGER, .output = WAI_OUTPUT_IMAGE, .max_bytes = 12 + WAI_ELEMS_MAX,
     .parse_codes = synth_codes, .load_set = wai_int_synth_load_set, .ops = &wai_int_synth_ops},
    /* §14: the payload's refusals payload_malformed, the bundle's
     * model_mismatch (docs/int_mlicpp.md). */
    {.cap = {"wai.neural.int_mlicpp", WAI_FORMAT_WIM1, -1, 0, INT_EXACT, DECODE_EQ,
             {"model.wmb", NULL}},
     INTEGER, .output = WAI_OUTPUT_IMAGE, .max_bytes = WAI_WIM1_MAX_BYTES,
     .parse_codes = wim1_codes, .encoder_members = ANALYSIS, .load_set = wai_int_mlicpp_load_set,
     .ops = &wai_int_mlicpp_ops},
    /* The floating-point capability (neural-dispatch §6): its payload is
     * libwai's B18F (docs/bmshj2018.md). The set's one member every path
     * reads is the entropy stage's tables (§6.3); the networks are a
     * floating-point program from the latent to the picture, more members
     * of the set, which the backend of each path reads
     * (include/wai/wai_backend.h; docs/dispatch.md lists them). */
    {.cap = {"wai.neural.bmshj2018", WAI_FORMAT_B18F, -1, 0, NEURAL, "none",
             {"cdfs_q3.json", NULL}},
     .networks = WAI_NETWORKS_LATENT, .output = WAI_OUTPUT_IMAGE,
     .max_bytes = WAI_B18F_MAX_BYTES, .parse_codes = b18f_codes,
     .load_set = wai_bmshj2018_load_set, .ops = &wai_bmshj2018_ops},
};

#define N_CODECS (sizeof codecs / sizeof codecs[0])

const wai_codec *wai_codec_of(const wai_capability *cap) {
    if (!cap) return NULL;
    for (size_t i = 0; i < N_CODECS; i++)
        if (&codecs[i].cap == cap) return &codecs[i];
    /* A copy of a row: the row of its name. */
    for (size_t i = 0; i < N_CODECS; i++)
        if (cap->name && strcmp(codecs[i].cap.name, cap->name) == 0) return &codecs[i];
    return NULL;
}

void wai_job_init(wai_job *j, const wai_codec *c, void *stream) {
    /* The state too: a release after a failed parse frees only what is
     * not NULL. */
    memset(j, 0, sizeof *j);
    j->codec = c;
    j->stream = stream;
    j->reads_set = c->load_set != NULL;
    j->out.kind = c->output;
}

wai_set_kind wai_codec_set_kind(const wai_codec *c) {
    wai_set_kind k = {c->cap.set_members, c->load_set};
    return k;
}

/* ---- the public registry (include/wai/wai_format.h) ------------------------ */

size_t wai_capability_count(void) { return N_CODECS; }

const wai_capability *wai_capability_at(size_t i) { return i < N_CODECS ? &codecs[i].cap : NULL; }

const wai_capability *wai_capability_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < N_CODECS; i++)
        if (strcmp(codecs[i].cap.name, name) == 0) return &codecs[i].cap;
    return NULL;
}

const wai_capability *wai_capability_detect(const uint8_t *data, size_t len) {
    wai_format f = wai_format_detect(data, len);
    if (f == WAI_FORMAT_NONE) return NULL;
    int keyframe = -1;
    if (f == WAI_FORMAT_WIV1 || f == WAI_FORMAT_WIF1) keyframe = (len > 6 && data[6] == 1);
    for (size_t i = 0; i < N_CODECS; i++)
        if (codecs[i].cap.format == f && (keyframe < 0 || codecs[i].cap.keyframe == keyframe))
            return &codecs[i].cap;
    return NULL;
}

int wai_capability_has_decoder(const wai_capability *cap) {
    const wai_codec *c = wai_codec_of(cap);
    return c && c->ops;
}

const char *const *wai_capability_encoder_members(const wai_capability *cap) {
    static const char *const none[] = {NULL};
    const wai_codec *c = wai_codec_of(cap);
    return c ? c->encoder_members : none;
}

/* The members ctx's backends read for cap, by the kind of its networks
 * (include/wai/wai_backend.h). */
const char *wai_context_program_member(const wai_context *ctx, const wai_capability *cap,
                                       size_t i) {
    const wai_codec *c = wai_codec_of(cap);
    return ctx && c && c->ops ? wai_backends_program_member(ctx->backends, c->networks, i) : NULL;
}

wai_output_kind wai_capability_output(const wai_capability *cap) {
    const wai_codec *c = wai_codec_of(cap);
    return c ? c->output : WAI_OUTPUT_NONE;
}

uint64_t wai_payload_max_bytes(const wai_capability *cap) {
    const wai_codec *c = wai_codec_of(cap);
    return c ? c->max_bytes : UINT64_MAX;
}

wai_status wai_check_payload(const wai_capability *cap, const uint8_t *data, size_t len,
                             wai_checked *checked) {
    const wai_codec *c = wai_codec_of(cap);
    if (!c || (!data && len)) return WAI_invalid_argument;
    if (!c->ops) {
        if (checked) *checked = WAI_CHECKED_FRAMING;
        return wai_check_framing(cap, data, len);
    }
    if (checked) *checked = WAI_CHECKED_PARSE;
    wai_job j;
    wai_job_init(&j, c, NULL);
    return c->ops->parse(&j, data, len);
}

wai_status wai_payload_header_json(const wai_capability *cap, const uint8_t *data, size_t len,
                                   char *buf, size_t size, size_t *length) {
    const wai_codec *c = wai_codec_of(cap);
    if (length) *length = 0;
    if (!c || (!data && len) || (!buf && size)) return WAI_invalid_argument;
    if (size) buf[0] = '\0';
    if (!c->ops) return WAI_unsupported_capability;
    wai_job j;
    wai_job_init(&j, c, NULL);
    wai_status st = c->ops->parse(&j, data, len);
    if (st != WAI_ok) return st;
    wai_text t;
    wai_text_init(&t, buf, size);
    c->ops->describe(&j, &t);
    return wai_text_result(&t, length);
}
