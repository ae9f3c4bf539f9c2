/* SPDX-License-Identifier: BSD-2-Clause */
/* The parsers and writers of the neural integer payloads, WIA1 (§5) and
 * WIS1 (§6), and of entropy.json (§9): every refusal code in §2's order
 * (two faults at once give the earlier check's code), the boundaries of each
 * rule, writer round trips, allocation failures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/reader.h"
#include "formats/wia1.h"
#include "formats/wis1.h"
#include "harness.h"
#include "sets/entropy_json.h"
#include "wai/wai_format.h"
#include "gen/set_write.h"
#include "write/payloads.h"

#define CAP26 ((uint32_t)1 << 26)

/* The stream that codes no symbol: the state 2^31 alone (§2). */
static const uint8_t empty_stream[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};

typedef struct buf {
    uint8_t *b;
    size_t len;
} buf;

/* A copy of b with room for `extra` more bytes. */
static buf copy_of(const uint8_t *b, size_t len, size_t extra) {
    buf o = {malloc(len + extra + 1), len};
    memcpy(o.b, b, len);
    return o;
}

/* ---- WIA1 ----------------------------------------------------------------
 * The base payload: header 0..32, medians 32..48, tables 48..80 (channel 1's
 * from 64), the stream's length at 80, its bytes 84..92. */

static const int64_t wia1_medians[2] = {5, -7};
static const uint32_t wia1_cdfs[8] = {0, 100, 200, 65536, 0, 1, 2, 65536};

static wai_wia1_parts wia1_base_parts(void) {
    wai_wia1_parts p = {8, 16000, 2, 3, 10, -3, 4, wia1_medians, wia1_cdfs, empty_stream, 8};
    return p;
}

static buf wia1_base(void) {
    wai_wia1_parts p = wia1_base_parts();
    uint8_t *b;
    size_t len;
    if (wai_wia1_write(NULL, &p, &b, &len) != WAI_ok) {
        CHECK(!"wia1 base");
        buf none = {calloc(1, 256), 0};
        return none;
    }
    buf o = copy_of(b, len, 16);
    free(b);
    return o;
}

static wai_status wia1(const buf *x) {
    wai_wia1 v;
    return wai_wia1_parse(x->b, x->len, &v);
}

/* A header alone (32 bytes): steps 1-6 pass exactly when the parse then
 * asks for the medians (stream_length). */
static wai_status wia1_header(uint8_t afrac, uint32_t sr, uint32_t n_ch, uint32_t lat_len,
                              uint32_t t_out, uint32_t cdf_len) {
    uint8_t h[32] = "WIA1\x01";
    h[5] = afrac;
    wai_store_u32le(h + 8, sr);
    wai_store_u32le(h + 12, n_ch);
    wai_store_u32le(h + 16, lat_len);
    wai_store_u32le(h + 20, t_out);
    wai_store_u16le(h + 28, (uint16_t)cdf_len);
    wai_wia1 v;
    return wai_wia1_parse(h, sizeof h, &v);
}

static void test_wia1_round_trip(void) {
    buf x = wia1_base();
    wai_wia1 v;
    CHECK(x.len == 92);
    CHECK(wai_wia1_parse(x.b, x.len, &v) == WAI_ok);
    CHECK(v.afrac == 8 && v.sr == 16000 && v.n_ch == 2 && v.lat_len == 3 && v.t_out == 10);
    CHECK(v.offset == -3 && v.cdf_len == 4);
    CHECK(wai_wia1_median(&v, 0) == 5 && wai_wia1_median(&v, 1) == -7);
    CHECK(wai_load_u32le(wai_wia1_table(&v, 1) + 4) == 1);
    CHECK(wai_wia1_table(&v, 0) == x.b + 48);
    CHECK(v.stream.bytes == x.b + 84 && v.stream.len == 8);
    const wai_capability *cap = wai_capability_find("wai.audio.int_codec");
    wai_checked checked;
    CHECK(wai_check_payload(cap, x.b, x.len, &checked) == WAI_ok && checked == WAI_CHECKED_PARSE);
    x.b[7] = 1;
    CHECK(wai_check_payload(cap, x.b, x.len, &checked) == WAI_reserved_nonzero);
    free(x.b);
}

static void test_wia1_framing(void) {
    buf x = wia1_base();
    buf y = copy_of(x.b, x.len, 0);
    y.len = 0;
    CHECK(wia1(&y) == WAI_bad_magic);
    y.len = 3;
    CHECK(wia1(&y) == WAI_bad_magic); /* R1 */
    y.len = 4;
    CHECK(wia1(&y) == WAI_stream_length);
    y.len = 31;
    CHECK(wia1(&y) == WAI_stream_length);
    y.b[4] = 2;
    CHECK(wia1(&y) == WAI_version); /* the version before the header's length */
    y.b[2] = 'S';
    CHECK(wia1(&y) == WAI_format_capability_mismatch);
    y.b[2] = 'X';
    CHECK(wia1(&y) == WAI_bad_magic);
    free(y.b);
    /* reserved: bytes 6-7 and 30-31, before every field rule */
    for (int at = 6; at < 32; at += (at == 7 ? 23 : 1)) {
        memcpy(x.b, "WIA1\x01\x08\0\0", 8);
        x.b[at] = 0x80;
        CHECK_MSG(wia1(&x) == WAI_reserved_nonzero, "reserved byte %d", at);
        x.b[5] = 0; /* afrac 0 as well: reserved first */
        CHECK(wia1(&x) == WAI_reserved_nonzero);
        x.b[at] = 0;
        x.b[5] = 8;
    }
    CHECK(wia1(&x) == WAI_ok);
    free(x.b);
}

