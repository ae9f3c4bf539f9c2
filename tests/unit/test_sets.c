/* SPDX-License-Identifier: BSD-2-Clause */
/* Parameter sets (include/wai/wai_set.h) and the loaded-set cache
 * (src/sets/cache.h): members and pins, the cache's budget and recency, and
 * the neural corpus decoded cold and warm through one context. */
#include <stdio.h>
#if defined(__has_include) && !defined(__wasi__)
#if __has_include(<pthread.h>)
#include <pthread.h>
#define TEST_THREADS 1
#endif
#endif
#include <stdlib.h>
#include <string.h>

#include "common/context.h"
#include "decode/codec.h"
#include "corpus_util.h"
#include "harness.h"
#include "sets/cache.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

/* Decodes one payload; the status, and the output's SHA-256 in hex ("-"). */
static wai_status decode_one(wai_context *ctx, const char *cap, const wai_set *set,
                             const char *file, uint64_t max_cost, char hex[65]) {
    char rel[1100];
    snprintf(rel, sizeof rel, "corpus/%s", file);
    size_t len;
    uint8_t *data = harness_read_file(rel, &len);
    strcpy(hex, "-");
    if (!data) return WAI_io_error;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap;
    cfg.set = set;
    cfg.max_cost = max_cost;
    wai_decoder *d;
    wai_status st = wai_decoder_create(ctx, &cfg, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, data, len, NULL);
    wai_output o;
    if (st == WAI_ok && wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
        uint8_t h[32];
        wai_sha256_oneshot(o.data, o.size, h);
        wai_hex(h, 32, hex);
    }
    wai_decoder_destroy(d);
    free(data);
    return st;
}

/* Every index line with a set, decoded twice through one context (cold,
 * then warm where the budget keeps sets), must give its line's answer. */
static void corpus_twice(uint64_t budget, int *cases) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    wai_settings s;
    wai_settings_default(&s);
    s.set_cache_budget = budget;
    wai_context *ctx;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    *cases = 0;
    for (int pass = 0; pass < 2; pass++) {
        corpus_line c;
        int r;
        for (const char *at = text; (r = corpus_next_neural(&at, &c)) >= 0;) {
            if (r == 0) continue;
            wai_set *set = corpus_set(ctx, c.capability, c.set);
            char got[65];
            uint64_t limit =
                strcmp(c.max_cost, "-") ? strtoull(c.max_cost, NULL, 10) : WAI_NO_COST_LIMIT;
            wai_status st = decode_one(ctx, c.capability, set, c.file, limit, got);
            CHECK_MSG(strcmp(wai_status_name(st), c.status) == 0 && strcmp(got, c.hash) == 0,
                      "%s (%s, budget %llu): %s %s, want %s %s", c.file, pass ? "warm" : "cold",
                      (unsigned long long)budget, wai_status_name(st), got, c.status, c.hash);
            wai_set_destroy(set);
            (*cases)++;
        }
    }
    size_t kept;
    uint64_t bytes;
    wai_set_cache_stats(ctx->sets, &kept, &bytes);
    CHECK(budget == 0 ? kept == 0 && bytes == 0 : kept > 0 && bytes <= budget);
    wai_context_destroy(ctx);
    free(text);
}

static void test_cold_and_warm(void) {
    int cases = 0;
    corpus_twice((uint64_t)256 << 20, &cases);
    CHECK(cases >= 40);
    corpus_twice(0, &cases);
    corpus_twice(20000, &cases); /* room for some sets, not all */
}

