/* SPDX-License-Identifier: BSD-2-Clause */
#include "common/reader.h"

void wai_reader_init(wai_reader *r, const uint8_t *data, size_t len) {
    r->data = data;
    r->len = data ? len : 0;
    r->pos = 0;
}

int wai_reader_has(const wai_reader *r, uint64_t n) {
    return n <= (uint64_t)(r->len - r->pos);
}

wai_status wai_read_span(wai_reader *r, uint64_t n, const uint8_t **span) {
    if (!wai_reader_has(r, n)) return WAI_stream_length;
    *span = r->data + r->pos;
    r->pos += (size_t)n;
    return WAI_ok;
}

wai_status wai_skip(wai_reader *r, uint64_t n) {
    const uint8_t *unused;
    return wai_read_span(r, n, &unused);
}

/* An unsigned little-endian read of N bytes through LOAD, and a signed one
 * through the unsigned one's value: each read checks its room first. */
#define READ_UNSIGNED(NAME, T, N, LOAD)                                                  \
    wai_status NAME(wai_reader *r, T *v) {                                               \
        const uint8_t *p;                                                                \
        wai_status s = wai_read_span(r, N, &p);                                          \
        if (s == WAI_ok) *v = LOAD(p);                                                   \
        return s;                                                                        \
    }
#define READ_SIGNED(NAME, T, U, READ, CAST)                                              \
    wai_status NAME(wai_reader *r, T *v) {                                               \
        U u;                                                                             \
        wai_status s = READ(r, &u);                                                      \
        if (s == WAI_ok) *v = CAST(u);                                                   \
        return s;                                                                        \
    }

static uint8_t load_u8(const uint8_t *p) { return p[0]; }

READ_UNSIGNED(wai_read_u8, uint8_t, 1, load_u8)
READ_UNSIGNED(wai_read_u16, uint16_t, 2, wai_load_u16le)
READ_UNSIGNED(wai_read_u32, uint32_t, 4, wai_load_u32le)
READ_UNSIGNED(wai_read_u64, uint64_t, 8, wai_load_u64le)
READ_SIGNED(wai_read_i16, int16_t, uint16_t, wai_read_u16, wai_i16_from_u16)
READ_SIGNED(wai_read_i32, int32_t, uint32_t, wai_read_u32, wai_i32_from_u32)
READ_SIGNED(wai_read_i64, int64_t, uint64_t, wai_read_u64, wai_i64_from_u64)
