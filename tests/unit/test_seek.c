/* SPDX-License-Identifier: BSD-2-Clause */
/* Seeking a clip (docs/gstreamer.md, "Seeking"): wai_payload_outputs gives
 * every corpus payload's output count from its header alone, and its
 * parse's refusal where the corpus says one; wai_decoder_skip passes over
 * k outputs, whole or streamed, so the next receive gives frame k of the
 * full decode (the corpus's hash for it) with index k, and a clip refused
 * midway is refused by the skip that reaches the refusal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"

#define MAX_FRAMES 64

typedef struct clip_case {
    char mode[16], cap[64], status[64], cost[32], file[512], hashes[MAX_FRAMES * 65 + 1],
        set[256];
    uint32_t n;                  /* hashes */
    char hash[MAX_FRAMES][65];
} clip_case;

/* The corpus line at *at as a clip case (any line with five or more
 * columns); 0 for another line, -1 at the end. */
static int next_case(char **at, clip_case *c) {
    if (!**at) return -1;
    char *end = strchr(*at, '\n');
    size_t len = end ? (size_t)(end - *at) : strlen(*at);
    char line[sizeof c->hashes + 1024];
    int ok = len < sizeof line;
    if (ok) {
        memcpy(line, *at, len);
        line[len] = '\0';
    }
    *at += len + (end != NULL);
    memset(c, 0, sizeof *c);
    if (!ok || sscanf(line, "%15s %63s %63s %31s %511s %4225s %255s", c->mode, c->cap, c->status,
                      c->cost, c->file, c->hashes, c->set) < 5 ||
        strchr(c->file, ','))
        return 0;
    for (char *h = c->hashes; *h && c->n < MAX_FRAMES; c->n++) {
        size_t k = strcspn(h, ",");
        if (k != 64) return 0;
        memcpy(c->hash[c->n], h, 64);
        h += k + (h[k] == ',');
    }
    return 1;
}

static int is_clip(const char *cap) {
    return !strcmp(cap, "wai.video.int_motion") || !strcmp(cap, "wai.video.int_hyper") ||
           !strcmp(cap, "wai.video.int_cond");
}

/* Every parse and decode case of the corpus: a payload that parses has
 * the outputs its decode gives (a clip's frames; one else), a payload
 * the parse refuses is refused with the parse's code. */
static void test_outputs_count(void) {
    char *text = corpus_index();
    if (!CHECK(text)) return;
    static clip_case c;
    int counted = 0, refused = 0, clips = 0;
    for (char *at = text; next_case(&at, &c) >= 0;) {
        if (!c.mode[0] || (strcmp(c.mode, "decode") && strcmp(c.mode, "parse"))) continue;
        if (!wai_capability_has_decoder(wai_capability_find(c.cap))) continue;
        size_t len;
        uint8_t *data = corpus_file(c.file, &len);
        if (!data) continue; /* a case of several files or a generated one */
        uint64_t n = 99;
        wai_status st = wai_payload_outputs(c.cap, data, len, &n);
        wai_checked how = 0;
        wai_status parsed = wai_check_payload(wai_capability_find(c.cap), data, len, &how);
        if (how == WAI_CHECKED_PARSE)
            CHECK_MSG(st == parsed, "%s: outputs %s, parse %s", c.file, wai_status_name(st),
                      wai_status_name(parsed));
        if (st != WAI_ok) {
            CHECK(n == 0);
            refused++;
        } else if (!strcmp(c.mode, "decode") && !strcmp(c.status, "ok") && c.n) {
            CHECK_MSG(n == c.n, "%s: %llu outputs, its decode %u", c.file, (unsigned long long)n,
                      c.n);
            counted++;
            clips += is_clip(c.cap) && c.n > 1;
        }
        free(data);
    }
    CHECK_MSG(counted >= 40 && clips >= 10 && refused >= 40, "%d counted (%d clips), %d refused",
              counted, clips, refused);
    uint64_t n;
    CHECK(wai_payload_outputs(NULL, NULL, 0, &n) == WAI_bad_magic);
    CHECK(wai_payload_outputs(NULL, NULL, 0, NULL) == WAI_invalid_argument);
    CHECK(wai_payload_outputs("wai.video.nope", (const uint8_t *)"WIV1", 4, &n) ==
          WAI_unsupported_capability);
    free(text);
}

