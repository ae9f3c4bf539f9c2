/* SPDX-License-Identifier: BSD-2-Clause */
/* A JSON number read exactly as a binary32 value, in integer arithmetic
 * (integer-payloads §10, WIS1's ranges; docs/json.md "Exact binary32"):
 *   - a spelling with no fraction and no exponent is that integer, which
 *     must be a binary32 value (2^60 + 1 is refused, not rounded); "-0" is
 *     zero, so +0;
 *   - any other spelling denotes the binary64 value nearest it, ties to
 *     even (one that rounds to zero is a zero of its sign; one past the
 *     binary64 range is no value), and that must be a binary32 value.
 * No parser of the platform decides: the digits are a big integer (the first
 * 800 significant ones, then one sticky digit, which keeps every rounding:
 * a binary64 halfway point has at most 767 significant digits). */
#ifndef WAI_WRITE_DECIMAL32_H
#define WAI_WRITE_DECIMAL32_H

#include <stddef.h>
#include <stdint.h>

typedef enum wai_decimal32_result {
    WAI_DECIMAL32_OK = 0,
    WAI_DECIMAL32_SYNTAX,        /* not a JSON number */
    WAI_DECIMAL32_NO_VALUE,      /* past the binary64 range */
    WAI_DECIMAL32_NOT_BINARY32   /* a value, but no binary32 one */
} wai_decimal32_result;

/* Reads text[0..len) (a JSON number, nothing around it); on OK *bits is
 * the binary32 encoding. */
wai_decimal32_result wai_decimal32_read(const char *text, size_t len, uint32_t *bits);

/* The binary64 nearest a non-integer spelling, as its encoding (the same
 * reading without the binary32 check; integer spellings too, rounded):
 * for tests and for readers of binary64 members. */
wai_decimal32_result wai_decimal64_read(const char *text, size_t len, uint64_t *bits);

/* The shortest JSON number whose binary64 reading is the binary32 value
 * `bits` widened (what an export writes for a WIS1 range, §10), into out
 * (48 bytes at least, NUL-terminated); returns its length. An integer
 * spelling only for an integer under 10^15; -0 is "-0.0". bits must be
 * finite. wai_decimal32_read of the text gives bits back. */
size_t wai_binary32_shortest(uint32_t bits, char *out);

#endif
