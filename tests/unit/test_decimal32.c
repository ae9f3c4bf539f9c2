/* SPDX-License-Identifier: BSD-2-Clause */
/* The exact binary32 reader of WIS1's ranges (src/write/decimal32.c,
 * integer-payloads §10) against the C library's strtod, the reference the
 * issue allows in tests: over 10^6 seeded random spellings (floats and doubles
 * at every exponent, subnormals, shortest and long forms, binary64 and
 * binary32 halfway points written out exactly, and each nudged up and down
 * by a last digit, integers of every size), then a table of named cases
 * (signed zeros, the ends of both ranges, 2^60 + 1, the syntax). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "write/decimal32.h"
#include "harness.h"

/* Seeded spellings drawn; with the nudges of the long ones, over 10^6
 * are checked (each part says how many). */
#define SPELLINGS 560000
#define SPELLING_PARTS 8

#define RNG_SEED 0x646563696d616c33u
static uint64_t rng_state;

/* Each part of a test draws from its own stream (harness_stream). */
static void rng_at_stream(unsigned k) { rng_state = harness_stream(RNG_SEED, k); }

static uint64_t rnd(void) { return harness_rand(&rng_state); }

static uint64_t d2u(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double u2d(uint64_t u) {
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- exact decimal spellings of n·2^k (no printf precision involved) ----- */

/* A big number in base 10^9, little-endian. */
typedef struct dec {
    uint32_t w[160];
    int n;
} dec;

static void dec_mul(dec *x, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < x->n; i++) {
        const uint64_t t = (uint64_t)x->w[i] * m + carry;
        x->w[i] = (uint32_t)(t % 1000000000u);
        carry = t / 1000000000u;
    }
    while (carry) x->w[x->n++] = (uint32_t)(carry % 1000000000u), carry /= 1000000000u;
}

/* n·2^k written out exactly: an integer, or with the point -k places from
 * the right (n·5^-k / 10^-k). Trailing fraction zeros dropped; a value
 * under 1 is written "0.…", so only an integer is an integer spelling. */
static void exact(int neg, uint64_t n, int k, char *out) {
    dec x = {{0}, 0};
    for (; n; n /= 1000000000u) x.w[x.n++] = (uint32_t)(n % 1000000000u);
    if (x.n == 0) x.w[x.n++] = 0;
    for (int i = k; i > 0; i -= 29) dec_mul(&x, (uint32_t)1 << (i < 29 ? i : 29));
    const int point = k < 0 ? -k : 0;
    for (int i = point; i > 0; i -= 13) {
        uint32_t p5 = 1;
        for (int j = 0; j < (i < 13 ? i : 13); j++) p5 *= 5;
        dec_mul(&x, p5);
    }
    /* the digits, most significant first, at least point + 1 of them */
    static char digits[1500];
    int nd = 0;
    for (int i = x.n - 1; i >= 0; i--)
        nd += snprintf(digits + nd, sizeof digits - (size_t)nd, i == x.n - 1 ? "%u" : "%09u",
                       (unsigned)x.w[i]);
    static char frac[1500];
    char *o = out;
    if (neg) *o++ = '-';
    int nf = 0;
    if (nd > point) {
        memcpy(o, digits, (size_t)(nd - point)), o += nd - point;
        memcpy(frac, digits + nd - point, (size_t)point), nf = point;
    } else {
        *o++ = '0';
        memset(frac, '0', (size_t)(point - nd));
        memcpy(frac + point - nd, digits, (size_t)nd), nf = point;
    }
    while (nf > 0 && frac[nf - 1] == '0') nf--;
    if (nf > 0) {
        *o++ = '.';
        memcpy(o, frac, (size_t)nf), o += nf;
    }
    *o = '\0';
}

/* The finite double d as m·2^k. */
static void split(double d, uint64_t *m, int *k) {
    uint64_t u = d2u(d) & ~((uint64_t)1 << 63);
    int e = (int)(u >> 52);
    *m = u & ((UINT64_C(1) << 52) - 1);
    if (e) *m |= UINT64_C(1) << 52;
    *k = (e ? e : 1) - 1075;
}

/* ---- the reference ----------------------------------------------------------- */

static int is_integer_spelling(const char *s) {
    return !strpbrk(s, ".eE");
}

static wai_decimal32_result reference(const char *s, uint32_t *bits) {
    *bits = 0;
    errno = 0;
    char *end;
    const double d = strtod(s, &end);
    if (*end) return WAI_DECIMAL32_SYNTAX;
    if (isinf(d)) return WAI_DECIMAL32_NO_VALUE;
    if (is_integer_spelling(s)) {
        /* That integer: it must be d exactly ("%.0f" writes d's exact value). */
        const char *digits = s[0] == '-' ? s + 1 : s;
        if (strcmp(digits, "0") == 0) return WAI_DECIMAL32_OK;
        static char back[400];
        snprintf(back, sizeof back, "%.0f", fabs(d));
        if (strcmp(back, digits) != 0) return WAI_DECIMAL32_NOT_BINARY32;
    }
    volatile float f = (float)d;
    if ((double)f != d) return WAI_DECIMAL32_NOT_BINARY32;
    *bits = f2u(f);
    return WAI_DECIMAL32_OK;
}

static int n_checked, n_bad;

static void check(const char *s) {
    uint32_t got, want;
    const wai_decimal32_result r = wai_decimal32_read(s, strlen(s), &got);
    const wai_decimal32_result w = reference(s, &want);
    n_checked++;
    if (r != w || (r == WAI_DECIMAL32_OK && got != want)) {
        if (n_bad++ < 10)
            CHECK_MSG(0, "%.120s: result %d bits %08x, strtod says %d bits %08x", s, r, got, w, want);
    }
    /* The binary64 reading alone, where strtod gives a finite value. */
    if (w != WAI_DECIMAL32_SYNTAX && !is_integer_spelling(s)) {
        uint64_t g64;
        const double d = strtod(s, NULL);
        const wai_decimal32_result r64 = wai_decimal64_read(s, strlen(s), &g64);
        if (isinf(d) ? r64 != WAI_DECIMAL32_NO_VALUE : (r64 != WAI_DECIMAL32_OK || g64 != d2u(d))) {
            if (n_bad++ < 10) CHECK_MSG(0, "%.120s: binary64 %016llx, strtod %016llx", s,
                                        (unsigned long long)g64, (unsigned long long)d2u(d));
        }
    }
}

/* A spelling's last digit moved by +1 (how > 0) or -1 (how < 0) where it
 * can be without a carry, or (how == 0) a 1 appended to its digits. */
static void nudged(const char *s, int how, char *out) {
    strcpy(out, s);
    char *e = strpbrk(out, "eE");
    if (how == 0) {
        char tail[64] = "";
        if (e) snprintf(tail, sizeof tail, "%s", e), *e = '\0';
        if (!strchr(out, '.')) strcat(out, ".");
        strcat(out, "1");
        strcat(out, tail);
        return;
    }
    char *last = (e ? e : out + strlen(out)) - 1;
    if (how > 0 && *last >= '0' && *last < '9') (*last)++;
    if (how < 0 && *last > '0' && *last <= '9') (*last)--;
}

static double random_double(void) {
    for (;;) {
        const double d = u2d(rnd());
        if (isfinite(d)) return d;
    }
}

static float random_float(void) {
    for (;;) {
        const uint32_t u = (uint32_t)rnd();
        float f;
        memcpy(&f, &u, 4);
        if (isfinite(f)) return f;
    }
}

static void test_random_spellings(unsigned part, unsigned parts) {
    static char s[1600], t[1700];
    n_checked = n_bad = 0;
    rng_at_stream(part);
    for (unsigned i = 0; i < SPELLINGS / parts; i++) {
        const unsigned kind = (unsigned)(rnd() % 10);
        if (kind <= 2) {
            /* a float, shortest round-trip and shorter forms */
            const int prec = kind == 0 ? 9 : 1 + (int)(rnd() % 9);
            snprintf(s, sizeof s, "%.*g", prec, (double)random_float());
        } else if (kind == 3) {
            /* a double at any exponent, subnormals included */
            snprintf(s, sizeof s, "%.17g", random_double());
        } else if (kind == 4) {
            /* a float written out exactly (every digit) */
            uint64_t m;
            int k;
            const double d = (double)random_float();
            split(d, &m, &k);
            exact(d < 0 || (d == 0 && signbit(d)), m, k, s);
        } else if (kind == 5 || kind == 6) {
            /* a halfway point between neighbours, exactly: binary64
             * (2m+1)·2^(k-1), or binary32's through its doubles */
            uint64_t m;
            int k;
            double d = kind == 5 ? random_double() : (double)random_float();
            if (kind == 5 && fabs(d) > 1e300) d = ldexp(d, -100);
            split(d, &m, &k);
            if (kind == 6) m >>= 29, k += 29;   /* a float's 24 bits */
            exact(signbit(d), 2 * m + 1, k - 1, s);
        } else if (kind == 7) {
            /* a subnormal (float or double), shortest and long */
            if (rnd() & 1) snprintf(s, sizeof s, "%.17g", u2d(rnd() >> 12));
            else snprintf(s, sizeof s, "%.9g", ldexp((double)(rnd() & 0x7fffff), -149));
        } else if (kind == 8) {
            /* an integer: around 2^24..2^128, small, or random digits */
            const unsigned w = (unsigned)(rnd() % 4);
            if (w == 0) snprintf(s, sizeof s, "%llu", (unsigned long long)(rnd() >> (rnd() % 64)));
            else if (w == 1) exact(rnd() & 1, (rnd() >> 40) + (rnd() & 1), (int)(rnd() % 110), s);
            else if (w == 2) exact(0, (rnd() >> 40) | 1, (int)(rnd() % 110), s);
            else {
                int n = 1 + (int)(rnd() % 45);
                s[0] = (char)('1' + rnd() % 9);
                for (int j = 1; j < n; j++) s[j] = (char)('0' + rnd() % 10);
                s[n] = '\0';
            }
        } else {
            /* exponents far out: zeros of either sign, past the range */
            snprintf(s, sizeof s, "%s%u.%ue%d", rnd() & 1 ? "-" : "", (unsigned)(rnd() % 10),
                     (unsigned)(rnd() % 1000), (int)(rnd() % 800) - 400);
        }
        check(s);
        /* nudges of the long exact forms and halfway points */
        if (kind >= 4 && kind <= 6) {
            nudged(s, 0, t), check(t);
            nudged(s, 1, t), check(t);
            nudged(s, -1, t), check(t);
        }
    }
    CHECK_MSG(n_bad == 0, "%d of %d spellings disagree with strtod", n_bad, n_checked);
    CHECK_MSG(n_checked >= 1000000 / (int)parts, "only %d spellings", n_checked);
    printf("decimal32: %d spellings checked against strtod\n", n_checked);
}

static void test_named_cases(void) {
    static const struct {
        const char *s;
        wai_decimal32_result r;
        uint32_t bits;
    } cases[] = {
        {"0", WAI_DECIMAL32_OK, 0},
        {"-0", WAI_DECIMAL32_OK, 0},               /* an integer: zero, so +0 */
        {"-0.0", WAI_DECIMAL32_OK, 0x80000000u},   /* the binary64 -0 */
        {"-0e5", WAI_DECIMAL32_OK, 0x80000000u},
        {"1e-400", WAI_DECIMAL32_OK, 0},           /* rounds to a zero of its sign */
        {"-1e-400", WAI_DECIMAL32_OK, 0x80000000u},
        {"1e400", WAI_DECIMAL32_NO_VALUE, 0},
        {"-1e999999999999999999999", WAI_DECIMAL32_NO_VALUE, 0},
        {"1e-999999999999999999999", WAI_DECIMAL32_OK, 0},
        {"1", WAI_DECIMAL32_OK, 0x3f800000u},
        {"1.0", WAI_DECIMAL32_OK, 0x3f800000u},
        {"1E0", WAI_DECIMAL32_OK, 0x3f800000u},
        {"0.1", WAI_DECIMAL32_NOT_BINARY32, 0},    /* binary64 0.1 is no binary32 */
        {"0.100000001490116119384765625", WAI_DECIMAL32_OK, 0x3dcccccdu},
        {"0.10000000149011612", WAI_DECIMAL32_OK, 0x3dcccccdu},
        {"16777216", WAI_DECIMAL32_OK, 0x4b800000u},
        {"16777217", WAI_DECIMAL32_NOT_BINARY32, 0},   /* 2^24 + 1: not rounded */
        {"16777217.0", WAI_DECIMAL32_NOT_BINARY32, 0}, /* a double, not a float */
        {"1152921504606846976", WAI_DECIMAL32_OK, 0x5d800000u},   /* 2^60 */
        {"1152921504606846977", WAI_DECIMAL32_NOT_BINARY32, 0},   /* 2^60 + 1 */
        {"1152921504606846977e0", WAI_DECIMAL32_OK, 0x5d800000u}, /* nearest binary64 is 2^60 */
        {"340282346638528859811704183484516925440", WAI_DECIMAL32_OK, 0x7f7fffffu},
        {"340282346638528859811704183484516925441", WAI_DECIMAL32_NOT_BINARY32, 0},
        {"340282366920938463463374607431768211456", WAI_DECIMAL32_NOT_BINARY32, 0},   /* 2^128 */
        {"3.4028234663852886e38", WAI_DECIMAL32_OK, 0x7f7fffffu},
        {"-3.4028234663852886e38", WAI_DECIMAL32_OK, 0xff7fffffu},
        {"3.4028235677973366e38", WAI_DECIMAL32_NOT_BINARY32, 0},   /* past binary32 */
        {"1.7976931348623157e308", WAI_DECIMAL32_NOT_BINARY32, 0},
        {"1.7976931348623159e308", WAI_DECIMAL32_NO_VALUE, 0},      /* rounds past the range */
        {"1.401298464324817e-45", WAI_DECIMAL32_OK, 0x00000001u},   /* 2^-149 */
        {"1.1754942106924411e-38", WAI_DECIMAL32_OK, 0x007fffffu},  /* largest subnormal */
        {"1.1754943508222875e-38", WAI_DECIMAL32_OK, 0x00800000u},  /* 2^-126 */
        {"7.006492321624085e-46", WAI_DECIMAL32_NOT_BINARY32, 0},   /* 2^-150 */
        {"4.9406564584124654e-324", WAI_DECIMAL32_NOT_BINARY32, 0}, /* 2^-1074 */
        {"2.4703282292062327e-324", WAI_DECIMAL32_OK, 0},           /* 2^-1075: tie to 0 */
        {"2.4703282292062328e-324", WAI_DECIMAL32_NOT_BINARY32, 0}, /* over it: 2^-1074 */
        {"01", WAI_DECIMAL32_SYNTAX, 0},
        {"1.", WAI_DECIMAL32_SYNTAX, 0},
        {".5", WAI_DECIMAL32_SYNTAX, 0},
        {"+1", WAI_DECIMAL32_SYNTAX, 0},
        {"1e", WAI_DECIMAL32_SYNTAX, 0},
        {"1e+", WAI_DECIMAL32_SYNTAX, 0},
        {"--1", WAI_DECIMAL32_SYNTAX, 0},
        {"-", WAI_DECIMAL32_SYNTAX, 0},
        {"", WAI_DECIMAL32_SYNTAX, 0},
        {"NaN", WAI_DECIMAL32_SYNTAX, 0},
        {"1 ", WAI_DECIMAL32_SYNTAX, 0},
        {"0x10", WAI_DECIMAL32_SYNTAX, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t bits = 0xdeadbeef;
        const wai_decimal32_result r = wai_decimal32_read(cases[i].s, strlen(cases[i].s), &bits);
        CHECK_MSG(r == cases[i].r && (r != WAI_DECIMAL32_OK || bits == cases[i].bits),
                  "%s: result %d bits %08x, want %d %08x", cases[i].s, r, bits, cases[i].r,
                  cases[i].bits);
    }
    /* A spelling longer than the 800 digits kept: the sticky digit decides.
     * 1 + 2^-24 is a binary32 halfway point between 1 and 1 + 2^-23 ... as a
     * binary64 it is a value, no binary32; the digits after it nudge the
     * binary64, never past binary32's check. And 2^-1075 (a binary64 tie,
     * 751 digits), then with a 1 after 1000 zeros: over the tie. */
    static char s[3000];
    exact(0, 1, -1075, s);
    uint32_t b;
    CHECK(wai_decimal32_read(s, strlen(s), &b) == WAI_DECIMAL32_OK && b == 0);
    size_t n = strlen(s);
    memset(s + n, '0', 1000);
    s[n + 1000] = '1', s[n + 1001] = '\0';
    uint64_t b64 = 0;
    CHECK_MSG(wai_decimal64_read(s, strlen(s), &b64) == WAI_DECIMAL32_OK && b64 == 1,
              "past the tie by 10^-1800: 2^-1074 (got %016llx)", (unsigned long long)b64);
    /* The same digits beyond the 800th of an integer spelling: refused. */
    memset(s, '1', 900);
    s[900] = '\0';
    CHECK(wai_decimal32_read(s, 900, &b) == WAI_DECIMAL32_NOT_BINARY32);
}

/* Significant digits of a spelling (leading and trailing zeros dropped). */
static int sig_digits(const char *s) {
    char d[64];
    int n = 0;
    for (const char *p = s; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '0' && *p <= '9') d[n++] = *p;
    int a = 0;
    while (a < n && d[a] == '0') a++;
    while (n > a && d[n - 1] == '0') n--;
    return n - a;
}

/* The export's spelling of a range (§10): the shortest decimal whose
 * binary64 is the binary32 widened. Held to printf's %.*e shortest search
 * with strtod, and read back by the exact reader. */
static void test_shortest(unsigned part, unsigned parts) {
    int bad = 0, n = 0;
    static const uint32_t named[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0x3dcccccdu, 0x00000001u,
                                     0x007fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x4b800000u,
                                     0x5d800000u, 0x60ad78ecu, 0x3eaaaaabu, 0x42c80000u};
    const int n_named = part == 0 ? (int)(sizeof named / sizeof named[0]) : 0;
    rng_at_stream(SPELLING_PARTS + part);
    for (int i = 0; i < 60000 / (int)parts + n_named; i++) {
        uint32_t bits = i < n_named ? named[i] : (uint32_t)rnd();
        if (((bits >> 23) & 0xff) == 0xff) continue;
        float f;
        memcpy(&f, &bits, 4);
        const double d = (double)f;
        char ours[64], ref[64];
        wai_binary32_shortest(bits, ours);
        int k = 1;
        for (; k <= 17; k++) {
            snprintf(ref, sizeof ref, "%.*e", k - 1, d);
            if (strtod(ref, NULL) == d) break;
        }
        uint32_t back = 0;
        const int ok = wai_decimal32_read(ours, strlen(ours), &back) == WAI_DECIMAL32_OK &&
                       back == bits && d2u(strtod(ours, NULL)) == d2u(d) &&
                       (d == 0 || sig_digits(ours) == k);
        if (!ok && bad++ < 10) CHECK_MSG(0, "%08x: %s (shortest by printf: %d digits)", bits, ours, k);
        n++;
    }
    CHECK_MSG(bad == 0, "%d of %d binary32 spellings wrong", bad, n);
}

void suite_decimal32(void) {
    harness_run_parts("decimal32_shortest", 4, test_shortest);
    harness_run("decimal32_named_cases", test_named_cases);
    harness_run_parts("decimal32_random_spellings", SPELLING_PARTS, test_random_spellings);
}
