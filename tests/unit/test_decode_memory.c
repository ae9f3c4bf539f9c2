/* SPDX-License-Identifier: BSD-2-Clause */
/* A neural decode's peak memory against its declared working bytes
 * (integer-payloads §7, Memory and work; docs/neural-decodes.md): every
 * valid neural payload of the corpus decoded through a context whose
 * allocator counts, with its set already in the cache (what the cache
 * keeps is the set's, not the decode's), must peak at no more than its
 * declared working bytes plus the fixed overhead the docs state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "decode/decoder.h"
#include "harness.h"
#include "ops/layers_fast_dot.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

/* docs/neural-decodes.md, "Memory": the bytes a decode may hold beyond
 * its declared working bytes: the fast kernels' temporaries (at most
 * WAI_DOT_TEMP_MAX), the decoder's bookkeeping and a motion table's lookups
 * (640 KiB), plus, per payload byte, two bytes for the tables a payload
 * carries and their lookups. */
#define WAI_DECODE_OVERHEAD_BYTES (WAI_DOT_TEMP_MAX + 640u * 1024u)

/* A context whose allocator counts into h (zeroed here), on threads
 * threads (0: the default) and with the set cache's budget (UINT64_MAX: the
 * default); NULL when it cannot be made. */
static wai_context *counting_context(harness_alloc *h, unsigned threads, uint64_t cache_budget) {
    memset(h, 0, sizeof *h);
    wai_settings s;
    wai_settings_default(&s);
    s.allocator = harness_allocator(h);
    if (threads) s.n_threads = threads;
    if (cache_budget != UINT64_MAX) s.set_cache_budget = cache_budget;
    wai_context *ctx;
    return wai_context_create(&s, &ctx) == WAI_ok ? ctx : NULL;
}

/* Decodes file twice through ctx (the first fills the cache); returns the
 * second decode's peak above what was live before it. */
static int measure(wai_context *ctx, harness_alloc *h, const wai_capability *cap,
                   const wai_set *set, const char *file, uint64_t *peak, wai_cost *cost,
                   size_t *payload_len) {
    size_t len;
    uint8_t *data = corpus_file(file, &len);
    if (!data) return 0;
    *payload_len = len;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap->name;
    cfg.set = set;
    int ok = 1;
    for (int pass = 0; pass < 2 && ok; pass++) {
        wai_decoder *d;
        ok = wai_decoder_create(ctx, &cfg, &d) == WAI_ok;
        size_t before = h->bytes_now;
        h->bytes_peak = before;
        ok = ok && wai_decoder_send(d, data, len, cost) == WAI_ok;
        *peak = h->bytes_peak - before;
        wai_decoder_destroy(d);
    }
    free(data);
    return ok;
}

/* The peaks with the context's n_threads = threads: the kernels' per-thread
 * buffers share the same fixed allowance, whatever the count. */
static void test_peak_within_declared(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    static const unsigned threads[] = {1, 7};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        harness_alloc h;
        wai_context *ctx = counting_context(&h, threads[t], UINT64_MAX);
        if (!CHECK(ctx != NULL)) break;
        int n = 0, r;
        corpus_line c;
        for (const char *at = text; (r = corpus_next_neural_payload(&at, &c)) >= 0;) {
            if (r == 0 || strcmp(c.status, "ok") != 0) continue;
            const wai_capability *cap = wai_capability_find(c.capability);
            wai_set *set = corpus_set(ctx, c.capability, c.set);
            uint64_t peak = 0;
            wai_cost cost;
            size_t plen = 0;
            if (CHECK_MSG(cap && set && measure(ctx, &h, cap, set, c.file, &peak, &cost, &plen),
                          "%s: no decode", c.file))
                CHECK_MSG(peak <= cost.working_bytes + WAI_DECODE_OVERHEAD_BYTES + 2 * plen,
                          "%s (%u threads): peak %llu bytes, declared %llu", c.file, threads[t],
                          (unsigned long long)peak, (unsigned long long)cost.working_bytes);
            if (getenv("WAI_TEST_VERBOSE"))
                printf("  %s: peak %llu, declared %llu\n", c.file, (unsigned long long)peak,
                       (unsigned long long)cost.working_bytes);
            wai_set_destroy(set);
            n++;
        }
        CHECK(n >= 10);
        wai_context_destroy(ctx);
    }
    free(text);
}

