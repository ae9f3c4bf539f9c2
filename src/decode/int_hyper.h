/* SPDX-License-Identifier: BSD-2-Clause */
/* WIH1, the integer conditional image codec (integer-payloads §4), against
 * a loaded set (sets/loaded.h): the checks of §7 steps 2 to 4 that read the
 * payload, its declared cost, and the decode (steps 5 and 6). A WIV1 or
 * WIF1 keyframe is the same decode of its nested WIH1. */
#ifndef WAI_DECODE_INT_HYPER_H
#define WAI_DECODE_INT_HYPER_H

#include "wai/wai.h"
#include "decode/codec.h"
#include "formats/wih1.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"

/* The loaded set of wai.neural.int_hyper and its keyframe-1 video forms
 * (the loaded set's own object): its two networks and its tables. */
typedef struct wai_hyper_set {
    wai_net g_s, h_s;
    wai_loaded_tables t;
} wai_hyper_set;

/* The two networks planned on the payload's shapes. */
typedef struct wai_hyper_plan {
    wai_plan h_s, g_s;
} wai_hyper_plan;

/* §7 steps 2 to 4 for v against l, in order: no more hyper-latent channels
 * than the tables (model_mismatch); h_s planned on [n_z, zh, zw], then g_s
 * on [m, sh, sw] (model_mismatch, too_large); h_s's output [2m, sh, sw]
 * (geometry_mismatch); g_s's three channels (model_mismatch). Lowering
 * refuses nothing more (reading N6). On success *p holds both plans
 * (wai_hyper_plan_free); on failure it is empty. */
wai_status wai_wih1_prepare(const wai_allocator *a, const wai_loaded_set *l,
                            const wai_wih1 *v, wai_hyper_plan *p);
void wai_hyper_plan_free(const wai_allocator *a, wai_hyper_plan *p);

/* The declared cost (§7, Memory and work), docs/decoding.md's rule:
 *   output   3·H·W bytes (g_s's output side);
 *   entropy  n_z·zh·zw + m·sh·sw symbols;
 *   macs     h_s's + g_s's multiply-accumulates;
 *   working  8 bytes per element of every tensor the decode holds (the
 *            hyper-latent, h_s's output, the latent and g_s's output) plus
 *            the larger of the two networks' working bytes, plus the
 *            output. */
void wai_wih1_cost(const wai_wih1 *v, const wai_hyper_plan *p, wai_cost *c);

/* The larger of the two networks' arenas (their plans' work_bytes): the
 * job's net_work_bytes (decode/codec.h). */
uint64_t wai_hyper_net_bytes(const wai_hyper_plan *p);

/* Steps 5 and 6: the hyper-latent stream (symbols, then its canonical end),
 * h_s, the latent stream, g_s, and the RGB8 step into rgb (H·W·3 bytes,
 * rows top to bottom, pixels left to right, R, G, B). ex: the allocator and
 * the networks' threads; k: the kernels. */
wai_status wai_wih1_decode(const wai_exec *ex, const wai_kernels *k,
                           const wai_loaded_set *l, const wai_wih1 *v,
                           const wai_hyper_plan *p, uint8_t *rgb);

/* The RGB8 step on a planar [3, h, w] tensor into interleaved rgb, over
 * ex's threads (NULL: the caller's alone). */
void wai_rgb8_interleave(const wai_exec *ex, const int64_t *planes, size_t hw, uint32_t afrac,
                         uint8_t *rgb);

/* The capability wai.neural.int_hyper (decode/codecs.c): its decode's steps,
 * and the loader of its set, which the keyframe-1 video forms share: its
 * row's members in §9's order, g_s and h_s parsed as WHM1, the tables by
 * every rule of §9 (each model_mismatch), then one scale: both networks'
 * afrac equal and in 1..30 (model_mismatch). */
extern const wai_codec_ops wai_int_hyper_ops;
wai_status wai_int_hyper_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l);

#endif
