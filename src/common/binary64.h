/* SPDX-License-Identifier: BSD-2-Clause */
/* IEEE 754 binary64 arithmetic where a spec fixes it, done in integers (the
 * integer library holds no floating point): a receipt's
 * uj_per_kilopixel_op (integer-payloads §15.2) is joules_micro × 1000 /
 * work_pixel_ops "computed in IEEE 754 binary64 (the product, then the
 * quotient) and written with six digits after the point, correctly
 * rounded". Each operand is converted to binary64 and each step rounded to
 * nearest, ties to even, as a binary64 machine does; the result's exact
 * value is then rounded to six decimals, ties to even (as glibc's printf
 * "%.6f" does). */
#ifndef WAI_COMMON_BINARY64_H
#define WAI_COMMON_BINARY64_H

#include <stddef.h>
#include <stdint.h>

#include "common/checked.h"   /* wai_bitlen64 */

/* A finite binary64 magnitude as m·2^e (m < 2^53; m == 0 for a zero). */
typedef struct wai_b64 {
    uint64_t m;
    int e;
} wai_b64;

/* m·2^e2, plus something below it when sticky, rounded to binary64 as a
 * machine rounds: to nearest, ties to even, subnormals included (under
 * half of 2^-1074 is a zero). 1, or 0 when it rounds past the range. */
int wai_b64_round(uint64_t m, int e2, int sticky, wai_b64 *out);

/* The exact decimal digits of m·2^e (|e| <= 150), most significant first
 * (no leading zero; "0" for m == 0), into digits (WAI_EXACT_DECIMAL_MAX
 * bytes); *exp10 is the decimal exponent of the last digit's unit (the
 * value is digits · 10^*exp10). Returns the digit count, 0 for e out of
 * range. */
#define WAI_EXACT_DECIMAL_MAX 224
int wai_exact_decimal(uint64_t m, int e, char *digits, int *exp10);

/* a × b / c in binary64 (each of a, b and c converted, the product rounded,
 * then the quotient), written "%.6f"-style into out (64 bytes at least,
 * NUL-terminated); returns its length. c must not be 0. */
size_t wai_binary64_muldiv_text(uint64_t a, uint64_t b, uint64_t c, char *out);

#endif