/* One decoder kept across every valid whole-payload decode of a
 * capability, in the corpus's order and then the reverse (so a small
 * payload follows a large one each way): each send holds at most its own
 * declared bytes plus the overhead, the network arena the decoder keeps
 * from the decode before included (decode/decoder.c frees it when this
 * decode's networks need less). And a payload sent again right after
 * itself reuses the arena: never more allocations, fewer where the first
 * send had to make it. */
static void test_kept_decoder(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    static const char *const caps[] = {"wai.neural.int_hyper", "wai.audio.int_codec",
                                       "wai.splat.int_codec", "wai.neural.int_mlicpp",
                                       "wai.video.int_cond"};
    harness_alloc h;
    wai_context *ctx = counting_context(&h, 1, UINT64_MAX);
    if (!CHECK(ctx != NULL)) {
        free(text);
        return;
    }
    static corpus_line lines[64];
    int sends = 0, reused = 0, groups = 0;
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) {
        int n = 0, r;
        corpus_line c;
        for (const char *at = text; (r = corpus_next_neural_payload(&at, &c)) >= 0 && n < 64;)
            if (r && !strcmp(c.status, "ok") && !strcmp(c.capability, caps[ci])) lines[n++] = c;
        /* One decoder per set (a decoder's set is its config's). */
        for (int first = 0; first < n; first++) {
            int seen = 0;
            for (int k = 0; k < first && !seen; k++) seen = !strcmp(lines[k].set, lines[first].set);
            if (seen) continue;
            wai_set *set = corpus_set(ctx, caps[ci], lines[first].set);
            if (!CHECK(set)) continue;
            wai_decoder_config cfg;
            wai_decoder_config_default(&cfg);
            cfg.capability = caps[ci];
            cfg.set = set;
            /* Its set into the cache first, outside what is measured. */
            size_t len;
            uint8_t *data = corpus_file(lines[first].file, &len);
            wai_decoder *d = NULL;
            CHECK(data && wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
                  wai_decoder_send(d, data, len, NULL) == WAI_ok);
            wai_decoder_destroy(d);
            free(data);
            const size_t base = h.bytes_now;
            if (!CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) {
                wai_set_destroy(set);
                continue;
            }
            groups++;
            /* Forward then back: every payload of the set after a larger one. */
            for (int step = 0; step < 2 * n; step++) {
                const corpus_line *l = &lines[step < n ? step : 2 * n - 1 - step];
                if (strcmp(l->set, lines[first].set)) continue;
                if (!(data = corpus_file(l->file, &len))) continue;
                /* The arena this payload's own decode leaves, from a fresh
                 * decoder: what the kept one must hold after it too. */
                uint64_t own = 0;
                wai_decoder *fresh;
                if (CHECK(wai_decoder_create(ctx, &cfg, &fresh) == WAI_ok) &&
                    CHECK(wai_decoder_send(fresh, data, len, NULL) == WAI_ok))
                    own = wai_decoder_arena_elems(fresh);
                wai_decoder_destroy(fresh);
                for (int again = 0; again < 2; again++) {
                    wai_cost cost;
                    size_t calls = h.calls;
                    h.bytes_peak = h.bytes_now;
                    wai_status st = wai_decoder_send(d, data, len, &cost);
                    CHECK_MSG(st == WAI_ok && h.bytes_peak - base <= cost.working_bytes +
                                                                        WAI_DECODE_OVERHEAD_BYTES +
                                                                        2 * len,
                              "%s through a kept decoder: peak %llu, declared %llu", l->file,
                              (unsigned long long)(h.bytes_peak - base),
                              (unsigned long long)cost.working_bytes);
                    CHECK_MSG(wai_decoder_arena_elems(d) == own,
                              "%s: the kept decoder holds %llu arena elements, its own decode %llu",
                              l->file, (unsigned long long)wai_decoder_arena_elems(d),
                              (unsigned long long)own);
                    static size_t first_calls;
                    if (!again) first_calls = h.calls - calls;
                    else {
                        /* Never more; fewer the first time the arena is
                         * there to reuse. */
                        CHECK(h.calls - calls <= first_calls);
                        reused += h.calls - calls < first_calls;
                    }
                    if (again && getenv("WAI_TEST_VERBOSE")) printf("  %s: %zu then %zu allocations, arena %llu\n", l->file, first_calls, h.calls - calls, (unsigned long long)own);
                    sends++;
                }
                free(data);
            }
            wai_decoder_destroy(d);
            wai_set_destroy(set);
        }
    }
    CHECK(groups >= 5 && sends >= 30);
    /* A payload sent again right after itself allocates no more, and less
     * where the arena was not yet there (the first of a set's payloads,
     * each time a larger one follows a smaller). */
    CHECK_MSG(reused >= groups, "%d second sends of %d reused the arena", reused, sends / 2);
    wai_context_destroy(ctx);
    free(text);
}

