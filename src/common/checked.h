/* SPDX-License-Identifier: BSD-2-Clause */
/* Checked 64-bit size arithmetic (integer-payloads §7: "every size is formed
 * in 64-bit arithmetic with overflow checked, and a size past 64 bits is past
 * the cap"). A result that does not fit saturates to UINT64_MAX, which is
 * past every cap, so a chain of saturating steps ends past the cap exactly
 * when the exact value is; a 32-bit build refuses what a 64-bit one does. */
#ifndef WAI_COMMON_CHECKED_H
#define WAI_COMMON_CHECKED_H

#include <stdint.h>
#include <stddef.h>

#define WAI_SIZE_SATURATED UINT64_MAX

static inline uint64_t wai_sat_add(uint64_t a, uint64_t b) {
    return (a > UINT64_MAX - b) ? UINT64_MAX : a + b;
}

static inline uint64_t wai_sat_mul(uint64_t a, uint64_t b) {
    if (a == 0 || b == 0) return 0;
    return (a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

static inline uint64_t wai_sat_mul3(uint64_t a, uint64_t b, uint64_t c) {
    return wai_sat_mul(wai_sat_mul(a, b), c);
}

/* Exact: returns 1 and writes *out when a*b fits 64 bits, else 0. */
static inline int wai_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a != 0 && b > UINT64_MAX / a) return 0;
    *out = a * b;
    return 1;
}

static inline int wai_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a > UINT64_MAX - b) return 0;
    *out = a + b;
    return 1;
}

/* ceil(a / b) for b >= 1, without overflow. */
static inline uint64_t wai_ceil_div(uint64_t a, uint64_t b) {
    return a / b + (a % b != 0);
}

/* A 64-bit size that the caller may turn into size_t (fits this target). */
static inline int wai_fits_size(uint64_t v) {
    return v <= (uint64_t)SIZE_MAX;
}

/* A length a u32 field can hold (a parameter, so a 32-bit size_t argument
 * draws no always-true comparison). */
static inline int wai_fits_u32(uint64_t v) {
    return v <= UINT32_MAX;
}

/* The bit length of v (0 for 0). */
static inline int wai_bitlen64(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return v ? 64 - __builtin_clzll(v) : 0;
#else
    int n = 0;
    for (; v; v >>= 1) n++;
    return n;
#endif
}

/* The caps of integer-payloads §7 (R4: equality allowed). */
#define WAI_CAP_ELEMENTS   ((uint64_t)1 << 26)
#define WAI_CAP_CLIP_BYTES ((uint64_t)1 << 30)
#define WAI_CAP_FRAMES     ((uint64_t)1 << 20)

#endif
