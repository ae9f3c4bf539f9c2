/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.video.int_motion and its frame form: WIV1/WIF1/WIH1 parse order and
 * caps (R4, R5), writers, the decode (E9, E10, R11), split/join (R10) and
 * the public decoder (N7, R7, R9), allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/int_motion.h"
#include "entropy/rans.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wiv1.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

#define CAP_MOTION "wai.video.int_motion"
#define CAP_FRAME "wai.video.int_motion.frame"

/* ---- helpers ------------------------------------------------------------ */

static void put32(uint8_t *b, uint32_t v) {
    b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
}

/* A 36-byte WIV1 header, reserved fields zero; tests break fields by hand. */
static void wiv1_header(uint8_t *b, uint8_t mvp, uint32_t n, uint32_t h, uint32_t w,
                        uint32_t block, uint32_t q, uint32_t cdf_len) {
    memset(b, 0, WAI_WIV1_HEADER_BYTES);
    memcpy(b, "WIV1\x01", 5);
    b[5] = mvp;
    b[6] = 0;
    put32(b + 8, n);
    put32(b + 12, h);
    put32(b + 16, w);
    put32(b + 20, block);
    put32(b + 24, q);
    put32(b + 28, 0);
    b[32] = (uint8_t)cdf_len;
    b[33] = (uint8_t)(cdf_len >> 8);
}

/* A 32-byte WIF1 header. */
static void wif1_header(uint8_t *b, uint8_t kind, uint8_t mvp, uint32_t h, uint32_t w,
                        uint32_t block, uint32_t q, uint32_t cdf_len) {
    memset(b, 0, WAI_WIF1_HEADER_BYTES);
    memcpy(b, "WIF1\x01", 5);
    b[5] = kind;
    b[7] = mvp;
    put32(b + 8, h);
    put32(b + 12, w);
    put32(b + 16, block);
    put32(b + 20, q);
    b[28] = (uint8_t)cdf_len;
    b[29] = (uint8_t)(cdf_len >> 8);
}

static wai_status check_as(const char *cap, const uint8_t *b, size_t len) {
    wai_checked checked;
    wai_status st = wai_check_payload(wai_capability_find(cap), b, len, &checked);
    CHECK(checked == WAI_CHECKED_PARSE);
    return st;
}

static wai_status wiv1(const uint8_t *b, size_t len) { return check_as(CAP_MOTION, b, len); }
static wai_status wif1(const uint8_t *b, size_t len) { return check_as(CAP_FRAME, b, len); }

/* The table every built clip uses: 4 direct values (0..3) and the escape. */
static const uint32_t k_cdf[6] = {0, 20000, 36000, 48000, 56000, 65536};

/* Builds a clip of keyframe 0 through the library's encoder and writer. */
static uint8_t *make_clip(uint8_t mvp, uint32_t n, uint32_t h, uint32_t w, uint32_t block,
                          uint32_t q, int32_t offset, const int16_t *vectors,
                          const int32_t *syms, size_t *len) {
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, k_cdf, 6, 16) != WAI_ok) return NULL;
    uint8_t *stream = NULL, *clip = NULL;
    size_t stream_len = 0;
    size_t n_syms = (size_t)n * h * w * 3;
    wai_status st = wai_rans_encode(NULL, &t, NULL, NULL, offset, syms, n_syms, &stream, &stream_len);
    wai_cdf_table_free(&t, NULL);
    if (!CHECK(st == WAI_ok)) return NULL;
    wai_wiv1_parts p = {0};
    p.mv_precision = mvp;
    p.n_frames = n;
    p.h = h;
    p.w = w;
    p.block = block;
    p.q = q;
    p.offset = offset;
    p.cdf = k_cdf;
    p.cdf_len = 6;
    p.vectors = vectors;
    p.stream = stream;
    p.stream_len = stream_len;
    st = wai_wiv1_write(NULL, &p, &clip, len);
    free(stream);
    CHECK(st == WAI_ok);
    return clip;
}

/* Decodes through the public API; copies the frames into out (may be NULL). */
static wai_status decode_public(const char *cap, uint64_t max_cost, const uint8_t *data,
                                size_t len, uint8_t *out, size_t out_cap, uint32_t *n_out) {
    wai_context *ctx;
    wai_decoder *d;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap;
    cfg.max_cost = max_cost;
    *n_out = 0;
    if (wai_context_create(NULL, &ctx) != WAI_ok) return WAI_out_of_memory;
    wai_status st = wai_decoder_create(ctx, &cfg, &d);
    if (st == WAI_ok) {
        st = wai_decoder_send(d, data, len, NULL);
        wai_output o;
        size_t at = 0;
        while (wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
            if (out && at + o.size <= out_cap) memcpy(out + at, o.data, o.size);
            at += o.size;
            (*n_out)++;
        }
        wai_decoder_destroy(d);
    }
    wai_context_destroy(ctx);
    return st;
}

/* ---- R4: caps with equality, and past 64 bits --------------------------- */