static void test_wia1_fields(void) {
    /* Each rule's boundary; steps 1-6 passed shows as stream_length. */
    CHECK(wia1_header(0, 1, 1, 1, 1, 3) == WAI_field_range);
    CHECK(wia1_header(1, 1, 1, 1, 1, 3) == WAI_stream_length);
    CHECK(wia1_header(30, 1, 1, 1, 1, 3) == WAI_stream_length);
    CHECK(wia1_header(31, 1, 1, 1, 1, 3) == WAI_field_range);
    CHECK(wia1_header(255, 1, 1, 1, 1, 3) == WAI_field_range);
    CHECK(wia1_header(8, 0, 1, 1, 1, 3) == WAI_field_range);
    CHECK(wia1_header(8, 1, 0, 1, 1, 3) == WAI_field_range);
    CHECK(wia1_header(8, 1, 1, 0, 1, 3) == WAI_field_range);
    CHECK(wia1_header(8, 1, 1, 1, 0, 3) == WAI_field_range);
    CHECK(wia1_header(8, 1, 1, 1, 1, 2) == WAI_field_range);
    CHECK(wia1_header(8, 1, 1, 1, 1, 4097) == WAI_stream_length);
    CHECK(wia1_header(8, 1, 1, 1, 1, 4098) == WAI_field_range);
    CHECK(wia1_header(8, 1, 1, 1, 1, 0xFFFF) == WAI_field_range);
    CHECK(wia1_header(8, UINT32_MAX, 1, 1, 1, 3) == WAI_stream_length);
    /* Caps (R4: equality passes), in §5's order. */
    CHECK(wia1_header(8, 1, 1, CAP26, 1, 3) == WAI_stream_length);
    CHECK(wia1_header(8, 1, 1 << 13, 1 << 13, 1, 3) == WAI_stream_length);
    CHECK(wia1_header(8, 1, 1, CAP26 + 1, 1, 3) == WAI_too_large);
    CHECK(wia1_header(8, 1, (1 << 13) + 1, 1 << 13, 1, 3) == WAI_too_large);
    CHECK(wia1_header(8, 1, UINT32_MAX, UINT32_MAX, 1, 3) == WAI_too_large);
    CHECK(wia1_header(8, 1, 1, 1, CAP26, 3) == WAI_stream_length);
    CHECK(wia1_header(8, 1, 1, 1, CAP26 + 1, 3) == WAI_too_large);
    /* Field rules come before caps: each field fault with both caps broken. */
    CHECK(wia1_header(0, 1, UINT32_MAX, UINT32_MAX, UINT32_MAX, 3) == WAI_field_range);
    CHECK(wia1_header(8, 1, UINT32_MAX, UINT32_MAX, UINT32_MAX, 2) == WAI_field_range);
    CHECK(wia1_header(8, 0, UINT32_MAX, UINT32_MAX, UINT32_MAX, 3) == WAI_field_range);
}

/* A one-channel payload of cdf_len entries cdf[i] = i·65536/(cdf_len-1)
 * where that is whole (cdf_len 3, 4097). */
static wai_status wia1_write_len(uint32_t cdf_len) {
    static uint32_t cdf[4097];
    for (uint32_t i = 0; i < cdf_len && i < 4097; i++) cdf[i] = i * (65536 / (cdf_len - 1));
    int64_t median = 0;
    wai_wia1_parts p = {8, 1, 1, 1, 1, 0, cdf_len, &median, cdf, empty_stream, 8};
    uint8_t *b;
    size_t len;
    wai_status st = wai_wia1_write(NULL, &p, &b, &len);
    if (st == WAI_ok) {
        wai_wia1 v;
        CHECK(wai_wia1_parse(b, len, &v) == WAI_ok && v.cdf_len == cdf_len);
        free(b);
    }
    return st;
}

static void test_wia1_sections(void) {
    CHECK(wia1_write_len(3) == WAI_ok);
    CHECK(wia1_write_len(4097) == WAI_ok);
    buf x = wia1_base();
    uint8_t *b = x.b;
    size_t full = x.len;
    /* Presence, section by section. */
    size_t cuts[] = {33, 47, 48, 63, 64, 79, 80, 83, 84, 91};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        x.len = cuts[i];
        CHECK_MSG(wia1(&x) == WAI_stream_length, "cut at %zu", cuts[i]);
    }
    x.len = full;
    /* Medians have no rule (N2). */
    wai_store_u64le(b + 32, (uint64_t)INT64_MIN);
    wai_store_u64le(b + 40, (uint64_t)INT64_MAX);
    CHECK(wia1(&x) == WAI_ok);
    /* Each table's entries: cdf[0] = 0, cdf[n-1] = 65536, increasing. */
    wai_store_u32le(b + 48, 1);
    CHECK(wia1(&x) == WAI_cdf_malformed);
    wai_store_u32le(b + 48, 0);
    wai_store_u32le(b + 76, 65535);
    CHECK(wia1(&x) == WAI_cdf_malformed);
    wai_store_u32le(b + 76, 65537);
    CHECK(wia1(&x) == WAI_cdf_malformed);
    wai_store_u32le(b + 76, 65536);
    wai_store_u32le(b + 56, 100); /* channel 0: 0, 100, 100, 65536 */
    CHECK(wia1(&x) == WAI_cdf_malformed);
    /* Table by table (§2 step 7): channel 0 bad while channel 1 is cut. */
    x.len = 70;
    CHECK(wia1(&x) == WAI_cdf_malformed);
    /* channel 0 good, channel 1 cut: its absence first. */
    wai_store_u32le(b + 56, 200);
    wai_store_u32le(b + 68, 0);
    CHECK(wia1(&x) == WAI_stream_length);
    x.len = full;
    CHECK(wia1(&x) == WAI_cdf_malformed); /* channel 1 whole: 0, 0, 2, ... */
    wai_store_u32le(b + 68, 1);
    CHECK(wia1(&x) == WAI_ok);
    /* A bad table before a bad stream and trailing bytes. */
    x.b[x.len++] = 0;
    CHECK(wia1(&x) == WAI_trailing);
    wai_store_u32le(b + 80, 6);
    CHECK(wia1(&x) == WAI_stream_length);
    wai_store_u32le(b + 48, 9);
    CHECK(wia1(&x) == WAI_cdf_malformed);
    wai_store_u32le(b + 48, 0);
    /* Stream framing (R6): L % 4, L >= 8, L bytes present. */
    x.len = full;
    wai_store_u32le(b + 80, 4);
    CHECK(wia1(&x) == WAI_stream_length);
    wai_store_u32le(b + 80, 12);
    CHECK(wia1(&x) == WAI_stream_length);
    wai_store_u32le(b + 80, 4);
    wai_store_u32le(b + 84, 0);
    x.len = 88;
    CHECK(wia1(&x) == WAI_stream_length);
    free(x.b);
}

