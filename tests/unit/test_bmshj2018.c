/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.bmshj2018 decoded end to end (docs/bmshj2018.md) on a set made
 * here (tests/gen/bmshj_tiny.h: two channels, a synthesis of one transposed
 * convolution and a sigmoid), so the float64 reference is a few lines. The
 * decode gives the reference's RGB8 within one level, its symbols are the
 * encoder's (digest, wai_entropy_symbols), its cost is B3's, and every
 * refusal of the set, the program and the stream is the spec's; a decode
 * that needs decode-equivalence creates no WebNN context. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bmshj_tiny.h"
#include "harness.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"
#include "wai/wai_webnn.h"

#define CAP "wai.neural.bmshj2018"

typedef struct bset {
    wai_context *ctx;
    wai_set *set;
    uint8_t payload[256];
    size_t len;
    float weights[TINY_WEIGHTS];
    char tables[1024], program[2048];
} bset;

/* Members: which of the four the set gets (1 tables, 2 program, 4 weights). */
static int make_set(bset *b, int members) {
    wai_set_destroy(b->set);
    b->set = NULL;
    if (!CHECK(wai_set_create(b->ctx, &b->set) == WAI_ok)) return 0;
    int ok = 1;
    if (members & 1)
        ok &= wai_set_add(b->set, "cdfs_q3.json", (const uint8_t *)b->tables, strlen(b->tables)) ==
              WAI_ok;
    if (members & 2)
        ok &= wai_set_add(b->set, "decoder.webnn.json", (const uint8_t *)b->program,
                          strlen(b->program)) == WAI_ok;
    if (members & 4)
        ok &= wai_set_add(b->set, "decoder.f32", (const uint8_t *)b->weights, sizeof b->weights) ==
              WAI_ok;
    return CHECK(ok);
}

/* What the context's native WebNN backend has done: contexts, graphs, runs. */
static wai_webnn_backend_stats stats(const bset *b) {
    wai_webnn_backend_stats s;
    memset(&s, 0, sizeof s);
    CHECK(wai_webnn_backend_stats_of(b->ctx, &s) == WAI_ok);
    return s;
}

static int open_bset_with(bset *b, const wai_settings *s) {
    memset(b, 0, sizeof *b);
    if (!CHECK(wai_context_create(s, &b->ctx) == WAI_ok)) return 0;
    if (!CHECK(wai_context_add_backend(b->ctx, wai_webnn_backend()) == WAI_ok)) return 0;
    tiny_weights(b->weights);
    tiny_tables(b->tables, sizeof b->tables, "wai-bmshj2018-tables/1", TINY_M,
                tiny_bits_of(tiny_medians[1]));
    tiny_program(b->program, sizeof b->program, TINY_M, "sigmoid");
    b->len = tiny_encoded_payload(b->payload, sizeof b->payload);
    int ok = CHECK(b->len > 0);
    return ok && make_set(b, 7);
}

static int open_bset(bset *b) { return open_bset_with(b, NULL); }

static void close_bset(bset *b) {
    wai_set_destroy(b->set);
    wai_context_destroy(b->ctx);
}

/* One decode: its status, the output (copied to rgb when given), the
 * report's JSON and the decoder's digest. */
typedef struct result {
    wai_status st;
    int has_output, has_digest;
    uint8_t rgb[TINY_H * TINY_W * 3], digest[32];
    uint32_t width, height;
    char report[WAI_DISPATCH_REPORT_JSON_MAX];
} result;

static void decode_within(bset *b, const uint8_t *payload, size_t len,
                          const wai_dispatch_options *opt, uint64_t max_memory, result *r) {
    memset(r, 0, sizeof *r);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP;
    cfg.set = b->set;
    cfg.dispatch = opt;
    cfg.max_memory = max_memory;
    wai_decoder *d;
    if (!CHECK(wai_decoder_create(b->ctx, &cfg, &d) == WAI_ok)) {
        r->st = WAI_invalid_argument;
        return;
    }
    r->st = wai_decoder_send(d, payload, len, NULL);
    wai_output o;
    if (wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_IMAGE &&
        o.size == sizeof r->rgb) {
        r->has_output = 1;
        memcpy(r->rgb, o.data, o.size);
        r->width = o.width, r->height = o.height;
    }
    const wai_dispatch_report *rep = wai_decoder_dispatch_report(d);
    if (rep) wai_dispatch_report_json(rep, r->report, sizeof r->report, NULL);
    r->has_digest = wai_decoder_symbols_digest(d, r->digest);
    wai_decoder_destroy(d);
}