static void test_caps_wiv1(void) {
    uint8_t b[WAI_WIV1_HEADER_BYTES];
    /* Frame: h*w*3 is a multiple of 3, so 2^26 itself cannot be met; the
     * largest frame under it (2731 x 8191 x 3 = 2^26 - 1) passes, one more
     * row does not. */
    wiv1_header(b, 1, 1, 2731, 8191, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_stream_length);
    wiv1_header(b, 1, 1, 2732, 8191, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    /* Clip: 10923 frames of 217 x 151 x 3 = 2^30 - 1 bytes pass; one more
     * frame does not (frame, count and vectors all within their caps). */
    wiv1_header(b, 1, 10923, 217, 151, 256, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_stream_length);
    wiv1_header(b, 1, 10924, 217, 151, 256, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    /* Frames: exactly 2^20 passes, one more is past. */
    wiv1_header(b, 1, 1u << 20, 1, 1, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_stream_length);
    wiv1_header(b, 1, (1u << 20) + 1, 1, 1, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    /* Vector field 2*nb*(n-1): 2 * 2^15 * 1024 = 2^26 exactly passes. */
    wiv1_header(b, 2, 1025, 128, 256, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_stream_length);
    wiv1_header(b, 2, 1026, 128, 256, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    /* Past 64 bits: h*w fits, h*w*3 wraps to 66911744 (< 2^26) in u64. */
    wiv1_header(b, 1, 1, 0xffff0201u, 0x5555aa00u, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    wiv1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
    /* The caps come in §3's order, all four reporting the same code: a
     * header past every cap is still too_large, never stream_length. */
    wiv1_header(b, 2, 0xffffffffu, 0xffffffffu, 0xffffffffu, 1, 1, 6);
    CHECK(wiv1(b, sizeof b) == WAI_too_large);
}

static void test_caps_wif1(void) {
    uint8_t b[WAI_WIF1_HEADER_BYTES];
    wif1_header(b, 0, 0, 2731, 8191, 0, 1, 6);
    CHECK(wif1(b, sizeof b) == WAI_stream_length);
    wif1_header(b, 0, 0, 2732, 8191, 0, 1, 6);
    CHECK(wif1(b, sizeof b) == WAI_too_large);
    wif1_header(b, 1, 1, 2731, 8191, 1, 0, 0);
    CHECK(wif1(b, sizeof b) == WAI_stream_length);
    wif1_header(b, 1, 1, 2732, 8191, 1, 0, 0);
    CHECK(wif1(b, sizeof b) == WAI_too_large);
    wif1_header(b, 0, 0, 0xffff0201u, 0x5555aa00u, 0, 1, 6);
    CHECK(wif1(b, sizeof b) == WAI_too_large);
    wif1_header(b, 1, 2, 0xffff0201u, 0x5555aa00u, 1, 0, 0);
    CHECK(wif1(b, sizeof b) == WAI_too_large);
}

/* ---- §2's order: the earlier check wins -------------------------------- */

static void test_order_wiv1(void) {
    uint8_t b[64] = {0};
    size_t n = WAI_WIV1_HEADER_BYTES;
    /* R1: shorter than the magic; magic without version; version absent. */
    CHECK(wiv1((const uint8_t *)"WIV", 3) == WAI_bad_magic);
    CHECK(wiv1((const uint8_t *)"WIV1", 4) == WAI_stream_length);
    CHECK(wiv1((const uint8_t *)"WIF1\x01", 5) == WAI_format_capability_mismatch);
    /* version before the header's presence and reserved. */
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 6);
    b[4] = 2;
    b[7] = 1;
    CHECK(wiv1(b, 20) == WAI_version);
    CHECK(wiv1(b, n) == WAI_version);
    /* header presence before reserved. */
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 6);
    b[7] = 1;
    CHECK(wiv1(b, n - 1) == WAI_stream_length);
    /* reserved before a field. */
    wiv1_header(b, 1, 1, 1, 1, 1, 0, 6);
    b[34] = 1;
    CHECK(wiv1(b, n) == WAI_reserved_nonzero);
    b[34] = 0;
    b[7] = 9;
    CHECK(wiv1(b, n) == WAI_reserved_nonzero);
    /* a field before the keyframe kind: keyframe 1 with q 0 for int_motion. */
    wiv1_header(b, 1, 1, 1, 1, 1, 0, 6);
    b[6] = 1;
    CHECK(wiv1(b, n) == WAI_field_range);
    /* the one-frame rule is a field rule too, before the kind. */
    wiv1_header(b, 1, 1, 1, 1, 2, 1, 6);
    b[6] = 1;
    CHECK(wiv1(b, n) == WAI_field_range);
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 6);
    b[6] = 1;
    CHECK(wiv1(b, n) == WAI_keyframe_capability_mismatch);
    /* the kind before the caps. */
    wiv1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 1, 6);
    b[6] = 1;
    CHECK(wiv1(b, n) == WAI_keyframe_capability_mismatch);
    /* a field before the caps. */
    wiv1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 0, 6);
    CHECK(wiv1(b, n) == WAI_field_range);
    wiv1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 1, 4098);
    CHECK(wiv1(b, n) == WAI_field_range);
    /* the caps before missing sections (the header alone is present). */
    wiv1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 1, 6);
    CHECK(wiv1(b, n) == WAI_too_large);
    /* R5: cdf_len outside 3..=4097 is field_range, table bytes absent. */
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 4098);
    CHECK(wiv1(b, n) == WAI_field_range);
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 2);
    CHECK(wiv1(b, n) == WAI_field_range);
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 4097);
    CHECK(wiv1(b, n) == WAI_stream_length);
    /* table presence before its rule: a cut table whose first entry is bad. */
    wiv1_header(b, 1, 1, 1, 1, 1, 1, 3);
    put32(b + 36, 7);
    put32(b + 40, 9);
    CHECK(wiv1(b, 44) == WAI_stream_length);
    put32(b + 44, 65536);
    CHECK(wiv1(b, 48) == WAI_cdf_malformed);
    /* table rule before the later sections' presence. */
    put32(b + 36, 0);
    CHECK(wiv1(b, 48) == WAI_stream_length); /* stream length L absent */
    put32(b + 48, 6);                        /* L not a multiple of 4 */
    CHECK(wiv1(b, 60) == WAI_stream_length);
    put32(b + 48, 8);
    put32(b + 52, 0x80000000u);
    put32(b + 56, 0);
    CHECK(wiv1(b, 60) == WAI_ok); /* parses; the decode is another matter */
    CHECK(wiv1(b, 61) == WAI_trailing);
    put32(b + 36, 1);
    CHECK(wiv1(b, 61) == WAI_cdf_malformed); /* table rule before trailing */
    /* field rules in §3's order all give field_range; the one-frame rule
     * (mv_precision 1 when n_frames is 1) does not apply to n_frames 2. */
    wiv1_header(b, 2, 2, 1, 1, 1, 1, 3);
    put32(b + 36, 0);
    put32(b + 40, 9);
    put32(b + 44, 65536);
    CHECK(wiv1(b, 48) == WAI_stream_length); /* vectors absent */
    wiv1_header(b, 2, 1, 1, 1, 1, 1, 3);
    CHECK(wiv1(b, n) == WAI_field_range);
}

