/* SPDX-License-Identifier: BSD-2-Clause */
/* The framing every §2 format shares (steps 1 and 2) and its sections:
 * tables and streams. */
#include "formats/sections.h"

#include <string.h>

#include "entropy/rans.h"

wai_status wai_parse_framing(wai_reader *r, wai_format format, size_t header_bytes) {
    const uint8_t *p = r->data + r->pos;
    size_t left = wai_reader_left(r);
    wai_format found = wai_format_detect(p, left);
    if (found != format)
        return wai_format_is_section2(found) ? WAI_format_capability_mismatch : WAI_bad_magic;
    if (left < 5) return WAI_stream_length;
    if (p[4] != 1) return WAI_version;
    if (left < header_bytes) return WAI_stream_length;
    r->pos += 5;
    return WAI_ok;
}

wai_status wai_parse_begin(wai_reader *r, const uint8_t *data, size_t len, void *out,
                           size_t out_size, wai_format format, size_t header_bytes,
                           uint64_t reserved) {
    wai_reader_init(r, data, len);
    memset(out, 0, out_size);
    wai_status st = wai_parse_framing(r, format, header_bytes);
    if (st != WAI_ok) return st;
    /* The framing found data[0 .. header_bytes) present; the mask holds 64. */
    for (size_t i = 0; i < header_bytes && i < 64; i++)
        if (((reserved >> i) & 1) && data[i]) return WAI_reserved_nonzero;
    r->pos = header_bytes;
    return WAI_ok;
}

int wai_cdf_bytes_valid(const uint8_t *bytes, uint32_t n, wai_cdf_rule rule) {
    uint32_t min_len = rule == WAI_CDF_T4097 ? 3 : 2;
    uint32_t max_len = rule == WAI_CDF_T4097 ? WAI_CDF_MAX_LEN_T4097 : WAI_CDF_MAX_LEN_T2;
    if (n < min_len || n > max_len) return 0;
    if (wai_load_u32le(bytes) != 0 || wai_load_u32le(bytes + 4 * (size_t)(n - 1)) != WAI_CDF_TOTAL)
        return 0;
    uint32_t prev = 0;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = wai_load_u32le(bytes + 4 * (size_t)i);
        if (v <= prev) return 0;
        prev = v;
    }
    return 1;
}

wai_status wai_read_cdf_section(wai_reader *r, uint32_t n, wai_cdf_rule rule,
                                const uint8_t **bytes) {
    wai_status st = wai_read_span(r, (uint64_t)n * 4, bytes);
    if (st != WAI_ok) return st;
    return wai_cdf_bytes_valid(*bytes, n, rule) ? WAI_ok : WAI_cdf_malformed;
}

wai_status wai_read_stream_section(wai_reader *r, wai_stream_view *s) {
    return wai_rans_read_stream(r, &s->bytes, &s->len);
}

wai_status wai_read_last_stream(wai_reader *r, wai_stream_view *s) {
    wai_status st = wai_read_stream_section(r, s);
    if (st != WAI_ok) return st;
    return wai_reader_left(r) ? WAI_trailing : WAI_ok;
}

wai_status wai_read_tables_then_stream(wai_reader *r, uint32_t n,
                                       uint32_t (*length)(const void *arg, uint32_t k),
                                       const void *arg, const uint8_t **tables,
                                       wai_stream_view *stream) {
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *t;
        wai_status st = wai_read_cdf_section(r, length(arg, k), WAI_CDF_T4097, &t);
        if (st != WAI_ok) return st;
        if (k == 0) *tables = t;
    }
    return wai_read_last_stream(r, stream);
}

/* WIM1's fixed header (§14): the parser's first check is its length. */
#define WIM1_HEADER_BYTES 36

wai_status wai_check_framing(const wai_capability *cap, const uint8_t *data, size_t len) {
    if (!cap || (!data && len)) return WAI_invalid_argument;
    /* A capability with no payload format libwai reads (wai.neural.bmshj2018)
     * has no framing to check, and no integer decoder here. */
    if (cap->format == WAI_FORMAT_NONE) return WAI_unsupported_capability;
    if (cap->format == WAI_FORMAT_INT_SYNTH) return WAI_ok;
    if (cap->format == WAI_FORMAT_WIM1) {
        if (len < WIM1_HEADER_BYTES || wai_format_detect(data, len) != WAI_FORMAT_WIM1)
            return WAI_payload_malformed;
        return WAI_ok;
    }
    /* Steps 1 and 2; no fixed header beyond the version byte is asked for. */
    wai_reader r;
    wai_reader_init(&r, data, len);
    return wai_parse_framing(&r, cap->format, 5);
}