static void decode(bset *b, const uint8_t *payload, size_t len, const wai_dispatch_options *opt,
                   result *r) {
    decode_within(b, payload, len, opt, WAI_NO_MEMORY_LIMIT, r);
}

static void symbols_blake3(uint8_t out[32]) {
    uint8_t le[sizeof tiny_symbols];
    for (size_t i = 0; i < TINY_SYMBOLS; i++)
        for (int b = 0; b < 4; b++) le[4 * i + b] = (uint8_t)((uint32_t)tiny_symbols[i] >> (8 * b));
    wai_blake3_oneshot(le, sizeof le, out);
}

/* B4 in float64: the reference's own rounding. */
static int rgb8_ref(double v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    return (int)floor(v * 255 + 0.5);
}

static void test_decode(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    result r;
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(r.st == WAI_ok && r.has_output && r.width == TINY_W && r.height == TINY_H,
              "status %s", wai_status_name(r.st));
    const wai_webnn_backend_stats after = stats(&b);
    CHECK(after.contexts == 1 && after.graphs == 1 && after.runs == 1);
    CHECK_MSG(strstr(r.report, "\"ran\": {\"unit\": \"cpu\", \"backend\": \"webnn\", "
                               "\"arithmetic\": \"float\", \"tier\": \"none\", "
                               "\"placement\": null}") &&
                  strstr(r.report, "\"needed\": \"none\""),
              "report %s", r.report);
    /* The float64 reference, within one level (and mostly exact). */
    const float *w = b.weights, *bias = b.weights + TINY_M * 3 * TINY_K * TINY_K;
    int worst = 0, exact = 0;
    for (int y = 0; y < TINY_H; y++)
        for (int x = 0; x < TINY_W; x++)
            for (int o = 0; o < 3; o++) {
                double s = bias[o];
                for (int c = 0; c < TINY_M; c++) {
                    double lat =
                        (double)tiny_symbols[(c * TINY_LH + y / TINY_K) * TINY_LW + x / TINY_K] +
                        tiny_medians[c];
                    s += (double)w[((c * 3 + o) * TINY_K + y % TINY_K) * TINY_K + x % TINY_K] * lat;
                }
                int want = rgb8_ref(1 / (1 + exp(-s))), got = r.rgb[(y * TINY_W + x) * 3 + o];
                int d = abs(want - got);
                if (d > worst) worst = d;
                exact += d == 0;
            }
    CHECK_MSG(worst <= 1 && exact >= TINY_H * TINY_W * 3 * 99 / 100, "worst %d, exact %d of %d",
              worst, exact, TINY_H * TINY_W * 3);
    /* The symbols: the digest of the encoder's, three ways. */
    uint8_t want[32], got[32];
    symbols_blake3(want);
    CHECK(r.has_digest && memcmp(r.digest, want, 32) == 0);
    CHECK(wai_symbols_digest(b.ctx, CAP, b.set, b.payload, b.len, got) == WAI_ok &&
          memcmp(got, want, 32) == 0);
    int32_t s[TINY_SYMBOLS + 1];
    size_t n = 0;
    CHECK(wai_entropy_symbols(b.ctx, CAP, b.set, b.payload, b.len, NULL, 0, &n) == WAI_ok &&
          n == TINY_SYMBOLS);
    CHECK(wai_entropy_symbols(b.ctx, CAP, b.set, b.payload, b.len, s, TINY_SYMBOLS, &n) == WAI_ok &&
          memcmp(s, tiny_symbols, sizeof tiny_symbols) == 0);
    n = 0;
    CHECK(wai_entropy_symbols(b.ctx, CAP, b.set, b.payload, b.len, s, 3, &n) ==
              WAI_invalid_argument &&
          n == TINY_SYMBOLS);
    CHECK(wai_entropy_symbols(b.ctx, CAP, b.set, b.payload, b.len, s, 0, NULL) ==
          WAI_invalid_argument);
    /* No network ran for them. */
    CHECK(stats(&b).runs == after.runs);
    /* A capability with no entropy stage of its own. */
    CHECK(wai_symbols_digest(b.ctx, "wai.neural.int_hyper", b.set, b.payload, b.len, got) ==
          WAI_unsupported_capability);
    close_bset(&b);
}