static void test_order_wif1(void) {
    uint8_t b[64] = {0};
    size_t n = WAI_WIF1_HEADER_BYTES;
    wif1_header(b, 0, 0, 1, 1, 0, 0, 6);
    b[4] = 0;
    b[30] = 1;
    CHECK(wif1(b, n) == WAI_version);
    wif1_header(b, 0, 0, 1, 1, 0, 0, 6);
    b[31] = 1;
    CHECK(wif1(b, n - 1) == WAI_stream_length);
    CHECK(wif1(b, n) == WAI_reserved_nonzero);
    /* kind 2 is field_range whatever else is wrong later */
    wif1_header(b, 2, 0, 0, 0, 0, 0, 0);
    CHECK(wif1(b, n) == WAI_field_range);
    /* a field before the keyframe kind */
    wif1_header(b, 0, 1, 1, 1, 0, 1, 6); /* intra with mv_precision 1 */
    b[6] = 1;
    CHECK(wif1(b, n) == WAI_field_range);
    wif1_header(b, 1, 1, 1, 1, 1, 0, 0);
    b[6] = 1;
    CHECK(wif1(b, n) == WAI_keyframe_capability_mismatch);
    /* inter frame: offset must be 0, a field rule before the caps */
    wif1_header(b, 1, 1, 0xffffffffu, 0xffffffffu, 1, 0, 0);
    put32(b + 24, 1);
    CHECK(wif1(b, n) == WAI_field_range);
    /* R5 for an intra frame */
    wif1_header(b, 0, 0, 1, 1, 0, 1, 4098);
    CHECK(wif1(b, n) == WAI_field_range);
    wif1_header(b, 0, 0, 1, 1, 0, 1, 3);
    put32(b + 32, 5);
    CHECK(wif1(b, 36) == WAI_stream_length);
    put32(b + 36, 6);
    put32(b + 40, 65536);
    CHECK(wif1(b, 44) == WAI_cdf_malformed);
    put32(b + 32, 0);
    CHECK(wif1(b, 44) == WAI_stream_length);
    put32(b + 44, 8);
    put32(b + 48, 0x80000000u);
    put32(b + 52, 0);
    CHECK(wif1(b, 56) == WAI_ok);
    CHECK(wif1(b, 57) == WAI_trailing);
    /* inter: vectors before the stream */
    wif1_header(b, 1, 2, 3, 4, 2, 0, 0); /* nb = 4 */
    CHECK(wif1(b, n + 15) == WAI_stream_length);
    memset(b + n, 0, 16);
    put32(b + n + 16, 8);
    put32(b + n + 20, 0x80000000u);
    put32(b + n + 24, 0);
    CHECK(wif1(b, n + 28) == WAI_ok);
}

/* ---- writers refuse what parsers refuse --------------------------------- */

static void test_writers(void) {
    static const int16_t vec[8] = {0};
    /* 16 bytes: the cases that declare a cut stream read past its 8. */
    static const uint8_t stream[16] = {0, 0, 0, 0x80, 0, 0, 0, 0};
    static const uint32_t bad_cdf[6] = {0, 20000, 20000, 48000, 56000, 65536};
    wai_wiv1_parts good = {0};
    good.mv_precision = 2, good.n_frames = 2, good.h = 3, good.w = 4, good.block = 2;
    good.q = 7, good.offset = -3, good.cdf = k_cdf, good.cdf_len = 6, good.vectors = vec;
    good.stream = stream, good.stream_len = 8;
    struct {
        wai_wiv1_parts p;
        wai_status want;
    } cases[20];
    size_t nc = 0;
#define CASE(field, value, code)                                                              \
    do {                                                                                      \
        cases[nc].p = good;                                                                   \
        cases[nc].p.field = value;                                                            \
        cases[nc++].want = code;                                                              \
    } while (0)
    CASE(mv_precision, 0, WAI_field_range);
    CASE(mv_precision, 3, WAI_field_range);
    CASE(keyframe, 2, WAI_field_range);
    CASE(n_frames, 0, WAI_field_range);
    CASE(h, 0, WAI_field_range);
    CASE(w, 0, WAI_field_range);
    CASE(block, 0, WAI_field_range);
    CASE(q, 0, WAI_field_range);
    CASE(q, 65536, WAI_field_range);
    CASE(cdf_len, 2, WAI_field_range);
    CASE(cdf_len, 4098, WAI_field_range);
    CASE(cdf_len, 65536 + 6, WAI_field_range); /* would wrap the u16 */
    CASE(h, 0xffffffffu, WAI_too_large);
    CASE(n_frames, (1u << 20) + 1, WAI_too_large);
    CASE(cdf, bad_cdf, WAI_cdf_malformed);
    CASE(stream_len, 4, WAI_stream_length);
    CASE(stream_len, 6, WAI_stream_length);
#undef CASE
    cases[nc].p = good;
    cases[nc].p.n_frames = 1; /* one frame: block must be 1, precision 1 */
    cases[nc++].want = WAI_field_range;
    for (size_t i = 0; i < nc; i++) {
        uint8_t *out = (uint8_t *)1;
        size_t len = 99;
        wai_status st = wai_wiv1_write(NULL, &cases[i].p, &out, &len);
        CHECK_MSG(st == cases[i].want && out == NULL && len == 0,
                  "wiv1 write case %zu: %s, want %s", i, wai_status_name(st),
                  wai_status_name(cases[i].want));
    }
    uint8_t *out;
    size_t len;
    if (CHECK(wai_wiv1_write(NULL, &good, &out, &len) == WAI_ok)) {
        wai_wiv1 v;
        CHECK(wai_wiv1_parse(out, len, 0, &v) == WAI_ok);
        CHECK(v.mv_precision == 2 && v.n_frames == 2 && v.h == 3 && v.w == 4 && v.block == 2);
        CHECK(v.q == 7 && v.offset == -3 && v.cdf_len == 6 && v.nb == 4 && v.nbx == 2);
        CHECK(v.residual.len == 8 && memcmp(v.residual.bytes, stream, 8) == 0);
        CHECK(len == 36 + 24 + 16 + 12);
        free(out);
    }

    wai_wif1_parts gi = {0}, gp = {0};
    gi.kind = 0, gi.h = 3, gi.w = 4, gi.q = 9, gi.offset = 5, gi.cdf = k_cdf, gi.cdf_len = 6;
    gi.stream = stream, gi.stream_len = 8;
    gp.kind = 1, gp.mv_precision = 1, gp.h = 3, gp.w = 4, gp.block = 2, gp.vectors = vec;
    gp.stream = stream, gp.stream_len = 8;
    wai_wif1_parts fc[16];
    wai_status fwant[16];
    size_t nf = 0;
#define FCASE(base, field, value, code)                                                       \
    do {                                                                                      \
        fc[nf] = base;                                                                        \
        fc[nf].field = value;                                                                 \
        fwant[nf++] = code;                                                                   \
    } while (0)
    FCASE(gi, kind, 2, WAI_field_range);
    FCASE(gi, keyframe, 2, WAI_field_range);
    FCASE(gi, mv_precision, 1, WAI_field_range);
    FCASE(gi, block, 1, WAI_field_range);
    FCASE(gi, q, 0, WAI_field_range);
    FCASE(gi, cdf_len, 4098, WAI_field_range);
    FCASE(gi, h, 0xffffffffu, WAI_too_large);
    FCASE(gi, cdf, bad_cdf, WAI_cdf_malformed);
    FCASE(gi, stream_len, 4, WAI_stream_length);
    FCASE(gp, mv_precision, 0, WAI_field_range);
    FCASE(gp, block, 0, WAI_field_range);
    FCASE(gp, q, 1, WAI_field_range);
    FCASE(gp, offset, 1, WAI_field_range);
    FCASE(gp, cdf_len, 3, WAI_field_range);
    FCASE(gp, w, 0, WAI_field_range);
    FCASE(gp, stream_len, 12 + 2, WAI_stream_length);
#undef FCASE
    for (size_t i = 0; i < nf; i++) {
        uint8_t *o = (uint8_t *)1;
        size_t l = 99;
        wai_status st = wai_wif1_write(NULL, &fc[i], &o, &l);
        CHECK_MSG(st == fwant[i] && o == NULL && l == 0, "wif1 write case %zu: %s, want %s", i,
                  wai_status_name(st), wai_status_name(fwant[i]));
    }
    const wai_wif1_parts *goods[2] = {&gi, &gp};
    for (int k = 0; k < 2; k++) {
        if (!CHECK(wai_wif1_write(NULL, goods[k], &out, &len) == WAI_ok)) continue;
        wai_wif1 f;
        CHECK(wai_wif1_parse(out, len, 0, &f) == WAI_ok);
        CHECK(f.kind == goods[k]->kind && f.h == 3 && f.w == 4 && f.q == goods[k]->q);
        CHECK(f.offset == goods[k]->offset && f.block == goods[k]->block);
        CHECK(f.mv_precision == goods[k]->mv_precision && f.cdf_len == goods[k]->cdf_len);
        CHECK(len == (k == 0 ? 32 + 24 + 12 : 32 + 16 + 12));
        free(out);
    }

    wai_wih1_parts h = {0};
    h.m = 2, h.sh = 3, h.sw = 4, h.n_z = 1, h.zh = 2, h.zw = 2;
    h.z_stream = stream, h.z_len = 8, h.y_stream = stream, h.y_len = 8;
    wai_wih1_parts hc[8];
    wai_status hwant[8];
    size_t nh = 0;
#define HCASE(field, value, code)                                                             \
    do {                                                                                      \
        hc[nh] = h;                                                                           \
        hc[nh].field = value;                                                                 \
        hwant[nh++] = code;                                                                   \
    } while (0)
    HCASE(m, 0, WAI_field_range);
    HCASE(zw, 0, WAI_field_range);
    HCASE(n_z, 1u << 26, WAI_too_large); /* 2^26 * 2 * 2 hyper-latent */
    HCASE(m, 1u << 25, WAI_too_large); /* 2 * m * sh * sw */
    HCASE(z_len, 4, WAI_stream_length);
    HCASE(y_len, 10, WAI_stream_length);
#undef HCASE
    for (size_t i = 0; i < nh; i++) {
        uint8_t *o = (uint8_t *)1;
        size_t l = 99;
        wai_status st = wai_wih1_write(NULL, &hc[i], &o, &l);
        CHECK_MSG(st == hwant[i] && o == NULL && l == 0, "wih1 write case %zu: %s, want %s", i,
                  wai_status_name(st), wai_status_name(hwant[i]));
    }
    /* exactly at the caps: n_z*zh*zw = 2^26 and 2*m*sh*sw = 2^26 pass */
    wai_wih1_parts edge = h;
    edge.n_z = 1u << 24, edge.zh = 2, edge.zw = 2;
    edge.m = 1u << 22, edge.sh = 2, edge.sw = 4;
    if (CHECK(wai_wih1_write(NULL, &edge, &out, &len) == WAI_ok)) free(out);
    if (CHECK(wai_wih1_write(NULL, &h, &out, &len) == WAI_ok)) {
        wai_wih1 w;
        CHECK(wai_wih1_parse(out, len, 0, &w) == WAI_ok);
        CHECK(w.m == 2 && w.sh == 3 && w.sw == 4 && w.n_z == 1 && w.zh == 2 && w.zw == 2);
        CHECK(w.z_stream.len == 8 && w.y_stream.len == 8 && len == 32 + 24);
        CHECK(wai_wih1_parse(out, len - 1, 0, &w) == WAI_stream_length);
        free(out);
    }
}

