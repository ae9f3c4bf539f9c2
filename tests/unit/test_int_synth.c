/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_synth (docs/int_synth.md) beyond its corpus fixtures: the
 * exact floor shift of every shift 0..127 against halving, the certificate
 * at its boundary through the set reader, the decode the same on 1, 2 and
 * 5 threads, and a set read under every allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "ops/synth_convt.h"
#include "sets/int_synth_json.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

static int64_t halving(int64_t v, uint32_t s) {
    for (uint32_t i = 0; i < s && v != 0 && v != -1; i++) v = v >= 0 ? v / 2 : -((-(v + 1)) / 2) - 1;
    return v;
}

static void test_floor_shift(void) {
    static const int64_t edges[] = {0, 1, -1, 2, -2, 3, -3, INT64_MAX, INT64_MIN, INT64_MIN + 1,
                                    (int64_t)1 << 62, -((int64_t)1 << 62), 12345, -12345};
    uint64_t rng = 7;
    int bad = 0;
    for (uint32_t s = 0; s <= 127 && bad < 5; s++) {
        for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
            bad += !CHECK_MSG(wai_floor_shift_i64(edges[i], s) == halving(edges[i], s),
                              "floor_shift(%lld, %u)", (long long)edges[i], s);
        for (int i = 0; i < 200; i++) {
            int64_t v = (int64_t)harness_rand(&rng);
            bad += !CHECK_MSG(wai_floor_shift_i64(v, s) == halving(v, s), "floor_shift(%lld, %u)",
                              (long long)v, s);
        }
    }
}

/* The corpus's boundary set (tests/corpus/gen_synth.c: A·S + |b| = 2^63 - 1)
 * and the same with the bias one past. */
static const char *boundary_json(int past) {
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"layers\": [{\"in_ch\": 1, \"out_ch\": 2, \"k\": 1, \"stride\": 1, \"pad\": 0,"
             " \"weight\": [16777216, 16777216], \"bias\": [0, 0]},"
             " {\"in_ch\": 2, \"out_ch\": 1, \"k\": 1, \"stride\": 1, \"pad\": 0, \"shift\": 62,"
             " \"weight\": [2147483647, -2147483648], \"bias\": [%s]},"
             " {\"in_ch\": 1, \"out_ch\": 3, \"k\": 1, \"stride\": 1, \"pad\": 0,"
             " \"weight\": [1, 1, 1], \"bias\": [0, 0, 0]}]}",
             past ? "-2147483648" : "2147483647");
    return buf;
}

static void test_certificate_boundary(void) {
    for (int past = 0; past < 2; past++) {
        const char *j = boundary_json(past);
        wai_synth_model m;
        wai_status st = wai_synth_model_read(NULL, (const uint8_t *)j, strlen(j), &m);
        CHECK_MSG(st == (past ? WAI_payload_malformed : WAI_ok), "%s: %s",
                  past ? "one past" : "at the boundary", wai_status_name(st));
        wai_synth_model_free(NULL, &m);
    }
    /* A shift of 127 on a layer leaves A at 1 (ceil of a positive bound). */
    const char *j = "{\"layers\": [{\"in_ch\": 1, \"out_ch\": 3, \"k\": 1, \"stride\": 1, \"pad\": 0,"
                    " \"shift\": 127, \"weight\": [1, 2, 3], \"bias\": [0, 0, 0]}]}";
    wai_synth_model m;
    CHECK(wai_synth_model_read(NULL, (const uint8_t *)j, strlen(j), &m) == WAI_ok);
    wai_synth_model_free(NULL, &m);
}

static int decode_with(unsigned threads, const wai_set *members_from, const uint8_t *p, size_t len,
                       uint8_t **out, size_t *out_len) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads;
    wai_context *ctx;
    if (wai_context_create(&s, &ctx) != WAI_ok) return 0;
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.capability = "wai.neural.int_synth";
    c.set = members_from;
    wai_decoder *d = NULL;
    int ok = wai_decoder_create(ctx, &c, &d) == WAI_ok && wai_decoder_send(d, p, len, NULL) == WAI_ok;
    wai_output o;
    ok = ok && wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_IMAGE;
    if (ok && (*out = malloc(o.size))) {
        memcpy(*out, o.data, o.size);
        *out_len = o.size;
    }
    wai_decoder_destroy(d);
    wai_context_destroy(ctx);
    return ok;
}

static void test_threads_agree(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    wai_set *set = corpus_set(ctx, "wai.neural.int_synth", "neural/synth/valid/three_layers_64x64");
    size_t len;
    uint8_t *p = corpus_file("neural/synth/valid/three_layers_64x64/image.bin", &len);
    uint8_t *first = NULL;
    size_t first_len = 0;
    static const unsigned threads[] = {1, 2, 5};
    for (size_t i = 0; set && p && i < 3; i++) {
        uint8_t *got = NULL;
        size_t n = 0;
        if (!CHECK_MSG(decode_with(threads[i], set, p, len, &got, &n), "%u threads", threads[i])) break;
        if (!first) first = got, first_len = n;
        else {
            CHECK_MSG(n == first_len && memcmp(got, first, n) == 0, "%u threads differ", threads[i]);
            free(got);
        }
    }
    CHECK(set && p && first);
    free(first), free(p);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
}

/* The set read with its n-th allocation failing, for every n: out of
 * memory or the full read, never a leak (harness_alloc counts). */
static void test_read_allocation_failures(void) {
    const char *j = boundary_json(0);
    int done = 0;
    for (size_t n = 1; n < 200 && !done; n++) {
        harness_alloc h;
        memset(&h, 0, sizeof h);
        h.fail_at = n;
        wai_allocator a = harness_allocator(&h);
        wai_synth_model m;
        wai_status st = wai_synth_model_read(&a, (const uint8_t *)j, strlen(j), &m);
        wai_synth_model_free(&a, &m);
        CHECK_MSG(st == WAI_ok || st == WAI_out_of_memory, "allocation %zu: %s", n, wai_status_name(st));
        CHECK_MSG(h.live == 0, "allocation %zu: %zu blocks left", n, h.live);
        done = !h.failed;
    }
    CHECK(done);
}

void suite_int_synth(void) {
    harness_run("int_synth_floor_shift", test_floor_shift);
    harness_run("int_synth_certificate_boundary", test_certificate_boundary);
    harness_run("int_synth_threads_agree", test_threads_agree);
    harness_run("int_synth_read_allocation_failures", test_read_allocation_failures);
}