/* B3: the cost from the tables' per-position figures. */
static void test_cost(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    wai_cost c;
    CHECK(wai_declared_cost_set(b.ctx, CAP, b.set, b.payload, b.len, &c) == WAI_ok);
    const uint64_t pos = TINY_LH * TINY_LW, out = 3 * TINY_H * TINY_W;
    CHECK(c.output_bytes == out && c.entropy_steps == TINY_M * pos &&
          c.macs == TINY_MACS_PP * pos &&
          c.working_bytes == out + 4 * TINY_M * pos + TINY_WORK_PP * pos);
    CHECK(wai_declared_cost(CAP, b.payload, b.len, &c) == WAI_set_incomplete);
    /* A limit under the declared memory refuses before any symbol. */
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP;
    cfg.set = b.set;
    cfg.max_memory = out + 4 * TINY_M * pos + TINY_WORK_PP * pos - 1;
    wai_decoder *d;
    if (CHECK(wai_decoder_create(b.ctx, &cfg, &d) == WAI_ok)) {
        CHECK(wai_decoder_send(d, b.payload, b.len, NULL) == WAI_cost_over_limit);
        uint8_t dg[32];
        CHECK(!wai_decoder_symbols_digest(d, dg));
        wai_decoder_destroy(d);
    }
    CHECK(stats(&b).contexts == 0 && stats(&b).runs == 0);
    close_bset(&b);
}

static void tables_refused(bset *b, const char *tables, const char *why) {
    char keep[sizeof b->tables];
    memcpy(keep, b->tables, sizeof keep);
    snprintf(b->tables, sizeof b->tables, "%s", tables);
    result r;
    if (make_set(b, 7)) {
        decode(b, b->payload, b->len, NULL, &r);
        CHECK_MSG(r.st == WAI_model_mismatch && !r.has_output, "%s: %s", why,
                  wai_status_name(r.st));
    }
    memcpy(b->tables, keep, sizeof keep);
    make_set(b, 7);
}

/* B2: every rule of the tables is model_mismatch. */
static void test_tables_refused(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    char t[1024];
    tiny_tables(t, sizeof t, "wai-bmshj2018-tables/2", TINY_M, tiny_bits_of(tiny_medians[1]));
    tables_refused(&b, t, "kind");
    tiny_tables(t, sizeof t, "wai-bmshj2018-tables/1", 3, tiny_bits_of(tiny_medians[1]));
    tables_refused(&b, t, "channels not the lists'");
    tiny_tables(t, sizeof t, "wai-bmshj2018-tables/1", TINY_M, 0x7fc00000u);
    tables_refused(&b, t, "a NaN median");
    tiny_tables(t, sizeof t, "wai-bmshj2018-tables/1", TINY_M, 0x7f800000u);
    tables_refused(&b, t, "an infinite median");
    char *at = strstr(b.tables, "65536");
    snprintf(t, sizeof t, "%.*s65535%s", (int)(at - b.tables), b.tables, at + 5);
    tables_refused(&b, t, "a table not ending at 2^16");
    at = strstr(b.tables, "4096");
    snprintf(t, sizeof t, "%.*s0%s", (int)(at - b.tables), b.tables, at + 4);
    tables_refused(&b, t, "a symbol of no count");
    at = strstr(b.tables, "\"offsets\": [-2");
    snprintf(t, sizeof t, "%.*s\"offsets\": [-2.5%s", (int)(at - b.tables), b.tables, at + 14);
    tables_refused(&b, t, "an offset not an integer");
    snprintf(t, sizeof t, "%.*s, \"extra\": 1}", (int)strlen(b.tables) - 1, b.tables);
    tables_refused(&b, t, "a member the reader does not know");
    tables_refused(&b, "{\"kind\": \"wai-bmshj2018-tables/1\"", "not JSON");
    tables_refused(&b, "[]", "not an object");
    /* The payload's channels are the set's. */
    uint8_t p[sizeof b.payload];
    memcpy(p, b.payload, b.len);
    p[16] = 3;
    result r;
    decode(&b, p, b.len, NULL, &r);
    CHECK(r.st == WAI_model_mismatch && !r.has_output);
    /* No tables: the set is incomplete. */
    if (make_set(&b, 6)) {
        decode(&b, b.payload, b.len, NULL, &r);
        CHECK(r.st == WAI_set_incomplete && !r.has_output);
    }
    close_bset(&b);
}

