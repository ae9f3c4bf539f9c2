/* SPDX-License-Identifier: BSD-2-Clause */
/* Synthetic integer networks for tests and benchmarks (test support, not
 * part of the library).
 *
 * Everything is drawn from a seeded splitmix64, so a seed gives the same
 * model, bytes and inputs on every architecture. Models are wai_model values
 * laid out as the parser lays them out (one block in m->storage), so
 * wai_model_free frees them, and wai_model_write gives their WHM1/WAM1 bytes.
 *
 * Realistic networks (netgen_build and the bmshj/mbt/WAM1 shapes). The aim
 * is activations of a realistic size: a network fed inputs of magnitude
 * about 2^afrac·8 (netgen_input) keeps its hidden activations within a small
 * factor of that, so outputs are neither all zero nor saturated.
 *   - Weights are uniform i16 (the full range: the scale lives in M).
 *   - (Transposed) convolution, output o: Q_o = isqrt(sum of W² over o's
 *     taps), the size of acc for inputs of magnitude 1 and random sign. The
 *     model's one shift is 16 + bit length of the largest Q_o of any layer,
 *     so every M keeps about 16 significant bits, and
 *     M[o] = round(2^shift / Q_o) · gain: acc·M/2^shift has about the
 *     input's magnitude (gain 1), or a sixteenth of it on a network's last
 *     layer, which brings values of about ±2^afrac·8 to about ±2^afrac/2,
 *     the RGB8 step's range. A transposed convolution of stride s meets
 *     about 1/s^dims of its taps at each output, so its Q_o is taken over
 *     that share (the sum of W² divided by s^dims). Biases are small:
 *     ±2^(afrac-2) hidden; the last layer adds 2^(afrac-1), the middle of
 *     the RGB8 range, so few outputs reach its clamps.
 *   - Inverse GDN, gf 16: beta = 2^(2·afrac) makes isqrt(beta) = 2^afrac,
 *     the identity; gamma ≥ 0 with gamma[i][j] ≤ 2^gf/(64·c) adds at most
 *     at most beta again for |x| <= 2^afrac·8 (a gain of at most √2, about
 *     1.08 on average), a mild expansion as a trained IGDN gives.
 *   - Leaky ReLU: lshift 8, slope 2^4..2^6 (1/16 .. 1/4).
 *
 * Random layers (netgen_random_layer), for differential tests: any kind,
 * channels 1..16, k 1..7, stride 1..3, valid pad/opad, a small input shape,
 * and parameters that often sit at the extremes (INT16_MIN weights,
 * INT64_MIN/MAX multipliers and biases, INT32_MIN gammas, shift and gf
 * 0..127, afrac 1..30). netgen_bound_max finds the largest input magnitude A the layer's
 * exactness bound accepts (a binary search over A with ops/bounds.h), and
 * netgen_bound_input fills a tensor whose max |x| is exactly a given A, so
 * A passes and A + 1 is refused. */
#ifndef WAI_TESTS_GEN_NETGEN_H
#define WAI_TESTS_GEN_NETGEN_H

#include <stddef.h>
#include <stdint.h>

#include "ops/model.h"
#include "ops/plan.h"
#include "wai/wai.h"

/* splitmix64: the next value of the stream *state. */
uint64_t netgen_next(uint64_t *state);
/* Uniform-enough in [0, n) (n >= 1; modulo bias does not matter here). */
uint64_t netgen_below(uint64_t *state, uint64_t n);

/* One layer of netgen_build: its kind and geometry. Parameters are drawn. */
typedef struct netgen_spec {
    wai_layer_kind kind;
    uint32_t cin, cout, k, stride, pad, opad; /* CONV_T, CONV */
    uint32_t c;                               /* IGDN */
} netgen_spec;

/* A model of dims (2: WHM1, 1: WAM1) with the layers of specs and drawn
 * parameters scaled as the header comment says; afrac 8..16
 * (invalid_argument otherwise, and for a spec its form has no tag for). */
