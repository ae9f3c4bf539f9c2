/* SPDX-License-Identifier: BSD-2-Clause */
/* See model.h. */
#include "entropy/model.h"

#include "common/int128.h"

wai_status wai_dequantize(int64_t s, uint32_t afrac, int64_t base, int64_t *out) {
    if (s == 0) {
        *out = base;
        return WAI_ok;
    }
    /* s != 0 and afrac >= 64: |s * 2^afrac| >= 2^64, past i64 whatever base. */
    if (afrac >= 64) return WAI_field_range;
    /* |s| * 2^afrac <= 2^126 and the sum with base fit i128. */
    wai_i128 v = wai_i128_add(wai_i128_shl(wai_i128_from_i64(s), afrac), wai_i128_from_i64(base));
    if (!wai_i128_fits_i64(v)) return WAI_field_range;
    *out = wai_i128_to_i64(v);
    return WAI_ok;
}

uint32_t wai_bucket(int64_t sigma, const int64_t *edges, uint32_t n_edges) {
    if (n_edges == 0) return 0;
    int64_t sp = sigma < edges[0] ? edges[0] : sigma;
    uint32_t count = 0;
    for (uint32_t i = 0; i + 1 < n_edges; i++)
        if (sp <= edges[i]) count++;
    return n_edges - 1 - count;
}

int wai_edges_ascend(const int64_t *edges, uint32_t n_edges) {
    for (uint32_t i = 1; i + 1 < n_edges; i++)
        if (edges[i] < edges[i - 1]) return 0;
    return 1;
}

/* With ascending e_0 .. e_(N-2), #{i : sigma' <= e_i} counts a tail, so b =
 * N - 1 minus it is the length of the head below sigma'. The answer stays
 * in [lo, lo + len]: where e_(lo + half - 1) < sigma' the whole first half
 * is below and lo moves past it; either way len drops by half. */
uint32_t wai_bucket_ascending(int64_t sigma, const int64_t *edges, uint32_t n_edges) {
    if (n_edges <= 1) return 0;
    const int64_t sp = sigma < edges[0] ? edges[0] : sigma;
    uint32_t lo = 0, len = n_edges - 1;
    while (len > 1) {
        uint32_t half = len / 2;
        lo += edges[lo + half - 1] < sp ? half : 0;
        len -= half;
    }
    return lo + (edges[lo] < sp);
}
