/* SPDX-License-Identifier: BSD-2-Clause */
/* The realistic WIM1 decode (issue 14): wai.neural.int_mlicpp at mbt2018-
 * like shapes, K = 4 slices, 512 x 768. The bundle and payload come from
 * tests/gen/wim1gen.h (seeded networks; the payload encoded with the
 * decode's own procedure on the fast kernels), so the figures say nothing
 * of a trained codec's weights, only of its shapes:
 *   h_s    z [128, 8, 12] -> [384, 32, 48] (mbt-like, 128 channels inside)
 *   entropy [576, 32, 48] -> 192 -> [384, 32, 48] (3x3 convolutions), run
 *          2·K = 8 times
 *   g_s    y [192, 32, 48] -> [3, 512, 768] (four stride-2 transposed
 *          convolutions of 128 channels, inverse GDNs between)
 * Timed: the whole decode through the public API (wai_decoder_send, the
 * set already in the cache), best of --reps, on 1 and 2 threads; GMAC/s
 * from the declared multiply-accumulates, Msym/s from the symbols.
 *
 *   wai_bench_wim1 [--reps N] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/wim1gen.h"
#include "ops/network.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    int reps = 3;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    uint64_t rng = 2024;
    wim1gen_bundle b;
    const wim1gen_shape s = {128, 8, 12, 192, 4};
    fprintf(stderr, "making the bundle and the payload (the decode's procedure, fast kernels) ...\n");
    wim1gen_make_bundle(&b, 77, &rng, s.cz, s.cy, 128, 192, 4, 0);
    wim1gen_buf wmb = wim1gen_bundle_bytes(&b);
    wim1gen_coded c = wim1gen_make_payload(&b, &s, &rng, &wai_kernels_fast);
    printf("WIM1 %ux%u: z [%u, %u, %u], y [%u, %u, %u], K %u; payload %zu bytes\n", c.w, c.h, s.cz,
           s.zh, s.zw, s.cy, c.yh, c.yw, s.k, c.len);
    static const unsigned threads[] = {1, 2};
    for (int t = 0; t < 2; t++) {
        wai_settings st;
        wai_settings_default(&st);
        st.n_threads = threads[t];
        wai_context *ctx;
        wai_set *set;
        if (wai_context_create(&st, &ctx) != WAI_ok || wai_set_create(ctx, &set) != WAI_ok ||
            wai_set_add(set, "model.wmb", wmb.b, wmb.len) != WAI_ok)
            return 1;
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.set = set;
        double best = 1e300;
        wai_cost cost;
        for (int r = 0; r < reps + 1; r++) { /* the first loads the set into the cache */
            wai_decoder *d;
            if (wai_decoder_create(ctx, &cfg, &d) != WAI_ok) return 1;
            double t0 = now_ms();
            wai_status e = wai_decoder_send(d, c.payload, c.len, &cost);
            double ms = now_ms() - t0;
            wai_output o;
            if (e != WAI_ok || wai_decoder_receive(d, &o) != WAI_ok || o.size != (size_t)3 * c.w * c.h ||
                memcmp(o.data, c.rgb, o.size) != 0) {
                fprintf(stderr, "decode: %s, or not the generator's picture\n", wai_status_name(e));
                return 1;
            }
            wai_decoder_destroy(d);
            if (r > 0 && ms < best) best = ms;
        }
        printf("  %u thread(s): %9.1f ms  %6.2f GMAC/s  %6.2f Msym/s  (%.2f GMAC, %llu symbols)\n",
               threads[t], best, (double)cost.macs / best / 1e6,
               (double)cost.entropy_steps / best / 1e3, (double)cost.macs / 1e9,
               (unsigned long long)cost.entropy_steps);
        wai_set_destroy(set);
        wai_context_destroy(ctx);
    }
    free(wmb.b), free(c.payload), free(c.rgb);
    wim1gen_bundle_free(&b);
    return 0;
}