static void hex(const uint8_t sha[32], char out[65]) {
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", sha[i]);
}

/* One clip sent to a new decoder, k outputs skipped, the rest received:
 * each the corpus's hash of its frame, with its index. Returns the final
 * status. */
static wai_status seek(wai_context *ctx, const wai_decoder_config *cfg, const uint8_t *data,
                       size_t len, uint32_t k, const clip_case *c, uint64_t *skipped) {
    wai_decoder *d;
    *skipped = 0;
    if (!CHECK(wai_decoder_create(ctx, cfg, &d) == WAI_ok)) return WAI_invalid_argument;
    wai_status st = wai_decoder_send(d, data, len, NULL);
    if (st == WAI_ok) st = wai_decoder_skip(d, k, skipped);
    uint64_t i = *skipped;
    while (st == WAI_ok) {
        wai_output o;
        if ((st = wai_decoder_receive(d, &o)) != WAI_ok || o.kind == WAI_OUTPUT_NONE) break;
        char h[65];
        uint8_t sha[32];
        wai_sha256_oneshot(o.data, o.size, sha);
        hex(sha, h);
        CHECK_MSG(o.index == i, "%s: index %llu after skipping %u", c->file,
                  (unsigned long long)o.index, k);
        if (i < c->n)
            CHECK_MSG(!strcmp(h, c->hash[i]), "%s: frame %llu after skipping %u", c->file,
                      (unsigned long long)i, k);
        i++;
    }
    if (st == WAI_ok) CHECK_MSG(i == c->n, "%s: %llu frames, the corpus %u", c->file,
                                (unsigned long long)i, c->n);
    wai_decoder_destroy(d);
    return st;
}

/* Every clip the corpus decodes, whole and streamed, skipped 0, 1, half,
 * all but one, all and more frames; and every motion clip the corpus
 * refuses, streamed, skipped to past its end: the skip (or the send)
 * gives the refusal. */
static void test_skip(void) {
    char *text = corpus_index();
    if (!CHECK(text)) return;
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return free(text);
    static clip_case c;
    int seeks = 0, refusals = 0, neural = 0;
    for (char *at = text; next_case(&at, &c) >= 0;) {
        if (strcmp(c.mode, "decode") || !is_clip(c.cap) || strcmp(c.cost, "-")) continue;
        size_t len;
        uint8_t *data = corpus_file(c.file, &len);
        if (!data) continue;
        wai_set *set = strcmp(c.set, "-") && c.set[0] ? corpus_set(ctx, c.cap, c.set) : NULL;
        for (int streaming = 0; streaming < 2; streaming++) {
            wai_decoder_config cfg;
            wai_decoder_config_default(&cfg);
            cfg.capability = c.cap;
            cfg.set = set;
            cfg.streaming = streaming;
            wai_decoder *d;
            if (!CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) break;
            uint64_t skipped;
            if (!strcmp(c.status, "ok")) {
                const uint32_t ks[] = {0, 1, c.n / 2, c.n ? c.n - 1 : 0, c.n, c.n + 3};
                for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
                    CHECK_MSG(seek(ctx, &cfg, data, len, ks[i], &c, &skipped) == WAI_ok, "%s",
                              c.file);
                    CHECK(skipped == (ks[i] < c.n ? ks[i] : c.n));
                    seeks++;
                }
                neural += set != NULL;
            } else if (streaming) {
                wai_status st = wai_decoder_send(d, data, len, NULL);
                if (st == WAI_ok) st = wai_decoder_skip(d, 1u << 20, &skipped);
                CHECK_MSG(!strcmp(wai_status_name(st), c.status), "%s: %s, the corpus %s",
                          c.file, wai_status_name(st), c.status);
                wai_output o;
                CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
                refusals++;
            }
            wai_decoder_destroy(d);
        }
        wai_set_destroy(set);
        free(data);
    }
    CHECK_MSG(seeks >= 100 && refusals >= 10 && neural >= 2, "%d seeks (%d neural), %d refusals",
              seeks, neural, refusals);
    CHECK(wai_decoder_skip(NULL, 1, NULL) == WAI_invalid_argument);
    wai_context_destroy(ctx);
    free(text);
}

void suite_seek(void) {
    harness_run("seek/outputs_count", test_outputs_count);
    harness_run("seek/skip", test_skip);
}
