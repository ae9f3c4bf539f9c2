/* SPDX-License-Identifier: BSD-2-Clause */
/* A WIC1 clip decode (issue 14): wai.video.int_cond, six 64 x 64 frames,
 * at DCVC-like channel counts for that size. The bundle and clip come from
 * tests/gen/wic1gen.h (seeded networks; every latent coded while the
 * decode's own frame loop runs on the fast kernels), so the figures say
 * nothing of a trained codec's weights, only of its shapes:
 *   ctx    F [64, 16, 16] -> 64 -> C [64, 16, 16] (3x3 convolutions)
 *   prior  C -> 64 -> [2·96, 16, 16] (the scales and the means)
 *   dec    concat(y [96], C [64]) -> 64 -> F' [64, 16, 16]
 *   recon  F' -> [3, 64, 64] (two stride-2 transposed convolutions)
 * Timed: the whole clip through the public API (wai_decoder_send, the set
 * already in the cache), best of --reps, on 1 and 2 threads; GMAC/s from
 * the declared multiply-accumulates, Msym/s from the symbols, and the
 * frames per second.
 *
 *   wai_bench_wic1 [--reps N] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/wic1gen.h"
#include "ops/network.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

enum { FRAMES = 6, CF = 64, CC = 64, M = 96, MID = 64, SIDE = 16 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Decodes the clip once; 0 when every frame is the generator's. */
static int decode(wai_context *ctx, const wai_decoder_config *cfg, const wic1gen_clip *c,
                  wai_cost *cost, double *ms) {
    wai_decoder *d;
    if (wai_decoder_create(ctx, cfg, &d) != WAI_ok) return 1;
    double t0 = now_ms();
    wai_status e = wai_decoder_send(d, c->clip, c->len, cost);
    *ms = now_ms() - t0;
    const size_t frame = (size_t)3 * c->w * c->h;
    int bad = e != WAI_ok;
    for (uint32_t f = 0; !bad && f < c->n; f++) {
        wai_output o;
        bad = wai_decoder_receive(d, &o) != WAI_ok || o.size != frame ||
              memcmp(o.data, c->rgb + f * frame, frame) != 0;
    }
    if (bad) fprintf(stderr, "decode: %s, or not the generator's frames\n", wai_status_name(e));
    wai_decoder_destroy(d);
    return bad;
}

int main(int argc, char **argv) {
    int reps = 5;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    uint64_t rng = 2026;
    wic1gen_bundle b;
    fprintf(stderr, "making the bundle and the clip (the decode's frame loop, fast kernels) ...\n");
    wic1gen_make_bundle(&b, 91, &rng, CF, CC, M, MID);
    wim1gen_buf wcb = wic1gen_bundle_bytes(&b);
    wic1gen_clip c = wic1gen_make_clip(&b, FRAMES, M, SIDE, SIDE, CF, &rng, &wai_kernels_fast);
    printf("WIC1 %u frames of %ux%u: y [%u, %u, %u], feature [%u, %u, %u], context %u; "
           "clip %zu bytes\n",
           c.n, c.w, c.h, M, SIDE, SIDE, CF, SIDE, SIDE, CC, c.len);
    static const unsigned threads[] = {1, 2};
    for (int t = 0; t < 2; t++) {
        wai_settings st;
        wai_settings_default(&st);
        st.n_threads = threads[t];
        wai_context *ctx;
        wai_set *set;
        if (wai_context_create(&st, &ctx) != WAI_ok || wai_set_create(ctx, &set) != WAI_ok ||
            wai_set_add(set, "model.wcb", wcb.b, wcb.len) != WAI_ok)
            return 1;
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.set = set;
        double best = 1e300, ms;
        wai_cost cost;
        for (int r = 0; r < reps + 1; r++) { /* the first loads the set into the cache */
            if (decode(ctx, &cfg, &c, &cost, &ms)) return 1;
            if (r > 0 && ms < best) best = ms;
        }
        printf("  %u thread(s): %8.2f ms  %6.1f frames/s  %6.2f GMAC/s  %6.2f Msym/s  "
               "(%.3f GMAC, %llu symbols)\n",
               threads[t], best, c.n * 1e3 / best, (double)cost.macs / best / 1e6,
               (double)cost.entropy_steps / best / 1e3, (double)cost.macs / 1e9,
               (unsigned long long)cost.entropy_steps);
        wai_set_destroy(set);
        wai_context_destroy(ctx);
    }
    free(wcb.b);
    wic1gen_clip_free(&c);
    wic1gen_bundle_free(&b);
    return 0;
}
