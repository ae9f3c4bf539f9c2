/* SPDX-License-Identifier: BSD-2-Clause */
/* WCF1, one frame of wai.video.int_cond (integer-payloads §17.1): the
 * frame's size, the latent's and the reference feature's shapes and one
 * E1 stream. The header alone sizes the frame, so it parses without the
 * frames before it. */
#ifndef WAI_FORMATS_WCF1_H
#define WAI_FORMATS_WCF1_H

#include "common/text.h"
#include "formats/sections.h"

#define WAI_WCF1_HEADER_BYTES 32

enum { WAI_WCF1_INTRA = 0, WAI_WCF1_INTER = 1 };

typedef struct wai_wcf1 {
    uint32_t kind;
    uint32_t h, w;            /* the frame */
    uint32_t m, sh, sw;       /* the latent [m, sh, sw] */
    uint32_t cf;              /* the reference feature [cf, sh, sw] */
    wai_stream_view stream;
} wai_wcf1;

/* Parses a whole frame in §2's order: the framing (bad_magic,
 * format_capability_mismatch, stream_length, version), the reserved bytes
 * (reserved_nonzero), kind then h, w, m, sh, sw and cf (field_range), the
 * frame h·w·3, the scales and means 2·m·sh·sw and the feature cf·sh·sw at
 * most 2^26 each (too_large), the stream (stream_length), nothing after it
 * (trailing). */
wai_status wai_wcf1_parse(const uint8_t *data, size_t len, wai_wcf1 *out);

/* 1 when two frames share the header fields h to cf. */
int wai_wcf1_same_header(const wai_wcf1 *a, const wai_wcf1 *b);

void wai_wcf1_describe(const wai_wcf1 *f, wai_text *t);

#define WAI_WCF1_MAX_BYTES (WAI_WCF1_HEADER_BYTES + WAI_STREAM_MAX_BYTES)

#endif
