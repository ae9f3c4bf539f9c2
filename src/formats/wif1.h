/* SPDX-License-Identifier: BSD-2-Clause */
/* WIF1, one frame of integer inter-frame video (integer-payloads §16). */
#ifndef WAI_FORMATS_WIF1_H
#define WAI_FORMATS_WIF1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/sections.h"
#include "formats/wih1.h"

#define WAI_WIF1_HEADER_BYTES 32
#define WAI_WIF1_INTRA 0
#define WAI_WIF1_INTER 1

typedef struct wai_wif1 {
    uint8_t kind;              /* 0 intra, 1 inter */
    uint8_t keyframe;          /* the capability's kind (0 or 1) */
    uint8_t mv_precision;      /* inter: 1 or 2; intra: 0 */
    uint32_t h, w;
    uint32_t block;            /* inter: >= 1; intra: 0 */
    uint32_t q;                /* intra: 1..65535; inter: 0 */
    int32_t offset;            /* intra: the group's; inter: 0 */
    uint32_t cdf_len;          /* intra: 3..4097; inter: 0 */
    uint64_t nb;               /* inter: blocks per frame */
    uint32_t nbx;
    const uint8_t *cdf;        /* intra: the group's residual table */
    const uint8_t *vectors;    /* inter: nb pairs of i16 dy, dx */
    wai_stream_view residual;  /* absent for an intra frame with keyframe 1 */
    const uint8_t *key;        /* intra with keyframe 1: the WIH1's K bytes */
    size_t key_len;
    wai_wih1 key_header;
} wai_wif1;

WAI_SIBLING wai_status wai_wif1_parse(const uint8_t *data, size_t len, int capability_keyframe,
                                      wai_wif1 *out);

/* The parsed header as a JSON object (wai_payload_header_json): an intra
 * frame of keyframe 1 with its WIH1's header, else its stream's bytes. */
void wai_wif1_describe(const wai_wif1 *f, wai_text *t);

/* The largest WIF1: the header, then the larger of an intra frame (table,
 * then a stream or "4 + K" with a WIH1) and an inter frame (2·nb i16
 * components and a stream); the inter frame is the larger for both kinds. */
#define WAI_WIF1_INTER_MAX_BYTES (32 + 2 * WAI_ELEMS_MAX + WAI_STREAM_MAX_BYTES)
#define WAI_WIF1_K0_INTRA_MAX_BYTES (32 + WAI_TABLE_MAX_BYTES + WAI_STREAM_MAX_BYTES)
#define WAI_WIF1_K1_INTRA_MAX_BYTES (32 + WAI_TABLE_MAX_BYTES + 4 + WAI_WIH1_MAX_BYTES)
#define WAI_WIF1_MAX_BYTES(intra)                                                       \
    ((intra) > WAI_WIF1_INTER_MAX_BYTES ? (intra) : WAI_WIF1_INTER_MAX_BYTES)

#endif
