/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the WIA1 parser and writer (integer-payloads §5).
 *
 * Input: a whole payload.
 *
 * Invariants: the parse's code is wai_check_payload's for
 * wai.audio.int_codec; a payload that parses has its views inside the
 * input and back to back, and the writer, given the parsed parts, writes
 * the very same bytes; every strict prefix of it is refused, bad_magic under
 * four bytes and stream_length otherwise (every check before the cut passed
 * on the whole payload, and the stream at its end is then not present). */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/wia1.h"
#include "wai/wai_format.h"
#include "write/payloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_prefixes(const uint8_t *data, size_t size) {
    const size_t cuts[] = {0, 3, 4, 5, 31, 32, size / 2, size - 4, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (cuts[i] >= size) continue;
        wai_wia1 v;
        wai_status want = cuts[i] < 4 ? WAI_bad_magic : WAI_stream_length;
        if (wai_wia1_parse(data, cuts[i], &v) != want) __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_wia1 v;
    wai_status st = wai_wia1_parse(data, size, &v);
    wai_checked checked;
    if (wai_check_payload(wai_capability_find("wai.audio.int_codec"), data, size, &checked) != st ||
        checked != WAI_CHECKED_PARSE)
        __builtin_trap();
    if (st != WAI_ok) return 0;

    /* The views, in order and inside the input. */
    uint64_t tables = 4 * (uint64_t)v.n_ch * v.cdf_len;
    if (v.medians != data + WAI_WIA1_HEADER_BYTES) __builtin_trap();
    if (v.tables != v.medians + 8 * (size_t)v.n_ch) __builtin_trap();
    if (v.stream.bytes != v.tables + tables + 4) __builtin_trap();
    if (v.stream.bytes + v.stream.len != data + size) __builtin_trap();
    if (v.afrac < 1 || v.afrac > 30 || v.cdf_len < 3 || v.cdf_len > 4097) __builtin_trap();
    if ((uint64_t)v.n_ch * v.lat_len > WAI_CAP_ELEMENTS || v.t_out > WAI_CAP_ELEMENTS)
        __builtin_trap();

    /* The writer, from the parsed parts, gives the input back. */
    int64_t *medians = malloc(8 * (size_t)v.n_ch);
    uint32_t *cdfs = malloc((size_t)tables);
    if (!medians || !cdfs) __builtin_trap();
    for (uint32_t k = 0; k < v.n_ch; k++) {
        medians[k] = wai_wia1_median(&v, k);
        if (!wai_cdf_bytes_valid(wai_wia1_table(&v, k), v.cdf_len, WAI_CDF_T4097))
            __builtin_trap();
        wai_cdf_from_bytes(cdfs + (size_t)k * v.cdf_len, wai_wia1_table(&v, k), v.cdf_len);
    }
    wai_wia1_parts p = {v.afrac,  v.sr,  v.n_ch, v.lat_len,        v.t_out,
                        v.offset, v.cdf_len, medians, cdfs, v.stream.bytes, v.stream.len};
    uint8_t *out;
    size_t out_len;
    if (wai_wia1_write(NULL, &p, &out, &out_len) != WAI_ok) __builtin_trap();
    if (out_len != size || memcmp(out, data, size) != 0) __builtin_trap();
    wai_free(NULL, out);
    free(medians);
    free(cdfs);
    check_prefixes(data, size);
    return 0;
}
