/* SPDX-License-Identifier: BSD-2-Clause */
/* The network layers and the stage operators, in the arithmetic the design
 * note fixes (design: integer-arithmetic.md; docs/integer-operators.md).
 *
 * The *_ref functions are the plain reference path: direct loops, the
 * definition written out. Any faster kernel must give bit-identical output
 * (held by differential tests). Tensors are i64 in CHW order ([c][h][w];
 * 1-D: [c][len]). Each layer first applies the exactness rule (ops/bounds.h)
 * to its whole input and returns WAI_field_range, writing nothing, when it
 * fails; then it runs with no per-element checks, the bound having proven
 * every intermediate in range.
 *
 * Shapes are passed explicitly and checked against the layer's geometry
 * (WAI_invalid_argument on disagreement: the planner has already formed
 * them, so a mismatch is the caller's bug). `sums` are the layer's parameter
 * sums (wai_layer_param_sums). The output must not overlap the input, except
 * for ReLU and leaky ReLU, which may run in place. */
#ifndef WAI_OPS_LAYERS_H
#define WAI_OPS_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "common/int128.h"
#include "entropy/model.h"
#include "ops/model.h"
#include "wai/wai.h"

/* ---- geometry ------------------------------------------------------------- */

/* Convolution: floor((n + 2*pad - k) / stride) + 1. invalid_argument when
 * n, k or stride is 0, k > n + 2*pad, or the side leaves 32 bits. */
/* a * b * c as a size_t count: 1 and *out when it fits, else 0. */
int wai_count3(uint64_t a, uint64_t b, uint64_t c, size_t *out);

/* 1 when the layer's weight array holds exactly cin * cout * taps entries. */
int wai_layer_weights_match(const wai_layer *l, uint64_t taps);

wai_status wai_conv_out_side(uint32_t n, uint32_t k, uint32_t stride, uint32_t pad,
                             uint32_t *out);

/* Transposed convolution: the uncropped side (n - 1)*stride + k + opad and
 * the output side, that minus 2*pad. invalid_argument when n, k or stride is
 * 0, the crop leaves nothing, or a side leaves 32 bits. */
wai_status wai_conv_t_sides(uint32_t n, uint32_t k, uint32_t stride, uint32_t pad,
                            uint32_t opad, uint32_t *uncropped, uint32_t *out);

/* ---- per-element arithmetic (shared with faster kernels) ------------------ */

/* round_shift(acc * m, shift) + b; acc * m is formed in 128 bits. Exact and
 * in range whenever the layer's bound held. */
/* A layer call's arguments agree: the layer's kind, its geometry giving
 * oh x ow from h x w, its weight count, and every tensor size addressable
 * (written to the size_t counts). The reference and fast kernels both check
 * this before anything else (invalid_argument otherwise). */
int wai_conv2d_args_ok(const wai_layer *l, uint32_t h, uint32_t w, uint32_t oh, uint32_t ow,
                       size_t *n_in, size_t *n_out);
int wai_conv_t2d_args_ok(const wai_layer *l, uint32_t h, uint32_t w, uint32_t oh, uint32_t ow,
                         uint32_t *uh, uint32_t *uw, size_t *n_in, size_t *n_u, size_t *n_out);

/* The same for a one-dimensional transposed convolution (len -> olen). */
int wai_conv_t1d_args_ok(const wai_layer *l, uint32_t len, uint32_t olen, uint32_t *ulen,
                         size_t *n_in, size_t *n_u, size_t *n_out);

int64_t wai_requantize(int64_t acc, int64_t m, uint32_t shift, int64_t b);

/* Leaky ReLU of one value: x if x >= 0, else floor_shift(x * slope, lshift). */
int64_t wai_leaky_value(int64_t x, int64_t slope, uint32_t lshift);

/* Inverse GDN of one value: with sum = sum_j gamma[i][j] * X[j]^2 (exact, as
 * the bound keeps it within 2^127 - 1), n = beta + floor_shift(sum, gf),
 * r = isqrt(max(n, 0)), returns round_shift(xi * r, afrac). */
int64_t wai_igdn_value(int64_t xi, wai_i128 sum, int64_t beta, uint32_t gf, uint32_t afrac);

/* ---- layers (reference path) ---------------------------------------------- */

/* Convolution: l->kind CONV, weights [cout][cin][k][k]; x [cin][h][w], y
 * [cout][oh][ow] with oh, ow from wai_conv_out_side. Zero padding. */
wai_status wai_conv2d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                          const int64_t *x, uint32_t h, uint32_t w,
                          int64_t *y, uint32_t oh, uint32_t ow);

/* Transposed convolution, 2-D: l->kind CONV_T, weights [cin][cout][k][k];
 * x [cin][h][w]; scratch [cout][uh][uw] (the uncropped plane, sides from
 * wai_conv_t_sides; its contents on entry do not matter); y [cout][oh][ow]. */
wai_status wai_conv_t2d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                            const int64_t *x, uint32_t h, uint32_t w, int64_t *scratch,
                            int64_t *y, uint32_t oh, uint32_t ow);

/* Transposed convolution, 1-D (WAM1): weights [cin][cout][k]; x [cin][len];
 * scratch [cout][ulen]; y [cout][olen]. */
wai_status wai_conv_t1d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                            const int64_t *x, uint32_t len, int64_t *scratch, int64_t *y,
                            uint32_t olen);

/* Inverse GDN: l->kind IGDN; x and y [c][positions] (positions = h*w or
 * len); sums are the G_i. */
wai_status wai_igdn_ref(const wai_layer *l, const uint64_t *sums, uint32_t gf, uint32_t afrac,
                        const int64_t *x, size_t positions, int64_t *y);

/* max(x, 0). Never refuses. */
wai_status wai_relu_ref(const int64_t *x, size_t n, int64_t *y);

/* Leaky ReLU with l->slope, l->lshift. */
wai_status wai_leaky_ref(const wai_layer *l, const int64_t *x, size_t n, int64_t *y);

/* ---- stage operators -------------------------------------------------------- */

/* The RGB8 step (§4 step 4): v clamped to [0, 2^afrac], then
 * (v*255 + 2^(afrac-1)) >> afrac. afrac in 1..30 (the parser's range; the
 * result is then in 0..255); any other afrac gives 0. Inline: it runs once
 * a sample, and the image loops hoist its afrac check. */
static inline uint8_t wai_rgb8_step(int64_t v, uint32_t afrac) {
    if (afrac < 1 || afrac > 30) return 0;
    const int64_t top = (int64_t)1 << afrac;
    uint64_t c = v < 0 ? 0 : v > top ? (uint64_t)top : (uint64_t)v;
    /* c * 255 + 2^(afrac-1) < 2^39; the result is at most 255. */
    return (uint8_t)((c * 255 + ((uint64_t)1 << (afrac - 1))) >> afrac);
}

/* The PCM step (§5 step 3): (v*32767 + 2^(afrac-1)) >> afrac (a floor),
 * clamped to [-32768, 32767]; field_range when v*32767 + 2^(afrac-1) leaves
 * i64. afrac in 1..30 (others: invalid_argument). */
wai_status wai_pcm_step(int64_t v, uint32_t afrac, int16_t *out);

#endif