static void test_members_and_pin(void) {
    wai_context *ctx;
    wai_set *s;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok && wai_set_create(ctx, &s) == WAI_ok))
        return;
    const uint8_t bytes[] = {1, 2, 3};
    CHECK(wai_set_add(s, "g_s.whm", bytes, 3) == WAI_ok);
    CHECK(wai_set_add(s, "g_s.whm", bytes, 3) == WAI_invalid_argument);
    CHECK(wai_set_add(s, "", bytes, 3) == WAI_invalid_argument);
    CHECK(wai_set_add(s, "empty", NULL, 0) == WAI_ok);
    const uint8_t *d;
    size_t len;
    CHECK(wai_set_find(s, "g_s.whm", &d, &len) == WAI_ok && len == 3 && d[2] == 3);
    CHECK(wai_set_find(s, "h_s.whm", &d, &len) == WAI_set_incomplete);
    CHECK(wai_set_count(s) == 2);
    wai_set_destroy(s);

    /* A pin that is the file's hash decodes; any other is set_incomplete;
     * a pin on a set of several files without a listing is set_incomplete
     * (with one: listing_pin below). */
    char hex[65];
    wai_set *splat = corpus_set(ctx, "wai.splat.int_codec", "neural/splat/set0");
    const uint8_t *g;
    size_t gl;
    uint8_t pin[32];
    if (!CHECK(splat && wai_set_find(splat, "g_s.whm", &g, &gl) == WAI_ok)) return;
    wai_sha256_oneshot(g, gl, pin);
    wai_set_pin(splat, pin);
    CHECK(decode_one(ctx, "wai.splat.int_codec", splat, "neural/splat/attrs0.wis1",
                     WAI_NO_COST_LIMIT, hex) == WAI_ok);
    pin[31] ^= 1;
    wai_set_pin(splat, pin);
    CHECK(decode_one(ctx, "wai.splat.int_codec", splat, "neural/splat/attrs0.wis1",
                     WAI_NO_COST_LIMIT, hex) == WAI_set_incomplete);
    wai_set_destroy(splat);
    wai_set *hyper = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
    wai_set_pin(hyper, pin);
    CHECK(decode_one(ctx, "wai.neural.int_hyper", hyper, "neural/hyper/image0.wih1",
                     WAI_NO_COST_LIMIT, hex) == WAI_set_incomplete);
    wai_set_destroy(hyper);
    wai_context_destroy(ctx);
}

/* Recency: with room for two sets, loading a third evicts the one used
 * least recently; a set larger than the budget is never kept. */
/* A copy of the hyper set with `listing` (len bytes; NULL: none) as its
 * listing member and, when pin is not NULL, pinned. */
static wai_set *listed_set(wai_context *ctx, const char *listing, size_t len, const uint8_t *pin) {
    wai_set *s = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
    if (!s) return NULL;
    if (listing) wai_set_add(s, WAI_SET_LISTING, (const uint8_t *)listing, len);
    if (pin) wai_set_pin(s, pin);
    return s;
}

static wai_status decode_listed(wai_context *ctx, const char *listing, const uint8_t *pin) {
    char hex[65];
    wai_set *s = listed_set(ctx, listing, listing ? strlen(listing) : 0, pin);
    wai_status st = s ? decode_one(ctx, "wai.neural.int_hyper", s, "neural/hyper/image0.wih1",
                                   WAI_NO_COST_LIMIT, hex)
                      : WAI_out_of_memory;
    wai_set_destroy(s);
    return st;
}