/* §4 step 2 and 3 on the set's program: absent, of another shape, failing
 * to build; each refuses cpu/webnn and nothing else runs it. */
static void test_program_refused(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    result r;
    static const char webnn_reason[] =
        "{\"unit\": \"cpu\", \"backend\": \"webnn\", \"arithmetic\": \"float\", "
        "\"reason\": ";
    char want[256];
    for (int members = 1; members <= 5; members += 4) { /* no program; no weights */
        if (!make_set(&b, members == 1 ? 5 : 3)) continue;
        decode(&b, b.payload, b.len, NULL, &r);
        snprintf(want, sizeof want, "%s\"dispatch_program_absent\"}", webnn_reason);
        CHECK_MSG(r.st != WAI_ok && !r.has_output && strstr(r.report, want) &&
                      strstr(r.report, "\"ran\": null"),
                  "%s: report %s", wai_status_name(r.st), r.report);
    }
    tiny_program(b.program, sizeof b.program, 3, "sigmoid");
    if (make_set(&b, 7)) {
        decode(&b, b.payload, b.len, NULL, &r);
        snprintf(want, sizeof want, "%s\"dispatch_shape_mismatch\"}", webnn_reason);
        CHECK_MSG(r.st != WAI_ok && !r.has_output && strstr(r.report, want), "report %s", r.report);
    }
    /* A program WebNN refuses to build: the backend failed, the next path
     * is asked (ONNX Runtime: absent here) and no output comes. */
    tiny_program(b.program, sizeof b.program, TINY_M, "relu6");
    if (make_set(&b, 7)) {
        decode(&b, b.payload, b.len, NULL, &r);
        snprintf(want, sizeof want, "%s\"dispatch_backend_failed\"}", webnn_reason);
        CHECK_MSG(r.st != WAI_ok && !r.has_output && strstr(r.report, want) &&
                      strstr(r.report, "\"backend\": \"onnx-runtime\", \"arithmetic\": \"float\", "
                                       "\"reason\": \"dispatch_unit_absent\""),
                  "report %s", r.report);
        /* It was tried: a context made for it, no graph built. */
        CHECK(stats(&b).contexts == 1 && stats(&b).graphs == 0 && stats(&b).runs == 0);
    }
    close_bset(&b);
}

/* The stream: cut short, or with bytes past the symbols' end. */
static void test_stream_refused(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    const size_t slen = b.len - 32;
    uint8_t p[sizeof b.payload + 4], stream[sizeof b.payload];
    memcpy(stream, b.payload + 32, slen);
    result r;
    size_t n = tiny_payload(p, TINY_M, stream, slen - 4);
    decode(&b, p, n, NULL, &r);
    CHECK_MSG(r.st != WAI_ok && wai_status_kind_of(r.st) == WAI_KIND_PAYLOAD && !r.has_output,
              "cut: %s", wai_status_name(r.st));
    memset(stream + slen, 0, 4);
    n = tiny_payload(p, TINY_M, stream, slen + 4);
    decode(&b, p, n, NULL, &r);
    CHECK_MSG(r.st != WAI_ok && wai_status_kind_of(r.st) == WAI_KIND_PAYLOAD && !r.has_output,
              "longer: %s", wai_status_name(r.st));
    /* A refused stream never reaches the synthesis. */
    CHECK(stats(&b).contexts == 0 && stats(&b).runs == 0);
    close_bset(&b);
}

