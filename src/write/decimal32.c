/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact decimal to binary64 and binary32 (decimal32.h), in integer
 * arithmetic. The value D·10^E (D the significant digits) is brought to
 * m·2^e2 with m of 63 or 64 bits and a sticky bit for what lies below:
 * for E >= 0 the top 64 bits of the big integer D·10^E, for E < 0 the
 * quotient floor(D·2^k / 10^-E) with k chosen to give 63-64 bits. m then
 * rounds to binary64's 53 bits (fewer for a subnormal), ties to even. */
#include "write/decimal32.h"

#include <stdio.h>
#include <string.h>

#include "common/binary64.h"

#define MAX_DIGITS 800
/* 10^1131 · 2^66 at most (docs in big_divide's caller): 3824 bits. */
#define LIMBS 136

typedef struct big {
    uint32_t w[LIMBS];
    int n;   /* limbs in use; w[n - 1] != 0, or n == 0 */
} big;

static void big_trim(big *b) {
    while (b->n > 0 && b->w[b->n - 1] == 0) b->n--;
}

static void big_mul_add(big *b, uint32_t mul, uint32_t add) {
    uint64_t carry = add;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * mul + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < LIMBS) b->w[b->n++] = (uint32_t)carry;
}

static void big_mul_pow10(big *b, int64_t e) {
    for (; e >= 9; e -= 9) big_mul_add(b, 1000000000u, 0);
    static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (e > 0) big_mul_add(b, p10[e], 0);
}

static int big_bits(const big *b) {
    if (b->n == 0) return 0;
    int bits = 32 * (b->n - 1);
    for (uint32_t top = b->w[b->n - 1]; top; top >>= 1) bits++;
    return bits;
}