/* Replaces the first `from` in text (a listing) with `to`, into out. */
static void edit(char *out, size_t size, const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    if (!at) {
        snprintf(out, size, "%s", text);
        return;
    }
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* A set of several files pinned through its listing (docs/spec-readings.md,
 * L5), and SPEC §3.1's check 5: each way the pin or the listing can fail
 * is set_incomplete, the listing right is ok. */
static void test_listing_pin(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *s = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
    char listing[2048], bad[2100];
    size_t need = 0;
    if (!CHECK(s && wai_set_listing_json(s, listing, sizeof listing, &need) == WAI_ok)) return;
    CHECK(need == strlen(listing));
    static const char head[] = "{\"kind\":\"wai.prior.set\",\"members\":[{\"name\":\"entropy.json\",\"bytes\":";
    CHECK(strncmp(listing, head, sizeof head - 1) == 0);
    /* Names ascend; the listing leaves itself out; a short buffer says how long. */
    CHECK(strstr(listing, "entropy.json") < strstr(listing, "g_s.whm") &&
          strstr(listing, "g_s.whm") < strstr(listing, "h_s.whm"));
    size_t need2 = 0;
    CHECK(wai_set_listing_json(s, listing, 10, &need2) == WAI_invalid_argument && need2 == need);
    wai_set_listing_json(s, listing, sizeof listing, NULL);
    wai_set_destroy(s);
    uint8_t pin[32];
    wai_sha256_oneshot(listing, strlen(listing), pin);
    s = listed_set(ctx, listing, strlen(listing), NULL);
    char again[2048];
    CHECK(s && wai_set_listing_json(s, again, sizeof again, NULL) == WAI_ok && strcmp(again, listing) == 0);
    wai_set_destroy(s);

    CHECK(decode_listed(ctx, listing, pin) == WAI_ok);          /* pinned through the listing */
    CHECK(decode_listed(ctx, listing, NULL) == WAI_ok);         /* unpinned, check 5 holds */
    CHECK(decode_listed(ctx, NULL, pin) == WAI_set_incomplete); /* several files, no listing */
    uint8_t other[32];
    memcpy(other, pin, 32);
    other[0] ^= 1;
    CHECK(decode_listed(ctx, listing, other) == WAI_set_incomplete); /* another listing's pin */
    /* Each listing that breaks the form or disagrees with a file read. */
    const char *g_entry = strstr(listing, "{\"name\":\"g_s.whm\"");
    const char *h_entry = strstr(listing, ",{\"name\":\"h_s.whm\"");
    if (!CHECK(g_entry && h_entry)) return wai_context_destroy(ctx);
    struct {
        const char *what, *from, *to;
    } edits[] = {
        {"a space", "\"members\":[", "\"members\": ["},
        {"a newline at the end", "]}", "]}\n"},
        {"another kind", "wai.prior.set", "wai.prior.sets"},
        {"an uppercase digest", "\"sha256\":\"", "\"sha256\":\"A"},
        {"a leading zero", "\"bytes\":", "\"bytes\":0"},
        {"a length one more", "\"bytes\":", "\"bytes\":1"},
        {"an escaped name", "\"name\":\"entropy.json\"", "\"name\":\"entropy\\u002ejson\""},
        {"the listing listing itself", "\"name\":\"entropy.json\"", "\"name\":\"listing.json\""},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        edit(bad, sizeof bad, listing, edits[i].from, edits[i].to);
        CHECK_MSG(strcmp(bad, listing) != 0, "%s: no edit", edits[i].what);
        CHECK_MSG(decode_listed(ctx, bad, NULL) == WAI_set_incomplete, "%s: not refused", edits[i].what);
        wai_sha256_oneshot(bad, strlen(bad), other);
        CHECK_MSG(decode_listed(ctx, bad, other) == WAI_set_incomplete, "%s, pinned: not refused",
                  edits[i].what);
    }
    /* A digest one bit off (the file read is not the file listed). */
    snprintf(bad, sizeof bad, "%s", listing);
    char *d = strstr(bad, "\"sha256\":\"") + 10;
    *d = *d == '0' ? '1' : '0';
    CHECK(decode_listed(ctx, bad, NULL) == WAI_set_incomplete);
    /* A file read and not listed: h_s.whm's entry dropped. */
    size_t h_at = (size_t)(h_entry - listing), h_len = strcspn(h_entry + 1, "}") + 2;
    snprintf(bad, sizeof bad, "%.*s%s", (int)h_at, listing, listing + h_at + h_len);
    CHECK_MSG(decode_listed(ctx, bad, NULL) == WAI_set_incomplete, "unlisted: %s", bad);
    /* Out of order, and a name twice. */
    size_t g_at = (size_t)(g_entry - listing);
    snprintf(bad, sizeof bad, "%.*s%.*s,%.*s%s", (int)(g_at), listing, (int)(h_len - 1), h_entry + 1,
             (int)(h_at - g_at), g_entry, listing + h_at + h_len);
    CHECK_MSG(decode_listed(ctx, bad, NULL) == WAI_set_incomplete, "out of order: %s", bad);
    snprintf(bad, sizeof bad, "%.*s%.*s%s", (int)(h_at + h_len), listing, (int)h_len, h_entry,
             listing + h_at + h_len);
    CHECK_MSG(decode_listed(ctx, bad, NULL) == WAI_set_incomplete, "twice: %s", bad);
    /* A listing may list files this decode does not read. */
    edit(bad, sizeof bad, listing, "]}", ",{\"name\":\"z.bin\",\"bytes\":0,\"sha256\":\""
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"}]}");
    CHECK_MSG(decode_listed(ctx, bad, NULL) == WAI_ok, "an extra file: %s", bad);
    /* Pinned, the set is every file listed: one listed and not held is
     * set_incomplete (L5a), though no decode reads it. */
    wai_sha256_oneshot(bad, strlen(bad), other);
    CHECK_MSG(decode_listed(ctx, bad, other) == WAI_set_incomplete, "pinned, a file not held: %s",
              bad);
    wai_context_destroy(ctx);
}

/* L5a: a listing covers every file the set holds, not only the members
 * the capability registers, because a backend reads its program and
 * weights from the same set (decoder.webnn.json, decoder.f32). A file held
 * and unlisted, or held with other bytes than listed, is set_incomplete,
 * pinned or not; a form-less pin holds only a set of one file. */
static void test_listing_covers_every_file(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    static const uint8_t weights[] = {1, 2, 3, 4};
    char hex[65], listing[2048];
    uint8_t pin[32];
    for (int altered = 0; altered < 2; altered++)
        for (int listed = 0; listed < 2; listed++) {
            wai_set *s = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
            if (!CHECK(s)) continue;
            /* The listing names the extra file (listed) or leaves it out. */
            if (listed) wai_set_add(s, "decoder.f32", weights, sizeof weights);
            CHECK(wai_set_listing_json(s, listing, sizeof listing, NULL) == WAI_ok);
            wai_set_destroy(s);
            s = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
            uint8_t held[sizeof weights];
            memcpy(held, weights, sizeof held);
            held[0] ^= (uint8_t)altered;
            wai_set_add(s, "decoder.f32", held, sizeof held);
            wai_set_add(s, WAI_SET_LISTING, (const uint8_t *)listing, strlen(listing));
            wai_status want = listed && !altered ? WAI_ok : WAI_set_incomplete;
            CHECK_MSG(decode_one(ctx, "wai.neural.int_hyper", s, "neural/hyper/image0.wih1",
                                 WAI_NO_COST_LIMIT, hex) == want,
                      "listed %d altered %d, unpinned", listed, altered);
            wai_sha256_oneshot(listing, strlen(listing), pin);
            wai_set_pin(s, pin);
            CHECK_MSG(decode_one(ctx, "wai.neural.int_hyper", s, "neural/hyper/image0.wih1",
                                 WAI_NO_COST_LIMIT, hex) == want,
                      "listed %d altered %d, pinned", listed, altered);
            wai_set_destroy(s);
        }
    /* Form-less: the one-file splat set decodes under its file's digest,
     * and the same digest does not pin that file with another beside it. */
    wai_set *splat = corpus_set(ctx, "wai.splat.int_codec", "neural/splat/set0");
    const uint8_t *g;
    size_t gl;
    if (CHECK(splat && wai_set_find(splat, "g_s.whm", &g, &gl) == WAI_ok)) {
        wai_sha256_oneshot(g, gl, pin);
        wai_set_pin(splat, pin);
        CHECK(decode_one(ctx, "wai.splat.int_codec", splat, "neural/splat/attrs0.wis1",
                         WAI_NO_COST_LIMIT, hex) == WAI_ok);
        wai_set_add(splat, "decoder.f32", weights, sizeof weights);
        CHECK(decode_one(ctx, "wai.splat.int_codec", splat, "neural/splat/attrs0.wis1",
                         WAI_NO_COST_LIMIT, hex) == WAI_set_incomplete);
    }
    wai_set_destroy(splat);
    wai_context_destroy(ctx);
}

/* L5b: a pin's text, and the tier it states. */
static void test_pin_text(void) {
    static const char hex[] = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
    uint8_t d[32];
    char tier[32], text[200];
    CHECK(wai_pin_parse(hex, d, tier, sizeof tier) == WAI_ok && tier[0] == '\0' && d[0] == 0x00 &&
          d[1] == 0x11 && d[31] == 0xff);
    snprintf(text, sizeof text, "%s:tier=decode-equivalence", hex);
    CHECK(wai_pin_parse(text, d, tier, sizeof tier) == WAI_ok && strcmp(tier, "decode-equivalence") == 0);
    CHECK(wai_pin_parse(text, d, NULL, 0) == WAI_ok);   /* the tier not asked for */
    CHECK(wai_pin_parse(text, d, tier, 5) == WAI_invalid_argument);   /* no room for it */
    const char *bad[] = {":tier=x", ":tier=", ":tiers=x", ":tier=Decode", ":tier=a b", "0", " ",
                         ":tier=decode-equivalence:tier=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", hex, bad[i]);
        CHECK_MSG(i == 0 ? wai_pin_parse(text, d, tier, sizeof tier) == WAI_ok
                         : wai_pin_parse(text, d, tier, sizeof tier) == WAI_invalid_argument,
                  "%s", text);
    }
    CHECK(wai_pin_parse("0011", d, tier, sizeof tier) == WAI_invalid_argument);   /* short */
    snprintf(text, sizeof text, "%.63sg", hex);
    CHECK(wai_pin_parse(text, d, tier, sizeof tier) == WAI_invalid_argument);     /* not hex */
    CHECK(wai_pin_parse(NULL, d, tier, sizeof tier) == WAI_invalid_argument);
}