/* §3: a decode that needs decode-equivalence refuses every float path
 * before any context is created, whether by intent or by pin. */
static void test_replicate_refused(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    result r;
    wai_dispatch_options opt;
    for (int by_pin = 0; by_pin < 2; by_pin++) {
        wai_dispatch_options_default(&opt);
        if (by_pin)
            opt.pin_tier = "decode-equivalence";
        else
            opt.intent = "replicate";
        decode(&b, b.payload, b.len, &opt, &r);
        CHECK_MSG(r.st == WAI_not_dispatchable && !r.has_output, "%s", wai_status_name(r.st));
        CHECK_MSG(stats(&b).contexts == 0, "a context was created (%llu)",
                  (unsigned long long)stats(&b).contexts);
        CHECK_MSG(strstr(r.report, "\"needed\": \"decode-equivalence\", \"ran\": null") &&
                      strstr(r.report,
                             "{\"unit\": \"cpu\", \"backend\": \"webnn\", \"arithmetic\": "
                             "\"float\", \"reason\": \"dispatch_tier_refused\"}"),
                  "report %s", r.report);
    }
    /* The same decode without the need runs (the counter does count). */
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK(r.st == WAI_ok && stats(&b).contexts == 1);
    close_bset(&b);
}

/* Work done once: ten decodes on one context and set build one graph on
 * one ML context; a set whose program differs builds its own; the same
 * program in another set object is the same program; a context whose
 * cache keeps nothing builds it every time. */
static void test_graph_built_once(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    result r, first;
    decode(&b, b.payload, b.len, NULL, &first);
    for (int i = 1; i < 10; i++) {
        decode(&b, b.payload, b.len, NULL, &r);
        CHECK(r.st == WAI_ok && memcmp(r.rgb, first.rgb, sizeof r.rgb) == 0);
    }
    wai_webnn_backend_stats s = stats(&b);
    CHECK_MSG(s.contexts == 1 && s.graphs == 1 && s.runs == 10,
              "%llu contexts, %llu graphs, %llu runs", (unsigned long long)s.contexts,
              (unsigned long long)s.graphs, (unsigned long long)s.runs);
    /* A new set object of the same bytes: the same loaded set and program. */
    if (make_set(&b, 7)) decode(&b, b.payload, b.len, NULL, &r);
    CHECK(r.st == WAI_ok && stats(&b).graphs == 1 && stats(&b).runs == 11);
    /* Another program (a bias of its own) with the same tables. */
    b.weights[TINY_WEIGHTS - 1] += 0.25f;
    if (make_set(&b, 7)) decode(&b, b.payload, b.len, NULL, &r);
    CHECK(r.st == WAI_ok && stats(&b).graphs == 2 && memcmp(r.rgb, first.rgb, sizeof r.rgb) != 0);
    close_bset(&b);
    /* A cache that keeps nothing keeps no program either. */
    memset(&b, 0, sizeof b);
    wai_settings st;
    wai_settings_default(&st);
    st.set_cache_budget = 0;
    if (CHECK(wai_context_create(&st, &b.ctx) == WAI_ok) &&
        CHECK(wai_context_add_backend(b.ctx, wai_webnn_backend()) == WAI_ok)) {
        tiny_weights(b.weights);
        tiny_tables(b.tables, sizeof b.tables, "wai-bmshj2018-tables/1", TINY_M,
                    tiny_bits_of(tiny_medians[1]));
        tiny_program(b.program, sizeof b.program, TINY_M, "sigmoid");
        b.len = tiny_encoded_payload(b.payload, sizeof b.payload);
        if (make_set(&b, 7))
            for (int i = 0; i < 3; i++) decode(&b, b.payload, b.len, NULL, &r);
        CHECK(r.st == WAI_ok && stats(&b).graphs == 3 && stats(&b).contexts == 1);
    }
    close_bset(&b);
}

