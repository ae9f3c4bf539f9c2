/* SPDX-License-Identifier: BSD-2-Clause */
/* WCB1 bundles and WIC1 clips for tests and benchmarks (wic1gen.c), made
 * the way the spec's reference vector was (integer-payloads §17.6): seeded
 * networks, and every latent symbol picked and encoded with the library's
 * rANS encoder while the decode's own frame loop runs beside it (ctx,
 * prior, the bucketed latent, dec, recon; the feature kept). */
#ifndef WAI_TESTS_GEN_WIC1GEN_H
#define WAI_TESTS_GEN_WIC1GEN_H

#include "gen/wim1gen.h"

typedef struct wic1gen_bundle {
    uint32_t afrac;
    wai_model net[4];      /* ctx, prior, dec, recon */
    uint32_t n_edges;
    int64_t edges[WIM1GEN_MAX_TABLES];
    wim1gen_table lat[WIM1GEN_MAX_TABLES];
    int64_t tables_afrac;  /* what the tables say */
} wic1gen_bundle;

/* ctx [cf] -> [cc] and prior [cc] -> [2·m] and dec [m + cc] -> [cf] (3x3
 * convolutions with a ReLU, `mid` channels inside, on the latent's side);
 * recon [cf] -> [3] by two stride-2 transposed convolutions (x4). */
void wic1gen_make_bundle(wic1gen_bundle *b, uint64_t seed, uint64_t *rng, uint32_t cf, uint32_t cc,
                         uint32_t m, uint32_t mid);
void wic1gen_bundle_free(wic1gen_bundle *b);

/* model.wcb: "WCB1", ctx, prior, dec, recon and the tables, each behind
 * its u32 length. */
wim1gen_buf wic1gen_bundle_bytes(const wic1gen_bundle *b);

typedef struct wic1gen_clip {
    uint8_t *clip;            /* the WIC1 payload */
    size_t len;
    wim1gen_buf *frames;      /* [n]: each frame's WCF1 bytes */
    uint8_t *rgb;             /* n frames of h·w·3 */
    uint32_t n, h, w;
} wic1gen_clip;

/* A clip of n frames of latent [m, sh, sw] against b. */
wic1gen_clip wic1gen_make_clip(const wic1gen_bundle *b, uint32_t n, uint32_t m, uint32_t sh,
                               uint32_t sw, uint32_t cf, uint64_t *rng, const wai_kernels *kernels);
void wic1gen_clip_free(wic1gen_clip *c);

/* The frame form's decode of a group of WCF1 frames sharing frame 0's
 * header, by the frame loop above: each intra frame from the zero feature,
 * each inter frame from the feature the frame before it in the list left
 * (so a frame left out of a group is lost, not skipped). The frames that
 * decode go to rgb (n·h·w·3 bytes), their count to *n_out; the first
 * refusal is returned. */
wai_status wic1gen_decode_group(const wic1gen_bundle *b, const wim1gen_buf *const *frames,
                                uint32_t n, const wai_kernels *kernels, uint8_t *rgb,
                                uint32_t *n_out);

/* The decode's declared work for the clip's frames (S20). */
uint64_t wic1gen_work(const wic1gen_bundle *b, uint32_t n, uint32_t m, uint32_t sh, uint32_t sw,
                      uint32_t cf);

#endif
