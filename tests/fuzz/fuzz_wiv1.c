/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: a WIV1 payload through the public decoder as
 * wai.video.int_motion, with the parse check and the declared cost beside
 * it; a clip that decodes is split into WIF1 frames, joined back, and its
 * frames decoded as a wai.video.int_motion.frame stream.
 *
 * The cost limit keeps huge declared clips from being decoded (they are
 * refused by cost before any symbol, N7) so each run stays fast. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fuzz_context.h"
#include "wai/wai_write.h"
#include "entropy/rans.h"
#include "formats/wiv1.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 2^18 samples: room for the two-thread pipe (src/decode/motion_pipe.c:
 * a frame of 2^16 samples or more, in chunks of 2^15 through a ring of
 * four) with a frame predicted from a piped one, or one frame that goes
 * round the ring, and for every seed (2,856 at most). At 2^20 the
 * campaign's corpus drifted to clips of 2^17 to 2^20 samples decoded from
 * a few hundred bytes (297 of its 614 inputs): the same paths, a loop's
 * trips counting as coverage only up to 128, at under 300 executions a
 * second. At 2^18 its inputs reach the same edges at 1,600 a second; at
 * 2^17 they lose two fifths of the pipe's (no second piped frame fits). */
#define MAX_COST ((uint64_t)1 << 18)
#define CAP_MOTION "wai.video.int_motion"
#define CAP_FRAME "wai.video.int_motion.frame"

typedef struct frames_out {
    uint8_t *bytes;
    size_t frame_bytes;
    uint32_t n;
} frames_out;

/* Sends each payload in turn to one decoder of cap on n_threads (0: every
 * core; the clip decodes so, the re-decodes on one, which must agree);
 * collects every output. Returns the first refusal. */
static wai_status decode_all(const char *cap, unsigned n_threads, const wai_payload *p,
                             uint32_t n_p, frames_out *out, wai_cost *cost) {
    wai_context *ctx;
    wai_decoder *d;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap;
    cfg.max_cost = MAX_COST;
    memset(out, 0, sizeof *out);
    ctx = fuzz_held_context(n_threads);
    if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) __builtin_trap();
    wai_status st = WAI_ok;
    size_t cap_bytes = 0;
    for (uint32_t i = 0; i < n_p && st == WAI_ok; i++) {
        st = wai_decoder_send(d, p[i].data, p[i].len, cost);
        wai_output o;
        while (wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
            /* A refused payload outputs nothing (R9); indices run on. */
            if (st != WAI_ok || o.index != out->n || o.kind != WAI_OUTPUT_FRAME) __builtin_trap();
            if (o.size != (size_t)o.width * o.height * 3) __builtin_trap();
            if (out->n && o.size != out->frame_bytes) __builtin_trap();
            out->frame_bytes = o.size;
            size_t need = (size_t)(out->n + 1) * o.size;
            if (need > cap_bytes) {
                cap_bytes = need * 2;
                uint8_t *g = realloc(out->bytes, cap_bytes);
                if (!g) __builtin_trap();
                out->bytes = g;
            }
            memcpy(out->bytes + (size_t)out->n * o.size, o.data, o.size);
            out->n++;
        }
    }
    wai_decoder_destroy(d);
    return st;
}

/* A renormalisation as the spec writes it, noting a word read that leaves
 * the state under 2^31, which the encoder never does. */
static void renorm(wai_rans_dec *d, int *form) {
    if (d->x >= WAI_RANS_L) return;
    if (d->next == d->n_words) {
        d->ran_out = 1;
        return;
    }
    d->x = (d->x << 32) | wai_load_u32le(d->words + 4 * d->next++);
    if (d->x < WAI_RANS_L) *form = 0;
}

static uint32_t bits4(wai_rans_dec *d, int *form) {
    uint32_t v = (uint32_t)(d->x & 15);
    d->x >>= 4;
    renorm(d, form);
    return v;
}

/* 1 when every state of the clip's residual decode lies where the encoder
 * keeps its own ([2^31, 2^63) after loading and after each word read): only
 * then is the stream the one encoder output for its steps (see fuzz_rans.c). */