/* The float path within max_memory (docs/neural-decodes.md): the graph
 * (constants, activations) and the run's tensors get what the limit leaves
 * beside the symbols and the picture; past it cost_over_limit, a constant
 * refused before it is allocated, a kept graph held to each decode's limit. */
static size_t g_largest;
static void *noting_alloc(void *o, size_t n) {
    (void)o;
    if (n > g_largest) g_largest = n;
    return malloc(n);
}
static void noting_free(void *o, void *p) {
    (void)o;
    free(p);
}

static void test_graph_within_memory(void) {
    wai_settings st;
    wai_settings_default(&st);
    st.allocator = (wai_allocator){noting_alloc, noting_free, NULL};
    bset b;
    if (!open_bset_with(&b, &st)) return close_bset(&b);
    wai_cost c;
    if (!CHECK(wai_declared_cost_set(b.ctx, CAP, b.set, b.payload, b.len, &c) == WAI_ok))
        return close_bset(&b);
    /* The tiny set declares 4567 bytes a position (18 KB), under what its
     * float graph holds (about 55 KB): at the declared limit the float path
     * is over, with 1 MiB more it runs. */
    const uint64_t declared = c.working_bytes;
    result r;
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK(r.st == WAI_ok && stats(&b).graphs == 1 && stats(&b).runs == 1);
    decode_within(&b, b.payload, b.len, NULL, declared, &r);
    /* The path ran (D9: a run's own status ends the choice), and said no. */
    CHECK_MSG(r.st == WAI_cost_over_limit && !r.has_output &&
                  strstr(r.report, "\"ran\": {\"unit\": \"cpu\", \"backend\": \"webnn\""),
              "%s: %s", wai_status_name(r.st), r.report);
    CHECK(stats(&b).graphs == 1 && stats(&b).runs == 1);
    decode_within(&b, b.payload, b.len, NULL, declared + (1u << 20), &r);
    CHECK(r.st == WAI_ok && stats(&b).graphs == 1 && stats(&b).runs == 2);
    /* A program with a 16 MiB constant it never reads (a fill: a few bytes
     * of description): refused with 8 MiB to spare before its buffer. */
    char *at = strstr(b.program, "\"constants\": {");
    if (!CHECK(at)) return close_bset(&b);
    char tail[sizeof b.program];
    snprintf(tail, sizeof tail, "%s", at + strlen("\"constants\": {"));
    snprintf(at, sizeof b.program - (size_t)(at - b.program),
             "\"constants\": {\"big\": {\"dataType\": \"float32\", \"shape\": [1, 1, 2048, "
             "2048], \"data\": [0.5], \"fill\": true}, %s",
             tail);
    if (!make_set(&b, 7)) return close_bset(&b);
    g_largest = 0;
    decode_within(&b, b.payload, b.len, NULL, declared + (8u << 20), &r);
    CHECK_MSG(r.st == WAI_cost_over_limit && g_largest < (1u << 20), "%s, largest %zu",
              wai_status_name(r.st), g_largest);
    CHECK(stats(&b).graphs == 1);
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(r.st == WAI_ok && g_largest >= (16u << 20) && stats(&b).graphs == 2,
              "%s, largest %zu", wai_status_name(r.st), g_largest);
    close_bset(&b);
}

/* Everything the float path allocates counts against the limit, kernels'
 * included (docs/neural-decodes.md): oneDNN's layout memories and
 * scratchpads, a band's scratch, the reference's accumulators and copies.
 * At the least limit at which a first decode runs (graph built, kernels'
 * state made), the decode peaks within that limit plus the decode's own
 * bookkeeping; one byte less is cost_over_limit, from the path that ran. */
static harness_alloc g_heap;

/* A first decode within max_memory, on a context and set of its own; the
 * bytes it held at its peak beyond what was live before it. */
static wai_status first_decode_within(uint64_t max_memory, size_t *peak, result *r) {
    wai_settings st;
    wai_settings_default(&st);
    st.allocator = harness_allocator(&g_heap);
    bset b;
    wai_status out = WAI_invalid_argument;
    if (open_bset_with(&b, &st)) {
        const size_t before = g_heap.bytes_now;
        g_heap.bytes_peak = before;
        decode_within(&b, b.payload, b.len, NULL, max_memory, r);
        *peak = g_heap.bytes_peak - before;
        out = r->st;
    }
    close_bset(&b);
    return out;
}

