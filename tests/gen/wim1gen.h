/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1 payloads and WMB1 bundles for tests and benchmarks (wim1gen.c). */
#ifndef WAI_TESTS_GEN_WIM1GEN_H
#define WAI_TESTS_GEN_WIM1GEN_H

#include <stddef.h>
#include <stdint.h>

#include "ops/model.h"
#include "ops/network.h"

/* A growing byte buffer (malloc'd; free(b)). */
typedef struct wim1gen_buf {
    uint8_t *b;
    size_t len, cap;
} wim1gen_buf;

void wim1gen_add(wim1gen_buf *x, const void *p, size_t n);
void wim1gen_add_u32(wim1gen_buf *x, uint32_t v);

#define WIM1GEN_MAX_TABLES 256 /* z tables: cz + 1 */
#define WIM1GEN_MAX_CDF 64

typedef struct wim1gen_table {
    uint32_t n;
    int32_t offset;
    uint32_t cdf[WIM1GEN_MAX_CDF];
} wim1gen_table;

/* A random increasing table of n entries (n <= WIM1GEN_MAX_CDF), offset -n/2. */
void wim1gen_random_table(uint64_t *rng, wim1gen_table *t, uint32_t n);

typedef struct wim1gen_bundle {
    uint32_t afrac;
    wai_model hs, ent, gs;
    uint32_t n_edges, n_z;
    int64_t edges[WIM1GEN_MAX_TABLES], zmed[WIM1GEN_MAX_TABLES];
    wim1gen_table lat[WIM1GEN_MAX_TABLES], z[WIM1GEN_MAX_TABLES];
    int64_t tables_afrac; /* what the tables say (a fixture makes it differ) */
} wim1gen_bundle;

/* cz hyper channels to 2·cy by h_s (mbt-like, x4, with `mid` channels; or
 * one 1x1 convolution when `same` keeps the side), the entropy network
 * 3·cy -> emid -> 2·cy (3x3 convolutions, a ReLU between) on the latent's
 * side, g_s cy -> 3 (gs_convt stride-2 transposed convolutions of `mid`
 * channels: x2^gs_convt). n_z = cz + 1 z tables, 5 scale edges. *rng draws the
 * tables. */
void wim1gen_make_bundle(wim1gen_bundle *b, uint64_t seed, uint64_t *rng, uint32_t cz, uint32_t cy,
                         uint32_t mid, uint32_t emid, uint32_t gs_convt, int same);
void wim1gen_bundle_free(wim1gen_bundle *b);

/* model.wmb: "WMB1", h_s, entropy, g_s and the tables, each behind its u32 length. */
wim1gen_buf wim1gen_bundle_bytes(const wim1gen_bundle *b);

typedef struct wim1gen_shape {
    uint32_t cz, zh, zw, cy, k;
} wim1gen_shape;

typedef struct wim1gen_coded {
    uint8_t *payload;
    size_t len;
    uint8_t *rgb;       /* the picture it decodes to, h·w·3 */
    uint32_t h, w, yh, yw;
    size_t lz;          /* the z stream's bytes: the y stream starts at 36 + lz */
} wim1gen_coded;

/* A payload of shape s against b, its symbols drawn from *rng. */
wim1gen_coded wim1gen_make_payload(const wim1gen_bundle *b, const wim1gen_shape *s, uint64_t *rng,
                                   const wai_kernels *kernels);

/* The decode's declared work (§14 S13): h_s + 2·K·entropy + g_s MACs and
 * the symbols. */
uint64_t wim1gen_work(const wim1gen_bundle *b, const wim1gen_shape *s, const wim1gen_coded *c);

#endif
