/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: wai.neural.int_synth (integer-payloads §13, docs/int_synth.md),
 * its set and its payload together.
 *
 * Input: u16 LE n, then n bytes of int_synth.json, then the payload.
 *
 * Invariants: a decode is ok or refused with payload_malformed (any fault
 * of the payload, the set or the plan), cost_over_limit (the work and
 * memory limits below), or out_of_memory past the heap's ceiling; never a
 * crash, an overflow (UBSan) or a leak. An ok decode outputs one image of
 * 3·H·W bytes, the size its header names, and its declared cost is the
 * cost query's. */
#include <string.h>

#include "capped_heap.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP "wai.neural.int_synth"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t n = (size_t)data[0] | (size_t)data[1] << 8;
    if (n > size - 2) n = size - 2;
    const uint8_t *json = data + 2, *payload = data + 2 + n;
    const size_t len = size - 2 - n;
    fuzz_heap h = {0, (size_t)96 << 20};
    wai_settings st;
    wai_settings_default(&st);
    st.allocator = fuzz_heap_allocator(&h);
    st.n_threads = 1;
    wai_context *ctx;
    if (wai_context_create(&st, &ctx) != WAI_ok) return 0;
    wai_set *set;
    if (wai_set_create(ctx, &set) != WAI_ok) __builtin_trap();
    if (wai_set_add(set, "int_synth.json", json, n) == WAI_ok) {
        wai_decoder_config c;
        wai_decoder_config_default(&c);
        c.capability = CAP;
        c.set = set;
        /* A fast input: 2 M multiply-adds, above every seed (one declares
         * between 1 M and 2 M). It was 20 M, and the campaign's corpus
         * drifts to the limit (libFuzzer counts a loop's trips as
         * coverage): 2 M is about 100 ms an input here. */
        c.max_cost = 2000000;
        c.max_memory = 32u << 20;
        wai_decoder *d;
        if (wai_decoder_create(ctx, &c, &d) != WAI_ok) __builtin_trap();
        wai_cost cost, query;
        wai_status s = wai_decoder_send(d, payload, len, &cost);
        if (s != WAI_ok && s != WAI_payload_malformed && s != WAI_cost_over_limit &&
            s != WAI_out_of_memory)
            __builtin_trap();
        if (s == WAI_ok) {
            wai_output o;
            if (wai_decoder_receive(d, &o) != WAI_ok || o.kind != WAI_OUTPUT_IMAGE ||
                o.size != (size_t)3 * o.width * o.height || o.width != o.height)
                __builtin_trap();
            if (wai_declared_cost_set(ctx, CAP, set, payload, len, &query) == WAI_ok &&
                memcmp(&query, &cost, sizeof cost) != 0)
                __builtin_trap();
        }
        wai_decoder_destroy(d);
    }
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    if (h.live != 0) __builtin_trap();
    return 0;
}
