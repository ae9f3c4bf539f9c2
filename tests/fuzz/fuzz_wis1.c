/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the WIS1 parser and writer (integer-payloads §6), and the
 * binary32 range rule held to the compiler's own floating point (the
 * library has none, tests may).
 *
 * Input: a whole payload.
 *
 * Invariants: the parse's code is wai_check_payload's for
 * wai.splat.int_codec; the range rule on the input's first eight bytes (and
 * on every range of a parsed payload) is the IEEE comparison: both finite,
 * lo <= hi; a payload that parses has its views inside the input and back
 * to back, and the writer, given the parsed parts, writes the very same
 * bytes; every strict prefix of it is refused, bad_magic under four bytes
 * and stream_length otherwise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "formats/wis1.h"
#include "wai/wai_format.h"
#include "write/payloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The rule by the hardware's binary32. */
static int range_valid_float(uint32_t lo_bits, uint32_t hi_bits) {
    float lo, hi;
    memcpy(&lo, &lo_bits, 4);
    memcpy(&hi, &hi_bits, 4);
    return isfinite(lo) && isfinite(hi) && lo <= hi;
}

static void check_prefixes(const uint8_t *data, size_t size) {
    const size_t cuts[] = {0, 3, 4, 5, 31, 32, 40, size / 2, size - 4, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (cuts[i] >= size) continue;
        wai_wis1 v;
        wai_status want = cuts[i] < 4 ? WAI_bad_magic : WAI_stream_length;
        if (wai_wis1_parse(data, cuts[i], &v) != want) __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 8) {
        uint32_t lo = wai_load_u32le(data), hi = wai_load_u32le(data + 4);
        if (wai_f32_range_valid(lo, hi) != range_valid_float(lo, hi)) __builtin_trap();
    }
    wai_wis1 v;
    wai_status st = wai_wis1_parse(data, size, &v);
    wai_checked checked;
    if (wai_check_payload(wai_capability_find("wai.splat.int_codec"), data, size, &checked) != st ||
        checked != WAI_CHECKED_PARSE)
        __builtin_trap();
    if (st != WAI_ok) return 0;

    if (v.ranges != data + WAI_WIS1_HEADER_BYTES) __builtin_trap();
    if (v.lengths != v.ranges + 8 * (size_t)v.attr) __builtin_trap();
    if (v.offsets != v.lengths + 2 * (size_t)v.c) __builtin_trap();
    if (v.medians != v.offsets + 4 * (size_t)v.c) __builtin_trap();
    if (v.tables != v.medians + 8 * (size_t)v.c) __builtin_trap();
    if (v.stream.bytes != v.tables + 4 * v.table_entries + 4) __builtin_trap();
    if (v.stream.bytes + v.stream.len != data + size) __builtin_trap();
    if (v.n_gaussians < 1 || v.n_gaussians > (uint64_t)v.s * v.s) __builtin_trap();

    uint32_t *ranges = malloc(8 * (size_t)v.attr);
    uint16_t *lengths = malloc(2 * (size_t)v.c);
    int32_t *offsets = malloc(4 * (size_t)v.c);
    int64_t *medians = malloc(8 * (size_t)v.c);
    uint32_t *cdfs = malloc(4 * (size_t)v.table_entries);
    if (!ranges || !lengths || !offsets || !medians || !cdfs) __builtin_trap();
    for (uint32_t i = 0; i < v.attr; i++) {
        wai_wis1_range(&v, i, &ranges[2 * i], &ranges[2 * i + 1]);
        if (!range_valid_float(ranges[2 * i], ranges[2 * i + 1])) __builtin_trap();
    }
    const uint8_t *t = v.tables;
    uint32_t *at = cdfs;
    for (uint32_t k = 0; k < v.c; k++) {
        uint32_t n = wai_wis1_length(&v, k);
        lengths[k] = (uint16_t)n;
        offsets[k] = wai_wis1_offset(&v, k);
        medians[k] = wai_wis1_median(&v, k);
        if (!wai_cdf_bytes_valid(t, n, WAI_CDF_T4097)) __builtin_trap();
        wai_cdf_from_bytes(at, t, n);
        t += 4 * (size_t)n;
        at += n;
    }
    wai_wis1_parts p = {v.afrac,  v.c,     v.sh,    v.sw,  v.s,           v.attr,      v.n_gaussians,
                        ranges,   lengths, offsets, medians, cdfs, v.stream.bytes, v.stream.len};
    uint8_t *out;
    size_t out_len;
    if (wai_wis1_write(NULL, &p, &out, &out_len) != WAI_ok) __builtin_trap();
    if (out_len != size || memcmp(out, data, size) != 0) __builtin_trap();
    wai_free(NULL, out);
    free(ranges);
    free(lengths);
    free(offsets);
    free(medians);
    free(cdfs);
    check_prefixes(data, size);
    return 0;
}