static int encoder_form(const uint8_t *clip, size_t len) {
    wai_wiv1 v;
    if (wai_wiv1_parse(clip, len, 0, &v) != WAI_ok) __builtin_trap();
    uint32_t cdf[WAI_CDF_MAX_LEN_T4097];
    wai_cdf_from_bytes(cdf, v.cdf, v.cdf_len);
    uint32_t n = v.cdf_len;
    wai_rans_dec d;
    wai_rans_dec_init(&d, v.residual.bytes, v.residual.len);
    int form = d.x >= WAI_RANS_L && d.x < ((uint64_t)1 << 63);
    uint64_t n_syms = (uint64_t)v.n_frames * v.h * v.w * 3;
    for (uint64_t i = 0; i < n_syms && form; i++) {
        uint32_t cum = (uint32_t)(d.x & 0xffff), s = 0;
        while (s + 2 < n && cdf[s + 1] <= cum) s++;
        d.x = (uint64_t)(cdf[s + 1] - cdf[s]) * (d.x >> 16) + cum - cdf[s];
        renorm(&d, &form);
        if (s == n - 2) {
            uint32_t g = bits4(&d, &form), count = g;
            for (int j = 0; j < 8 && g == 15 && !d.ran_out; j++) count += (g = bits4(&d, &form));
            for (uint32_t j = 0; j < (count > 8 ? 8 : count); j++) bits4(&d, &form);
        }
        if (d.ran_out) __builtin_trap(); /* it decoded */
    }
    return form;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const wai_capability *cap = wai_capability_find(CAP_MOTION);
    wai_checked checked;
    wai_status parse = wai_check_payload(cap, data, size, &checked);
    if (checked != WAI_CHECKED_PARSE) __builtin_trap();
    wai_cost declared, sent;
    wai_status dc = wai_declared_cost(CAP_MOTION, data, size, &declared);
    if (dc != parse) __builtin_trap();

    wai_payload whole = {(uint8_t *)(uintptr_t)data, size};
    frames_out clip;
    memset(&sent, 0, sizeof sent);
    wai_status st = decode_all(CAP_MOTION, 0, &whole, 1, &clip, &sent);
    /* A parse refusal is the decode's refusal; a parsed clip reports the
     * declared cost and is refused by it exactly when its work is over. */
    if (parse != WAI_ok && st != parse) __builtin_trap();
    if (parse == WAI_ok) {
        if (memcmp(&sent, &declared, sizeof sent) != 0) __builtin_trap();
        if ((st == WAI_cost_over_limit) != (wai_cost_work(&declared) > MAX_COST)) __builtin_trap();
        if (st != WAI_ok && st != WAI_cost_over_limit && st != WAI_stream_exhausted &&
            st != WAI_stream_noncanonical)
            __builtin_trap();
    }
    if (st != WAI_ok) {
        if (clip.n) __builtin_trap();
        free(clip.bytes);
        return 0;
    }
    if (clip.n != wai_load_u32le(data + 8)) __builtin_trap();

    /* split, then join: the clip's bytes again. */
    wai_payload *frames;
    uint32_t n_frames;
    if (wai_wiv1_split(NULL, data, size, &frames, &n_frames) != WAI_ok || n_frames != clip.n)
        __builtin_trap();
    uint8_t *joined;
    size_t joined_len;
    if (wai_wif1_join(NULL, frames, n_frames, &joined, &joined_len) != WAI_ok) __builtin_trap();
    if (joined_len != size || memcmp(joined, data, size) != 0) {
        /* Only a stream outside the encoder's states may come back in other
         * bytes; the joined clip is then the encoder's, a fixed point, and
         * decodes to the same frames. */
        if (encoder_form(data, size)) __builtin_trap();
        if (!encoder_form(joined, joined_len)) __builtin_trap();
        wai_payload again = {joined, joined_len};
        frames_out j;
        if (decode_all(CAP_MOTION, 1, &again, 1, &j, &sent) != WAI_ok || j.n != clip.n ||
            memcmp(j.bytes, clip.bytes, (size_t)clip.n * clip.frame_bytes) != 0)
            __builtin_trap();
        free(j.bytes);
    }
    wai_free(NULL, joined);

    /* The split frames, as a frame stream, decode to the clip's frames. */
    frames_out stream;
    if (decode_all(CAP_FRAME, 1, frames, n_frames, &stream, &sent) != WAI_ok) __builtin_trap();
    if (stream.n != clip.n || stream.frame_bytes != clip.frame_bytes ||
        memcmp(stream.bytes, clip.bytes, (size_t)clip.n * clip.frame_bytes) != 0)
        __builtin_trap();
    free(stream.bytes);
    free(clip.bytes);
    wai_payloads_free(NULL, frames, n_frames);
    return 0;
}
