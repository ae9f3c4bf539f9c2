/* SPDX-License-Identifier: BSD-2-Clause */
/* B18F, libwai's payload of wai.neural.bmshj2018 (docs/bmshj2018.md): the
 * picture's size, the latent's shape and one E1 stream of its symbols,
 * channel after channel. */
#ifndef WAI_FORMATS_B18F_H
#define WAI_FORMATS_B18F_H

#include "common/text.h"
#include "formats/sections.h"

#define WAI_B18F_HEADER_BYTES 28
#define WAI_B18F_STRIDE 16 /* the synthesis's upsampling: 2^4 */

typedef struct wai_b18f {
    uint32_t height, width;   /* the picture */
    uint32_t m, lh, lw;       /* the latent [m, lh, lw] */
    wai_stream_view stream;
} wai_b18f;

/* Parses a whole payload, checking in this order: §2 steps 1-3 (bad_magic,
 * format_capability_mismatch, stream_length, version); reserved bytes
 * (reserved_nonzero); height, width, m at least 1, lh = ceil(height / 16)
 * and lw = ceil(width / 16) (field_range); the caps of §7, the latent's
 * and the picture's elements at most 2^26 (too_large); the stream
 * (stream_length); nothing after it (trailing). */
wai_status wai_b18f_parse(const uint8_t *data, size_t len, wai_b18f *out);

void wai_b18f_describe(const wai_b18f *b, wai_text *t);

/* The largest B18F: the header and one stream. */
#define WAI_B18F_MAX_BYTES (WAI_B18F_HEADER_BYTES + WAI_STREAM_MAX_BYTES)

#endif
