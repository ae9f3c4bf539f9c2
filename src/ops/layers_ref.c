/* SPDX-License-Identifier: BSD-2-Clause */
/* The reference layers: the design note's definitions as direct loops (see
 * layers.h). Once a layer's bound has held (ops/bounds.h) every
 * intermediate below is in range; each place that relies on it says so. */
#include "ops/layers.h"

#include "common/checked.h"
#include "ops/bounds.h"

/* ---- geometry ------------------------------------------------------------- */

int wai_count3(uint64_t a, uint64_t b, uint64_t c, size_t *out) {
    uint64_t n;
    if (!wai_mul_u64(a, b, &n) || !wai_mul_u64(n, c, &n) || !wai_fits_size(n)) return 0;
    *out = (size_t)n;
    return 1;
}

int wai_layer_weights_match(const wai_layer *l, uint64_t taps) {
    size_t n;
    return wai_count3(l->cin, l->cout, taps, &n) && n == l->n_weights;
}

wai_status wai_conv_out_side(uint32_t n, uint32_t k, uint32_t stride, uint32_t pad,
                             uint32_t *out) {
    uint64_t padded = (uint64_t)n + 2 * (uint64_t)pad;
    if (n == 0 || k == 0 || stride == 0 || k > padded) return WAI_invalid_argument;
    uint64_t side = (padded - k) / stride + 1;
    if (side > UINT32_MAX) return WAI_invalid_argument;
    *out = (uint32_t)side;
    return WAI_ok;
}

wai_status wai_conv_t_sides(uint32_t n, uint32_t k, uint32_t stride, uint32_t pad,
                            uint32_t opad, uint32_t *uncropped, uint32_t *out) {
    if (n == 0 || k == 0 || stride == 0) return WAI_invalid_argument;
    /* < (2^32 - 1) * 2^32 + 2^33: fits u64. */
    uint64_t un = (uint64_t)(n - 1) * stride + k + opad;
    uint64_t crop = 2 * (uint64_t)pad;
    if (un > UINT32_MAX || crop >= un) return WAI_invalid_argument;
    *uncropped = (uint32_t)un;
    *out = (uint32_t)(un - crop);
    return WAI_ok;
}

int wai_conv2d_args_ok(const wai_layer *l, uint32_t h, uint32_t w, uint32_t oh, uint32_t ow,
                       size_t *n_in, size_t *n_out) {
    uint32_t eh, ew;
    return l->kind == WAI_LAYER_CONV && !wai_conv_out_side(h, l->k, l->stride, l->pad, &eh) &&
           !wai_conv_out_side(w, l->k, l->stride, l->pad, &ew) && eh == oh && ew == ow &&
           wai_layer_weights_match(l, (uint64_t)l->k * l->k) && wai_count3(l->cin, h, w, n_in) &&
           wai_count3(l->cout, oh, ow, n_out);
}

int wai_conv_t2d_args_ok(const wai_layer *l, uint32_t h, uint32_t w, uint32_t oh, uint32_t ow,
                         uint32_t *uh, uint32_t *uw, size_t *n_in, size_t *n_u, size_t *n_out) {
    uint32_t eh, ew;
    return l->kind == WAI_LAYER_CONV_T &&
           !wai_conv_t_sides(h, l->k, l->stride, l->pad, l->opad, uh, &eh) &&
           !wai_conv_t_sides(w, l->k, l->stride, l->pad, l->opad, uw, &ew) && eh == oh &&
           ew == ow && wai_layer_weights_match(l, (uint64_t)l->k * l->k) &&
           wai_count3(l->cin, h, w, n_in) && wai_count3(l->cout, *uh, *uw, n_u) &&
           wai_count3(l->cout, oh, ow, n_out);
}

/* ---- per-element arithmetic ------------------------------------------------- */

int wai_conv_t1d_args_ok(const wai_layer *l, uint32_t len, uint32_t olen, uint32_t *ulen,
                         size_t *n_in, size_t *n_u, size_t *n_out) {
    uint32_t elen;
    return l->kind == WAI_LAYER_CONV_T &&
           !wai_conv_t_sides(len, l->k, l->stride, l->pad, l->opad, ulen, &elen) &&
           elen == olen && wai_layer_weights_match(l, l->k) && wai_count3(l->cin, len, 1, n_in) &&
           wai_count3(l->cout, *ulen, 1, n_u) && wai_count3(l->cout, olen, 1, n_out);
}

int64_t wai_requantize(int64_t acc, int64_t m, uint32_t shift, int64_t b) {
    /* |acc * m| <= 2^126 fits i128; the bound makes the sum fit i64. */
    wai_i128 v = wai_i128_round_shift(wai_i128_mul_i64(acc, m), shift);
    return wai_i128_to_i64(wai_i128_add(v, wai_i128_from_i64(b)));
}

int64_t wai_leaky_value(int64_t x, int64_t slope, uint32_t lshift) {
    if (x >= 0) return x;
    return wai_i128_to_i64(wai_i128_floor_shift(wai_i128_mul_i64(x, slope), lshift));
}

