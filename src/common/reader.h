/* SPDX-License-Identifier: BSD-2-Clause */
/* Little-endian reads over a bounded byte span. A read past the end reports
 * integer-payloads' stream_length and moves nothing; payload bytes are never
 * cast to structs. */
#ifndef WAI_COMMON_READER_H
#define WAI_COMMON_READER_H

#include <stddef.h>
#include <stdint.h>
#include "wai/wai.h"

typedef struct wai_reader {
    const uint8_t *data;
    size_t len;
    size_t pos;
} wai_reader;

void wai_reader_init(wai_reader *r, const uint8_t *data, size_t len);

static inline size_t wai_reader_left(const wai_reader *r) { return r->len - r->pos; }

/* 1 when n more bytes are present. n is 64-bit so a declared size past the
 * address space is simply "not present". */
int wai_reader_has(const wai_reader *r, uint64_t n);

wai_status wai_read_u8(wai_reader *r, uint8_t *v);
wai_status wai_read_u16(wai_reader *r, uint16_t *v);
wai_status wai_read_u32(wai_reader *r, uint32_t *v);
wai_status wai_read_u64(wai_reader *r, uint64_t *v);
wai_status wai_read_i16(wai_reader *r, int16_t *v);
wai_status wai_read_i32(wai_reader *r, int32_t *v);
wai_status wai_read_i64(wai_reader *r, int64_t *v);
/* Returns a pointer to the next n bytes (a view, no copy) and skips them. */
wai_status wai_read_span(wai_reader *r, uint64_t n, const uint8_t **span);
wai_status wai_skip(wai_reader *r, uint64_t n);

/* Loads from a buffer already known to hold enough bytes. */
static inline uint16_t wai_load_u16le(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t wai_load_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}
static inline uint64_t wai_load_u64le(const uint8_t *p) {
    return (uint64_t)wai_load_u32le(p) | ((uint64_t)wai_load_u32le(p + 4) << 32);
}
static inline void wai_store_u16le(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void wai_store_u32le(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
/* n u32 header fields in a row: loaded into the fields named, or stored
 * from the values given. */
static inline void wai_load_u32s(const uint8_t *p, uint32_t *const *fields, size_t n) {
    for (size_t i = 0; i < n; i++) *fields[i] = wai_load_u32le(p + 4 * i);
}
static inline void wai_store_u32s(uint8_t *p, const uint32_t *values, size_t n) {
    for (size_t i = 0; i < n; i++) wai_store_u32le(p + 4 * i, values[i]);
}
static inline void wai_store_u64le(uint8_t *p, uint64_t v) {
    wai_store_u32le(p, (uint32_t)v);
    wai_store_u32le(p + 4, (uint32_t)(v >> 32));
}
/* Two's-complement reinterpretation without implementation-defined casts. */
static inline int64_t wai_i64_from_u64(uint64_t u) {
    return (u <= (uint64_t)INT64_MAX) ? (int64_t)u
                                      : -(int64_t)(UINT64_MAX - u) - 1;
}
static inline int32_t wai_i32_from_u32(uint32_t u) {
    return (u <= (uint32_t)INT32_MAX) ? (int32_t)u
                                      : -(int32_t)(UINT32_MAX - u) - 1;
}
static inline int16_t wai_i16_from_u16(uint16_t u) {
    return (u <= (uint16_t)INT16_MAX) ? (int16_t)u
                                      : (int16_t)(-(int32_t)(UINT16_MAX - u) - 1);
}

#endif