static void test_wia1_writer(void) {
    harness_alloc h;
    memset(&h, 0, sizeof h);
    wai_allocator a = harness_allocator(&h);
    uint8_t *b = (uint8_t *)1;
    size_t len = 1;
    wai_wia1_parts p = wia1_base_parts();
    p.afrac = 31;
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_field_range && !b && !len);
    p = wia1_base_parts();
    p.cdf_len = 0x10004; /* would wrap to 4 in the u16 field */
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_field_range);
    p = wia1_base_parts();
    p.n_ch = CAP26; /* lat_len 3: the latent is past the cap */
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_too_large);
    CHECK(h.calls == 0); /* nothing sized from a refused header */
    p = wia1_base_parts();
    uint32_t bad[8];
    memcpy(bad, wia1_cdfs, sizeof bad);
    bad[5] = 0;
    p.cdfs = bad;
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_cdf_malformed && !b);
    p = wia1_base_parts();
    p.stream_len = 6;
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_stream_length && !b);
    CHECK(h.live == 0);
    p = wia1_base_parts();
    h.fail_at = h.calls + 1;
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_out_of_memory && !b && h.failed);
    h.fail_at = 0;
    CHECK(wai_wia1_write(&a, &p, &b, &len) == WAI_ok && len == 92);
    wai_free(&a, b);
    CHECK(h.live == 0);
}

/* ---- WIS1 ----------------------------------------------------------------
 * The base payload: header 0..32, ranges 32..56 (three planes), lengths
 * 56..60, offsets 60..68, medians 68..84, tables 84..116 (channel 1's from
 * 96), the stream's length at 116, its bytes 120..128. */

#define F_ONE 0x3F800000u
#define F_HALF 0x3F000000u
#define F_NEG_ONE 0xBF800000u
#define F_NEG_HALF 0xBF000000u
#define F_PZERO 0x00000000u
#define F_NZERO 0x80000000u
#define F_PINF 0x7F800000u
#define F_NINF 0xFF800000u
#define F_MAX 0x7F7FFFFFu

static const uint32_t wis1_ranges[6] = {F_PZERO, F_ONE, F_NEG_ONE, F_HALF, F_NZERO, F_PZERO};
static const uint16_t wis1_lengths[2] = {3, 5};
static const int32_t wis1_offsets[2] = {-1, 2};
static const int64_t wis1_medians[2] = {0, 9};
static const uint32_t wis1_cdfs[8] = {0, 30000, 65536, 0, 1, 2, 3, 65536};

static wai_wis1_parts wis1_base_parts(void) {
    wai_wis1_parts p = {12, 2, 2, 3, 4, 3, 16, wis1_ranges, wis1_lengths, wis1_offsets,
                        wis1_medians, wis1_cdfs, empty_stream, 8};
    return p;
}

static buf wis1_base(void) {
    wai_wis1_parts p = wis1_base_parts();
    uint8_t *b;
    size_t len;
    if (wai_wis1_write(NULL, &p, &b, &len) != WAI_ok) {
        CHECK(!"wis1 base");
        buf none = {calloc(1, 256), 0};
        return none;
    }
    buf o = copy_of(b, len, 16);
    free(b);
    return o;
}

static wai_status wis1(const buf *x) {
    wai_wis1 v;
    return wai_wis1_parse(x->b, x->len, &v);
}

static wai_status wis1_header(uint8_t afrac, uint32_t c, uint32_t sh, uint32_t sw, uint32_t s,
                              uint32_t attr, uint32_t n_gaussians) {
    uint8_t h[32] = "WIS1\x01";
    h[5] = afrac;
    const uint32_t f[6] = {c, sh, sw, s, attr, n_gaussians};
    for (int i = 0; i < 6; i++) wai_store_u32le(h + 8 + 4 * i, f[i]);
    wai_wis1 v;
    return wai_wis1_parse(h, sizeof h, &v);
}

static void test_wis1_round_trip(void) {
    buf x = wis1_base();
    wai_wis1 v;
    CHECK(x.len == 128);
    CHECK(wai_wis1_parse(x.b, x.len, &v) == WAI_ok);
    CHECK(v.afrac == 12 && v.c == 2 && v.sh == 2 && v.sw == 3 && v.s == 4 && v.attr == 3 &&
          v.n_gaussians == 16);
    uint32_t lo, hi;
    wai_wis1_range(&v, 1, &lo, &hi);
    CHECK(lo == F_NEG_ONE && hi == F_HALF);
    CHECK(wai_wis1_length(&v, 1) == 5 && wai_wis1_offset(&v, 0) == -1 &&
          wai_wis1_median(&v, 1) == 9);
    CHECK(v.table_entries == 8 && v.tables == x.b + 84 && v.stream.bytes == x.b + 120);
    const wai_capability *cap = wai_capability_find("wai.splat.int_codec");
    wai_checked checked;
    CHECK(wai_check_payload(cap, x.b, x.len, &checked) == WAI_ok && checked == WAI_CHECKED_PARSE);
    CHECK(wai_check_payload(wai_capability_find("wai.audio.int_codec"), x.b, x.len, &checked) ==
          WAI_format_capability_mismatch);
    free(x.b);
}

