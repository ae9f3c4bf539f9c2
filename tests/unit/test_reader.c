/* SPDX-License-Identifier: BSD-2-Clause */
/* The bounded little-endian reader: values, and stream_length on short reads. */
#include "common/reader.h"
#include "harness.h"

static const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                                0xFF, 0xFF, 0x00, 0x80, 0x00, 0x00, 0x00, 0x80,
                                0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

static void test_values(void) {
    wai_reader r;
    wai_reader_init(&r, bytes, sizeof bytes);
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    CHECK(wai_read_u8(&r, &u8) == WAI_ok && u8 == 0x01);
    CHECK(wai_read_u16(&r, &u16) == WAI_ok && u16 == 0x0302);
    CHECK(wai_read_u32(&r, &u32) == WAI_ok && u32 == 0x07060504);
    CHECK(wai_reader_left(&r) == sizeof bytes - 7);
    wai_reader_init(&r, bytes, sizeof bytes);
    uint64_t u64;
    CHECK(wai_read_u64(&r, &u64) == WAI_ok && u64 == 0x0807060504030201ull);
    int16_t i16;
    CHECK(wai_read_i16(&r, &i16) == WAI_ok && i16 == -1);
    CHECK(wai_read_i16(&r, &i16) == WAI_ok && i16 == INT16_MIN);
    int32_t i32;
    CHECK(wai_read_i32(&r, &i32) == WAI_ok && i32 == INT32_MIN);
    int64_t i64;
    CHECK(wai_read_i64(&r, &i64) == WAI_ok && i64 == -2);
    CHECK(wai_reader_left(&r) == 0);
}

static void test_short_reads_move_nothing(void) {
    wai_reader r;
    wai_reader_init(&r, bytes, 3);
    uint32_t u32 = 77;
    CHECK(wai_read_u32(&r, &u32) == WAI_stream_length && u32 == 77 && r.pos == 0);
    uint16_t u16;
    CHECK(wai_read_u16(&r, &u16) == WAI_ok);
    CHECK(wai_read_u16(&r, &u16) == WAI_stream_length && r.pos == 2);
    uint8_t u8;
    CHECK(wai_read_u8(&r, &u8) == WAI_ok && u8 == 0x03);
    CHECK(wai_read_u8(&r, &u8) == WAI_stream_length);
    int64_t i64;
    CHECK(wai_read_i64(&r, &i64) == WAI_stream_length);
}

static void test_spans(void) {
    wai_reader r;
    wai_reader_init(&r, bytes, sizeof bytes);
    const uint8_t *span = NULL;
    CHECK(wai_read_span(&r, 8, &span) == WAI_ok && span == bytes && r.pos == 8);
    CHECK(wai_reader_has(&r, 16) && !wai_reader_has(&r, 17));
    /* A declared size past the address space is "not present", not a wrap. */
    CHECK(wai_read_span(&r, UINT64_MAX, &span) == WAI_stream_length && r.pos == 8);
    CHECK(wai_skip(&r, (uint64_t)1 << 40) == WAI_stream_length);
    CHECK(wai_skip(&r, 16) == WAI_ok && wai_reader_left(&r) == 0);
    CHECK(wai_read_span(&r, 0, &span) == WAI_ok);
    wai_reader_init(&r, NULL, 5); /* no data: no bytes */
    CHECK(wai_reader_left(&r) == 0);
}

static void test_conversions(void) {
    CHECK(wai_i64_from_u64(UINT64_MAX) == -1);
    CHECK(wai_i64_from_u64((uint64_t)1 << 63) == INT64_MIN);
    CHECK(wai_i64_from_u64((uint64_t)INT64_MAX) == INT64_MAX);
    CHECK(wai_i32_from_u32(0x80000000u) == INT32_MIN);
    CHECK(wai_i16_from_u16(0x8000u) == INT16_MIN);
    CHECK(wai_i16_from_u16(0x7FFFu) == INT16_MAX);
    uint8_t buf[8];
    wai_store_u64le(buf, 0x0102030405060708ull);
    CHECK(buf[0] == 8 && buf[7] == 1 && wai_load_u64le(buf) == 0x0102030405060708ull);
    wai_store_u16le(buf, 0xBEEF);
    CHECK(wai_load_u16le(buf) == 0xBEEF);
}

void suite_reader(void) {
    harness_run("reader/values", test_values);
    harness_run("reader/short_reads", test_short_reads_move_nothing);
    harness_run("reader/spans", test_spans);
    harness_run("reader/conversions", test_conversions);
}
