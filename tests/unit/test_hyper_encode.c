/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIH1 encoder (wai_hyper_encode) with the shipped trained set
 * (examples/hyperprior/sets/q3): its payload decodes, through the public
 * decoder, to the squared error it reports, at the padded size; the same
 * payload at every thread count; its refusals, each with its code; and an
 * allocation failure anywhere is out_of_memory (or one the native WebNN
 * absorbs), with nothing leaked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_write.h"

#define SET_DIR "../examples/hyperprior/sets/q3"

static const char *const members[] = {"g_s.whm", "h_s.whm", "entropy.json", "analysis.webnn.json",
                                      "analysis.f32"};
#define N_MEMBERS 5

/* What stands in for a broken member: a text no reader takes. */
#define JUNK "{\"kind\": \"wai-webnn-graph/1\"}"

/* The decode of a payload through the public decoder (coded_h x coded_w). */
static uint8_t *decode(wai_context *ctx, wai_set *set, const uint8_t *payload, size_t len,
                       size_t want) {
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.neural.int_hyper";
    cfg.set = set;
    wai_decoder *dec = NULL;
    uint8_t *out = NULL;
    wai_output o;
    if (CHECK(wai_decoder_create(ctx, &cfg, &dec) == WAI_ok) &&
        CHECK(wai_decoder_send(dec, payload, len, NULL) == WAI_ok) &&
        CHECK(wai_decoder_receive(dec, &o) == WAI_ok) &&
        CHECK_MSG(o.kind == WAI_OUTPUT_IMAGE && o.size == want, "output of %zu bytes", o.size)) {
        out = malloc(want);
        memcpy(out, o.data, want);
    }
    wai_decoder_destroy(dec);
    return out;
}

static void test_round_trip(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    const uint32_t h = 40, w = 50;
    uint8_t *pic = encode_picture(h, w);
    wai_context *ctx = encode_context(1, NULL), *ctx3 = encode_context(3, NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_hyper_encode_result r, r3;
    if (CHECK(wai_hyper_encode(ctx, set, pic, h, w, NULL, &r) == WAI_ok)) {
        CHECK(r.h == h && r.w == w && r.coded_h == 64 && r.coded_w == 64);
        CHECK(r.samples == (uint64_t)h * w * 3 && r.m == 96 && r.n_z == 64);
        CHECK(r.payload_len == 32 + 4 + r.z_bytes + 4 + r.y_bytes);
        uint8_t *got = decode(ctx, set, r.payload, r.payload_len, 64 * 64 * 3);
        if (got) {
            uint64_t sse = 0;
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t i = 0; i < w * 3; i++) {
                    int32_t d = (int32_t)got[(size_t)y * 64 * 3 + i] - pic[(size_t)y * w * 3 + i];
                    sse += (uint64_t)(d * d);
                }
            CHECK_MSG(sse == r.sse, "decode's sse %llu, reported %llu", (unsigned long long)sse,
                      (unsigned long long)r.sse);
            /* A trained codec, not noise: above 22 dB (under 400 of squared
             * error a sample) on this picture's hard edge. */
            CHECK_MSG(r.sse < 400 * r.samples, "sse %llu", (unsigned long long)r.sse);
            free(got);
        }
        if (CHECK(wai_hyper_encode(ctx3, set, pic, h, w, NULL, &r3) == WAI_ok)) {
            CHECK(r3.payload_len == r.payload_len &&
                  memcmp(r3.payload, r.payload, r.payload_len) == 0);
            wai_hyper_encode_result_free(ctx3, &r3);
        }
        wai_hyper_encode_result_free(ctx, &r);
    }
    wai_set_destroy(set);
    wai_context_destroy(ctx3);
    wai_context_destroy(ctx);
    free(pic);
    harness_set_files_free(&f);
}

/* A keyframe-1 clip: frame 0 the WIH1 (its kept decode the reference),
 * frames 1 and 2 motion-coded; the public decoder of wai.video.int_hyper
 * gives frame 0 as that decode and each frame the squared error reported. */