#define BOOKKEEPING (64u << 10) /* the decoder's, the report's, the ML context's */

static void test_float_peak_within_limit(void) {
    static result r;
    size_t peak;
    uint64_t lo = 0, hi = 64u << 20;
    if (!CHECK(first_decode_within(hi, &peak, &r) == WAI_ok)) return;
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        const wai_status st = first_decode_within(mid, &peak, &r);
        if (!CHECK_MSG(st == WAI_ok || st == WAI_cost_over_limit, "%s", wai_status_name(st)))
            return;
        *(st == WAI_ok ? &hi : &lo) = mid;
    }
    CHECK(first_decode_within(lo, &peak, &r) == WAI_cost_over_limit &&
          strstr(r.report, "\"ran\": {\"unit\": \"cpu\", \"backend\": \"webnn\""));
    CHECK(first_decode_within(hi, &peak, &r) == WAI_ok);
    CHECK_MSG(peak <= hi + BOOKKEEPING, "limit %llu, peak %zu",
              (unsigned long long)hi, peak);
    printf("float path: least limit %llu bytes, first decode's peak %zu\n",
           (unsigned long long)hi, peak);
    CHECK(g_heap.bytes_now == 0 && g_heap.live == 0);
}

/* ---- a backend of the test's own, plugged in --------------------------------- */

typedef struct fake {
    int opened, closed, runs;
    wai_status program, run;
    wai_placement plan;
} fake;

static fake the_fake;

static wai_status fake_create(wai_context *ctx, void **self) {
    (void)ctx;
    *self = &the_fake;
    return WAI_ok;
}
static wai_status fake_open(void *self, const wai_set *set, const wai_capability *cap,
                            void **program) {
    (void)set, (void)cap;
    fake *f = self;
    if (f->program != WAI_ok) return f->program;
    f->opened++;
    *program = f;
    return WAI_ok;
}
static void fake_close(void *self, void *program) {
    (void)program;
    ((fake *)self)->closed++;
}
static wai_status fake_plan(void *self, void *program, const wai_latent_job *job,
                            wai_placement *out) {
    (void)program, (void)job;
    *out = ((fake *)self)->plan;
    return WAI_ok;
}
/* A flat grey picture, or the failure asked for. */
static wai_status fake_run(void *self, void *program, wai_latent_job *job) {
    (void)program;
    fake *f = self;
    f->runs++;
    if (f->run != WAI_ok) return f->run;
    CHECK(job->symbols && job->rgb && job->channels == TINY_M);
    memset(job->rgb, 128, (size_t)job->picture_width * job->picture_height * 3);
    return WAI_ok;
}
static const char *const fake_members[] = {"decoder.webnn.json", NULL};
static const wai_backend_ops fake_gpu = {
    .name = "fake",
    .path = {WAI_UNIT_GPU, WAI_BACKEND_WEBNN, WAI_ARITHMETIC_FLOAT},
    .program_members = fake_members,
    .create = fake_create,
    .program_open = fake_open,
    .program_close = fake_close,
    .plan = fake_plan,
    .run = fake_run,
};

