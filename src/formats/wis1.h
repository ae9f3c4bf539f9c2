/* SPDX-License-Identifier: BSD-2-Clause */
/* WIS1, the integer learned Gaussian-splat attribute codec's payload
 * (integer-payloads §6). */
#ifndef WAI_FORMATS_WIS1_H
#define WAI_FORMATS_WIS1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/sections.h"

#define WAI_WIS1_HEADER_BYTES 32
#define WAI_WIS1_AFRAC_MAX 30  /* afrac in 1..=30 (§6) */

typedef struct wai_wis1 {
    uint8_t afrac;             /* 1..30 */
    uint32_t c, sh, sw;        /* the latent [c, sh, sw] */
    uint32_t s, attr;          /* the output [attr, s, s] */
    uint32_t n_gaussians;      /* 1..s·s */
    const uint8_t *ranges;     /* attr pairs of little-endian u32: the binary32 bit
                                * patterns of lo, then hi; finite, lo <= hi */
    const uint8_t *lengths;    /* c little-endian u16 table lengths, 3..4097 */
    const uint8_t *offsets;    /* c little-endian i32 symbol offsets */
    const uint8_t *medians;    /* c little-endian i64 (no parse rule, N2) */
    const uint8_t *tables;     /* the tables, channel after channel, little-endian u32;
                                * each keeps §2's rule */
    uint64_t table_entries;    /* the lengths' sum */
    wai_stream_view stream;    /* the latent stream */
} wai_wis1;

/* Parses a whole WIS1 payload in §2's order. The views point into data. */
WAI_SIBLING wai_status wai_wis1_parse(const uint8_t *data, size_t len, wai_wis1 *out);

/* Channel k's table length, offset and median (k < c). Channel k's table
 * starts after the tables of channels 0..k-1 (a decoder walks them in order). */
static inline uint32_t wai_wis1_length(const wai_wis1 *v, uint32_t k) {
    return wai_load_u16le(v->lengths + 2 * (size_t)k);
}
static inline int32_t wai_wis1_offset(const wai_wis1 *v, uint32_t k) {
    return wai_i32_from_u32(wai_load_u32le(v->offsets + 4 * (size_t)k));
}
static inline int64_t wai_wis1_median(const wai_wis1 *v, uint32_t k) {
    return wai_i64_from_u64(wai_load_u64le(v->medians + 8 * (size_t)k));
}
/* Plane i's range as binary32 bit patterns. */
static inline void wai_wis1_range(const wai_wis1 *v, uint32_t i, uint32_t *lo, uint32_t *hi) {
    *lo = wai_load_u32le(v->ranges + 8 * (size_t)i);
    *hi = wai_load_u32le(v->ranges + 8 * (size_t)i + 4);
}

/* binary32 by its bit pattern, with no floating-point type (none may appear
 * under src/): finite is an exponent field other than all ones (so every
 * infinity and every NaN pattern is not), and two finite values compare as
 * IEEE 754 does, +0 and -0 equal (reading N10). */
static inline int wai_f32_bits_finite(uint32_t b) {
    return (b & 0x7F800000u) != 0x7F800000u;
}
/* For finite patterns: the value's order as a signed magnitude. Finite
 * binary32 magnitudes are ordered as their bit patterns (sign cleared), so
 * this is monotonic in the value, and both zeros map to 0. */
static inline int64_t wai_f32_bits_order(uint32_t b) {
    int64_t m = (int64_t)(b & 0x7FFFFFFFu);
    return (b & 0x80000000u) ? -m : m;
}
/* 1 when lo and hi are finite and lo <= hi: §6's rule for one range. */
static inline int wai_f32_range_valid(uint32_t lo, uint32_t hi) {
    return wai_f32_bits_finite(lo) && wai_f32_bits_finite(hi) &&
           wai_f32_bits_order(lo) <= wai_f32_bits_order(hi);
}

/* The parsed header as a JSON object (wai_payload_header_json). */
void wai_wis1_describe(const wai_wis1 *s, wai_text *t);

/* The largest WIS1: attr ≤ 2^26 ranges of 8 bytes; c ≤ 2^26 channels,
 * each with a length, an offset, a median and a table; then the stream. */
#define WAI_WIS1_MAX_BYTES                                                               \
    (32 + WAI_ELEMS_MAX * 8 + WAI_ELEMS_MAX * (2 + 4 + 8 + WAI_TABLE_MAX_BYTES) +        \
     WAI_STREAM_MAX_BYTES)

#endif
