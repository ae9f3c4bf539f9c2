/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: bmshj2018's tables (cdfs_q3.json, docs/bmshj2018.md, B2)
 * with the tiny program of tests/gen/bmshj_tiny.h.
 *
 * Input: the tables' text.
 *
 * Invariants: the set loads or is refused model_mismatch (out_of_memory
 * past the heap's ceiling), never a crash; with tables that load, the
 * tiny payload's entropy stage either gives symbols (as many as the
 * header names, their digest the decoder's) or refuses with a payload
 * code, whatever the tables say. */
#include <string.h>

#include "capped_heap.h"
#include "gen/bmshj_tiny.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP "wai.neural.bmshj2018"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t payload[256];
    static size_t len;
    if (!len && !(len = tiny_encoded_payload(payload, sizeof payload))) __builtin_trap();
    fuzz_heap h = {0, (size_t)64 << 20}; /* what the text may make the loader allocate */
    wai_settings st;
    wai_settings_default(&st);
    st.allocator = fuzz_heap_allocator(&h);
    st.n_threads = 1;
    wai_context *ctx;
    if (wai_context_create(&st, &ctx) != WAI_ok) return 0;
    wai_set *set;
    if (wai_set_create(ctx, &set) != WAI_ok) __builtin_trap();
    if (wai_set_add(set, "cdfs_q3.json", data, size) != WAI_ok) {
        wai_set_destroy(set);
        wai_context_destroy(ctx);
        return 0;
    }
    wai_cost c;
    wai_status s = wai_declared_cost_set(ctx, CAP, set, payload, len, &c);
    if (s != WAI_ok && s != WAI_model_mismatch && s != WAI_out_of_memory) __builtin_trap();
    if (s == WAI_ok) {
        size_t n = 0;
        s = wai_entropy_symbols(ctx, CAP, set, payload, len, NULL, 0, &n);
        if (s != WAI_ok || n != TINY_SYMBOLS) __builtin_trap();
        int32_t sym[TINY_SYMBOLS];
        uint8_t dg[32], want[32], le[4 * TINY_SYMBOLS];
        s = wai_entropy_symbols(ctx, CAP, set, payload, len, sym, TINY_SYMBOLS, &n);
        wai_status s2 = wai_symbols_digest(ctx, CAP, set, payload, len, dg);
        if (s != s2) __builtin_trap();
        if (s == WAI_ok) {
            for (size_t i = 0; i < TINY_SYMBOLS; i++)
                for (int b = 0; b < 4; b++) le[4 * i + b] = (uint8_t)((uint32_t)sym[i] >> (8 * b));
            wai_blake3_oneshot(le, sizeof le, want);
            if (memcmp(dg, want, 32) != 0) __builtin_trap();
        } else if (wai_status_kind_of(s) != WAI_KIND_PAYLOAD && s != WAI_out_of_memory) {
            __builtin_trap();
        }
    }
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    if (h.live != 0) __builtin_trap();
    return 0;
}
