/* A WIV1 clip and a WIF1 group are the same video (integer-payloads §16):
 * split cuts a keyframe-0 clip into one group, join writes a group back into
 * a clip. Both copy each symbol's rANS steps exactly, so split then join
 * gives the clip back byte for byte, escape layouts included, for every clip
 * whose stream keeps the encoder's states ([2^31, 2^63) after loading and
 * after every word read) -- every clip an encoder writes. §2's canonical end
 * does not close the other form: a stream whose first state is under 2^31
 * can end canonically and decode the same steps (see
 * tests/fuzz/regressions/fuzz_wiv1/README.md); join writes such a clip in the
 * encoder's form. */
#ifndef WAI_DECODE_FRAME_STREAM_H
#define WAI_DECODE_FRAME_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

typedef struct wai_payload {
    uint8_t *data;
    size_t len;
} wai_payload;

/* Splits a clip into n_frames WIF1 frames (*frames allocated with a; free
 * with wai_payloads_free). A clip that does not decode is refused with its
 * code. */
wai_status wai_wiv1_split(const wai_allocator *a, const uint8_t *clip, size_t len,
                          wai_payload **frames, uint32_t *n_frames);

/* Joins a group: frame 0 intra, every later frame inter (field_range
 * otherwise, as for WIC1), all of frame 0's size (geometry_mismatch), the
 * inter frames sharing one block size and vector precision (a clip has one:
 * field_range), every frame's stream decoding to its end. */
wai_status wai_wif1_join(const wai_allocator *a, const wai_payload *frames, uint32_t n_frames,
                         uint8_t **clip, size_t *len);

void wai_payloads_free(const wai_allocator *a, wai_payload *p, uint32_t n);

#endif
