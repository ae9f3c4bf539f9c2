/* SPDX-License-Identifier: BSD-2-Clause */
/* wai_decoder_config.streaming: a clip decoded a frame at a time as
 * receive asks. Every motion clip of the corpus gives the whole decode's
 * frames and status (a refusal at frame k after the k frames before it,
 * which are the whole decode's of a clip cut there); memory stays about
 * two frames whatever the clip's length; a send mid-clip ends it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"
#include "wai/wai_write.h"

typedef struct decoded {
    wai_status status;      /* the first refusal (send's or a receive's), or ok */
    uint32_t n;             /* frames handed out before it */
    uint8_t sha[64][32];    /* the first 64 frames' SHA-256 */
} decoded;

static void decode(wai_context *ctx, int streaming, const uint8_t *data, size_t len, decoded *r) {
    memset(r, 0, sizeof *r);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_motion";
    cfg.streaming = streaming;
    wai_decoder *d;
    if (!CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) return;
    r->status = wai_decoder_send(d, data, len, NULL);
    while (r->status == WAI_ok) {
        wai_output o;
        r->status = wai_decoder_receive(d, &o);
        if (r->status != WAI_ok || o.kind == WAI_OUTPUT_NONE) break;
        CHECK(o.index == r->n && o.size == (size_t)o.width * o.height * 3);
        if (r->n < 64) wai_sha256_oneshot(o.data, o.size, r->sha[r->n]);
        r->n++;
    }
    /* After the end or a refusal: nothing more. */
    wai_output o;
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
    wai_decoder_destroy(d);
}

/* Every wai.video.int_motion case of the corpus: the same status; the
 * same frames when it decodes; when a whole decode refuses (no frames),
 * the streamed frames before the refusal are frames of the clip as far as
 * its streams go (at most n_frames of them, each the size of the clip's). */
static void test_corpus_clips(void) {
    char *text = corpus_index();
    if (!CHECK(text)) return;
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    int cases = 0, refused_midway = 0;
    static decoded whole, streamed;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char mode[16], cap[64], status[64], cost[32], file[512];
        if (sscanf(line, "%15s %63s %63s %31s %511s", mode, cap, status, cost, file) != 5 ||
            strcmp(mode, "decode") || strcmp(cap, "wai.video.int_motion") || strchr(file, ','))
            continue;
        size_t len;
        uint8_t *data = corpus_file(file, &len);
        if (!CHECK_MSG(data, "%s", file)) continue;
        decode(ctx, 0, data, len, &whole);
        decode(ctx, 1, data, len, &streamed);
        CHECK_MSG(streamed.status == whole.status, "%s: streamed %s, whole %s", file,
                  wai_status_name(streamed.status), wai_status_name(whole.status));
        if (whole.status == WAI_ok)
            CHECK_MSG(streamed.n == whole.n && !memcmp(streamed.sha, whole.sha, sizeof whole.sha),
                      "%s: the streamed frames differ", file);
        else
            CHECK_MSG(whole.n == 0, "%s: a refused whole clip output %u frames", file, whole.n);
        refused_midway += whole.status != WAI_ok && streamed.n > 0;
        cases++;
        free(data);
    }
    CHECK(cases >= 40);
    CHECK_MSG(refused_midway >= 1, "no clip refused after some frames (%d)", refused_midway);
    wai_context_destroy(ctx);
    free(text);
}

/* A clip of n frames of 64 x 48, each a shifted gradient. */
static uint8_t *clip_of(uint32_t n, size_t *len) {
    const uint32_t h = 48, w = 64;
    uint8_t *frames = malloc((size_t)n * h * w * 3);
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t i = 0; i < h * w * 3; i++)
            frames[(size_t)f * h * w * 3 + i] = (uint8_t)((i % (w * 3)) + (i / (w * 3)) * 2 + f * 3);
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.q = 2;
    wai_motion_encode_result r;
    uint8_t *out = NULL;
    const uint8_t **ptrs = malloc(n * sizeof *ptrs);
    for (uint32_t f = 0; f < n; f++) ptrs[f] = frames + (size_t)f * h * w * 3;
    if (wai_motion_encode(NULL, ptrs, n, h, w, &p, &r) == WAI_ok) {
        out = r.payload;
        *len = r.payload_len;
        r.payload = NULL;
        wai_motion_encode_result_free(NULL, &r);
    }
    free(ptrs);
    free(frames);
    return out;
}

/* Memory: a streamed clip of 96 frames peaks under four frames (plus the
 * table and a fixed overhead), where the whole decode holds them all; and
 * the frames are the same. */
static void test_memory_is_a_few_frames(void) {
    size_t len = 0;
    uint8_t *clip = clip_of(96, &len);
    if (!CHECK(clip)) return;
    const size_t frame = 64 * 48 * 3;
    uint64_t peak[2] = {0, 0};
    static decoded r[2];
    for (int streaming = 0; streaming < 2; streaming++) {
        harness_alloc h;
        memset(&h, 0, sizeof h);
        wai_settings s;
        wai_settings_default(&s);
        s.allocator = harness_allocator(&h);
        s.n_threads = 1;
        wai_context *ctx;
        if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) break;
        size_t before = h.bytes_now;
        h.bytes_peak = before;
        decode(ctx, streaming, clip, len, &r[streaming]);
        peak[streaming] = h.bytes_peak - before;
        wai_context_destroy(ctx);
    }
    CHECK(r[0].status == WAI_ok && r[1].status == WAI_ok && r[0].n == 96 && r[1].n == 96);
    CHECK(!memcmp(r[0].sha, r[1].sha, sizeof r[0].sha));
    CHECK_MSG(peak[0] >= 96 * frame, "whole: peak %llu", (unsigned long long)peak[0]);
    /* Two frames, the table (its 2^16-entry lookup at most: 400 KiB) and
     * the decoder's own; nothing that grows with the clip. */
    CHECK_MSG(peak[1] <= 4 * frame + 600 * 1024, "streamed: peak %llu (%zu a frame)",
              (unsigned long long)peak[1], frame);
    free(clip);
}

/* A send mid-clip drops the rest of it; the stream index runs on from the
 * frames handed out. A clip whose cost is over the limit is refused by
 * send, before any frame. */
static void test_send_mid_clip_and_limits(void) {
    size_t len = 0;
    uint8_t *clip = clip_of(8, &len);
    if (!CHECK(clip)) return;
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_motion";
    cfg.streaming = 1;
    wai_decoder *d;
    CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok);
    wai_output o;
    CHECK(wai_decoder_send(d, clip, len, NULL) == WAI_ok);
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.index == 0);
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.index == 1);
    CHECK(wai_decoder_send(d, clip, len, NULL) == WAI_ok);
    uint32_t n = 0;
    while (wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) n++;
    CHECK_MSG(n == 8, "%u frames of the second clip", n);
    wai_decoder_destroy(d);
    cfg.max_cost = 10;
    CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok);
    CHECK(wai_decoder_send(d, clip, len, NULL) == WAI_cost_over_limit);
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
    wai_decoder_destroy(d);
    wai_context_destroy(ctx);
    free(clip);
}

void suite_streaming(void) {
    harness_run("streaming/corpus_clips", test_corpus_clips);
    harness_run("streaming/memory", test_memory_is_a_few_frames);
    harness_run("streaming/send_mid_clip", test_send_mid_clip_and_limits);
}