/* A frame stream of wai.video.int_hyper.frame through one decoder: the
 * intra frame's networks leave their arena kept; an inter frame runs none
 * (its net_work_bytes is 0), so the decoder lets the arena go before it:
 * an idle stream holds no network memory. */
static void test_kept_arena_released(void) {
    static const char *const files[] = {"neural/video/f000.wif1", "neural/video/f001.wif1",
                                        "neural/video/f002.wif1"};
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *set = corpus_set(ctx, "wai.video.int_hyper.frame", "neural/hyper/set0");
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_hyper.frame";
    cfg.set = set;
    wai_decoder *d = NULL;
    if (CHECK(set && wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) {
        for (int i = 0; i < 3; i++) {
            size_t len;
            uint8_t *data = corpus_file(files[i], &len);
            CHECK(data && wai_decoder_send(d, data, len, NULL) == WAI_ok);
            free(data);
            if (i == 0) CHECK_MSG(wai_decoder_arena_elems(d) > 0, "the intra frame's arena is kept");
            else CHECK_MSG(wai_decoder_arena_elems(d) == 0, "frame %d: %llu arena elements kept", i,
                           (unsigned long long)wai_decoder_arena_elems(d));
        }
    }
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
}

/* Issue 10: a 99-byte g_s.whm declares 243 MB of working memory for 16
 * units of work, so a work limit alone lets it through. The memory limit
 * refuses it cost_over_limit after §7 step 4, with no allocation of the
 * output or of a network's buffers: the send's peak stays at the parse's
 * and the set's few bytes. */
static void test_memory_limit_refuses_amplifier(void) {
    size_t len;
    uint8_t *data = harness_read_file("corpus/neural/amplify/attrs.wis1", &len);
    if (!CHECK(data != NULL)) return;
    harness_alloc h;
    wai_context *ctx = counting_context(&h, 0, UINT64_MAX);
    wai_set *set = NULL;
    wai_decoder *d = NULL;
    if (!CHECK(ctx != NULL)) goto done;
    set = corpus_set(ctx, "wai.splat.int_codec", "neural/amplify/set");
    if (!CHECK(set != NULL)) goto done;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    CHECK(cfg.max_memory == WAI_NO_MEMORY_LIMIT);
    cfg.set = set;
    cfg.max_cost = 50000;
    cfg.max_memory = 64u << 20;
    if (!CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok)) goto done;
    size_t before = h.bytes_now;
    h.bytes_peak = before;
    wai_cost c;
    memset(&c, 0, sizeof c);
    CHECK(wai_decoder_send(d, data, len, &c) == WAI_cost_over_limit);
    CHECK(wai_cost_work(&c) <= 50000);
    CHECK_MSG(c.working_bytes > 200000000u, "declared %llu", (unsigned long long)c.working_bytes);
    CHECK(!wai_cost_within(&c, 50000, 64u << 20) && wai_cost_within(&c, 50000, c.working_bytes));
    CHECK_MSG(h.bytes_peak - before < 64 * 1024, "the refused send peaked at %llu bytes",
              (unsigned long long)(h.bytes_peak - before));
    CHECK(wai_decoder_dispatch_report(d) == NULL);   /* refused before the dispatch */
    wai_output o;
    CHECK(wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_NONE);
done:
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    free(data);
}