static void test_plugged_backend(void) {
    bset b;
    if (!open_bset(&b)) return close_bset(&b);
    memset(&the_fake, 0, sizeof the_fake);
    CHECK(wai_context_add_backend(b.ctx, &fake_gpu) == WAI_ok);
    CHECK(wai_context_backend(b.ctx, &fake_gpu) == &the_fake);
    result r;
    /* It runs the GPU's path, before the CPU's. */
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(r.st == WAI_ok && r.has_output && r.rgb[0] == 128 &&
                  strstr(r.report, "\"ran\": {\"unit\": \"gpu\", \"backend\": \"webnn\""),
              "report %s", r.report);
    CHECK(the_fake.opened == 1 && the_fake.runs == 1 && stats(&b).runs == 0);
    /* Its run fails: backend_failed, and the CPU's WebNN runs it. */
    the_fake.run = WAI_dispatch_backend_failed;
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(r.st == WAI_ok && r.rgb[0] != 128 && stats(&b).runs == 1 &&
                  strstr(r.report, "{\"unit\": \"gpu\", \"backend\": \"webnn\", \"arithmetic\": "
                                   "\"float\", \"reason\": \"dispatch_backend_failed\"}"),
              "report %s", r.report);
    CHECK(the_fake.opened == 1); /* its program kept with the set */
    /* Its plan puts nothing on the GPU: not placed. */
    the_fake.run = WAI_ok;
    the_fake.plan = (wai_placement){1, 0, 0, 3, 0};
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(r.st == WAI_ok && strstr(r.report, "\"reason\": \"dispatch_not_placed\""), "report %s",
              r.report);
    /* A plan with some of it there is the report's placement. */
    the_fake.plan = (wai_placement){1, 0, 2, 1, 0};
    decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(strstr(r.report, "\"placement\": {\"npu\": 0, \"gpu\": 2, \"cpu\": 1, "
                               "\"unknown\": 0}"),
              "report %s", r.report);
    /* A set it finds no program in: program_absent (its member missing). */
    if (make_set(&b, 5)) decode(&b, b.payload, b.len, NULL, &r);
    CHECK_MSG(strstr(r.report, "{\"unit\": \"gpu\", \"backend\": \"webnn\", \"arithmetic\": "
                               "\"float\", \"reason\": \"dispatch_program_absent\"}"),
              "report %s", r.report);
    /* The members the context's backends read for the capability, each once. */
    const wai_capability *cap = wai_capability_find(CAP);
    CHECK(strcmp(wai_context_program_member(b.ctx, cap, 0), "decoder.webnn.json") == 0 &&
          strcmp(wai_context_program_member(b.ctx, cap, 1), "decoder.f32") == 0 &&
          wai_context_program_member(b.ctx, cap, 2) == NULL);
    CHECK(wai_context_program_member(b.ctx, wai_capability_find("wai.neural.int_hyper"), 0) ==
          NULL);
    /* What a context will not take. */
    CHECK(wai_context_add_backend(b.ctx, &fake_gpu) == WAI_invalid_argument); /* its path again */
    wai_backend_ops bad = fake_gpu;
    bad.path = (wai_path){WAI_UNIT_NPU, WAI_BACKEND_MODEL_RUNTIME, WAI_ARITHMETIC_FLOAT};
    bad.run = NULL;
    CHECK(wai_context_add_backend(b.ctx, &bad) == WAI_invalid_argument);
    bad.run = fake_run;
    bad.reserved[0] = &bad;
    CHECK(wai_context_add_backend(b.ctx, &bad) == WAI_invalid_argument);
    bad.reserved[0] = NULL;
    bad.path = (wai_path){WAI_UNIT_GPU, WAI_BACKEND_WGSL, WAI_ARITHMETIC_INTEGER};
    CHECK(wai_context_add_backend(b.ctx, &bad) == WAI_invalid_argument);
    CHECK(wai_context_add_backend(NULL, &fake_gpu) == WAI_invalid_argument);
    CHECK(wai_context_backend(b.ctx, &bad) == NULL);
    close_bset(&b);
    /* Its programs closed with the context's cache. */
    CHECK(the_fake.closed == the_fake.opened);
}

void suite_bmshj2018(void) {
    harness_run("bmshj2018_decode", test_decode);
    harness_run("bmshj2018_cost", test_cost);
    harness_run("bmshj2018_tables_refused", test_tables_refused);
    harness_run("bmshj2018_program_refused", test_program_refused);
    harness_run("bmshj2018_stream_refused", test_stream_refused);
    harness_run("bmshj2018_replicate_refused", test_replicate_refused);
    harness_run("bmshj2018_graph_built_once", test_graph_built_once);
    harness_run("bmshj2018_graph_within_memory", test_graph_within_memory);
    harness_run("bmshj2018_float_peak_within_limit", test_float_peak_within_limit);
    harness_run("bmshj2018_plugged_backend", test_plugged_backend);
}
