/* SPDX-License-Identifier: BSD-2-Clause */
/* The exactness rule, computed exactly (see bounds.h). Each bound is of the
 * form "some nonnegative quantity <= 2^63 - 1"; the quantities are formed in
 * u128, and every step below says why it cannot leave 128 bits. */
#include "ops/bounds.h"

#include "common/checked.h"
#include "common/int128.h"

#define I64_MAX_U ((uint64_t)INT64_MAX)

uint64_t wai_max_abs_i64(const int64_t *x, size_t n) {
    uint64_t a = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = wai_abs_i64(x[i]);
        if (v > a) a = v;
    }
    return a;
}

/* q + add <= 2^63 - 1, exactly, for any u128 q and u64 add. */
static int sum_within_i64(wai_u128 q, uint64_t add) {
    return q.hi == 0 && add <= I64_MAX_U && q.lo <= I64_MAX_U - add;
}

uint32_t wai_layer_param_sum_count(const wai_layer *l) {
    switch (l->kind) {
    case WAI_LAYER_CONV:
    case WAI_LAYER_CONV_T:
        return l->cout;
    case WAI_LAYER_IGDN:
        return l->c;
    default:
        return 0;
    }
}

wai_status wai_layer_param_sums(const wai_layer *l, int dims, uint64_t *sums) {
    if (l->kind == WAI_LAYER_IGDN) {
        uint64_t cc;
        if (!wai_mul_u64(l->c, l->c, &cc) || !wai_fits_size(cc)) return WAI_invalid_argument;
        for (size_t i = 0; i < l->c; i++) {
            uint64_t g = 0;
            for (size_t j = 0; j < l->c; j++)
                g = wai_sat_add(g, wai_abs_i64(l->gamma[i * l->c + j]));
            sums[i] = g;
        }
        return WAI_ok;
    }
    if (l->kind != WAI_LAYER_CONV && l->kind != WAI_LAYER_CONV_T) return WAI_ok;

    uint64_t taps = dims == 1 ? l->k : (uint64_t)l->k * l->k, n;
    if (!wai_mul_u64(taps, l->cin, &n) || !wai_mul_u64(n, l->cout, &n) || n != l->n_weights ||
        !wai_fits_size(n))
        return WAI_invalid_argument;
    size_t t = (size_t)taps;
    for (size_t o = 0; o < l->cout; o++) sums[o] = 0;
    /* No weights: every sum is 0. Returning here keeps the loops below within
     * n_weights steps (a zero field beside a huge one, say k 0 and cin
     * 2^32 - 1, would otherwise spin for nothing). */
    if (n == 0) return WAI_ok;
    for (size_t i = 0; i < l->cin; i++) {
        for (size_t o = 0; o < l->cout; o++) {
            /* CONV: [cout][cin][taps]; CONV_T: [cin][cout][taps]. */
            const int16_t *w = l->kind == WAI_LAYER_CONV ? l->weights + (o * l->cin + i) * t
                                                         : l->weights + (i * l->cout + o) * t;
            uint64_t s = sums[o];
            for (size_t j = 0; j < t; j++) s = wai_sat_add(s, wai_abs_i64(w[j]));
            sums[o] = s;
        }
    }
    return WAI_ok;
}

wai_status wai_bound_conv(uint64_t a, const uint64_t *s, const int64_t *mult,
                          const int64_t *bias, uint32_t cout, uint32_t shift) {
    uint64_t max_s = 0, as_max;
    for (uint32_t o = 0; o < cout; o++)
        if (s[o] > max_s) max_s = s[o];
    if (!wai_mul_u64(a, max_s, &as_max) || as_max > I64_MAX_U) return WAI_field_range;
    for (uint32_t o = 0; o < cout; o++) {
        /* A * S_o <= A * max S <= 2^63 - 1 (just checked), and |M| <= 2^63,
         * so A * S_o * |M| < 2^126: exact in u128. (Had the first bound
         * failed, the layer is refused whatever this product is.) */
        wai_u128 p = wai_u128_mul_u64(a * s[o], wai_abs_i64(mult[o]));
        wai_u128 q = wai_u128_floor_shift(p, shift);
        uint64_t b = wai_abs_i64(bias[o]);
        if (b > I64_MAX_U - 1 || !sum_within_i64(q, 1 + b)) return WAI_field_range;
    }
    return WAI_ok;
}

wai_status wai_bound_igdn(uint64_t a, const uint64_t *g, const int64_t *beta, uint32_t c,
                          uint32_t gf, uint32_t afrac) {
    /* A^2 <= 2^126. */
    wai_u128 a2 = wai_u128_mul_u64(a, a);
    const wai_u128 lim = wai_u128_make(I64_MAX_U, UINT64_MAX); /* 2^127 - 1 */
    /* A^2 * max G <= 2^127 - 1 holds exactly when it holds for every G_i,
     * so both bounds are checked channel by channel (the answer does not
     * depend on the order). */
    for (uint32_t i = 0; i < c; i++) {
        wai_u128 p = wai_u128_make(0, 0);
        if (!wai_u128_mul_u64_checked(a2, g[i], &p) || wai_u128_cmp(p, lim) > 0)
            return WAI_field_range;
        /* N_i <= 2^63 + (2^127 - 1) < 2^128. */
        wai_u128 n = wai_u128_add(wai_u128_floor_shift(p, gf),
                                  wai_u128_from_u64(wai_abs_i64(beta[i])));
        /* isqrt(N_i) <= isqrt(2^127 + 2^63) < 2^64 - 1, so R_i fits u64. */
        uint64_t r = wai_u128_isqrt(n) + 1;
        wai_u128 q = wai_u128_floor_shift(wai_u128_mul_u64(a, r), afrac);
        if (!sum_within_i64(q, 1)) return WAI_field_range;
    }
    return WAI_ok;
}

wai_status wai_bound_leaky(uint64_t a, int64_t slope, uint32_t lshift) {
    /* A * |slope| <= 2^126. */
    wai_u128 q = wai_u128_floor_shift(wai_u128_mul_u64(a, wai_abs_i64(slope)), lshift);
    return sum_within_i64(q, 1) ? WAI_ok : WAI_field_range;
}

wai_status wai_bound_layer(const wai_layer *l, const uint64_t *sums, uint32_t gf,
                           uint32_t shift, uint32_t afrac, uint64_t a) {
    switch (l->kind) {
    case WAI_LAYER_CONV:
    case WAI_LAYER_CONV_T:
        return wai_bound_conv(a, sums, l->mult, l->bias, l->cout, shift);
    case WAI_LAYER_IGDN:
        return wai_bound_igdn(a, sums, l->beta, l->c, gf, afrac);
    case WAI_LAYER_LEAKY:
        return wai_bound_leaky(a, l->slope, l->lshift);
    case WAI_LAYER_RELU:
        return WAI_ok;
    }
    return WAI_invalid_argument;
}