int64_t wai_igdn_value(int64_t xi, wai_i128 sum, int64_t beta, uint32_t gf, uint32_t afrac) {
    wai_i128 t = wai_i128_floor_shift(sum, gf);
    wai_i128 b = wai_i128_from_i64(beta);
    uint64_t r;
    /* n = t + beta lies in [-2^127 - 2^63, 2^127 + 2^63): wider than i128,
     * so it is formed by the signs. */
    if (wai_i128_is_neg(t) && beta < 0) {
        r = 0; /* n < 0 */
    } else if (!wai_i128_is_neg(t) && beta >= 0) {
        /* 0 <= n < 2^128: exact as u128. */
        r = wai_u128_isqrt(wai_u128_add(wai_i128_bits(t), wai_i128_bits(b)));
    } else {
        /* Opposite signs: the i128 sum cannot overflow. */
        wai_i128 n = wai_i128_add(t, b);
        r = wai_i128_is_neg(n) ? 0 : wai_u128_isqrt(wai_i128_bits(n));
    }
    /* |xi * r| < 2^63 * 2^64 = 2^127; the bound makes the result fit i64. */
    return wai_i128_to_i64(wai_i128_round_shift(wai_i128_mul_i64_u64(xi, r), afrac));
}

/* ---- layers ------------------------------------------------------------------ */

/* A convolution's A over its n input values, then its bound: the
 * reference's refusal comes before any sum. */
static wai_status bound(const wai_layer *l, const uint64_t *sums, uint32_t shift, const int64_t *x,
                        size_t n) {
    return wai_bound_conv(wai_max_abs_i64(x, n), sums, l->mult, l->bias, l->cout, shift);
}

/* A transposed convolution's bound, then its n_u plane sums cleared. */
static wai_status bound_cleared(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                                const int64_t *x, size_t n, int64_t *scratch, size_t n_u) {
    wai_status st = bound(l, sums, shift, x, n);
    for (size_t j = 0; st == WAI_ok && j < n_u; j++) scratch[j] = 0;
    return st;
}

wai_status wai_conv2d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                          const int64_t *x, uint32_t h, uint32_t w,
                          int64_t *y, uint32_t oh, uint32_t ow) {
    size_t n_in, n_out;
    if (!wai_conv2d_args_ok(l, h, w, oh, ow, &n_in, &n_out)) return WAI_invalid_argument;
    wai_status st = bound(l, sums, shift, x, n_in);
    if (st != WAI_ok) return st;

    const size_t k = l->k, cin = l->cin, s = l->stride, pad = l->pad;
    for (size_t o = 0; o < l->cout; o++) {
        for (size_t oy = 0; oy < oh; oy++) {
            for (size_t ox = 0; ox < ow; ox++) {
                /* Every product and partial sum is at most A * S_o <= 2^63 - 1
                 * in magnitude (the bound), in any order. */
                int64_t acc = 0;
                for (size_t i = 0; i < cin; i++) {
                    const int16_t *wk = l->weights + (o * cin + i) * k * k;
                    const int64_t *xi = x + i * h * w;
                    for (size_t ky = 0; ky < k; ky++) {
                        size_t py = oy * s + ky; /* row in the padded input */
                        if (py < pad || py - pad >= h) continue; /* zero padding */
                        for (size_t kx = 0; kx < k; kx++) {
                            size_t px = ox * s + kx;
                            if (px < pad || px - pad >= w) continue;
                            acc += (int64_t)wk[ky * k + kx] * xi[(py - pad) * w + (px - pad)];
                        }
                    }
                }
                y[(o * oh + oy) * ow + ox] = wai_requantize(acc, l->mult[o], shift, l->bias[o]);
            }
        }
    }
    return WAI_ok;
}

/* A transposed convolution over planes of h x w with a kh x kw kernel: each
 * input value scatters its products into the up-sampled plane (uh x uw),
 * which is then cropped by pad_y, pad_x and requantized. The 1-D layer is
 * the plane of one row with a 1 x k kernel and no vertical crop. */
static void conv_t_planes(const wai_layer *l, uint32_t shift, const int64_t *x, size_t h,
                          size_t w, size_t kh, size_t kw, size_t pad_y, int64_t *scratch,
                          size_t uh, size_t uw, int64_t *y, size_t oh, size_t ow) {
    const size_t cout = l->cout, s = l->stride, pad = l->pad;
    /* Each tap of output o reaches a given plane position from at most one
     * input position, so every partial sum is at most A * S_o <= 2^63 - 1. */
    for (size_t i = 0; i < l->cin; i++) {
        for (size_t iy = 0; iy < h; iy++) {
            for (size_t ix = 0; ix < w; ix++) {
                int64_t xv = x[(i * h + iy) * w + ix];
                for (size_t o = 0; o < cout; o++) {
                    const int16_t *wk = l->weights + (i * cout + o) * kh * kw;
                    int64_t *u = scratch + o * uh * uw;
                    for (size_t ky = 0; ky < kh; ky++)
                        for (size_t kx = 0; kx < kw; kx++)
                            u[(iy * s + ky) * uw + ix * s + kx] += (int64_t)wk[ky * kw + kx] * xv;
                }
            }
        }
    }
    for (size_t o = 0; o < cout; o++)
        for (size_t oy = 0; oy < oh; oy++)
            for (size_t ox = 0; ox < ow; ox++)
                y[(o * oh + oy) * ow + ox] =
                    wai_requantize(scratch[(o * uh + oy + pad_y) * uw + ox + pad], l->mult[o],
                                   shift, l->bias[o]);
}