/* ---- decoding: E10 and E9 pinned by hand -------------------------------- */

/* Frame 0 of the hand-computed clips: F(y, x, c) = 20 * (4y + x) + c. */
static uint8_t f0_value(uint32_t y, uint32_t x, uint32_t c) { return (uint8_t)(20 * (4 * y + x) + c); }

/* Syms for a 2-frame 3x4 clip: frame 0 codes F with q 1 (pred 128), frame 1
 * codes residual 0, so frame 1 is the prediction itself. */
static void hand_syms(int32_t *syms) {
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 4; x++)
            for (uint32_t c = 0; c < 3; c++) syms[(y * 4 + x) * 3 + c] = f0_value(y, x, c) - 128;
    for (int i = 36; i < 72; i++) syms[i] = 0;
}

static void test_decode_halfpel(void) {
    /* Blocks of 2 on 3x4: (0,0) (0,1) (1,0) (1,1), in half-pel units. */
    static const int16_t vec[8] = {-1, 3, 1, -1, -3, -2, 32767, -32768};
    int32_t syms[72];
    hand_syms(syms);
    size_t len;
    uint8_t *clip = make_clip(2, 2, 3, 4, 2, 1, 0, vec, syms, &len);
    if (!clip) return;
    uint8_t out[72];
    uint32_t n;
    if (!CHECK(decode_public(CAP_MOTION, WAI_NO_COST_LIMIT, clip, len, out, sizeof out, &n) ==
               WAI_ok && n == 2)) {
        free(clip);
        return;
    }
    for (uint32_t i = 0; i < 36; i++) CHECK(out[i] == f0_value(i / 12, i / 3 % 4, i % 3));
    const uint8_t *f1 = out + 36;
#define PX(y, x, c) f1[((y) * 4 + (x)) * 3 + (c)]
    /* (0,0), vector (-1,3): iy = -1 (floor), fy = 1, ix = 1, fx = 1; the four
     * reads p(0,1) p(0,2) p(0,1) p(0,2) after clamping: (2*21+2*41+2)>>2 = 31. */
    CHECK(PX(0, 0, 0) == 30 && PX(0, 0, 1) == 31 && PX(0, 0, 2) == 32);
    /* (1,1), same block: iy = 0, ix = 2: (F02+F03+F12+F13+2)>>2, c=0: 362>>2 */
    CHECK(PX(1, 1, 0) == 90 && PX(1, 1, 2) == 92);
    /* (0,2), vector (1,-1): iy = 0 fy 1, ix = 1 fx 1: F01 F02 F11 F12 */
    CHECK(PX(0, 2, 0) == 70 && PX(0, 2, 1) == 71 && PX(0, 2, 2) == 72);
    /* (0,3): ix = 2: F02 F03 F12 F13: (40+60+120+140+2)>>2 = 90 */
    CHECK(PX(0, 3, 0) == 90);
    /* (2,0), vector (-3,-2): iy = 0 fy 1, ix = -1 fx 0: (F00 + F10 + 1) >> 1 */
    CHECK(PX(2, 0, 0) == 40 && PX(2, 0, 1) == 41 && PX(2, 0, 2) == 42);
    /* (2,1): ix = 1 - 1 = 0: (F00 + F10 + 1) >> 1 = (0 + 80 + 1) >> 1 = 40 */
    CHECK(PX(2, 1, 0) == 40);
    /* (2,2), vector (32767,-32768): iy = 2+16383 fy 1 -> rows 2,2 clamped;
     * ix = 2-16384 fx 0 -> column 0: (F20 + F20 + 1) >> 1 = F20 */
    CHECK(PX(2, 2, 0) == 160 && PX(2, 2, 1) == 161 && PX(2, 3, 2) == 162);
#undef PX
    free(clip);
}