static void test_wis1_framing_and_fields(void) {
    buf x = wis1_base();
    buf y = copy_of(x.b, x.len, 0);
    y.len = 3;
    CHECK(wis1(&y) == WAI_bad_magic);
    y.len = 4;
    CHECK(wis1(&y) == WAI_stream_length);
    y.len = 31;
    CHECK(wis1(&y) == WAI_stream_length);
    y.b[4] = 0;
    CHECK(wis1(&y) == WAI_version);
    y.b[2] = 'A';
    CHECK(wis1(&y) == WAI_format_capability_mismatch);
    free(y.b);
    x.b[6] = 1;
    x.b[5] = 0;
    CHECK(wis1(&x) == WAI_reserved_nonzero);
    x.b[6] = 0;
    x.b[7] = 1;
    CHECK(wis1(&x) == WAI_reserved_nonzero);
    free(x.b);
    CHECK(wis1_header(0, 1, 1, 1, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(1, 1, 1, 1, 1, 1, 1) == WAI_stream_length);
    CHECK(wis1_header(30, 1, 1, 1, 1, 1, 1) == WAI_stream_length);
    CHECK(wis1_header(31, 1, 1, 1, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, 0, 1, 1, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, 1, 0, 1, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, 1, 1, 0, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, 1, 1, 1, 0, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, 1, 1, 1, 1, 0, 1) == WAI_field_range);
    /* n_gaussians 1..=s·s */
    CHECK(wis1_header(8, 1, 1, 1, 5, 1, 0) == WAI_field_range);
    CHECK(wis1_header(8, 1, 1, 1, 5, 1, 1) == WAI_stream_length);
    CHECK(wis1_header(8, 1, 1, 1, 5, 1, 25) == WAI_stream_length);
    CHECK(wis1_header(8, 1, 1, 1, 5, 1, 26) == WAI_field_range);
    /* s·s past 32 bits: every n_gaussians passes its rule; the cap refuses. */
    CHECK(wis1_header(8, 1, 1, 1, 65536, 1, UINT32_MAX) == WAI_too_large);
    /* s = 0 is refused as a dimension, before n_gaussians is compared. */
    CHECK(wis1_header(8, 1, 1, 1, 0, 1, 0) == WAI_field_range);
    /* Caps, equality passes (R4), in §6's order. */
    CHECK(wis1_header(8, 1 << 10, 1 << 8, 1 << 8, 1, 1, 1) == WAI_stream_length);
    CHECK(wis1_header(8, (1 << 10) + 1, 1 << 8, 1 << 8, 1, 1, 1) == WAI_too_large);
    CHECK(wis1_header(8, UINT32_MAX, UINT32_MAX, UINT32_MAX, 1, 1, 1) == WAI_too_large);
    CHECK(wis1_header(8, 1, 1, 1, 8192, 1, 1) == WAI_stream_length);
    CHECK(wis1_header(8, 1, 1, 1, 8192, 2, 1) == WAI_too_large);
    CHECK(wis1_header(8, 1, 1, 1, 1, CAP26, 1) == WAI_stream_length);
    CHECK(wis1_header(8, 1, 1, 1, 1, CAP26 + 1, 1) == WAI_too_large);
    /* Field rules before caps. */
    CHECK(wis1_header(0, UINT32_MAX, UINT32_MAX, 1, 1, 1, 1) == WAI_field_range);
    CHECK(wis1_header(8, UINT32_MAX, UINT32_MAX, 1, 2, 1, 5) == WAI_field_range);
}

static void test_f32_bits(void) {
    CHECK(wai_f32_bits_finite(F_MAX) && wai_f32_bits_finite(F_NZERO) &&
          wai_f32_bits_finite(0x00000001u) && wai_f32_bits_finite(0x807FFFFFu));
    CHECK(!wai_f32_bits_finite(F_PINF) && !wai_f32_bits_finite(F_NINF));
    CHECK(!wai_f32_bits_finite(0x7FC00000u) && !wai_f32_bits_finite(0x7F800001u) &&
          !wai_f32_bits_finite(0xFFFFFFFFu) && !wai_f32_bits_finite(0xFF800001u) &&
          !wai_f32_bits_finite(0x7FFFFFFFu));
    CHECK(wai_f32_range_valid(F_PZERO, F_NZERO) && wai_f32_range_valid(F_NZERO, F_PZERO));
    CHECK(wai_f32_range_valid(F_NEG_ONE, F_NEG_HALF) && !wai_f32_range_valid(F_NEG_HALF, F_NEG_ONE));
    CHECK(wai_f32_range_valid(F_HALF, F_ONE) && !wai_f32_range_valid(F_ONE, F_HALF));
    CHECK(wai_f32_range_valid(F_ONE, F_ONE) && wai_f32_range_valid(0xFF7FFFFFu, F_MAX));
    CHECK(!wai_f32_range_valid(F_MAX, 0xFF7FFFFFu));
    /* Subnormals and the zeros: -tiny < -0 = +0 < +tiny. */
    CHECK(wai_f32_range_valid(0x80000001u, F_NZERO) && !wai_f32_range_valid(0x00000001u, F_NZERO));
    CHECK(!wai_f32_range_valid(0x00000001u, 0x80000001u));
    CHECK(!wai_f32_range_valid(F_NINF, F_PINF) && !wai_f32_range_valid(F_PZERO, 0x7FC00000u));
}

/* The rule by the compiler's own binary32 (tests may use floating point;
 * src/ may not): random patterns, each biased towards the zeros, the
 * infinities, NaNs and the subnormals. */
static int range_valid_float(uint32_t lo_bits, uint32_t hi_bits) {
    float lo, hi;
    memcpy(&lo, &lo_bits, 4);
    memcpy(&hi, &hi_bits, 4);
    return isfinite(lo) && isfinite(hi) && lo <= hi;
}

static uint32_t random_f32_bits(uint64_t *rng) {
    uint64_t r = harness_rand(rng);
    uint32_t bits = (uint32_t)(r >> 32), sign = bits & 0x80000000u;
    switch (r & 7) {
    case 0: return sign;                                   /* +-0 */
    case 1: return sign | 0x7F800000u | (bits & 0x7FFFFFu); /* inf or NaN */
    case 2: return sign | (bits & 0x7FFFFFu);              /* subnormal */
    case 3: return sign | 0x3F800000u | (bits & 3);         /* near +-1 */
    default: return bits;
    }
}

static void test_f32_bits_against_float(void) {
    uint64_t rng = 10;
    int wrong = 0;
    for (int i = 0; i < 200000; i++) {
        uint32_t lo = random_f32_bits(&rng), hi = random_f32_bits(&rng);
        if (i & 1) hi = lo ^ (uint32_t)(harness_rand(&rng) & 1); /* equal or next */
        if (wai_f32_range_valid(lo, hi) != range_valid_float(lo, hi) && wrong++ < 5)
            CHECK_MSG(0, "range %08x %08x", lo, hi);
    }
    CHECK(wrong == 0);
}

static void test_wis1_ranges(void) {
    buf x = wis1_base();
    uint8_t *b = x.b;
    /* Each NaN pattern, infinity, lo > hi: field_range, as lo or as hi of
     * any plane. */
    static const uint32_t bad[] = {0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0xFF800001u,
                                   0x7FFFFFFFu, F_PINF, F_NINF};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int at = 32; at < 56; at += 4) {
            uint32_t keep = wai_load_u32le(b + at);
            wai_store_u32le(b + at, bad[i]);
            CHECK_MSG(wis1(&x) == WAI_field_range, "%08x at %d", bad[i], at);
            wai_store_u32le(b + at, keep);
        }
    CHECK(wis1(&x) == WAI_ok);
    wai_store_u32le(b + 40, F_HALF); /* plane 1: 0.5, 0.5 */
    CHECK(wis1(&x) == WAI_ok);
    wai_store_u32le(b + 40, F_ONE); /* 1.0 > 0.5 */
    CHECK(wis1(&x) == WAI_field_range);
    /* Ranges are a section (§2 step 7): after the caps, before the lengths. */
    size_t full = x.len;
    x.len = 57;
    CHECK(wis1(&x) == WAI_field_range);     /* lengths cut, ranges bad */
    x.len = 55;
    CHECK(wis1(&x) == WAI_stream_length);   /* ranges themselves cut */
    x.len = full;
    wai_store_u16le(b + 56, 2);
    CHECK(wis1(&x) == WAI_field_range);
    wai_store_u32le(b + 8, CAP26);          /* c·sh·sw past the cap */
    CHECK(wis1(&x) == WAI_too_large);
    free(x.b);
}

