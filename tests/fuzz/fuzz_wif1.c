/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: a stream of WIF1 frames decoded in order through one
 * wai.video.int_motion.frame decoder, with a cost limit.
 *
 * Input: frames one after another, each a 2-byte little-endian length and
 * that many bytes (the last one cut to what remains).
 *
 * Invariants: a refused frame outputs nothing and the outputs' indices run
 * on; a frame the parser refuses is refused with the parser's code (R7);
 * after any refusal, or before any intra frame, an inter frame that parses
 * is field_range until an intra frame decodes; an inter frame of another
 * size than its group is geometry_mismatch; a run of decoded frames from an
 * intra frame, joined into a clip, decodes to the same frames (§16); the
 * stream decodes on one thread, the joined clip on every core. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fuzz_context.h"
#include "wai/wai_write.h"
#include "formats/wif1.h"
#include "wai/wai_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_COST ((uint64_t)1 << 20)
#define MAX_FRAMES 64
#define MAX_GROUP_BYTES ((size_t)1 << 22)

typedef struct group {
    wai_payload frames[MAX_FRAMES];
    uint8_t *out;        /* their decoded frames, one after another */
    size_t frame_bytes;
    uint32_t n;
    int joinable;        /* one block size and precision among the inter frames */
} group;

/* A closed group of decoded frames, joined, decodes as a clip to the same. */
static void check_group(group *g) {
    if (g->n == 0 || !g->joinable) goto reset;
    uint8_t *clip;
    size_t len;
    wai_status st = wai_wif1_join(NULL, g->frames, g->n, &clip, &len);
    if (st == WAI_too_large) goto reset; /* a clip cap that no single frame meets */
    if (st != WAI_ok) __builtin_trap();
    wai_context *ctx;
    wai_decoder *d;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_motion";
    ctx = fuzz_held_context(0);
    if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) __builtin_trap();
    if (wai_decoder_send(d, clip, len, NULL) != WAI_ok) __builtin_trap();
    wai_output o;
    for (uint32_t i = 0; i < g->n; i++) {
        if (wai_decoder_receive(d, &o) != WAI_ok || o.kind != WAI_OUTPUT_FRAME ||
            o.size != g->frame_bytes || memcmp(o.data, g->out + i * g->frame_bytes, o.size) != 0)
            __builtin_trap();
    }
    if (wai_decoder_receive(d, &o) != WAI_ok || o.kind != WAI_OUTPUT_NONE) __builtin_trap();
    wai_decoder_destroy(d);
    wai_free(NULL, clip);
reset:
    free(g->out);
    g->out = NULL;
    g->n = 0;
    g->joinable = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_context *ctx;
    wai_decoder *d;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = "wai.video.int_motion.frame";
    cfg.max_cost = MAX_COST;
    ctx = fuzz_held_context(1);
    if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) __builtin_trap();
    group g = {0};
    g.joinable = 1;
    int open = 0;              /* a group is open: the last frame decoded */
    uint32_t gh = 0, gw = 0;   /* its size */
    uint64_t n_outputs = 0;
    size_t at = 0;
    for (int f = 0; f < MAX_FRAMES && at + 2 <= size; f++) {
        size_t len = (size_t)data[at] | (size_t)data[at + 1] << 8;
        at += 2;
        if (len > size - at) len = size - at;
        const uint8_t *p = data + at;
        at += len;

        wai_wif1 w;
        wai_status parse = wai_wif1_parse(p, len, 0, &w);
        wai_cost cost, declared;
        wai_status st = wai_decoder_send(d, p, len, &cost);
        if (wai_declared_cost("wai.video.int_motion.frame", p, len, &declared) != parse)
            __builtin_trap();
        int inter = parse == WAI_ok && w.kind == WAI_WIF1_INTER;
        if (parse != WAI_ok) {
            if (st != parse) __builtin_trap();
        } else if (inter && !open) {
            if (st != WAI_field_range) __builtin_trap();
        } else if (inter && (w.h != gh || w.w != gw)) {
            if (st != WAI_geometry_mismatch) __builtin_trap();
        } else {
            if (memcmp(&cost, &declared, sizeof cost) != 0) __builtin_trap();
            if ((st == WAI_cost_over_limit) != (wai_cost_work(&declared) > MAX_COST))
                __builtin_trap();
        }
        wai_output o;
        if (wai_decoder_receive(d, &o) != WAI_ok) __builtin_trap();
        if (st != WAI_ok) {
            if (o.kind != WAI_OUTPUT_NONE) __builtin_trap();
            open = 0;
            check_group(&g);
            continue;
        }
        if (o.kind != WAI_OUTPUT_FRAME || o.index != n_outputs++ || o.width != w.w ||
            o.height != w.h || o.size != (size_t)w.h * w.w * 3)
            __builtin_trap();
        if (!inter) {
            check_group(&g);
            open = 1;
            gh = w.h;
            gw = w.w;
        } else if (g.n >= 2) {
            wai_wif1 first;
            if (wai_wif1_parse(g.frames[1].data, g.frames[1].len, 0, &first) != WAI_ok)
                __builtin_trap();
            if (first.block != w.block || first.mv_precision != w.mv_precision) g.joinable = 0;
        }
        if ((size_t)(g.n + 1) * o.size > MAX_GROUP_BYTES) g.joinable = 0;
        if (g.joinable) {
            uint8_t *grown = realloc(g.out, (size_t)(g.n + 1) * o.size);
            if (!grown) __builtin_trap();
            g.out = grown;
            memcpy(g.out + (size_t)g.n * o.size, o.data, o.size);
            g.frame_bytes = o.size;
            g.frames[g.n].data = (uint8_t *)(uintptr_t)p;
            g.frames[g.n].len = len;
            g.n++;
        }
        if (wai_decoder_receive(d, &o) != WAI_ok || o.kind != WAI_OUTPUT_NONE) __builtin_trap();
    }
    check_group(&g);
    wai_decoder_destroy(d);
    return 0;
}
