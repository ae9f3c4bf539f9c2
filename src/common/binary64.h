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

/* a × b / c in binary64 (each of a, b and c converted, the product rounded,
 * then the quotient), written "%.6f"-style into out (64 bytes at least,
 * NUL-terminated); returns its length. c must not be 0. */
size_t wai_binary64_muldiv_text(uint64_t a, uint64_t b, uint64_t c, char *out);

#endif