static void test_keyed_clip(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    const uint32_t n = 3, h = 64, w = 64;
    uint8_t *pic = encode_picture(h + 2 * n, w + 2 * n);
    uint8_t *clip = malloc((size_t)n * h * w * 3);
    const uint8_t *frames[3];
    for (uint32_t k = 0; k < n; k++) {
        for (uint32_t y = 0; y < h; y++)
            memcpy(clip + ((size_t)k * h + y) * w * 3, pic + ((size_t)(y + k) * (w + 2 * n) + 2 * k) * 3,
                   (size_t)w * 3);
        frames[k] = clip + (size_t)k * h * w * 3;
    }
    wai_context *ctx = encode_context(1, NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_hyper_encode_params hp;
    wai_hyper_encode_params_default(&hp);
    hp.keep_decoded = 1;
    wai_hyper_encode_result key;
    wai_motion_encode_params mp;
    wai_motion_encode_params_default(&mp);
    mp.q = 4;
    mp.block = 8;
    wai_motion_encode_result r;
    if (CHECK(wai_hyper_encode(ctx, set, frames[0], h, w, &hp, &key) == WAI_ok) &&
        CHECK(key.decoded != NULL) &&
        CHECK(wai_motion_encode_keyed(NULL, frames, n, h, w, key.payload, key.payload_len,
                                      key.decoded, &mp, &r) == WAI_ok)) {
        CHECK(r.payload[6] == 1); /* keyframe 1 */
        CHECK(r.frame_sse[0] == key.sse);
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.capability = "wai.video.int_hyper";
        cfg.set = set;
        wai_decoder *dec = NULL;
        uint32_t got = 0;
        uint8_t *decoded = calloc((size_t)n * h * w * 3, 1);
        if (CHECK(wai_decoder_create(ctx, &cfg, &dec) == WAI_ok) &&
            CHECK(wai_decoder_send(dec, r.payload, r.payload_len, NULL) == WAI_ok)) {
            wai_output o;
            while (CHECK(wai_decoder_receive(dec, &o) == WAI_ok) && o.kind != WAI_OUTPUT_NONE &&
                   CHECK(o.size == (size_t)h * w * 3 && got < n)) {
                uint64_t sse = 0;
                for (size_t i = 0; i < o.size; i++) {
                    int32_t d = (int32_t)o.data[i] - frames[got][i];
                    sse += (uint64_t)(d * d);
                }
                CHECK_MSG(sse == r.frame_sse[got], "frame %u: sse %llu, reported %llu", got,
                          (unsigned long long)sse, (unsigned long long)r.frame_sse[got]);
                if (got == 0) CHECK(memcmp(o.data, key.decoded, o.size) == 0);
                memcpy(decoded + (size_t)got * o.size, o.data, o.size);
                got++;
            }
        }
        CHECK(got == n);
        wai_decoder_destroy(dec);
        /* Its WIF1 group (wai.video.int_hyper.frame, frame 0 carrying the
         * WIH1) decodes frame by frame to the same frames, and joins back
         * into the clip byte for byte. */
        wai_payload *group = NULL;
        uint32_t n_group = 0;
        if (CHECK(wai_wiv1_split(NULL, r.payload, r.payload_len, &group, &n_group) == WAI_ok) &&
            CHECK(n_group == n)) {
            CHECK(group[0].data[6] == 1 && group[1].data[6] == 1);
            cfg.capability = "wai.video.int_hyper.frame";
            dec = NULL;
            if (CHECK(wai_decoder_create(ctx, &cfg, &dec) == WAI_ok)) {
                for (uint32_t k = 0; k < n_group; k++) {
                    wai_output o;
                    if (!CHECK(wai_decoder_send(dec, group[k].data, group[k].len, NULL) ==
                               WAI_ok) ||
                        !CHECK(wai_decoder_receive(dec, &o) == WAI_ok) ||
                        !CHECK(o.size == (size_t)h * w * 3))
                        break;
                    CHECK_MSG(memcmp(o.data, decoded + (size_t)k * o.size, o.size) == 0,
                              "WIF1 frame %u differs from the clip's", k);
                }
            }
            wai_decoder_destroy(dec);
            uint8_t *joined = NULL;
            size_t joined_len = 0;
            if (CHECK(wai_wif1_join(NULL, group, n_group, &joined, &joined_len) == WAI_ok))
                CHECK(joined_len == r.payload_len &&
                      memcmp(joined, r.payload, joined_len) == 0);
            wai_write_free(NULL, joined);
            /* A group whose frames are of both kinds is refused. */
            if (n_group > 1) {
                wai_payload mixed[2] = {group[0], group[1]};
                uint8_t *copy = malloc(group[1].len);
                memcpy(copy, group[1].data, group[1].len);
                copy[6] = 0;
                mixed[1].data = copy;
                CHECK(wai_wif1_join(NULL, mixed, 2, &joined, &joined_len) ==
                      WAI_keyframe_capability_mismatch);
                free(copy);
            }
        }
        wai_payloads_free(NULL, group, n_group);
        free(decoded);
        wai_motion_encode_result_free(NULL, &r);
    }
    CHECK(wai_motion_encode_keyed(NULL, frames, n, h, w, NULL, 0, NULL, &mp, &r) ==
          WAI_invalid_argument);
    wai_hyper_encode_result_free(ctx, &key);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    free(clip);
    free(pic);
    harness_set_files_free(&f);
}

static void test_refusals(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    uint8_t *pic = encode_picture(64, 64);
    wai_context *ctx = encode_context(1, NULL);
    wai_set *full = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_set *decoder_only = harness_set_make(ctx, &f, 3, -1, JUNK);
    wai_set *no_tables = harness_set_make(ctx, &f, N_MEMBERS, 2, JUNK);
    wai_set *bad_graph = harness_set_make(ctx, &f, N_MEMBERS, 3, JUNK);
    wai_hyper_encode_result r;
    wai_hyper_encode_params p;
    wai_hyper_encode_params_default(&p);
    CHECK(wai_hyper_encode(ctx, full, pic, 64, 64, &p, NULL) == WAI_invalid_argument);
    CHECK(wai_hyper_encode(NULL, full, pic, 64, 64, &p, &r) == WAI_invalid_argument);
    CHECK(wai_hyper_encode(ctx, NULL, pic, 64, 64, &p, &r) == WAI_invalid_argument);
    CHECK(wai_hyper_encode(ctx, full, NULL, 64, 64, &p, &r) == WAI_invalid_argument);
    CHECK(wai_hyper_encode(ctx, full, pic, 0, 64, &p, &r) == WAI_invalid_argument);
    p.reserved[7] = 1;
    CHECK(wai_hyper_encode(ctx, full, pic, 64, 64, &p, &r) == WAI_invalid_argument);
    CHECK(r.payload == NULL);
    /* 3 x 4736 x 4736 passes 2^26: refused before the picture is read. */
    CHECK(wai_hyper_encode(ctx, full, pic, 4700, 4700, NULL, &r) == WAI_too_large);
    CHECK(wai_hyper_encode(ctx, full, pic, 1, 1u << 22, NULL, &r) == WAI_too_large);
    CHECK(wai_hyper_encode(ctx, decoder_only, pic, 64, 64, NULL, &r) == WAI_set_incomplete);
    CHECK(wai_hyper_encode(ctx, no_tables, pic, 64, 64, NULL, &r) == WAI_model_mismatch);
    CHECK(wai_hyper_encode(ctx, bad_graph, pic, 64, 64, NULL, &r) == WAI_model_mismatch);
    CHECK(r.payload == NULL && r.payload_len == 0);
    wai_set_destroy(full);
    wai_set_destroy(decoder_only);
    wai_set_destroy(no_tables);
    wai_set_destroy(bad_graph);
    wai_context_destroy(ctx);
    free(pic);
    harness_set_files_free(&f);
}

/* An encode of the 64 x 64 picture arg. */
static wai_status encode_once(wai_context *ctx, wai_set *set, const void *arg) {
    wai_hyper_encode_result r;
    wai_status st = wai_hyper_encode(ctx, set, arg, 64, 64, NULL, &r);
    wai_hyper_encode_result_free(ctx, &r);
    return st;
}

/* Part p fails the encode's calls p + 1, p + 1 + parts, ... */
static void test_allocation_failures(unsigned part, unsigned parts) {
    harness_set_files f;
    uint8_t *pic = encode_picture(64, 64);
    if (harness_set_files_read(SET_DIR, members, N_MEMBERS, &f))
        harness_sweep_allocations(part, parts, 1, &f, N_MEMBERS, encode_once, pic);
    harness_set_files_free(&f);
    free(pic);
}

void suite_hyper_encode(void) {
    harness_run("hyper_encode/round_trip", test_round_trip);
    harness_run("hyper_encode/keyed_clip", test_keyed_clip);
    harness_run("hyper_encode/refusals", test_refusals);
    /* Some 700 encodes: on the x86-64 builds (gcc, clang, ASan), not under
     * the emulators of the other architectures, where it takes minutes. */
#if defined(__x86_64__)
    harness_run_parts("hyper_encode/allocation_failures", 4, test_allocation_failures);
#else
    (void)test_allocation_failures;
#endif
}
