/* SPDX-License-Identifier: BSD-2-Clause */
/* binary64 in integers (binary64.h): the rounding every reader and writer
 * of decimals here shares (write/decimal32.c too), exact decimal digits,
 * and a × b / c. A finite positive binary64 is m·2^e with m < 2^53. */
#include "common/binary64.h"

#include <string.h>

typedef wai_b64 f64;

int wai_b64_round(uint64_t m, int e2, int sticky, wai_b64 *out) {
    out->m = 0, out->e = 0;
    const int lb = wai_bitlen64(m);
    if (lb == 0) return 1;
    const int exp = lb - 1 + e2;
    if (exp > 1023) return 0;
    const int p = exp >= -1022 ? 53 : exp + 1075;
    if (p <= 0) {
        /* At or under half the least subnormal 2^-1074: over it (p == 0
         * with more than the top bit) rounds up to it, a tie to 0 (even). */
        if (p == 0 && (m != ((uint64_t)1 << (lb - 1)) || sticky)) out->m = 1, out->e = -1074;
        return 1;
    }
    const int drop = lb - p;
    if (drop <= 0) {
        out->m = m, out->e = e2;   /* exact: it fits */
        return 1;
    }
    uint64_t M = m >> drop;
    const uint64_t rem = m & (((uint64_t)1 << drop) - 1), half = (uint64_t)1 << (drop - 1);
    if (rem > half || (rem == half && (sticky || (M & 1)))) M++;
    out->m = M, out->e = e2 + drop;
    if (wai_bitlen64(M) > 53) out->m >>= 1, out->e++;   /* rounded up to 2^53 */
    return wai_bitlen64(out->m) - 1 + out->e <= 1023;
}

/* The muldiv's values lie within the normal range: never past it. */
static f64 round53(uint64_t m, int e, int sticky) {
    f64 r;
    (void)wai_b64_round(m, e, sticky, &r);
    return r;
}

int wai_exact_decimal(uint64_t m, int e, char *digits, int *exp10) {
    if (e > 150 || e < -150) return 0;
    uint32_t w[24] = {(uint32_t)(m % 1000000000u), (uint32_t)(m / 1000000000u % 1000000000u),
                      (uint32_t)(m / 1000000000u / 1000000000u)};   /* base 10^9, little-endian */
    int n = w[2] ? 3 : w[1] ? 2 : 1;
    const int twos = e > 0 ? e : 0, fives = e < 0 ? -e : 0;
    /* By 2^28 and 5^13 at a time (each under 2^31). */
    for (int i = 0; i < twos + fives;) {
        uint32_t mul = 1;
        if (i < twos) {
            const int c = twos - i < 28 ? twos - i : 28;
            mul = (uint32_t)1 << c, i += c;
        } else {
            const int c = twos + fives - i < 13 ? twos + fives - i : 13;
            for (int q = 0; q < c; q++) mul *= 5;
            i += c;
        }
        uint64_t carry = 0;
        for (int j = 0; j < n; j++) {
            const uint64_t t = (uint64_t)w[j] * mul + carry;
            w[j] = (uint32_t)(t % 1000000000u);
            carry = t / 1000000000u;
        }
        if (carry) w[n++] = (uint32_t)carry;
    }
    int nd = 0;
    for (int j = n - 1; j >= 0; j--)
        for (int k = 8; k >= 0; k--) {
            uint32_t p = 1;
            for (int q = 0; q < k; q++) p *= 10;
            const char c = (char)('0' + (w[j] / p) % 10);
            if (nd == 0 && c == '0') continue;
            digits[nd++] = c;
        }
    if (nd == 0) digits[nd++] = '0';
    *exp10 = -fives;
    return nd;
}


/* (hi·2^64 + lo) / d for d > hi (the quotient fits 64 bits), by shift and
 * subtract; *rem the remainder. */