static void test_decode_wholepel(void) {
    static const int16_t vec[8] = {-1, 3, 1, -1, -32768, 32767, 32767, -32768};
    int32_t syms[72];
    hand_syms(syms);
    /* Frame 1 residual +1 everywhere at q 2: sample = pred + 2. */
    for (int i = 36; i < 72; i++) syms[i] = 1;
    size_t len;
    uint8_t *clip = make_clip(1, 2, 3, 4, 2, 2, 0, vec, syms, &len);
    if (!clip) return;
    /* frame 0 at q 2 from pred 128: 128 + 2r, so recompute F' here */
    uint8_t f0[36], want[36], out[72];
    for (uint32_t i = 0; i < 36; i++) {
        int v = 128 + 2 * syms[i];
        f0[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    const int16_t *v = vec;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) {
            int b = (y / 2) * 2 + x / 2;
            int yy = y + v[2 * b], xx = x + v[2 * b + 1];
            yy = yy < 0 ? 0 : yy > 2 ? 2 : yy;
            xx = xx < 0 ? 0 : xx > 3 ? 3 : xx;
            for (int c = 0; c < 3; c++) {
                int s = f0[(yy * 4 + xx) * 3 + c] + 2;
                want[(y * 4 + x) * 3 + c] = (uint8_t)(s > 255 ? 255 : s);
            }
        }
    /* two by hand: (0,0) reads (-1,3) -> (0,3); (2,0) reads (0, 3) too */
    CHECK(want[0] == f0[9] + 2 && want[24] == f0[9] + 2);
    uint32_t n;
    if (CHECK(decode_public(CAP_MOTION, WAI_NO_COST_LIMIT, clip, len, out, sizeof out, &n) ==
                  WAI_ok && n == 2)) {
        CHECK(memcmp(out, f0, 36) == 0);
        CHECK(memcmp(out + 36, want, 36) == 0);
    }
    free(clip);
}

/* E9 at the limits: q 65535 and residuals at i32's ends saturate exactly. */
static void test_decode_saturation(void) {
    static const int16_t vec[2] = {0, 0};
    int32_t syms[6] = {INT32_MAX, INT32_MIN, 0, INT32_MIN, INT32_MAX, -1};
    size_t len;
    uint8_t *clip = make_clip(1, 2, 1, 1, 1, 65535, 0, vec, syms, &len);
    if (!clip) return;
    uint8_t out[6];
    uint32_t n;
    if (CHECK(decode_public(CAP_MOTION, WAI_NO_COST_LIMIT, clip, len, out, 6, &n) == WAI_ok &&
              n == 2)) {
        CHECK(out[0] == 255 && out[1] == 0 && out[2] == 128);
        CHECK(out[3] == 0 && out[4] == 255 && out[5] == 0);
    }
    free(clip);
    /* offset at i32's ends: the symbol is value + offset, saturated. */
    int32_t syms2[3] = {INT32_MIN, INT32_MIN + 1, INT32_MIN + 3};
    clip = make_clip(1, 1, 1, 1, 1, 1, INT32_MIN, NULL, syms2, &len);
    if (!clip) return;
    if (CHECK(decode_public(CAP_MOTION, WAI_NO_COST_LIMIT, clip, len, out, 6, &n) == WAI_ok))
        CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0);
    free(clip);
}

/* ---- split / join -------------------------------------------------------- */

/* The valid clips of the corpus: index lines "decode wai.video.int_motion ok". */
static size_t corpus_valid_clips(char names[][128], size_t cap) {
    size_t len, n = 0;
    char *text = (char *)harness_read_file("corpus/index.txt", &len);
    if (!text) return 0;
    char *t = realloc(text, len + 1);
    if (!t) {
        free(text);
        return 0;
    }
    t[len] = '\0';
    for (char *line = strtok(t, "\n"); line && n < cap; line = strtok(NULL, "\n")) {
        char mode[16], capab[64], status[32], cost[32], files[96];
        if (sscanf(line, "%15s %63s %31s %31s %95s", mode, capab, status, cost, files) != 5) continue;
        if (strcmp(mode, "decode") || strcmp(capab, CAP_MOTION) || strcmp(status, "ok")) continue;
        if (strncmp(files, "motion/valid/", 13) != 0) continue;
        snprintf(names[n++], 128, "corpus/%s", files);
    }
    free(t);
    return n;
}