/* wai_set_listing_next: a listing's names in order, and nothing past the
 * place where the text leaves the form. */
static void test_listing_next(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *s = corpus_set(ctx, "wai.neural.int_hyper", "neural/hyper/set0");
    char listing[2048], name[256];
    if (!CHECK(s && wai_set_listing_json(s, listing, sizeof listing, NULL) == WAI_ok)) return;
    const uint8_t *l = (const uint8_t *)listing;
    size_t len = strlen(listing), at = 0;
    static const char *const want[] = {"entropy.json", "g_s.whm", "h_s.whm"};
    for (int i = 0; i < 3; i++)
        CHECK_MSG(wai_set_listing_next(l, len, &at, name, sizeof name) == WAI_ok &&
                      strcmp(name, want[i]) == 0,
                  "entry %d: %s", i, name);
    CHECK(wai_set_listing_next(l, len, &at, name, sizeof name) == WAI_set_incomplete); /* the end */
    at = 0;
    CHECK(wai_set_listing_next(l, len, &at, name, 5) == WAI_invalid_argument && at == 0);
    /* Out of the form after the first entry: the first name, then nothing. */
    char bad[2048];
    snprintf(bad, sizeof bad, "%s", listing);
    *strstr(bad, ",{\"name\":\"g_s") = ';';
    at = 0;
    CHECK(wai_set_listing_next((const uint8_t *)bad, len, &at, name, sizeof name) == WAI_ok &&
          strcmp(name, "entropy.json") == 0);
    CHECK(wai_set_listing_next((const uint8_t *)bad, len, &at, name, sizeof name) ==
          WAI_set_incomplete);
    static const char empty[] = "{\"kind\":\"wai.prior.set\",\"members\":[]}";
    at = 0;
    CHECK(wai_set_listing_next((const uint8_t *)empty, sizeof empty - 1, &at, name, sizeof name) ==
          WAI_set_incomplete);
    at = 0;
    CHECK(wai_set_listing_next((const uint8_t *)"{}", 2, &at, name, sizeof name) ==
          WAI_set_incomplete);
    at = len + 1;
    CHECK(wai_set_listing_next(l, len, &at, name, sizeof name) == WAI_invalid_argument);
    wai_set_destroy(s);
    wai_context_destroy(ctx);
}

