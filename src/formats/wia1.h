/* SPDX-License-Identifier: BSD-2-Clause */
/* WIA1, the integer learned audio codec's payload (integer-payloads §5). */
#ifndef WAI_FORMATS_WIA1_H
#define WAI_FORMATS_WIA1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/sections.h"

#define WAI_WIA1_HEADER_BYTES 32
#define WAI_WIA1_AFRAC_MAX 30   /* afrac in 1..=30 (§5) */

typedef struct wai_wia1 {
    uint8_t afrac;             /* 1..30: the fixed-point scale 2^afrac */
    uint32_t sr;               /* the sample rate, in hertz */
    uint32_t n_ch, lat_len;    /* the latent [n_ch, lat_len] */
    uint32_t t_out;            /* samples presented */
    int32_t offset;            /* every channel's symbol offset */
    uint32_t cdf_len;          /* every channel's table length, 3..4097 */
    const uint8_t *medians;    /* n_ch little-endian i64 (no parse rule, N2) */
    const uint8_t *tables;     /* n_ch tables of cdf_len little-endian u32, channel after
                                * channel; each keeps §2's rule */
    wai_stream_view stream;    /* the latent stream */
} wai_wia1;

/* Parses a whole WIA1 payload in §2's order. The views point into data. */
WAI_SIBLING wai_status wai_wia1_parse(const uint8_t *data, size_t len, wai_wia1 *out);

/* Channel k's median (k < n_ch). */
static inline int64_t wai_wia1_median(const wai_wia1 *a, uint32_t k) {
    return wai_i64_from_u64(wai_load_u64le(a->medians + 8 * (size_t)k));
}

/* Channel k's table: cdf_len little-endian u32 (wai_cdf_from_bytes copies it). */
static inline const uint8_t *wai_wia1_table(const wai_wia1 *a, uint32_t k) {
    return a->tables + 4 * (size_t)k * a->cdf_len;
}

/* The parsed header as a JSON object (wai_payload_header_json). */
void wai_wia1_describe(const wai_wia1 *a, wai_text *t);

/* The largest WIA1: n_ch ≤ 2^26 (n_ch·lat_len is capped), each with a
 * median and a table, then the stream. */
#define WAI_WIA1_MAX_BYTES (32 + WAI_ELEMS_MAX * (8 + WAI_TABLE_MAX_BYTES) + WAI_STREAM_MAX_BYTES)

#endif
