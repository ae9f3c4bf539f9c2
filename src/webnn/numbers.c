/* SPDX-License-Identifier: BSD-2-Clause */
/* float16 conversions and decimal number text (see ml.h). */
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "webnn/ml.h"

uint16_t wai_ml_f16_from_f32(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xFFu, man = x & 0x7FFFFFu;
    if (exp == 0xFF) return (uint16_t)(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0));
    /* The value as an integer count of 2^-24 (the smallest subnormal),
     * shifted so that rounding is one step. */
    int e = (int)exp - 127;
    if (e > 15) return (uint16_t)(sign | 0x7C00u);
    if (e >= -14) {
        /* Normal: 10 mantissa bits, round the 13 dropped ones to even. */
        uint32_t m = man >> 13, rest = man & 0x1FFFu;
        uint32_t h = ((uint32_t)(e + 15) << 10) | m;
        if (rest > 0x1000u || (rest == 0x1000u && (m & 1))) h++; /* may carry into the exponent */
        return (uint16_t)(sign | h);
    }
    if (e < -25) return sign; /* below half the smallest subnormal */
    /* Subnormal: the full significand shifted right. */
    uint32_t full = man | 0x800000u;
    unsigned shift = (unsigned)(-14 - e) + 13; /* 14..24 */
    uint32_t m = full >> shift, rest = full & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (m & 1))) m++;
    return (uint16_t)(sign | m);
}

float wai_ml_f32_from_f16(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    uint32_t x;
    if (exp == 0x1F) {
        x = sign | 0x7F800000u | (man << 13);
    } else if (exp) {
        x = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man) {
        /* Subnormal: normalise. */
        int e = -1;
        do {
            man <<= 1;
            e++;
        } while (!(man & 0x400u));
        x = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3FFu) << 13);
    } else {
        x = sign;
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

int wai_ml_number_from_text(const char *text, size_t len, double *out) {
    char buf[512];
    if (!text || len == 0 || len >= sizeof buf) return 0;
    /* strtod reads the locale's decimal point; JSON's is '.'. */
    const struct lconv *lc = localeconv();
    char point = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (!((ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' || ch == 'e' ||
              ch == 'E'))
            return 0;
        buf[i] = ch == '.' ? point : ch;
    }
    buf[len] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + len) return 0;
    *out = v;
    return 1;
}