static void test_lru(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *a = corpus_set(ctx, "wai.splat.int_codec", "neural/splat/set0");
    wai_set *b = corpus_set(ctx, "wai.splat.int_codec", "neural/splat/set1");
    wai_set *c = corpus_set(ctx, "wai.splat.int_codec", "neural/splat/set2");
    const wai_set_kind splat =
        wai_codec_set_kind(wai_codec_of(wai_capability_find("wai.splat.int_codec")));
    wai_set_cache *probe;
    wai_set_ref *r;
    int hit;
    uint64_t size[3];
    wai_set *sets[3] = {a, b, c};
    if (!CHECK(wai_set_cache_create(&ctx->alloc, 0, &probe) == WAI_ok)) return;
    for (int i = 0; i < 3; i++) {
        CHECK(wai_set_cache_acquire(probe, &splat, sets[i], &r, &hit) == WAI_ok && !hit);
        size[i] = wai_set_ref_get(r)->bytes;
        wai_set_cache_release(probe, r);
    }
    wai_set_cache_destroy(probe);
    /* Any two fit (the two largest do), not three. */
    uint64_t least = size[0] < size[1] ? size[0] : size[1];
    if (size[2] < least) least = size[2];
    uint64_t budget = size[0] + size[1] + size[2] - least;
    wai_set_cache *cache;
    if (!CHECK(wai_set_cache_create(&ctx->alloc, budget, &cache) == WAI_ok)) return;
    for (int i = 0; i < 2; i++) {
        CHECK(wai_set_cache_acquire(cache, &splat, sets[i], &r, &hit) == WAI_ok && !hit);
        wai_set_cache_release(cache, r);
    }
    /* a is used again: b is now the least recent, and c's load evicts it. */
    CHECK(wai_set_cache_acquire(cache, &splat, a, &r, &hit) == WAI_ok && hit);
    wai_set_cache_release(cache, r);
    CHECK(wai_set_cache_acquire(cache, &splat, c, &r, &hit) == WAI_ok && !hit);
    wai_set_cache_release(cache, r);
    CHECK(wai_set_cache_acquire(cache, &splat, a, &r, &hit) == WAI_ok && hit);
    wai_set_cache_release(cache, r);
    CHECK(wai_set_cache_acquire(cache, &splat, b, &r, &hit) == WAI_ok && !hit);
    wai_set_cache_release(cache, r);
    wai_set_cache_destroy(cache);
    /* Smaller than any set: nothing kept, every acquire loads. */
    if (CHECK(wai_set_cache_create(&ctx->alloc, 1, &cache) == WAI_ok)) {
        for (int i = 0; i < 2; i++) {
            CHECK(wai_set_cache_acquire(cache, &splat, a, &r, &hit) == WAI_ok && !hit);
            wai_set_cache_release(cache, r);
        }
        wai_set_cache_destroy(cache);
    }
    wai_set_destroy(a);
    wai_set_destroy(b);
    wai_set_destroy(c);
    wai_context_destroy(ctx);
}