static void test_wis1_sections(void) {
    buf x = wis1_base();
    uint8_t *b = x.b;
    size_t full = x.len;
    size_t cuts[] = {33, 55, 56, 59, 60, 67, 68, 83, 84, 95, 96, 115, 116, 119, 127};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        x.len = cuts[i];
        CHECK_MSG(wis1(&x) == WAI_stream_length, "cut at %zu", cuts[i]);
    }
    x.len = full;
    /* Table lengths 3..=4097; a section: present whole, then each checked. */
    wai_store_u16le(b + 58, 2);
    CHECK(wis1(&x) == WAI_field_range);
    x.len = 61; /* offsets cut: the lengths' rule first */
    CHECK(wis1(&x) == WAI_field_range);
    x.len = 58; /* lengths cut: their presence first */
    CHECK(wis1(&x) == WAI_stream_length);
    x.len = full;
    wai_store_u16le(b + 58, 4098);
    CHECK(wis1(&x) == WAI_field_range);
    wai_store_u16le(b + 58, 0xFFFF);
    CHECK(wis1(&x) == WAI_field_range);
    wai_store_u16le(b + 58, 0);
    CHECK(wis1(&x) == WAI_field_range);
    wai_store_u16le(b + 58, 5);
    /* Offsets and medians have no rule. */
    wai_store_u32le(b + 60, 0x80000000u);
    wai_store_u64le(b + 76, (uint64_t)INT64_MIN);
    CHECK(wis1(&x) == WAI_ok);
    /* Tables, table by table. */
    wai_store_u32le(b + 88, 0);
    CHECK(wis1(&x) == WAI_cdf_malformed);
    x.len = 100;
    CHECK(wis1(&x) == WAI_cdf_malformed); /* channel 0 bad, channel 1 cut */
    wai_store_u32le(b + 88, 30000);
    CHECK(wis1(&x) == WAI_stream_length);
    x.len = full;
    wai_store_u32le(b + 112, 65535);
    CHECK(wis1(&x) == WAI_cdf_malformed);
    x.b[x.len++] = 1;
    CHECK(wis1(&x) == WAI_cdf_malformed); /* before trailing */
    wai_store_u32le(b + 112, 65536);
    CHECK(wis1(&x) == WAI_trailing);
    /* A length that claims more entries than are there. */
    x.len = full;
    wai_store_u16le(b + 56, 4);
    CHECK(wis1(&x) == WAI_cdf_malformed); /* 0, 30000, 65536, 0 */
    wai_store_u16le(b + 56, 3);
    wai_store_u32le(b + 116, 16);
    CHECK(wis1(&x) == WAI_stream_length);
    free(x.b);
}

/* Boundary lengths 3 and 4097 through the writer. */
static void test_wis1_writer(void) {
    static uint32_t cdfs[3 + 4097];
    cdfs[0] = 0, cdfs[1] = 1, cdfs[2] = 65536;
    for (uint32_t i = 0; i < 4097; i++) cdfs[3 + i] = 16 * i;
    uint16_t lengths[2] = {3, 4097};
    wai_wis1_parts p = wis1_base_parts();
    p.lengths = lengths;
    p.cdfs = cdfs;
    uint8_t *b = NULL;
    size_t len = 0;
    wai_wis1 v;
    CHECK(wai_wis1_write(NULL, &p, &b, &len) == WAI_ok);
    CHECK(b && wai_wis1_parse(b, len, &v) == WAI_ok && v.table_entries == 4100);
    free(b);

    harness_alloc h;
    memset(&h, 0, sizeof h);
    wai_allocator a = harness_allocator(&h);
    p = wis1_base_parts();
    uint32_t ranges[6];
    memcpy(ranges, wis1_ranges, sizeof ranges);
    ranges[5] = 0x7FC00000u;
    p.ranges = ranges;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_field_range && !b);
    p = wis1_base_parts();
    lengths[0] = 60000, lengths[1] = 3; /* never sizes a buffer */
    p.lengths = lengths;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_field_range);
    p = wis1_base_parts();
    p.n_gaussians = 17;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_field_range);
    p.n_gaussians = 16;
    p.attr = CAP26;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_too_large);
    CHECK(h.calls == 0);
    p = wis1_base_parts();
    uint32_t bad[8];
    memcpy(bad, wis1_cdfs, sizeof bad);
    bad[3] = 7;
    p.cdfs = bad;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_cdf_malformed && !b);
    p = wis1_base_parts();
    h.fail_at = h.calls + 1;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_out_of_memory && h.failed);
    h.fail_at = 0;
    CHECK(wai_wis1_write(&a, &p, &b, &len) == WAI_ok && len == 128);
    wai_free(&a, b);
    CHECK(h.live == 0);
}

/* ---- entropy.json ------------------------------------------------------- */

/* The members of a text; NULL leaves one out. */
typedef struct ej {
    const char *edges, *cdfs, *lengths, *offsets, *z_cdfs, *z_lengths, *z_offsets, *z_medians;
    const char *extra; /* more members, written first, or NULL */
} ej;

