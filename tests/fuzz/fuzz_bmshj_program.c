/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: a bmshj2018 set's program members read through a set and run
 * (wai_webnn_program_open, the native WebNN's graph description reader and
 * its weights), with the tiny set of tests/gen/bmshj_tiny.h around them.
 *
 * Input: byte 0 picks the member the rest replaces (even: decoder.webnn.json,
 * odd: decoder.f32); a tiny encoded payload is decoded against the set.
 *
 * Invariants: the decode ends ok with the picture its header names, or
 * refused with no output, a dispatch refusal reported path by path
 * (not_dispatchable) and never a crash; the symbols digest is the same
 * whatever the program (the entropy stage reads no program). */
#include <string.h>

#include "capped_heap.h"
#include "gen/bmshj_tiny.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"
#include "wai/wai_ml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) __builtin_trap();
}

static wai_status decode(wai_context *ctx, const wai_set *set, const uint8_t *p, size_t n,
                         uint8_t digest[32], int *has_digest, wai_output *o, int *has) {
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.neural.bmshj2018";
    cfg.set = set;
    cfg.max_memory = (uint64_t)1 << 24;
    wai_decoder *d;
    require(wai_decoder_create(ctx, &cfg, &d) == WAI_ok);
    wai_status s = wai_decoder_send(d, p, n, NULL);
    *has = wai_decoder_receive(d, o) == WAI_ok && o->kind != WAI_OUTPUT_NONE;
    *has_digest = wai_decoder_symbols_digest(d, digest);
    if (s == WAI_not_dispatchable) {
        const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
        require(r && !r->ran && r->n_refused > 0);
    }
    wai_decoder_destroy(d);
    return s;
}

/* The set with member `which` (0: decoder.webnn.json, 1: decoder.f32)
 * replaced by bytes (none: the tiny set as written). */
static wai_set *tiny_set(wai_context *ctx, int which, const uint8_t *bytes, size_t n) {
    static char tables[1024], program[2048];
    static float weights[TINY_WEIGHTS];
    if (!tables[0]) {
        tiny_tables(tables, sizeof tables, "wai-bmshj2018-tables/1", TINY_M,
                    tiny_bits_of(tiny_medians[1]));
        tiny_program(program, sizeof program, TINY_M, "sigmoid");
        tiny_weights(weights);
    }
    int mine = bytes && which == 0, theirs = bytes && which == 1;
    wai_set *s;
    require(wai_set_create(ctx, &s) == WAI_ok);
    require(wai_set_add(s, "cdfs_q3.json", (const uint8_t *)tables, strlen(tables)) == WAI_ok);
    require(wai_set_add(s, "decoder.webnn.json", mine ? bytes : (const uint8_t *)program,
                        mine ? n : strlen(program)) == WAI_ok);
    require(wai_set_add(s, "decoder.f32", theirs ? bytes : (const uint8_t *)weights,
                        theirs ? n : sizeof weights) == WAI_ok);
    return s;
}

/* A context on the capped heap when h is given. A description may declare
 * a constant filled with one value over WebNN's largest shape (8 GB): the
 * decode's max_memory (16 MiB) holds the float graph too, so that is
 * cost_over_limit before the constant is allocated; the heap's ceiling
 * stays behind it (out_of_memory, as on a small device, never libFuzzer's
 * out-of-memory). */
static wai_context *new_context(fuzz_heap *h) {
    wai_settings st;
    wai_settings_default(&st);
    if (h) st.allocator = fuzz_heap_allocator(h);
    st.n_threads = 1;
    wai_context *ctx;
    require(wai_context_create(&st, &ctx) == WAI_ok);
    require(wai_context_add_backend(ctx, wai_webnn_backend()) == WAI_ok);
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    /* The tiny set's own decode, once: its answer is the same for every
     * input, and decoding it again each time was a third of the target's
     * time. */
    static uint8_t payload[4096], dg[32];
    static size_t payload_len;
    static uint32_t width, height;
    if (!payload_len) {
        payload_len = tiny_encoded_payload(payload, sizeof payload);
        require(payload_len > 0);
        wai_context *ctx = new_context(NULL);
        wai_set *good = tiny_set(ctx, 0, NULL, 0);
        int hd, has;
        wai_output o;
        require(decode(ctx, good, payload, payload_len, dg, &hd, &o, &has) == WAI_ok && has && hd);
        width = o.width, height = o.height;
        wai_set_destroy(good);
        wai_context_destroy(ctx);
    }
    fuzz_heap heap = {0, (size_t)256 << 20};
    wai_context *ctx = new_context(&heap);
    wai_set *bad = tiny_set(ctx, data[0] & 1, data + 1, size - 1);
    uint8_t dg2[32];
    int hd2, has2;
    wai_output o2;
    wai_status s = decode(ctx, bad, payload, payload_len, dg2, &hd2, &o2, &has2);
    if (s == WAI_ok) require(has2 && o2.width == width && o2.height == height);
    else require(!has2);
    if (hd2) require(memcmp(dg, dg2, 32) == 0);
    wai_set_destroy(bad);
    wai_context_destroy(ctx);
    require(heap.live == 0);
    return 0;
}
