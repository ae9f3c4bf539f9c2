/* SPDX-License-Identifier: BSD-2-Clause */
/* WIV1, integer inter-frame video (integer-payloads §3). */
#ifndef WAI_FORMATS_WIV1_H
#define WAI_FORMATS_WIV1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/sections.h"
#include "formats/wih1.h"

#define WAI_WIV1_HEADER_BYTES 36

typedef struct wai_wiv1 {
    uint8_t mv_precision;      /* 1 whole-pel, 2 half-pel */
    uint8_t keyframe;          /* 0: frame 0 predicted from 128; 1: a nested WIH1 */
    uint32_t n_frames, h, w, block, q;
    int32_t offset;
    uint32_t cdf_len;
    uint64_t nb;               /* blocks per frame: ceil(h/block) * ceil(w/block) */
    uint32_t nbx;              /* blocks per row */
    const uint8_t *cdf;        /* cdf_len little-endian u32 */
    const uint8_t *vectors;    /* (n_frames - 1) * nb pairs of i16 dy, dx */
    wai_stream_view residual;
    const uint8_t *key;        /* keyframe 1: the nested WIH1's K bytes */
    size_t key_len;
    wai_wih1 key_header;
} wai_wiv1;

/* Parses a WIV1 payload of the capability whose keyframe kind is
 * `capability_keyframe` (0 wai.video.int_motion, 1 wai.video.int_hyper). */
WAI_SIBLING wai_status wai_wiv1_parse(const uint8_t *data, size_t len, int capability_keyframe,
                                      wai_wiv1 *out);

/* Motion vector i of the field, in units of 1/mv_precision pel. */
static inline void wai_wiv1_vector(const wai_wiv1 *v, uint64_t i, int16_t *dy, int16_t *dx) {
    const uint8_t *p = v->vectors + 4 * i;
    *dy = wai_i16_from_u16(wai_load_u16le(p));
    *dx = wai_i16_from_u16(wai_load_u16le(p + 2));
}

/* The header's blocks per frame (1 <= block), saturating. */
WAI_SIBLING uint64_t wai_blocks_per_frame(uint32_t h, uint32_t w, uint32_t block);

/* The parsed header as a JSON object (wai_payload_header_json), with
 * the keyframe's WIH1 header when keyframe is 1. */
void wai_wiv1_describe(const wai_wiv1 *v, wai_text *t);

/* The largest WIV1: the header, the residual table, the vectors
 * (2·nb·(n_frames − 1) i16 components), the residual stream, and for
 * keyframe 1 "4 + K", K a WIH1. */
#define WAI_WIV1_K0_MAX_BYTES (36 + WAI_TABLE_MAX_BYTES + 2 * WAI_ELEMS_MAX + WAI_STREAM_MAX_BYTES)
#define WAI_WIV1_K1_MAX_BYTES (WAI_WIV1_K0_MAX_BYTES + 4 + WAI_WIH1_MAX_BYTES)

#endif