static ej ej_base(void) {
    ej e = {"[10, 20]", "[[0, 100, 65536], [0, 1, 2, 65536, -5]]", "[3, 4]", "[-1, 0]",
            "[[0, 32768, 65536]]", "[3]", "[2]", "[-7]", "\"afrac\": 8"};
    return e;
}

static char g_text[1 << 16];

static const char *ej_text(const ej *e) {
    const char *names[8] = {"scale_edges", "cdfs", "cdf_lengths", "offsets",
                            "z_cdfs", "z_cdf_lengths", "z_offsets", "z_median_q"};
    const char *vals[8] = {e->edges, e->cdfs, e->lengths, e->offsets,
                           e->z_cdfs, e->z_lengths, e->z_offsets, e->z_medians};
    size_t at = (size_t)snprintf(g_text, sizeof g_text, "{");
    const char *sep = "";
    if (e->extra) {
        at += (size_t)snprintf(g_text + at, sizeof g_text - at, "%s", e->extra);
        sep = ", ";
    }
    for (int i = 0; i < 8; i++) {
        if (!vals[i]) continue;
        at += (size_t)snprintf(g_text + at, sizeof g_text - at, "%s\"%s\": %s", sep, names[i],
                               vals[i]);
        sep = ", ";
    }
    snprintf(g_text + at, sizeof g_text - at, "}");
    return g_text;
}

static wai_status ej_parse_text(const char *text) {
    wai_entropy_set *s = (wai_entropy_set *)1;
    wai_status st = wai_entropy_json_parse(NULL, (const uint8_t *)text, strlen(text), &s);
    if (st != WAI_ok) CHECK(s == NULL);
    wai_entropy_set_free(NULL, s);
    return st;
}

static wai_status ej_parse(const ej *e) { return ej_parse_text(ej_text(e)); }

#define EJ_WITH(member, value) \
    (e = ej_base(), e.member = (value), ej_parse(&e))

static void test_entropy_json_valid(void) {
    ej e = ej_base();
    const char *t = ej_text(&e);
    wai_entropy_set *s;
    CHECK(wai_entropy_json_parse(NULL, (const uint8_t *)t, strlen(t), &s) == WAI_ok);
    if (!s) return;
    CHECK(s->n_edges == 2 && s->scale_edges[0] == 10 && s->scale_edges[1] == 20);
    CHECK(s->latent[0].n == 3 && s->latent[0].offset == -1 && s->latent[0].cdf[1] == 100);
    CHECK(s->latent[1].n == 4 && s->latent[1].offset == 0 && s->latent[1].cdf[3] == 65536);
    CHECK(s->n_z == 1 && s->hyper[0].n == 3 && s->hyper[0].offset == 2 &&
          s->hyper[0].cdf[1] == 32768 && s->z_median_q[0] == -7);
    /* The writer gives text that reads back to the same tables. */
    uint8_t *text;
    size_t len;
    CHECK(wai_entropy_json_write(NULL, s, &text, &len) == WAI_ok);
    wai_entropy_set *back;
    CHECK(wai_entropy_json_parse(NULL, text, len, &back) == WAI_ok);
    if (back) {
        CHECK(back->n_edges == 2 && back->n_z == 1 && back->z_median_q[0] == -7);
        for (uint32_t b = 0; b < 2; b++)
            CHECK(back->latent[b].n == s->latent[b].n &&
                  back->latent[b].offset == s->latent[b].offset &&
                  memcmp(back->latent[b].cdf, s->latent[b].cdf, 4 * s->latent[b].n) == 0);
        wai_entropy_set_free(NULL, back);
    }
    free(text);
    wai_entropy_set_free(NULL, s);
    /* Extremes of each type that fit. */
    CHECK(EJ_WITH(edges, "[-9223372036854775808, 9223372036854775807]") == WAI_ok);
    CHECK(EJ_WITH(z_medians, "[-9223372036854775808]") == WAI_ok);
    CHECK(EJ_WITH(offsets, "[-2147483648, 2147483647]") == WAI_ok);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], [0, 1, 2, 65536, 2147483647, -2147483648]]") ==
          WAI_ok);
    /* -0 is 0 (N3). */
    CHECK(EJ_WITH(cdfs, "[[-0, 100, 65536], [0, 1, 2, 65536]]") == WAI_ok);
    CHECK(EJ_WITH(offsets, "[-0, 0]") == WAI_ok);
    /* Members the decode does not read may hold anything JSON allows (N3). */
    CHECK(EJ_WITH(extra, "\"big\": 123456789012345678901234567890, \"f\": 1.5e300, "
                         "\"n\": -0.0, \"o\": {\"scale_edges\": 1}") == WAI_ok);
    CHECK(EJ_WITH(extra, NULL) == WAI_ok);
    /* N has no upper rule of its own (N4): many edges. */
    static char edges[8 * 1024], cdfs[32 * 1024], lengths[4 * 1024], offsets[4 * 1024];
    size_t a1 = 0, a2 = 0, a3 = 0, a4 = 0;
    for (int i = 0; i < 600; i++) {
        const char *sep = i ? ", " : "[";
        a1 += (size_t)snprintf(edges + a1, sizeof edges - a1, "%s%d", sep, i);
        a2 += (size_t)snprintf(cdfs + a2, sizeof cdfs - a2, "%s[0, %d, 65536]", sep, i + 1);
        a3 += (size_t)snprintf(lengths + a3, sizeof lengths - a3, "%s3", sep);
        a4 += (size_t)snprintf(offsets + a4, sizeof offsets - a4, "%s%d", sep, -i);
    }
    snprintf(edges + a1, sizeof edges - a1, "]");
    snprintf(cdfs + a2, sizeof cdfs - a2, "]");
    snprintf(lengths + a3, sizeof lengths - a3, "]");
    snprintf(offsets + a4, sizeof offsets - a4, "]");
    e = ej_base();
    e.edges = edges, e.cdfs = cdfs, e.lengths = lengths, e.offsets = offsets;
    CHECK(ej_parse(&e) == WAI_ok);
}