wai_status wai_conv_t2d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                            const int64_t *x, uint32_t h, uint32_t w, int64_t *scratch,
                            int64_t *y, uint32_t oh, uint32_t ow) {
    uint32_t uh, uw;
    size_t n_in, n_u, n_out;
    if (!wai_conv_t2d_args_ok(l, h, w, oh, ow, &uh, &uw, &n_in, &n_u, &n_out))
        return WAI_invalid_argument;
    wai_status st = bound_cleared(l, sums, shift, x, n_in, scratch, n_u);
    if (st == WAI_ok)
        conv_t_planes(l, shift, x, h, w, l->k, l->k, l->pad, scratch, uh, uw, y, oh, ow);
    return st;
}

wai_status wai_conv_t1d_ref(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                            const int64_t *x, uint32_t len, int64_t *scratch, int64_t *y,
                            uint32_t olen) {
    uint32_t ulen;
    size_t n_in, n_u, n_out;
    if (!wai_conv_t1d_args_ok(l, len, olen, &ulen, &n_in, &n_u, &n_out))
        return WAI_invalid_argument;
    wai_status st = bound_cleared(l, sums, shift, x, n_in, scratch, n_u);
    if (st == WAI_ok) conv_t_planes(l, shift, x, 1, len, 1, l->k, 0, scratch, 1, ulen, y, 1, olen);
    return st;
}

wai_status wai_igdn_ref(const wai_layer *l, const uint64_t *sums, uint32_t gf, uint32_t afrac,
                        const int64_t *x, size_t positions, int64_t *y) {
    size_t n, cc;
    if (l->kind != WAI_LAYER_IGDN || !wai_count3(l->c, positions, 1, &n) ||
        !wai_count3(l->c, l->c, 1, &cc))
        return WAI_invalid_argument;
    wai_status st = wai_bound_igdn(wai_max_abs_i64(x, n), sums, l->beta, l->c, gf, afrac);
    if (st != WAI_ok) return st;

    const size_t c = l->c;
    for (size_t p = 0; p < positions; p++) {
        for (size_t i = 0; i < c; i++) {
            /* |gamma[i][j]| * X[j]^2 and every partial sum are at most
             * A^2 * G_i <= 2^127 - 1 (the bound): the wrapping product and
             * sum below are exact. */
            wai_i128 sum = wai_i128_make(0, 0);
            for (size_t j = 0; j < c; j++) {
                int32_t g = l->gamma[i * c + j];
                uint64_t xa = wai_abs_i64(x[j * positions + p]);
                wai_u128 term = wai_u128_mul_wrap(wai_u128_mul_u64(xa, xa),
                                                  wai_u128_from_u64(wai_abs_i64(g)));
                sum = g < 0 ? wai_i128_sub(sum, wai_u128_bits(term))
                            : wai_i128_add(sum, wai_u128_bits(term));
            }
            y[i * positions + p] = wai_igdn_value(x[i * positions + p], sum, l->beta[i], gf, afrac);
        }
    }
    return WAI_ok;
}

wai_status wai_relu_ref(const int64_t *x, size_t n, int64_t *y) {
    for (size_t i = 0; i < n; i++) y[i] = x[i] < 0 ? 0 : x[i];
    return WAI_ok;
}

wai_status wai_leaky_ref(const wai_layer *l, const int64_t *x, size_t n, int64_t *y) {
    if (l->kind != WAI_LAYER_LEAKY) return WAI_invalid_argument;
    wai_status st = wai_bound_leaky(wai_max_abs_i64(x, n), l->slope, l->lshift);
    if (st != WAI_ok) return st;
    for (size_t i = 0; i < n; i++) y[i] = wai_leaky_value(x[i], l->slope, l->lshift);
    return WAI_ok;
}

/* ---- stage operators -------------------------------------------------------- */

wai_status wai_pcm_step(int64_t v, uint32_t afrac, int16_t *out) {
    if (afrac < 1 || afrac > 30) return WAI_invalid_argument;
    wai_i128 t = wai_i128_add(wai_i128_mul_i64(v, 32767),
                              wai_i128_from_i64((int64_t)1 << (afrac - 1)));
    if (!wai_i128_fits_i64(t)) return WAI_field_range;
    /* >> as a floor, on the value that fits i64. */
    int64_t q = wai_i128_to_i64(wai_i128_floor_shift(t, afrac));
    *out = (int16_t)(q < -32768 ? -32768 : q > 32767 ? 32767 : q);
    return WAI_ok;
}