static uint64_t div128(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem) {
    uint64_t q = 0, r = hi;
    for (int i = 63; i >= 0; i--) {
        const int top = (int)(r >> 63);
        r = (r << 1) | ((lo >> i) & 1);
        q <<= 1;
        if (top || r >= d) {
            r -= d;
            q |= 1;
        }
    }
    *rem = r;
    return q;
}

/* x · y exactly as (hi, lo). */
static void mul128(uint64_t x, uint64_t y, uint64_t *hi, uint64_t *lo) {
    const uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    const uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    const uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *lo = (ll & 0xffffffffu) | (mid << 32);
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* p / q for binary64 p and q (q > 0), rounded. */
static f64 divide(f64 p, f64 q) {
    if (p.m == 0) return (f64){0, 0};
    /* p.m · 2^k / q.m with 63-64 quotient bits (k >= 11). */
    const int k = 63 + wai_bitlen64(q.m) - wai_bitlen64(p.m);
    uint64_t hi, lo, rem;
    if (k >= 64) {
        hi = p.m << (k - 64), lo = 0;
    } else {
        hi = p.m >> (64 - k), lo = p.m << k;
    }
    uint64_t quo = div128(hi, lo, q.m, &rem);
    return round53(quo, p.e - q.e - k, rem != 0);
}

size_t wai_binary64_muldiv_text(uint64_t a, uint64_t b, uint64_t c, char *out) {
    const f64 fa = round53(a, 0, 0), fb = round53(b, 0, 0), fc = round53(c, 0, 0);
    /* The product: exact in 106 bits, then rounded. */
    uint64_t hi, lo;
    mul128(fa.m, fb.m, &hi, &lo);
    f64 prod;
    if (hi == 0) {
        prod = round53(lo, fa.e + fb.e, 0);
    } else {
        const int shift = wai_bitlen64(hi);   /* keep the top 64 bits, the rest sticky */
        const uint64_t top = (hi << (64 - shift)) | (lo >> shift);
        const int sticky = (lo & (((uint64_t)1 << shift) - 1)) != 0;
        prod = round53(top, fa.e + fb.e + shift, sticky);
    }
    const f64 quo = divide(prod, fc);
    /* The exact value rounded to six decimals, ties to even. */
    char d[WAI_EXACT_DECIMAL_MAX + 8];
    int exp10 = 0;
    int nd = wai_exact_decimal(quo.m, quo.e, d, &exp10);
    /* Digits below 10^-6 decide the rounding. */
    int keep = nd + exp10 + 6;   /* digits at or above the 10^-6 place */
    char r[WAI_EXACT_DECIMAL_MAX + 8];
    int nr = 0;
    if (keep < 0) {
        r[nr++] = '0';   /* under half of 10^-6: 0 */
    } else {
        int up = 0;
        if (keep < nd) {
            const char first = d[keep];
            int rest = 0;
            for (int i = keep + 1; i < nd; i++) rest |= d[i] != '0';
            const int last_odd = keep > 0 && ((d[keep - 1] - '0') & 1);
            up = first > '5' || (first == '5' && (rest || last_odd));
            nd = keep;
        }
        for (int i = 0; i < nd; i++) r[nr++] = d[i];
        for (int i = nd; i < keep; i++) r[nr++] = '0';   /* exp10 > -6: pad */
        if (nr == 0) r[nr++] = '0';
        if (up) {
            int i = nr - 1;
            for (; i >= 0 && r[i] == '9'; i--) r[i] = '0';
            if (i >= 0) r[i]++;
            else memmove(r + 1, r, (size_t)nr++), r[0] = '1';
        }
    }
    /* r is the value times 10^6, an integer: write it with the point. */
    while (nr < 7) memmove(r + 1, r, (size_t)nr++), r[0] = '0';
    size_t n = 0;
    for (int i = 0; i < nr - 6; i++) out[n++] = r[i];
    out[n++] = '.';
    for (int i = nr - 6; i < nr; i++) out[n++] = r[i];
    out[n] = '\0';
    return n;
}