/* A table of n entries 16·i (n = 4097 reaches 65536) as JSON, length n. */
static void table_text(char *out, size_t cap, uint32_t n_entries, uint32_t step) {
    size_t at = 0;
    for (uint32_t i = 0; i < n_entries; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%u", i ? ", " : "[[", step * i);
    snprintf(out + at, cap - at, "]]");
}

static void test_entropy_json_lengths(void) {
    static char t[64 * 1024];
    ej e = ej_base();
    e.edges = "[1]", e.offsets = "[0]";
    table_text(t, sizeof t, 4097, 16);
    e.cdfs = t, e.lengths = "[4097]";
    CHECK(ej_parse(&e) == WAI_ok);
    e.lengths = "[4096]"; /* over its first 4096 entries: ends at 65520 */
    CHECK(ej_parse(&e) == WAI_model_mismatch);
    /* 4098 entries, the last 65536 at index 4097: too long. */
    size_t at = 0;
    at += (size_t)snprintf(t + at, sizeof t - at, "[[0");
    for (uint32_t i = 1; i < 4097; i++) at += (size_t)snprintf(t + at, sizeof t - at, ", %u", 15 * i);
    snprintf(t + at, sizeof t - at, ", 65536]]");
    e.lengths = "[4098]";
    CHECK(ej_parse(&e) == WAI_model_mismatch);
    e.lengths = "[4097]"; /* over 4097 entries: ends at 61440 */
    CHECK(ej_parse(&e) == WAI_model_mismatch);
    /* n_b: 3 is the least; 2 is refused; no more than the array's length;
     * a non-negative integer. */
    e = ej_base();
    CHECK(EJ_WITH(cdfs, "[[0, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[2, 4]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[3, 5]") == WAI_model_mismatch);   /* past the array */
    CHECK(EJ_WITH(lengths, "[-3, 4]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[-0, 4]") == WAI_model_mismatch);  /* 0 < 3 */
    CHECK(EJ_WITH(lengths, "[3.0, 4]") == WAI_model_mismatch); /* not an integer */
    CHECK(EJ_WITH(lengths, "[3e0, 4]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[\"3\", 4]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[18446744073709551616, 4]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_lengths, "[2]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_lengths, "[4]") == WAI_model_mismatch);
}

static void test_entropy_json_refusals(void) {
    ej e;
    /* Not a JSON text (RFC 8259, N3). */
    CHECK(ej_parse_text("") == WAI_model_mismatch);
    CHECK(ej_parse_text("{") == WAI_model_mismatch);
    e = ej_base();
    static char t[4096];
    snprintf(t, sizeof t, "%s x", ej_text(&e));
    CHECK(ej_parse_text(t) == WAI_model_mismatch);
    snprintf(t, sizeof t, "\xEF\xBB\xBF%s", ej_text(&e));
    CHECK(ej_parse_text(t) == WAI_model_mismatch);
    CHECK(ej_parse_text("[]") == WAI_model_mismatch);
    CHECK(ej_parse_text("{}") == WAI_model_mismatch);
    CHECK(EJ_WITH(extra, "\"s\": \"\\ud800\"") == WAI_model_mismatch);   /* lone surrogate */
    CHECK(EJ_WITH(extra, "\"scale_edges\": [1]") == WAI_model_mismatch); /* named twice */
    CHECK(EJ_WITH(extra, "\"o\": {\"a\": 1, \"a\": 2}") == WAI_model_mismatch);
    /* Depth: 64 levels accepted, 65 refused, in a member nobody reads. */
    char deep[256];
    size_t at = (size_t)snprintf(deep, sizeof deep, "\"d\": ");
    for (int i = 0; i < 63; i++) deep[at++] = '[';
    for (int i = 0; i < 63; i++) deep[at++] = ']';
    deep[at] = '\0';
    CHECK(EJ_WITH(extra, deep) == WAI_ok);
    memmove(deep + 6, deep + 5, at - 4);
    deep[5] = '[';
    deep[at + 1] = ']';
    deep[at + 2] = '\0';
    CHECK(EJ_WITH(extra, deep) == WAI_model_mismatch);
    /* Each member absent, or of another type. */
    static const size_t member_at[8] = {
        offsetof(ej, edges), offsetof(ej, cdfs), offsetof(ej, lengths), offsetof(ej, offsets),
        offsetof(ej, z_cdfs), offsetof(ej, z_lengths), offsetof(ej, z_offsets),
        offsetof(ej, z_medians)};
    for (int i = 0; i < 8; i++) {
        e = ej_base();
        const char **m = (const char **)(void *)((char *)&e + member_at[i]);
        *m = NULL;
        CHECK_MSG(ej_parse(&e) == WAI_model_mismatch, "member %d absent", i);
        *m = "{}";
        CHECK_MSG(ej_parse(&e) == WAI_model_mismatch, "member %d an object", i);
        *m = "null";
        CHECK_MSG(ej_parse(&e) == WAI_model_mismatch, "member %d null", i);
    }
    /* N >= 1, K >= 1, and every array of a group N (or K) long. */
    e = ej_base();
    e.edges = "[]", e.cdfs = "[]", e.lengths = "[]", e.offsets = "[]";
    CHECK(ej_parse(&e) == WAI_model_mismatch);
    e = ej_base();
    e.z_cdfs = "[]", e.z_lengths = "[]", e.z_offsets = "[]", e.z_medians = "[]";
    CHECK(ej_parse(&e) == WAI_model_mismatch);
    CHECK(EJ_WITH(edges, "[10]") == WAI_model_mismatch);
    CHECK(EJ_WITH(edges, "[10, 20, 30]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(lengths, "[3, 4, 3]") == WAI_model_mismatch);
    CHECK(EJ_WITH(offsets, "[0]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_cdfs, "[[0, 32768, 65536], [0, 32768, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_lengths, "[3, 3]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_offsets, "[]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_medians, "[1, 2]") == WAI_model_mismatch);
    /* Entries: integers fitting i32, all of them (N4), the table rule over
     * the first n_b. */
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], [0, 1, 2, 65536, 2147483648]]") ==
          WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], [0, 1, 2, 65536, -2147483649]]") ==
          WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], [0, 1, 2, 65536, 1.0]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100.0, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 1e2, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, \"1\", 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, null, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], 5]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[1, 100, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65535], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65537], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 0, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, 100, 65536], [0, 2, 1, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(cdfs, "[[0, -100, 65536], [0, 1, 2, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_cdfs, "[[0, 65536, 65536]]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_cdfs, "[[0, 32768, 65536, 99999999999]]") == WAI_model_mismatch);
    /* Offsets fit i32, edges and medians i64. */
    CHECK(EJ_WITH(offsets, "[2147483648, 0]") == WAI_model_mismatch);
    CHECK(EJ_WITH(offsets, "[-2147483649, 0]") == WAI_model_mismatch);
    CHECK(EJ_WITH(offsets, "[0.5, 0]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_offsets, "[2147483648]") == WAI_model_mismatch);
    CHECK(EJ_WITH(edges, "[10, 9223372036854775808]") == WAI_model_mismatch);
    CHECK(EJ_WITH(edges, "[-9223372036854775809, 1]") == WAI_model_mismatch);
    CHECK(EJ_WITH(edges, "[10, 2.0]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_medians, "[9223372036854775808]") == WAI_model_mismatch);
    CHECK(EJ_WITH(z_medians, "[1e3]") == WAI_model_mismatch);
}

static void test_entropy_json_alloc(void) {
    ej e = ej_base();
    const char *t = ej_text(&e);
    size_t len = strlen(t);
    harness_alloc h;
    int done = 0;
    for (size_t fail = 1; fail < 64 && !done; fail++) {
        memset(&h, 0, sizeof h);
        h.fail_at = fail;
        wai_allocator a = harness_allocator(&h);
        wai_entropy_set *s;
        wai_status st = wai_entropy_json_parse(&a, (const uint8_t *)t, len, &s);
        if (st == WAI_ok) {
            CHECK(!h.failed);
            wai_entropy_set_free(&a, s);
            done = 1;
        } else {
            CHECK_MSG(st == WAI_out_of_memory && h.failed && !s, "fail_at %zu: %s", fail,
                      wai_status_name(st));
        }
        CHECK_MSG(h.live == 0, "fail_at %zu leaks", fail);
    }
    CHECK(done);
    /* The writer, likewise. */
    wai_entropy_set *s;
    if (!CHECK(wai_entropy_json_parse(NULL, (const uint8_t *)t, len, &s) == WAI_ok)) return;
    done = 0;
    for (size_t fail = 1; fail < 64 && !done; fail++) {
        memset(&h, 0, sizeof h);
        h.fail_at = fail;
        wai_allocator a = harness_allocator(&h);
        uint8_t *out;
        size_t out_len;
        wai_status st = wai_entropy_json_write(&a, s, &out, &out_len);
        if (st == WAI_ok) {
            wai_free(&a, out);
            done = 1;
        } else {
            CHECK(st == WAI_out_of_memory && h.failed && !out);
        }
        CHECK(h.live == 0);
    }
    CHECK(done);
    wai_entropy_set_free(NULL, s);
}

static void test_entropy_json_writer(void) {
    /* A set filled by hand, as the corpus generator makes one. */
    static const uint32_t t0[3] = {0, 1000, 65536}, t1[4] = {0, 7, 65535, 65536};
    wai_entropy_table latent[2] = {{3, INT32_MIN, t0}, {4, INT32_MAX, t1}};
    wai_entropy_table hyper[1] = {{3, 0, t0}};
    int64_t edges[2] = {INT64_MIN, INT64_MAX}, med[1] = {-1};
    wai_entropy_set s = {2, edges, latent, 1, hyper, med, 0};
    harness_alloc h;
    memset(&h, 0, sizeof h);
    wai_allocator a = harness_allocator(&h);
    uint8_t *text;
    size_t len;
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_ok);
    wai_entropy_set *back;
    CHECK(wai_entropy_json_parse(&a, text, len, &back) == WAI_ok);
    if (back) {
        CHECK(back->scale_edges[0] == INT64_MIN && back->scale_edges[1] == INT64_MAX);
        CHECK(back->latent[0].offset == INT32_MIN && back->latent[1].offset == INT32_MAX);
        CHECK(back->latent[1].n == 4 && back->latent[1].cdf[2] == 65535);
        wai_entropy_set_free(&a, back);
    }
    wai_free(&a, text);
    /* What the reader would refuse is refused, before any allocation. */
    size_t calls = h.calls;
    latent[1].n = 2;
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_model_mismatch && !text);
    latent[1].n = 4098;
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_model_mismatch);
    latent[1].n = 4;
    hyper[0].cdf = t1; /* 4 entries read as 3: ends at 65535 */
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_model_mismatch);
    hyper[0].cdf = t0;
    s.n_z = 0;
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_model_mismatch);
    s.n_z = 1, s.n_edges = 0;
    CHECK(wai_entropy_json_write(&a, &s, &text, &len) == WAI_model_mismatch);
    CHECK(h.calls == calls && h.live == 0);
}

void suite_formats_neural(void) {
    harness_run("formats_neural/wia1_round_trip", test_wia1_round_trip);
    harness_run("formats_neural/wia1_framing", test_wia1_framing);
    harness_run("formats_neural/wia1_fields", test_wia1_fields);
    harness_run("formats_neural/wia1_sections", test_wia1_sections);
    harness_run("formats_neural/wia1_writer", test_wia1_writer);
    harness_run("formats_neural/wis1_round_trip", test_wis1_round_trip);
    harness_run("formats_neural/wis1_framing_and_fields", test_wis1_framing_and_fields);
    harness_run("formats_neural/f32_bits_N10", test_f32_bits);
    harness_run("formats_neural/f32_bits_against_float", test_f32_bits_against_float);
    harness_run("formats_neural/wis1_ranges", test_wis1_ranges);
    harness_run("formats_neural/wis1_sections", test_wis1_sections);
    harness_run("formats_neural/wis1_writer", test_wis1_writer);
    harness_run("formats_neural/entropy_json_valid", test_entropy_json_valid);
    harness_run("formats_neural/entropy_json_lengths", test_entropy_json_lengths);
    harness_run("formats_neural/entropy_json_refusals", test_entropy_json_refusals);
    harness_run("formats_neural/entropy_json_alloc", test_entropy_json_alloc);
    harness_run("formats_neural/entropy_json_writer", test_entropy_json_writer);
}
