/* SPDX-License-Identifier: BSD-2-Clause */
/* The payload writers (the inverse of each format's parse, formats/):
 * each takes the payload's parts, writes the bytes in the format's order and
 * parses them back, so it refuses what a parser would, with the parser's
 * code. Nothing is sized or allocated before the header passes §2 steps
 * 1-6. The output is from `a` (wai_free). Part of libwai_write: the decoder
 * core holds no writer. */
#ifndef WAI_WRITE_PAYLOADS_H
#define WAI_WRITE_PAYLOADS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"
#include "formats/wia1.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "formats/wim1.h"
#include "formats/wiv1.h"
#include "wai/wai.h"

typedef struct wai_wih1_parts {
    uint32_t m, sh, sw, n_z, zh, zw;
    const uint8_t *z_stream;
    size_t z_len;
    const uint8_t *y_stream;
    size_t y_len;
} wai_wih1_parts;

/* Writes a payload, refusing (with the parser's code) what a parser would. */
wai_status wai_wih1_write(const wai_allocator *a, const wai_wih1_parts *p, uint8_t **out,
                          size_t *out_len);

/* A WIM1's parts: the picture g_s makes, the slices, and the latents'
 * shapes and streams as a WIH1's (m is Cy, sh and sw Yh and Yw, n_z Cz). */
typedef struct wai_wim1_parts {
    uint32_t h, w, k;
    wai_wih1_parts latents;
} wai_wim1_parts;

/* Writes a WIM1 (§14), refusing what its parser would (payload_malformed;
 * a field past its u16 or u32 too), or a stream past 2^32 - 1 bytes
 * (stream_length). */
wai_status wai_wim1_write(const wai_allocator *a, const wai_wim1_parts *p, uint8_t **out,
                          size_t *out_len);

typedef struct wai_wiv1_parts {
    uint8_t mv_precision, keyframe;
    uint32_t n_frames, h, w, block, q;
    int32_t offset;
    const uint32_t *cdf;
    uint32_t cdf_len;
    const int16_t *vectors;    /* (n_frames - 1) * nb * 2 values: dy, dx */
    const uint8_t *stream;     /* the residual stream, without its length */
    size_t stream_len;
    const uint8_t *key;        /* keyframe 1: a WIH1 payload */
    size_t key_len;
} wai_wiv1_parts;

/* The header's checks alone (§2 steps 1-6 and §7's caps, in the parse's
 * order): WAI_ok with *v's fields (nb among them), or the parse's code.
 * A caller sizes the vectors from v only after this passes. */
wai_status wai_wiv1_check_header(const wai_wiv1_parts *p, wai_wiv1 *v);

/* Writes a payload; refuses, with the parser's code, what a parser would. */
wai_status wai_wiv1_write(const wai_allocator *a, const wai_wiv1_parts *p, uint8_t **out,
                          size_t *out_len);

typedef struct wai_wif1_parts {
    uint8_t kind, keyframe, mv_precision;
    uint32_t h, w, block, q;
    int32_t offset;
    const uint32_t *cdf;       /* intra */
    uint32_t cdf_len;
    const int16_t *vectors;    /* inter: nb * 2 values */
    const uint8_t *stream;     /* keyframe 0 intra, and every inter frame */
    size_t stream_len;
    const uint8_t *key;        /* intra with keyframe 1 */
    size_t key_len;
} wai_wif1_parts;

wai_status wai_wif1_write(const wai_allocator *a, const wai_wif1_parts *p, uint8_t **out,
                          size_t *out_len);

typedef struct wai_wia1_parts {
    uint8_t afrac;
    uint32_t sr, n_ch, lat_len, t_out;
    int32_t offset;
    uint32_t cdf_len;
    const int64_t *medians;    /* n_ch */
    const uint32_t *cdfs;      /* n_ch * cdf_len entries, channel after channel */
    const uint8_t *stream;     /* the latent stream, without its length */
    size_t stream_len;
} wai_wia1_parts;

/* Writes a payload; refuses, with the parser's code, what a parser would.
 * Nothing is sized or allocated before the header passes §2 steps 1-6. */
wai_status wai_wia1_write(const wai_allocator *a, const wai_wia1_parts *p, uint8_t **out,
                          size_t *out_len);

typedef struct wai_wis1_parts {
    uint8_t afrac;
    uint32_t c, sh, sw, s, attr, n_gaussians;
    const uint32_t *ranges;    /* attr * 2 binary32 bit patterns: lo, hi of each plane */
    const uint16_t *lengths;   /* c */
    const int32_t *offsets;    /* c */
    const int64_t *medians;    /* c */
    const uint32_t *cdfs;      /* the lengths' sum of entries, channel after channel */
    const uint8_t *stream;     /* the latent stream, without its length */
    size_t stream_len;
} wai_wis1_parts;

/* Writes a payload; refuses, with the parser's code, what a parser would.
 * Nothing is sized or allocated before the header passes §2 steps 1-6 and
 * the ranges and lengths keep their rules. */
wai_status wai_wis1_write(const wai_allocator *a, const wai_wis1_parts *p, uint8_t **out,
                          size_t *out_len);

/* ---- what every writer shares ---------------------------------------------- */

/* A header parsed alone passes steps 1-6 and stops at its first section,
 * "not present" (WAI_stream_length): that is the pass. Any other refusal is
 * the writer's answer; WAI_ok (a header needing no sections) cannot be. */
static inline wai_status wai_header_passed(wai_status parsed) {
    return parsed == WAI_stream_length ? WAI_ok : parsed == WAI_ok ? WAI_invalid_argument : parsed;
}

/* The buffer for a payload of total bytes, the header_len bytes of header
 * (if any) copied to its start: WAI_too_large where this target cannot
 * address it. */
static inline wai_status wai_write_buffer(const wai_allocator *a, uint64_t total,
                                          const uint8_t *header, size_t header_len, uint8_t **b) {
    if (!wai_fits_size(total)) return WAI_too_large;
    if ((*b = wai_alloc(a, (size_t)total)) == NULL) return WAI_out_of_memory;
    if (header_len) memcpy(*b, header, header_len);
    return WAI_ok;
}

/* A length-prefixed part: n as u32 LE, then its n bytes. Returns 4 + n. */
static inline size_t wai_put_sized(uint8_t *at, const uint8_t *bytes, size_t n) {
    wai_store_u32le(at, (uint32_t)n);
    if (n) memcpy(at + 4, bytes, n);
    return 4 + n;
}

/* Hands written bytes b (len of them) to the caller once the format's own
 * parse of them (its status, parsed) passed; frees them otherwise. */
static inline wai_status wai_written(const wai_allocator *a, uint8_t *b, size_t len,
                                     wai_status parsed, uint8_t **out, size_t *out_len) {
    if (parsed != WAI_ok) {
        wai_free(a, b);
        return parsed;
    }
    *out = b;
    *out_len = len;
    return WAI_ok;
}

#endif