wai_status netgen_build(const wai_allocator *a, uint64_t seed, int dims, uint32_t afrac,
                        const netgen_spec *specs, uint32_t n_specs, wai_model *out);

/* bmshj2018-like synthesis: n_convt transposed convolutions 5x5 stride 2
 * pad 2 opad 1 (cin -> cmid -> ... -> cmid -> cout) with an inverse GDN
 * between each two. n_convt >= 1. */
wai_status netgen_bmshj(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                        uint32_t cmid, uint32_t cout, uint32_t n_convt, wai_model *out);

/* mbt2018-like hyper synthesis: convT 5x5 s2 (cin -> cmid), ReLU, conv 3x3
 * s1 p1, leaky ReLU, convT 5x5 s2, ReLU, conv 3x3 s1 p1 (-> cout). Input
 * [cin, h, w] gives [cout, 4h, 4w]. */
wai_status netgen_mbt_hyper(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                            uint32_t cmid, uint32_t cout, wai_model *out);

/* WAM1 audio synthesis: n_convt 1-D transposed convolutions k 8 stride 2
 * pad 3 opad 0 (length doubles each time) with an inverse GDN between each
 * two. Input [cin, 1, len]. */
wai_status netgen_wam1(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                       uint32_t cmid, uint32_t cout, uint32_t n_convt, wai_model *out);

/* The model's WHM1 (dims 2) or WAM1 (dims 1) bytes: wai_model_write. */
wai_status netgen_bytes(const wai_allocator *a, const wai_model *m, uint8_t **out,
                        size_t *out_len);

/* 1 when the two models have the same header, layers and parameters. */
int netgen_model_equal(const wai_model *x, const wai_model *y);

/* An input of the magnitude the realistic networks expect: each value
 * uniform in [-2^afrac·8, 2^afrac·8]. */
void netgen_input(uint64_t *state, uint32_t afrac, int64_t *x, size_t n);

/* A one-layer model for differential tests, with the input shape it plans
 * on in *c, *h, *w (h = 1 when dims is 1). kind: a wai_layer_kind, or -1
 * for any the form has (WAM1: CONV_T and IGDN only). The model plans (the
 * geometry is valid); its parameters are random and often extreme. */
wai_status netgen_random_layer(const wai_allocator *a, uint64_t *state, int dims, int kind,
                               wai_model *out, uint32_t *c, uint32_t *h, uint32_t *w);

/* ---- layers and models by hand (geometry only; no arrays attached) ---- */

/* A transposed convolution; n_weights as its fields call for in a network
 * of dims (2: cin·cout·k·k, 1: cin·cout·k). */
wai_layer netgen_layer_convt(uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride,
                             uint32_t pad, uint32_t opad, int dims);
wai_layer netgen_layer_conv(uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride,
                            uint32_t pad);
wai_layer netgen_layer_igdn(uint32_t c);
wai_layer netgen_layer_leaky(int64_t slope, uint32_t lshift);
/* A layer of `kind` with every field zero (ReLU needs no more). */
wai_layer netgen_layer_plain(wai_layer_kind kind);
/* A model over layers[0..n) (not owned: storage NULL). */
wai_model netgen_model_of(int dims, wai_layer *layers, uint32_t n, uint32_t afrac, uint32_t gf,
                          uint32_t shift);

/* The largest A in [0, 2^63] that layer li of m passes its exactness bound
 * at (with s its sums, wai_sums_compute). Returns 0 when no A passes (even
 * A = 0 is refused, e.g. |bias| = 2^63 - 1), else 1 with *amax set; *amax
 * = 2^63 means every input passes (ReLU always). */
int netgen_bound_max(const wai_model *m, const wai_sums *s, uint32_t li, uint64_t *amax);

/* Fills x[0..n) (n >= 1) with random values of |x| <= a and sets one of
 * them to magnitude exactly a (a <= 2^63; 2^63 is INT64_MIN), so max |x| = a. */
void netgen_bound_input(uint64_t *state, uint64_t a, int64_t *x, size_t n);

#endif