/* Every valid neural corpus case and a motion clip: refused at one byte
 * below their declared memory, decoded at exactly it (reading R4's
 * "at most", as for the caps); each payload within its format's largest. */
static void test_memory_limit_boundary(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) {
        free(text);
        return;
    }
    int n = 0, r;
    corpus_line c;
    for (const char *at = text; (r = corpus_next_neural(&at, &c)) >= 0;) {
        if (r == 0 || strcmp(c.status, "ok") != 0) continue;
        size_t len;
        uint8_t *data = corpus_file(c.file, &len);
        wai_set *set = corpus_set(ctx, c.capability, c.set);
        CHECK(data && len <= wai_payload_max_bytes(wai_capability_find(c.capability)));
        wai_cost cost;
        if (CHECK_MSG(data && set && wai_declared_cost_set(ctx, c.capability, set, data, len,
                                                           &cost) == WAI_ok,
                      "%s: no cost", c.file)) {
            for (int at_limit = 0; at_limit < 2; at_limit++) {
                wai_decoder_config cfg;
                wai_decoder_config_default(&cfg);
                cfg.capability = c.capability;
                cfg.set = set;
                cfg.max_memory = cost.working_bytes - (at_limit ? 0 : 1);
                wai_decoder *d;
                wai_status want = at_limit ? WAI_ok : WAI_cost_over_limit;
                CHECK_MSG(wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
                              wai_decoder_send(d, data, len, NULL) == want,
                          "%s: limit %llu", c.file, (unsigned long long)cfg.max_memory);
                wai_decoder_destroy(d);
            }
            n++;
        }
        wai_set_destroy(set);
        free(data);
    }
    CHECK(n >= 10);
    size_t len;
    uint8_t *clip = harness_read_file("corpus/motion/valid/clip00.wiv1", &len);
    wai_cost cost;
    if (CHECK(clip && wai_declared_cost(NULL, clip, len, &cost) == WAI_ok)) {
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.max_memory = cost.working_bytes - 1;
        wai_decoder *d;
        CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
              wai_decoder_send(d, clip, len, NULL) == WAI_cost_over_limit);
        wai_decoder_destroy(d);
        cfg.max_memory = cost.working_bytes;
        CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
              wai_decoder_send(d, clip, len, NULL) == WAI_ok);
        wai_decoder_destroy(d);
    }
    free(clip);
    wai_context_destroy(ctx);
    free(text);
}

/* wai_payload_max_bytes: each bound as docs/reading-inputs.md derives it
 * (limit_boundary checks the corpus against them). */