static void test_split_join_corpus(void) {
    static char names[64][128];
    size_t n = corpus_valid_clips(names, 64);
    CHECK_MSG(n >= 10, "only %zu valid clips listed", n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *clip = harness_read_file(names[i], &len);
        if (!CHECK_MSG(clip != NULL, "%s missing", names[i])) continue;
        wai_payload *frames;
        uint32_t nf;
        wai_status st = wai_wiv1_split(NULL, clip, len, &frames, &nf);
        if (CHECK_MSG(st == WAI_ok, "split %s: %s", names[i], wai_status_name(st))) {
            uint8_t *joined;
            size_t jl;
            st = wai_wif1_join(NULL, frames, nf, &joined, &jl);
            CHECK_MSG(st == WAI_ok && jl == len && memcmp(joined, clip, len) == 0,
                      "join %s: %s", names[i], wai_status_name(st));
            if (st == WAI_ok) free(joined);
            /* The split frames decode, as a stream, to the clip's frames. */
            wai_wiv1 v;
            CHECK(wai_wiv1_parse(clip, len, 0, &v) == WAI_ok);
            size_t fb = (size_t)v.h * v.w * 3;
            uint8_t *want = malloc(fb * v.n_frames);
            wai_context *ctx;
            wai_decoder *d;
            wai_decoder_config cfg;
            wai_decoder_config_default(&cfg);
            cfg.capability = CAP_FRAME;
            if (want && CHECK(wai_wiv1_decode(NULL, &v, want) == WAI_ok) &&
                wai_context_create(NULL, &ctx) == WAI_ok) {
                if (wai_decoder_create(ctx, &cfg, &d) == WAI_ok) {
                    for (uint32_t f = 0; f < nf; f++) {
                        wai_output o;
                        CHECK(wai_decoder_send(d, frames[f].data, frames[f].len, NULL) == WAI_ok);
                        CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_FRAME);
                        CHECK(o.index == f && o.size == fb &&
                              memcmp(o.data, want + f * fb, fb) == 0);
                    }
                    wai_decoder_destroy(d);
                }
                wai_context_destroy(ctx);
            }
            free(want);
            wai_payloads_free(NULL, frames, nf);
        }
        free(clip);
    }
}

/* A clip whose stream uses escape layouts the encoder never writes (R10):
 * split and join keep them byte for byte. */
static void test_split_join_nonminimal(void) {
    uint32_t cdf[4] = {0, 30000, 50000, 65536}; /* direct 0, 1; escape 2 */
    wai_cdf_table t;
    if (!CHECK(wai_cdf_table_init(&t, NULL, cdf, 4, 16) == WAI_ok)) return;
    const uint32_t G = WAI_RANS_GROUP;
    const wai_rans_step steps[] = {
        0,                                                /* 0 */
        2, G | 15, G | 0, G | 1, G, G, G, G, G, G, G,     /* [15,0]: 8 raw, raw 1 -> -1 */
        2, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15,
        G, G, G, G, G, G, G, G,                           /* nine 15s: raw 0 -> 2 */
        2, G | 3, G | 4, G, G,                            /* zero-padded: raw 4 -> 4 */
        2, G | 8, G | 14, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15, G | 15,
                                                          /* raw 2^32-2: saturates */
        1,                                                /* 1 */
    };
    uint8_t *stream;
    size_t stream_len;
    wai_status st = wai_rans_encode_steps(NULL, &t, steps, sizeof steps / sizeof steps[0],
                                          &stream, &stream_len);
    wai_cdf_table_free(&t, NULL);
    if (!CHECK(st == WAI_ok)) return;
    static const int16_t vec[2] = {0, 0};
    wai_wiv1_parts p = {0};
    p.mv_precision = 1, p.n_frames = 2, p.h = 1, p.w = 1, p.block = 1, p.q = 1, p.offset = 0;
    p.cdf = cdf, p.cdf_len = 4, p.vectors = vec, p.stream = stream, p.stream_len = stream_len;
    uint8_t *clip;
    size_t len;
    st = wai_wiv1_write(NULL, &p, &clip, &len);
    free(stream);
    if (!CHECK(st == WAI_ok)) return;
    uint8_t out[6];
    uint32_t n;
    if (CHECK(decode_public(CAP_MOTION, WAI_NO_COST_LIMIT, clip, len, out, 6, &n) == WAI_ok &&
              n == 2)) {
        CHECK(out[0] == 128 && out[1] == 127 && out[2] == 130);
        CHECK(out[3] == 132 && out[4] == 255 && out[5] == 131);
    }
    wai_payload *frames;
    uint32_t nf;
    if (CHECK(wai_wiv1_split(NULL, clip, len, &frames, &nf) == WAI_ok && nf == 2)) {
        uint8_t *joined;
        size_t jl;
        if (CHECK(wai_wif1_join(NULL, frames, nf, &joined, &jl) == WAI_ok)) {
            CHECK(jl == len && memcmp(joined, clip, len) == 0);
            free(joined);
        }
        wai_payloads_free(NULL, frames, nf);
    }
    free(clip);
}

static uint8_t *write_frame(const wai_wif1_parts *p, size_t *len) {
    uint8_t *out = NULL;
    CHECK(wai_wif1_write(NULL, p, &out, len) == WAI_ok);
    return out;
}

static void test_join_refusals(void) {
    size_t len;
    uint8_t *clip = harness_read_file("corpus/motion/valid/clip00.wiv1", &len);
    if (!CHECK(clip != NULL)) return;
    wai_payload *f;
    uint32_t nf;
    if (!CHECK(wai_wiv1_split(NULL, clip, len, &f, &nf) == WAI_ok && nf >= 3)) {
        free(clip);
        return;
    }
    wai_wif1 f1;
    CHECK(wai_wif1_parse(f[1].data, f[1].len, 0, &f1) == WAI_ok);
    uint8_t *out = (uint8_t *)1;
    size_t ol = 5;
    CHECK(wai_wif1_join(NULL, f, 0, &out, &ol) == WAI_field_range && !out && !ol);
    CHECK(wai_wif1_join(NULL, f + 1, 2, &out, &ol) == WAI_field_range && !out);
    wai_payload two_intra[2] = {f[0], f[0]};
    CHECK(wai_wif1_join(NULL, two_intra, 2, &out, &ol) == WAI_field_range);
    wai_payload late_intra[3] = {f[0], f[1], f[0]};
    CHECK(wai_wif1_join(NULL, late_intra, 3, &out, &ol) == WAI_field_range);
    /* An inter frame of another size. */
    static const int16_t vec[8192] = {0};
    static const uint8_t stream[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};
    wai_wif1_parts p = {0};
    p.kind = 1, p.mv_precision = f1.mv_precision, p.h = f1.h + 1, p.w = f1.w;
    p.block = f1.h + 1, p.vectors = vec, p.stream = stream, p.stream_len = 8;
    uint32_t need_nb = (uint32_t)wai_blocks_per_frame(p.h, p.w, p.block);
    CHECK(need_nb <= 4096);
    size_t ml;
    uint8_t *other = write_frame(&p, &ml);
    if (other) {
        wai_payload g[2] = {f[0], {other, ml}};
        CHECK(wai_wif1_join(NULL, g, 2, &out, &ol) == WAI_geometry_mismatch);
        free(other);
    }
    /* Inter frames with different block sizes, or precisions. */
    p.h = f1.h;
    p.block = f1.block + 1;
    other = write_frame(&p, &ml);
    if (other) {
        wai_payload g[3] = {f[0], f[1], {other, ml}};
        CHECK(wai_wif1_join(NULL, g, 3, &out, &ol) == WAI_field_range);
        free(other);
    }
    p.block = f1.block;
    p.mv_precision = (uint8_t)(3 - f1.mv_precision);
    other = write_frame(&p, &ml);
    if (other) {
        wai_payload g[3] = {f[0], f[1], {other, ml}};
        CHECK(wai_wif1_join(NULL, g, 3, &out, &ol) == WAI_field_range);
        /* a parse refusal inside the group keeps its own code */
        other[4] = 2;
        wai_payload gv[2] = {f[0], {other, ml}};
        CHECK(wai_wif1_join(NULL, gv, 2, &out, &ol) == WAI_version);
        free(other);
    }
    /* the last frame's stream run out: the join refuses with the decode's code */
    p.mv_precision = f1.mv_precision;
    other = write_frame(&p, &ml);
    if (other) {
        wai_payload g[2] = {f[0], {other, ml}};
        CHECK(wai_wif1_join(NULL, g, 2, &out, &ol) == WAI_stream_exhausted);
        free(other);
    }
    CHECK(out == NULL);
    wai_payloads_free(NULL, f, nf);
    free(clip);
}

