/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: split and join (wai_write.h): a WIV1 clip (either keyframe
 * kind) into its WIF1 group and back, a WIC1 clip into its WCF1 frames and
 * back, and a group of frames joined.
 *
 * Input: byte 0 picks the form (0 WIV1 split, 1 WIC1 split, 2 WIF1 join,
 * 3 WCF1 join); a split reads the rest as one clip, a join as frames one
 * after another, each a 2-byte little-endian length and that many bytes.
 *
 * Invariants: a WIC1 split joins back to the clip byte for byte, and a
 * WCF1 join splits back to its frames; a WIV1 split joins (every frame of
 * a clip that decodes decodes), and splitting the join again gives the
 * same frames; a WIF1 join splits into as many frames. */
#include <stdlib.h>
#include <string.h>

#include "wai/wai_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 32

static void require(int ok) {
    if (!ok) __builtin_trap();
}

static int same_frames(const wai_payload *a, uint32_t na, const wai_payload *b, uint32_t nb) {
    if (na != nb) return 0;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].len != b[i].len || (a[i].len && memcmp(a[i].data, b[i].data, a[i].len) != 0)) return 0;
    return 1;
}

typedef wai_status (*split_fn)(const wai_allocator *, const uint8_t *, size_t, wai_payload **,
                               uint32_t *);
typedef wai_status (*join_fn)(const wai_allocator *, const wai_payload *, uint32_t, uint8_t **,
                              size_t *);

static void split_then_join(const uint8_t *clip, size_t len, int cond) {
    split_fn split = cond ? wai_wic1_split : wai_wiv1_split;
    join_fn join = cond ? wai_wcf1_join : wai_wif1_join;
    wai_payload *f = NULL;
    uint32_t n = 0;
    if (split(NULL, clip, len, &f, &n) != WAI_ok) return;
    uint8_t *back = NULL;
    size_t back_len = 0;
    require(join(NULL, f, n, &back, &back_len) == WAI_ok);
    if (cond) require(back_len == len && memcmp(back, clip, len) == 0);
    wai_payload *g = NULL;
    uint32_t m = 0;
    require(split(NULL, back, back_len, &g, &m) == WAI_ok);
    /* A WIV1 clip whose stream left the encoder's states joins to other
     * bytes; its frames' second split is the first's. */
    if (cond || (back_len == len && memcmp(back, clip, len) == 0)) require(same_frames(f, n, g, m));
    else require(m == n);
    wai_payloads_free(NULL, g, m);
    wai_write_free(NULL, back);
    wai_payloads_free(NULL, f, n);
}

static void join_then_split(const uint8_t *data, size_t size, int cond) {
    wai_payload frames[MAX_FRAMES];
    uint32_t n = 0;
    size_t at = 0;
    while (at + 2 <= size && n < MAX_FRAMES) {
        size_t len = (size_t)data[at] | (size_t)data[at + 1] << 8;
        at += 2;
        if (len > size - at) len = size - at;
        frames[n].data = (uint8_t *)data + at;
        frames[n].len = len;
        n++;
        at += len;
    }
    uint8_t *clip = NULL;
    size_t len = 0;
    wai_status st = (cond ? wai_wcf1_join : wai_wif1_join)(NULL, frames, n, &clip, &len);
    if (st != WAI_ok) return;
    wai_payload *f = NULL;
    uint32_t m = 0;
    require((cond ? wai_wic1_split : wai_wiv1_split)(NULL, clip, len, &f, &m) == WAI_ok);
    if (cond) require(same_frames(frames, n, f, m));
    else require(m == n);
    wai_payloads_free(NULL, f, m);
    wai_write_free(NULL, clip);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    switch (data[0] & 3) {
    case 0: split_then_join(data + 1, size - 1, 0); break;
    case 1: split_then_join(data + 1, size - 1, 1); break;
    case 2: join_then_split(data + 1, size - 1, 0); break;
    default: join_then_split(data + 1, size - 1, 1); break;
    }
    return 0;
}
