/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: B18F payloads (docs/bmshj2018.md, B1) decoded against the
 * tiny set of tests/gen/bmshj_tiny.h, on the native WebNN.
 *
 * Input: a payload.
 *
 * Invariants: the parse keeps B1's rules (lh and lw the picture's size over
 * 16, rounded up; a refusal a code of integer-payloads §2); the declared
 * cost comes before any symbol (a memory limit of 1 MiB refuses larger
 * payloads with cost_over_limit, before a WebNN context is made); a decode
 * either outputs the picture the header names, with a symbols digest equal
 * to wai_symbols_digest's, or refuses with no output. */
#include <string.h>

#include "formats/b18f.h"
#include "gen/bmshj_tiny.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"
#include "wai/wai_webnn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP "wai.neural.bmshj2018"

static wai_set *tiny_set(wai_context *ctx) {
    static char tables[1024], program[2048];
    static float weights[TINY_WEIGHTS];
    tiny_tables(tables, sizeof tables, "wai-bmshj2018-tables/1", TINY_M,
                tiny_bits_of(tiny_medians[1]));
    tiny_program(program, sizeof program, TINY_M, "sigmoid");
    tiny_weights(weights);
    wai_set *s;
    if (wai_set_create(ctx, &s) != WAI_ok ||
        wai_set_add(s, "cdfs_q3.json", (const uint8_t *)tables, strlen(tables)) != WAI_ok ||
        wai_set_add(s, "decoder.webnn.json", (const uint8_t *)program, strlen(program)) !=
            WAI_ok ||
        wai_set_add(s, "decoder.f32", (const uint8_t *)weights, sizeof weights) != WAI_ok)
        __builtin_trap();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_b18f b;
    wai_status pst = wai_b18f_parse(data, size, &b);
    if (pst == WAI_ok) {
        if (b.lh != (b.height + 15) / 16 || b.lw != (b.width + 15) / 16 || !b.m) __builtin_trap();
        if (b.stream.len + WAI_B18F_HEADER_BYTES + 4 != size) __builtin_trap();
    } else if (wai_status_kind_of(pst) != WAI_KIND_PAYLOAD) {
        __builtin_trap();
    }
    wai_settings st;
    wai_settings_default(&st);
    st.n_threads = 1;
    wai_context *ctx;
    if (wai_context_create(&st, &ctx) != WAI_ok) return 0;
    if (wai_context_add_backend(ctx, wai_webnn_backend()) != WAI_ok) __builtin_trap();
    wai_set *set = tiny_set(ctx);
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP;
    cfg.set = set;
    cfg.max_memory = (uint64_t)1 << 20;
    wai_decoder *d;
    if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) __builtin_trap();
    wai_cost cost;
    memset(&cost, 0, sizeof cost);
    wai_status s = wai_decoder_send(d, data, size, &cost);
    if (pst != WAI_ok && s != pst) __builtin_trap(); /* the parse decides first */
    wai_webnn_backend_stats made;
    if (wai_webnn_backend_stats_of(ctx, &made) != WAI_ok) __builtin_trap();
    if (s == WAI_cost_over_limit && (cost.working_bytes <= cfg.max_memory || made.contexts))
        __builtin_trap();
    wai_output o;
    int has = wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE;
    uint8_t dg[32], again[32];
    int has_digest = wai_decoder_symbols_digest(d, dg);
    if (s == WAI_ok) {
        if (!has || o.kind != WAI_OUTPUT_IMAGE || o.width != b.width || o.height != b.height ||
            o.size != (size_t)3 * b.width * b.height || !has_digest)
            __builtin_trap();
        if (wai_symbols_digest(ctx, CAP, set, data, size, again) != WAI_ok ||
            memcmp(dg, again, 32) != 0)
            __builtin_trap();
    } else if (has) {
        __builtin_trap();
    }
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    return 0;
}
