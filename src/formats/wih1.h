/* SPDX-License-Identifier: BSD-2-Clause */
/* WIH1, the integer conditional image codec's payload (integer-payloads §4). */
#ifndef WAI_FORMATS_WIH1_H
#define WAI_FORMATS_WIH1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/sections.h"

#define WAI_WIH1_HEADER_BYTES 32

typedef struct wai_wih1 {
    uint32_t m, sh, sw;        /* latent channels, height, width */
    uint32_t n_z, zh, zw;      /* hyper-latent channels, height, width */
    wai_stream_view z_stream;  /* the hyper-latent stream */
    wai_stream_view y_stream;  /* the latent stream */
} wai_wih1;

/* Parses a whole WIH1 payload in §2's order. `nested` is set for the keyframe
 * inside a WIV1 or WIF1, whose leftover bytes are nested_length, not trailing
 * (reading R3). */
WAI_SIBLING wai_status wai_wih1_parse(const uint8_t *data, size_t len, int nested, wai_wih1 *out);

/* A keyframe section of WIV1 or a WIF1 intra frame: u32 K, K exactly the
 * bytes that remain (absent or larger: stream_length; smaller:
 * nested_length; reading R3), then a WIH1 parsed within K. */
wai_status wai_read_nested_keyframe(wai_reader *r, const uint8_t **key, size_t *key_len,
                                    wai_wih1 *header);

/* The parsed header as a JSON object (wai_payload_header_json):
 * m, sh, sw, n_z, zh, zw and the two streams' byte counts. */
void wai_wih1_describe(const wai_wih1 *h, wai_text *t);

/* The largest WIH1: the header, then the hyper-latent and latent streams. */
#define WAI_WIH1_MAX_BYTES (32 + 2 * WAI_STREAM_MAX_BYTES)

#endif