/* ---- the public decoder -------------------------------------------------- */

static void test_decoder_api(void) {
    size_t la, lb;
    uint8_t *a = harness_read_file("corpus/motion/valid/clip00.wiv1", &la);
    uint8_t *b = harness_read_file("corpus/motion/valid/clip01.wiv1", &lb);
    wai_context *ctx = NULL;
    wai_decoder *d = NULL;
    if (!CHECK(a && b) || !CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) goto done;
    wai_wiv1 va, vb;
    CHECK(wai_wiv1_parse(a, la, 0, &va) == WAI_ok && wai_wiv1_parse(b, lb, 0, &vb) == WAI_ok);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP_MOTION;
    if (!CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) goto done;
    CHECK(strcmp(wai_decoder_capability(d), CAP_MOTION) == 0);
    wai_cost c, dc;
    memset(&c, 0xAB, sizeof c);
    CHECK(wai_decoder_send(d, a, la, &c) == WAI_ok);
    CHECK(wai_declared_cost(CAP_MOTION, a, la, &dc) == WAI_ok && memcmp(&c, &dc, sizeof c) == 0);
    uint64_t samples = (uint64_t)va.n_frames * va.h * va.w * 3;
    CHECK(c.output_bytes == samples && c.entropy_steps == samples && c.macs == 0);
    CHECK(wai_cost_work(&c) == samples);
    wai_output o;
    for (uint32_t i = 0; i < va.n_frames; i++) {
        CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_FRAME);
        CHECK(o.index == i && o.width == va.w && o.height == va.h &&
              o.size == (size_t)va.h * va.w * 3);
    }
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
    /* A second send drops what was not received of the first. */
    CHECK(wai_decoder_send(d, a, la, NULL) == WAI_ok);
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_FRAME);
    CHECK(wai_decoder_send(d, b, lb, NULL) == WAI_ok);
    uint32_t got = 0;
    while (wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
        CHECK(o.width == vb.w && o.height == vb.h);
        got++;
    }
    CHECK(got == vb.n_frames);
    /* A refused payload outputs nothing. */
    CHECK(wai_decoder_send(d, a, la - 1, NULL) == WAI_stream_length);
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
    wai_decoder_destroy(d);
    d = NULL;

    /* N7: work strictly greater than the limit is refused; equal passes. */
    uint32_t n;
    CHECK(decode_public(CAP_MOTION, samples - 1, a, la, NULL, 0, &n) == WAI_cost_over_limit &&
          n == 0);
    CHECK(decode_public(CAP_MOTION, samples, a, la, NULL, 0, &n) == WAI_ok && n == va.n_frames);
    CHECK(decode_public(CAP_MOTION, 0, a, la, NULL, 0, &n) == WAI_cost_over_limit);
    /* The cost is compared before any symbol: clip a's header over a stream
     * that runs out at once is cost_over_limit under the limit, and
     * stream_exhausted at it. The declared cost needs the whole parse. */
    {
        static const uint8_t empty[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};
        uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
        int16_t *vec = malloc(sizeof *vec * 2 * (size_t)va.nb * (va.n_frames - 1) + 2);
        wai_cdf_from_bytes(cdf, va.cdf, va.cdf_len);
        for (size_t i = 0; vec && i < 2 * (size_t)va.nb * (va.n_frames - 1); i++)
            vec[i] = wai_i16_from_u16(wai_load_u16le(va.vectors + 2 * i));
        wai_wiv1_parts p = {0};
        p.mv_precision = va.mv_precision, p.n_frames = va.n_frames, p.h = va.h, p.w = va.w;
        p.block = va.block, p.q = va.q, p.offset = va.offset, p.cdf = cdf;
        p.cdf_len = va.cdf_len, p.vectors = vec, p.stream = empty, p.stream_len = 8;
        uint8_t *cut;
        size_t cl;
        if (vec && CHECK(wai_wiv1_write(NULL, &p, &cut, &cl) == WAI_ok)) {
            CHECK(decode_public(CAP_MOTION, samples - 1, cut, cl, NULL, 0, &n) ==
                  WAI_cost_over_limit);
            CHECK(decode_public(CAP_MOTION, samples, cut, cl, NULL, 0, &n) ==
                  WAI_stream_exhausted && n == 0);
            CHECK(wai_declared_cost(CAP_MOTION, cut, cl - 1, &dc) == WAI_stream_length);
            free(cut);
        }
        free(vec);
    }

    /* Frame streams: indices continue across sends. */
    wai_payload *frames;
    uint32_t nf;
    if (CHECK(wai_wiv1_split(NULL, a, la, &frames, &nf) == WAI_ok)) {
        cfg.capability = CAP_FRAME;
        if (CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) {
            for (uint32_t i = 0; i < nf; i++) {
                CHECK(wai_decoder_send(d, frames[i].data, frames[i].len, &c) == WAI_ok);
                CHECK(wai_declared_cost(CAP_FRAME, frames[i].data, frames[i].len, &dc) == WAI_ok &&
                      memcmp(&c, &dc, sizeof c) == 0);
                CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.index == i);
                CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
            }
            /* A refusal (a cut frame) outputs nothing; then an inter frame is
             * refused field_range until an intra frame opens a group. */
            CHECK(wai_decoder_send(d, frames[1].data, frames[1].len - 1, NULL) ==
                  WAI_stream_length);
            CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
            CHECK(wai_decoder_send(d, frames[1].data, frames[1].len, NULL) == WAI_field_range);
            CHECK(wai_decoder_send(d, frames[2].data, frames[2].len, NULL) == WAI_field_range);
            CHECK(wai_decoder_send(d, frames[0].data, frames[0].len, NULL) == WAI_ok);
            CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.index == nf);
            CHECK(wai_decoder_send(d, frames[1].data, frames[1].len, NULL) == WAI_ok);
            CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.index == nf + 1);
            /* R7: a stream that starts inter is refused field_range */
            wai_decoder *d2;
            if (CHECK(wai_decoder_create(ctx, &cfg, &d2) == WAI_ok)) {
                CHECK(wai_decoder_send(d2, frames[1].data, frames[1].len, NULL) ==
                      WAI_field_range);
                wai_decoder_destroy(d2);
            }
            /* cost per frame: a frame over the limit closes the group */
            cfg.max_cost = (uint64_t)va.h * va.w * 3 - 1;
            if (CHECK(wai_decoder_create(ctx, &cfg, &d2) == WAI_ok)) {
                CHECK(wai_decoder_send(d2, frames[0].data, frames[0].len, NULL) ==
                      WAI_cost_over_limit);
                wai_decoder_destroy(d2);
            }
            cfg.max_cost = (uint64_t)va.h * va.w * 3;
            if (CHECK(wai_decoder_create(ctx, &cfg, &d2) == WAI_ok)) {
                CHECK(wai_decoder_send(d2, frames[0].data, frames[0].len, NULL) == WAI_ok);
                CHECK(wai_decoder_send(d2, frames[1].data, frames[1].len, NULL) == WAI_ok);
                wai_decoder_destroy(d2);
            }
            cfg.max_cost = WAI_NO_COST_LIMIT;
        }
        wai_payloads_free(NULL, frames, nf);
    }

    /* Configuration refusals. */
    wai_decoder *bad = (wai_decoder *)1;
    cfg.capability = "wai.video.int_motion.nope";
    CHECK(wai_decoder_create(ctx, &cfg, &bad) == WAI_unsupported_capability && bad == NULL);
    wai_decoder_config_default(&cfg);
    cfg.reserved[sizeof cfg.reserved - 1] = 1;
    CHECK(wai_decoder_create(ctx, &cfg, &bad) == WAI_invalid_argument);
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP_MOTION;
    cfg.reserved[0] = 1;
    CHECK(wai_decoder_create(ctx, &cfg, &bad) == WAI_invalid_argument);
    CHECK(wai_declared_cost("wai.nope", a, la, &c) == WAI_unsupported_capability);
    CHECK(wai_declared_cost(NULL, a, la, &c) == WAI_ok);