/* The presentation data beside the digest buffers: WIA1's sample rate on
 * the PCM output, WIS1's ranges and Gaussian count from the payload. The
 * generator wrote clip1 at 16000 Hz and attrs0's first planes as [0, 1],
 * [-1, 1], [-0, +0]. */
static void test_presentation(void) {
    size_t len;
    uint8_t *clip = harness_read_file("corpus/neural/audio/clip1.wia1", &len);
    wai_context *ctx;
    if (!CHECK(clip && wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *set = corpus_set(ctx, "wai.audio.int_codec", "neural/audio/set1");
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.set = set;
    wai_decoder *d;
    wai_output o;
    CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
          wai_decoder_send(d, clip, len, NULL) == WAI_ok &&
          wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_PCM &&
          o.sample_rate == 16000 && o.size == 2 * (size_t)o.width);
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    free(clip);

    uint8_t *pl = harness_read_file("corpus/neural/splat/attrs0.wis1", &len);
    wai_splat_info info;
    uint32_t r[16];
    if (!CHECK(pl != NULL)) return;
    CHECK(wai_splat_presentation(pl, len, &info, NULL, 0) == WAI_ok && info.planes == 3 &&
          info.side == 4 && info.n_gaussians >= 1 && info.n_gaussians <= 16);
    CHECK(wai_splat_presentation(pl, len, &info, r, 8) == WAI_ok && r[0] == 0 &&
          r[1] == 0x3F800000u && r[2] == 0xBF800000u && r[3] == 0x3F800000u &&
          r[4] == 0x80000000u && r[5] == 0);
    CHECK(wai_splat_presentation(pl, 10, &info, r, 8) == WAI_stream_length);
    free(pl);
}

#ifdef TEST_THREADS
/* Several threads decoding through one context share its cache: a budget
 * that holds about two sets makes them load, keep and evict while others
 * hold references. Each thread decodes every single-output neural case of
 * the index three times and must get its line's answer every time. */
typedef struct shared_run {
    wai_context *ctx;
    char *text;
    int failures, cases;
} shared_run;

static void *decode_all(void *arg) {
    shared_run *r = arg;
    for (int round = 0; round < 3; round++) {
        corpus_line c;
        int k;
        for (const char *at = r->text; (k = corpus_next_neural(&at, &c)) >= 0;) {
            if (k == 0) continue;
            wai_set *set = corpus_set(r->ctx, c.capability, c.set);
            char got[65];
            uint64_t limit =
                strcmp(c.max_cost, "-") ? strtoull(c.max_cost, NULL, 10) : WAI_NO_COST_LIMIT;
            wai_status st = decode_one(r->ctx, c.capability, set, c.file, limit, got);
            if (strcmp(wai_status_name(st), c.status) != 0 || strcmp(got, c.hash) != 0)
                r->failures++;
            r->cases++;
            wai_set_destroy(set);
        }
    }
    return NULL;
}

static void test_threads_share_cache(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    wai_settings s;
    wai_settings_default(&s);
    s.set_cache_budget = 40000;
    wai_context *ctx;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    enum { N = 4 };
    pthread_t t[N];
    shared_run r[N];
    int started[N];
    for (int i = 0; i < N; i++) {
        r[i] = (shared_run){ctx, text, 0, 0};
        started[i] = pthread_create(&t[i], NULL, decode_all, &r[i]) == 0;
    }
    for (int i = 0; i < N; i++) {
        if (!CHECK(started[i])) continue;
        pthread_join(t[i], NULL);
        CHECK_MSG(r[i].failures == 0 && r[i].cases >= 60, "thread %d: %d of %d cases differ", i,
                  r[i].failures, r[i].cases);
    }
    wai_context_destroy(ctx);
    free(text);
}
#endif

void suite_sets(void) {
#ifdef TEST_THREADS
    harness_run("sets/threads_share_cache", test_threads_share_cache);
#endif
    harness_run("sets/presentation", test_presentation);
    harness_run("sets/members_and_pin", test_members_and_pin);
    harness_run("sets/listing_pin", test_listing_pin);
    harness_run("sets/listing_covers_every_file", test_listing_covers_every_file);
    harness_run("sets/pin_text", test_pin_text);
    harness_run("sets/listing_next", test_listing_next);
    harness_run("sets/lru", test_lru);
    harness_run("sets/corpus_cold_and_warm", test_cold_and_warm);
}
