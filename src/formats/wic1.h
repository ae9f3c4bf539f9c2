/* SPDX-License-Identifier: BSD-2-Clause */
/* WIC1, a clip of wai.video.int_cond (integer-payloads §17.2): n_frames
 * WCF1 frames, each behind its u32 length; one group of the frame form. */
#ifndef WAI_FORMATS_WIC1_H
#define WAI_FORMATS_WIC1_H

#include "common/sibling.h"
#include "common/text.h"
#include "formats/wcf1.h"

#define WAI_WIC1_HEADER_BYTES 12

typedef struct wai_wic1 {
    uint32_t n_frames;        /* 1..2^20 */
    wai_wcf1 first;           /* frame 0, intra; every later frame shares its header */
    const uint8_t *frames;    /* the frames' sections, from byte 12 (a view) */
    size_t frames_len;
} wai_wic1;

/* Parses a whole clip in §17.2's order (readings S14-S16): the framing and
 * the 12-byte header (stream_length); reserved (reserved_nonzero);
 * n_frames 0 (field_range) or past 2^20 (too_large); then frame by frame:
 * F and its bytes present (stream_length), the WCF1 parse of those bytes
 * (its codes; a WCF1 inside F with bytes after its stream is trailing),
 * its kind (frame 0 intra, later frames inter: field_range), for frame 0
 * the clip n_frames·h·w·3 at most 2^30 bytes (too_large), for a later frame
 * frame 0's header h to cf (geometry_mismatch); then nothing after the last
 * frame (trailing). */
WAI_SIBLING wai_status wai_wic1_parse(const uint8_t *data, size_t len, wai_wic1 *out);

/* Walks a parsed clip's frames: *at starts at 0; each call gives the next
 * frame's bytes and moves *at past them. */
WAI_SIBLING void wai_wic1_next(const wai_wic1 *c, size_t *at, const uint8_t **frame, size_t *len);

void wai_wic1_describe(const wai_wic1 *c, wai_text *t);

/* The largest WIC1: the header and 2^20 frames of the largest WCF1. */
#define WAI_WIC1_MAX_BYTES \
    (WAI_WIC1_HEADER_BYTES + (UINT64_C(1) << 20) * (4 + WAI_WCF1_MAX_BYTES))

#endif