static void test_payload_max_bytes(void) {
    const uint64_t stream = 4 + (uint64_t)UINT32_MAX, table = 4097 * 4, elems = 1u << 26;
    const uint64_t wih1 = 32 + 2 * stream;
    struct {
        const char *cap;
        uint64_t want;
    } cases[] = {
        {"wai.neural.int_hyper", wih1},
        {"wai.video.int_motion", 36 + table + 2 * elems + stream},
        {"wai.video.int_hyper", 36 + table + 2 * elems + stream + 4 + wih1},
        {"wai.video.int_motion.frame", 32 + 2 * elems + stream},
        {"wai.video.int_hyper.frame", 32 + table + 4 + wih1},
        {"wai.audio.int_codec", 32 + elems * (8 + table) + stream},
        {"wai.splat.int_codec", 32 + elems * 8 + elems * (14 + table) + stream},
        {"wai.neural.int_synth", 12 + elems},
        {"wai.neural.int_mlicpp", 36 + 2 * (uint64_t)UINT32_MAX},
        {"wai.video.int_cond.frame", 32 + stream},
        {"wai.video.int_cond", 12 + (UINT64_C(1) << 20) * (4 + 32 + stream)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const wai_capability *cap = wai_capability_find(cases[i].cap);
        CHECK_MSG(cap && wai_payload_max_bytes(cap) == cases[i].want, "%s: %llu", cases[i].cap,
                  cap ? (unsigned long long)wai_payload_max_bytes(cap) : 0ull);
    }
    CHECK(wai_payload_max_bytes(NULL) == UINT64_MAX);
    CHECK(wai_payload_max_bytes(wai_capability_find("wai.video.int_hyper")) ==
          UINT64_C(13019136085));   /* 3·2^32 + 2^27 + 16469, pinned */
}

/* A borrowed member is read where it is (no copy: the set's allocations
 * hold none of its bytes) and decodes as a copied one does. */
static void test_borrowed_members(void) {
    size_t plen, mlen;
    uint8_t *payload = harness_read_file("corpus/neural/splat/attrs0.wis1", &plen);
    uint8_t *member = harness_read_file("corpus/neural/splat/set0/g_s.whm", &mlen);
    if (!CHECK(payload && member)) goto out;
    uint8_t digest[2][32];
    for (int borrowed = 0; borrowed < 2; borrowed++) {
        harness_alloc h;
        wai_context *ctx = counting_context(&h, 0, 0);
        wai_set *set;
        if (!CHECK(ctx != NULL)) break;
        size_t before = h.bytes_now;
        CHECK(wai_set_create(ctx, &set) == WAI_ok);
        wai_status st = borrowed ? wai_set_add_borrowed(set, "g_s.whm", member, mlen)
                                 : wai_set_add(set, "g_s.whm", member, mlen);
        CHECK(st == WAI_ok);
        if (borrowed) {
            CHECK(h.bytes_now - before < mlen);
            const uint8_t *at;
            size_t n;
            CHECK(wai_set_find(set, "g_s.whm", &at, &n) == WAI_ok && at == member && n == mlen);
            CHECK(wai_set_add_borrowed(set, "g_s.whm", member, mlen) == WAI_invalid_argument);
            CHECK(wai_set_add_borrowed(set, "x", NULL, 1) == WAI_invalid_argument);
        } else {
            CHECK(h.bytes_now - before >= mlen);
        }
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.set = set;
        wai_decoder *d;
        wai_output o;
        memset(&o, 0, sizeof o);
        CHECK(wai_decoder_create(ctx, &cfg, &d) == WAI_ok &&
              wai_decoder_send(d, payload, plen, NULL) == WAI_ok &&
              wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_PLANES);
        wai_sha256_oneshot(o.data, o.size, digest[borrowed]);
        wai_decoder_destroy(d);
        wai_set_destroy(set);
        wai_context_destroy(ctx);
        CHECK(h.live == 0);
    }
    CHECK(memcmp(digest[0], digest[1], 32) == 0);
out:
    free(payload);
    free(member);
}

void suite_decode_memory(void) {
    harness_run("decode_memory/peak_within_declared", test_peak_within_declared);
    harness_run("decode_memory/kept_decoder", test_kept_decoder);
    harness_run("decode_memory/kept_arena_released", test_kept_arena_released);
    harness_run("decode_memory/limit_refuses_amplifier", test_memory_limit_refuses_amplifier);
    harness_run("decode_memory/limit_boundary", test_memory_limit_boundary);
    harness_run("decode_memory/payload_max_bytes", test_payload_max_bytes);
    harness_run("decode_memory/borrowed_members", test_borrowed_members);
}