done:
    wai_decoder_destroy(d);
    wai_context_destroy(ctx);
    free(a);
    free(b);
}

/* ---- allocation failure -------------------------------------------------- */

/* One whole decode (clip, then its frames as a stream) under allocator f. */
static wai_status decode_with(harness_alloc *f, const uint8_t *clip, size_t len) {
    wai_settings s;
    wai_settings_default(&s);
    s.allocator = harness_allocator(f);
    wai_context *ctx;
    wai_status st = wai_context_create(&s, &ctx);
    if (st != WAI_ok) return st;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP_MOTION;
    wai_decoder *d;
    if ((st = wai_decoder_create(ctx, &cfg, &d)) == WAI_ok) {
        st = wai_decoder_send(d, clip, len, NULL);
        wai_decoder_destroy(d);
    }
    wai_payload *frames = NULL;
    uint32_t nf = 0;
    if (st == WAI_ok) st = wai_wiv1_split(&s.allocator, clip, len, &frames, &nf);
    if (st == WAI_ok) {
        cfg.capability = CAP_FRAME;
        if ((st = wai_decoder_create(ctx, &cfg, &d)) == WAI_ok) {
            for (uint32_t i = 0; i < nf && st == WAI_ok; i++)
                st = wai_decoder_send(d, frames[i].data, frames[i].len, NULL);
            wai_decoder_destroy(d);
        }
    }
    if (st == WAI_ok) {
        uint8_t *joined;
        size_t jl;
        st = wai_wif1_join(&s.allocator, frames, nf, &joined, &jl);
        if (st == WAI_ok) {
            CHECK(jl == len && memcmp(joined, clip, len) == 0);
            s.allocator.free(s.allocator.opaque, joined);
        }
    }
    wai_payloads_free(&s.allocator, frames, nf);
    wai_context_destroy(ctx);
    return st;
}

static void test_alloc_failure(void) {
    size_t len;
    uint8_t *clip = harness_read_file("corpus/motion/valid/clip00.wiv1", &len);
    if (!CHECK(clip != NULL)) return;
    int succeeded = 0, failures = 0;
    for (long k = 0; k < 10000 && !succeeded; k++) {
        harness_alloc f = {0};
        f.fail_at = (size_t)k + 1;
        wai_status st = decode_with(&f, clip, len);
        CHECK_MSG(f.live == 0, "k=%ld: %zu allocations leaked", k, f.live);
        failures += f.failed;
        if (f.failed) CHECK_MSG(st == WAI_out_of_memory, "k=%ld: %s", k, wai_status_name(st));
        else succeeded = CHECK_MSG(st == WAI_ok, "k=%ld: %s", k, wai_status_name(st));
    }
    CHECK(succeeded);
    CHECK(failures > 0); /* the allocator did fail calls: the test is not vacuous */
    free(clip);
}

void suite_motion(void) {
    harness_run("motion/caps_wiv1", test_caps_wiv1);
    harness_run("motion/caps_wif1", test_caps_wif1);
    harness_run("motion/order_wiv1", test_order_wiv1);
    harness_run("motion/order_wif1", test_order_wif1);
    harness_run("motion/writers", test_writers);
    harness_run("motion/decode_halfpel", test_decode_halfpel);
    harness_run("motion/decode_wholepel", test_decode_wholepel);
    harness_run("motion/decode_saturation", test_decode_saturation);
    harness_run("motion/split_join_corpus", test_split_join_corpus);
    harness_run("motion/split_join_nonminimal", test_split_join_nonminimal);
    harness_run("motion/join_refusals", test_join_refusals);
    harness_run("motion/decoder_api", test_decoder_api);
    harness_run("motion/alloc_failure", test_alloc_failure);
}