static void big_shl(big *b, int k) {
    if (b->n == 0 || k <= 0) return;
    const int words = k / 32, bits = k % 32;
    int n = b->n + words + 1;
    if (n > LIMBS) n = LIMBS;   /* callers stay within LIMBS (see the bounds) */
    for (int i = n - 1; i >= 0; i--) {
        const int src = i - words;
        uint32_t hi = src >= 0 && src < b->n ? b->w[src] : 0;
        uint32_t lo = src - 1 >= 0 && src - 1 < b->n ? b->w[src - 1] : 0;
        b->w[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
    }
    b->n = n;
    big_trim(b);
}

static void big_shr1(big *b) {
    for (int i = 0; i < b->n; i++)
        b->w[i] = (b->w[i] >> 1) | (i + 1 < b->n ? b->w[i + 1] << 31 : 0);
    big_trim(b);
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* a -= b, a >= b. */
static void big_sub(big *a, const big *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        a->w[i] = (uint32_t)t;
        borrow = (t >> 32) & 1;
    }
    big_trim(a);
}

/* Bit i of b. */
static unsigned big_bit(const big *b, int i) {
    return i / 32 < b->n ? (b->w[i / 32] >> (i % 32)) & 1u : 0u;
}

/* The top 64 bits of b (its bit length at most 64: b itself) and whether
 * any bit below them is set; *e2 the weight of the lowest kept bit. */
static uint64_t big_top64(const big *b, int *e2, int *sticky) {
    const int bits = big_bits(b);
    const int low = bits > 64 ? bits - 64 : 0;
    uint64_t m = 0;
    for (int i = bits - 1; i >= low; i--) m = (m << 1) | big_bit(b, i);
    /* Below bit low: whole words, then the low bits of its word. */
    *sticky = 0;
    for (int w = 0; w < low / 32 && !*sticky; w++) *sticky = b->w[w] != 0;
    if (!*sticky && low % 32) *sticky = (b->w[low / 32] & ((1u << (low % 32)) - 1)) != 0;
    *e2 = low;
    return m;
}

/* floor(a / b) for a < b·2^64 (a is consumed: the remainder is left), by
 * shift and subtract; *sticky when the remainder is not zero. */
static uint64_t big_divide(big *a, big *b, int *sticky) {
    big_shl(b, 63);
    uint64_t q = 0;
    for (int i = 63; i >= 0; i--) {
        if (big_cmp(a, b) >= 0) {
            big_sub(a, b);
            q |= (uint64_t)1 << i;
        }
        big_shr1(b);
    }
    *sticky = a->n != 0;
    return q;
}

/* ---- the spelling ------------------------------------------------------------ */

typedef struct spelling {
    int neg, integer;          /* integer: no fraction and no exponent */
    char digits[MAX_DIGITS + 1];
    int nd;                    /* significant digits kept (the sticky one included) */
    int64_t e10;               /* the value is digits · 10^e10 */
} spelling;

#define EXP_CAP 1000000000

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse(const char *t, size_t len, spelling *s) {
    memset(s, 0, sizeof *s);
    size_t i = 0;
    if (i < len && t[i] == '-') s->neg = 1, i++;
    if (i >= len || !is_digit(t[i])) return 0;
    int sticky = 0, started = 0;
    int64_t e10 = 0;
    const size_t int_start = i;
    if (t[i] == '0') {
        i++;
    } else {
        for (; i < len && is_digit(t[i]); i++) {
            if (!started && t[i] == '0') continue;
            started = 1;
            if (s->nd < MAX_DIGITS) s->digits[s->nd++] = t[i];
            else {
                if (t[i] != '0') sticky = 1;
                if (e10 < EXP_CAP) e10++;
            }
        }
    }
    if (i == int_start) return 0;
    int frac = 0, expo = 0;
    if (i < len && t[i] == '.') {
        frac = 1;
        if (++i >= len || !is_digit(t[i])) return 0;
        for (; i < len && is_digit(t[i]); i++) {
            if (!started && t[i] == '0') {
                if (e10 > -EXP_CAP) e10--;
                continue;
            }
            started = 1;
            if (s->nd < MAX_DIGITS) {
                s->digits[s->nd++] = t[i];
                if (e10 > -EXP_CAP) e10--;
            } else if (t[i] != '0') {
                sticky = 1;
            }
        }
    }
    if (i < len && (t[i] == 'e' || t[i] == 'E')) {
        expo = 1;
        int eneg = 0;
        if (++i < len && (t[i] == '+' || t[i] == '-')) eneg = t[i++] == '-';
        if (i >= len || !is_digit(t[i])) return 0;
        int64_t x = 0;
        for (; i < len && is_digit(t[i]); i++)
            if (x < EXP_CAP) x = x * 10 + (t[i] - '0');
        e10 += eneg ? -x : x;
    }
    if (i != len) return 0;
    s->integer = !frac && !expo;
    if (sticky) {
        /* One digit past the kept ones, between them and the next: every
         * rounding boundary has fewer significant digits (see the header). */
        s->digits[s->nd++] = '1';
        e10--;
    }
    s->e10 = e10;
    return 1;
}

/* The digits as a big integer, nine at a time. */
static void big_of_digits(big *b, const spelling *s) {
    static const uint32_t p10[10] = {1,      10,      100,      1000,      10000,
                                     100000, 1000000, 10000000, 100000000, 1000000000};
    b->n = 0;
    for (int i = 0; i < s->nd;) {
        const int take = s->nd - i < 9 ? s->nd - i : 9;
        uint32_t chunk = 0;
        for (int j = 0; j < take; j++) chunk = chunk * 10 + (uint32_t)(s->digits[i + j] - '0');
        if (b->n == 0) {
            if (chunk) b->w[b->n++] = chunk;
        } else {
            big_mul_add(b, p10[take], chunk);
        }
        i += take;
    }
}

/* ---- rounding (common/binary64.h) ------------------------------------------------ */

typedef wai_b64 b64;

static wai_decimal32_result round64(uint64_t m, int e2, int sticky, b64 *out) {
    return wai_b64_round(m, e2, sticky, out) ? WAI_DECIMAL32_OK : WAI_DECIMAL32_NO_VALUE;
}

static wai_decimal32_result nearest64(const spelling *s, b64 *out) {
    out->m = 0, out->e = 0;
    if (s->nd == 0) return WAI_DECIMAL32_OK;   /* a zero */
    /* The leading digit's decimal exponent: past 10^309 no binary64; under
     * 10^-330 less than half of 2^-1074, so zero. */
    const int64_t lead = s->nd - 1 + s->e10;
    if (lead > 309) return WAI_DECIMAL32_NO_VALUE;
    if (lead < -330) return WAI_DECIMAL32_OK;
    big a;
    big_of_digits(&a, s);
    int e2, sticky;
    uint64_t m;
    if (s->e10 >= 0) {
        big_mul_pow10(&a, s->e10);        /* < 10^310: 1030 bits */
        m = big_top64(&a, &e2, &sticky);
    } else {
        big b = {{0}, 1};
        b.w[0] = 1;
        big_mul_pow10(&b, -s->e10);       /* 10^-e10 <= 10^(nd + 330) <= 10^1131 */
        /* a·2^k of bits(b) + 63 bits: the quotient has 63 or 64 bits. */
        const int k = big_bits(&b) + 63 - big_bits(&a);
        if (k >= 0) big_shl(&a, k);
        else big_shl(&b, -k);
        m = big_divide(&a, &b, &sticky);
        e2 = -k;
    }
    return round64(m, e2, sticky, out);
}

static uint64_t encode64(int neg, const b64 *v) {
    uint64_t bits = (uint64_t)neg << 63;
    if (v->m == 0) return bits;
    const int bl = wai_bitlen64(v->m), top = bl - 1 + v->e;
    if (top >= -1022)
        return bits | ((uint64_t)(top + 1023) << 52) | ((v->m << (53 - bl)) & ((UINT64_C(1) << 52) - 1));
    return bits | (v->m << (v->e + 1074));
}

/* v as binary32, when it is one. */
static wai_decimal32_result encode32(int neg, b64 v, uint32_t *bits) {
    *bits = (uint32_t)neg << 31;
    if (v.m == 0) return WAI_DECIMAL32_OK;
    while (!(v.m & 1)) v.m >>= 1, v.e++;
    const int bl = wai_bitlen64(v.m), top = bl - 1 + v.e;
    if (bl > 24 || v.e < -149 || top > 127) return WAI_DECIMAL32_NOT_BINARY32;
    if (top >= -126)
        *bits |= ((uint32_t)(top + 127) << 23) | ((uint32_t)(v.m << (24 - bl)) & 0x7fffffu);
    else
        *bits |= (uint32_t)(v.m << (v.e + 149));
    return WAI_DECIMAL32_OK;
}

wai_decimal32_result wai_decimal64_read(const char *text, size_t len, uint64_t *bits) {
    spelling s;
    *bits = 0;
    if (!parse(text, len, &s)) return WAI_DECIMAL32_SYNTAX;
    b64 v;
    wai_decimal32_result r = nearest64(&s, &v);
    if (r == WAI_DECIMAL32_OK) *bits = encode64(s.neg, &v);
    return r;
}

wai_decimal32_result wai_decimal32_read(const char *text, size_t len, uint32_t *bits) {
    spelling s;
    *bits = 0;
    if (!parse(text, len, &s)) return WAI_DECIMAL32_SYNTAX;
    if (s.integer) {
        /* That integer, exactly: "-0" is +0, and past 2^128 it is no
         * binary32 (39 digits reach 10^38 < 2^128 < 10^39). */
        if (s.nd == 0) return WAI_DECIMAL32_OK;
        if (s.nd + s.e10 > 39) return WAI_DECIMAL32_NOT_BINARY32;
        big a;
        big_of_digits(&a, &s);
        big_mul_pow10(&a, s.e10);
        int e2, sticky;
        const b64 v = {big_top64(&a, &e2, &sticky), e2};
        if (sticky) return WAI_DECIMAL32_NOT_BINARY32;   /* more than 64 bits between its ends */
        return encode32(s.neg, v, bits);
    }
    b64 v;
    wai_decimal32_result r = nearest64(&s, &v);
    if (r != WAI_DECIMAL32_OK) return r;
    return encode32(s.neg, v, bits);
}

/* ---- the shortest spelling of a binary32 value ----------------------------------- */

/* binary32 bits widened to binary64's, by their fields. */
static uint64_t widen32(uint32_t f) {
    const uint64_t sign = (uint64_t)(f >> 31) << 63;
    uint32_t e = (f >> 23) & 0xff, m = f & 0x7fffff;
    if (e == 0 && m == 0) return sign;
    int exp = (int)e - 127;
    if (e == 0) {   /* subnormal: normalise */
        exp = -126;
        while (!(m & 0x800000)) m <<= 1, exp--;
        m &= 0x7fffff;
    }
    return sign | ((uint64_t)(exp + 1023) << 52) | ((uint64_t)m << 29);
}

/* digits[0..k) · 10^exp10 as "De<x>" text (a non-integer spelling). */
static size_t spell_e(const char *d, int k, int exp10, char *out) {
    size_t n = 0;
    for (int i = 0; i < k; i++) out[n++] = d[i];
    n += (size_t)snprintf(out + n, 16, "e%d", exp10);
    return n;
}

/* Adds one unit in the last of k digits (a carry may lengthen it: then k
 * grows and the caller's exponent stays right). Returns the new k. */
static int digits_up(char *d, int k) {
    for (int i = k - 1; i >= 0; i--) {
        if (d[i] < '9') {
            d[i]++;
            return k;
        }
        d[i] = '0';
    }
    memmove(d + 1, d, (size_t)k);
    d[0] = '1';
    return k + 1;
}

static int digits_down(char *d, int k) {
    for (int i = k - 1; i >= 0; i--) {
        if (d[i] > '0') {
            d[i]--;
            return d[0] == '0' ? 0 : k;   /* a leading zero: no candidate */
        }
        d[i] = '9';
    }
    return 0;
}

/* Writes the JSON number for digits·10^exp10 (k significant digits, the
 * value's decimal point after digit k + exp10): an integer spelling only
 * for an integer under 10^15 (every such integer is a binary64, so the
 * integer read back is the value), else a fraction or an exponent. */
static size_t spell_json(int neg, const char *d, int k, int exp10, char *out) {
    size_t n = 0;
    if (neg) out[n++] = '-';
    const int point = k + exp10;   /* digits before the decimal point */
    if (exp10 >= 0 && point <= 15) {
        for (int i = 0; i < k; i++) out[n++] = d[i];
        for (int i = 0; i < exp10; i++) out[n++] = '0';
    } else if (point > 0 && point <= 17 && exp10 < 0) {
        for (int i = 0; i < k; i++) {
            if (i == point) out[n++] = '.';
            out[n++] = d[i];
        }
    } else if (point <= 0 && point > -6) {
        out[n++] = '0', out[n++] = '.';
        for (int i = 0; i < -point; i++) out[n++] = '0';
        for (int i = 0; i < k; i++) out[n++] = d[i];
    } else {
        out[n++] = d[0];
        if (k > 1) out[n++] = '.';
        for (int i = 1; i < k; i++) out[n++] = d[i];
        n += (size_t)snprintf(out + n, 16, "e%d", point - 1);
    }
    out[n] = '\0';
    return n;
}

size_t wai_binary32_shortest(uint32_t bits, char *out) {
    const int neg = (int)(bits >> 31);
    if ((bits & 0x7fffffffu) == 0) {
        memcpy(out, neg ? "-0.0" : "0", neg ? 5 : 2);
        return neg ? 4 : 1;
    }
    const uint64_t want = widen32(bits) & ~((uint64_t)1 << 63);
    const uint32_t e8 = (bits >> 23) & 0xff;
    const uint32_t m = e8 ? (bits & 0x7fffff) | 0x800000 : bits & 0x7fffff;
    char exact[WAI_EXACT_DECIMAL_MAX];
    int exp10 = 0;
    const int nd = wai_exact_decimal(m, e8 ? (int)e8 - 150 : -149, exact, &exp10);
    char d[180], text[220];
    for (int k = 1; k <= 17 && k <= nd; k++) {
        /* The exact digits rounded to k (half up), then its neighbours. */
        memcpy(d, exact, (size_t)k);
        int kk = k, e10 = exp10 + (nd - k);
        if (k < nd && exact[k] >= '5') {
            kk = digits_up(d, k);
            if (kk > k) kk = k, e10++;   /* 99.. -> 100..: drop the new last zero */
        }
        for (int step = 0; step < 3; step++) {
            char c[180];
            memcpy(c, d, (size_t)kk);
            int ck = kk;
            if (step == 1) ck = digits_up(c, kk);
            if (step == 2) ck = digits_down(c, kk);
            if (ck == 0 || ck > kk) continue;
            const size_t tl = spell_e(c, ck, e10, text);
            uint64_t got;
            if (wai_decimal64_read(text, tl, &got) == WAI_DECIMAL32_OK && got == want)
                return spell_json(neg, c, ck, e10, out);
        }
    }
    /* Not reached: 17 digits always read back as the binary64 they round. */
    return spell_json(neg, exact, nd, exp10, out);
}
