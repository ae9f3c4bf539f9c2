/* SPDX-License-Identifier: BSD-2-Clause */
/* Split and join between a WIC1 clip and a WCF1 group (integer-payloads
 * §17.2; include/wai/wai_write.h). Every WCF1 frame carries its own stream,
 * so both are copies of bytes: nothing is re-encoded. */
#include "wai/wai_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/wic1.h"


wai_status wai_wic1_split(const wai_allocator *a, const uint8_t *clip, size_t len,
                          wai_payload **frames, uint32_t *n_frames) {
    *frames = NULL;
    *n_frames = 0;
    wai_wic1 c;
    wai_status st = wai_wic1_parse(clip, len, &c);
    if (st != WAI_ok) return st;
    wai_payload *out = wai_alloc_zeroed(a, c.n_frames, sizeof *out);
    if (!out) return WAI_out_of_memory;
    size_t at = 0;
    for (uint32_t f = 0; f < c.n_frames; f++) {
        const uint8_t *bytes;
        size_t n;
        wai_wic1_next(&c, &at, &bytes, &n);
        /* A WCF1 is at least its 36 bytes: never a zero-byte allocation. */
        if (!(out[f].data = wai_alloc(a, n))) {
            wai_payloads_free(a, out, c.n_frames);
            return WAI_out_of_memory;
        }
        memcpy(out[f].data, bytes, n);
        out[f].len = n;
    }
    *frames = out;
    *n_frames = c.n_frames;
    return WAI_ok;
}

wai_status wai_wcf1_join(const wai_allocator *a, const wai_payload *frames, uint32_t n_frames,
                         uint8_t **clip, size_t *len) {
    *clip = NULL;
    *len = 0;
    /* The header's own checks, before anything is sized: a group of no frame
     * is field_range, past 2^20 frames too_large (§17.2's first two). */
    if (n_frames == 0) return WAI_field_range;
    if (n_frames > WAI_CAP_FRAMES) return WAI_too_large;
    uint64_t total = WAI_WIC1_HEADER_BYTES;
    for (uint32_t f = 0; f < n_frames; f++) {
        if (!wai_fits_u32(frames[f].len)) return WAI_stream_length;
        total += 4 + (uint64_t)frames[f].len;
    }
    if (!wai_fits_size(total)) return WAI_out_of_memory;
    uint8_t *out = wai_alloc(a, (size_t)total);
    if (!out) return WAI_out_of_memory;
    memcpy(out, "WIC1\x01\x00\x00\x00", 8);
    wai_store_u32le(out + 8, n_frames);
    size_t at = WAI_WIC1_HEADER_BYTES;
    for (uint32_t f = 0; f < n_frames; f++) {
        wai_store_u32le(out + at, (uint32_t)frames[f].len);
        if (frames[f].len) memcpy(out + at + 4, frames[f].data, frames[f].len);
        at += 4 + frames[f].len;
    }
    /* The clip must parse as one: an intra frame after the first, another
     * header, or a frame that is no WCF1 is refused with the parse's code. */
    wai_wic1 c;
    wai_status st = wai_wic1_parse(out, (size_t)total, &c);
    if (st != WAI_ok) {
        wai_free(a, out);
        return st;
    }
    *clip = out;
    *len = (size_t)total;
    return WAI_ok;
}
