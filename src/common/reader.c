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

wai_status wai_read_u8(wai_reader *r, uint8_t *v) {
    const uint8_t *p;
    wai_status s = wai_read_span(r, 1, &p);
    if (s == WAI_ok) *v = p[0];
    return s;
}

wai_status wai_read_u16(wai_reader *r, uint16_t *v) {
    const uint8_t *p;
    wai_status s = wai_read_span(r, 2, &p);
    if (s == WAI_ok) *v = wai_load_u16le(p);
    return s;
}

wai_status wai_read_u32(wai_reader *r, uint32_t *v) {
    const uint8_t *p;
    wai_status s = wai_read_span(r, 4, &p);
    if (s == WAI_ok) *v = wai_load_u32le(p);
    return s;
}

wai_status wai_read_u64(wai_reader *r, uint64_t *v) {
    const uint8_t *p;
    wai_status s = wai_read_span(r, 8, &p);
    if (s == WAI_ok) *v = wai_load_u64le(p);
    return s;
}

wai_status wai_read_i16(wai_reader *r, int16_t *v) {
    uint16_t u;
    wai_status s = wai_read_u16(r, &u);
    if (s == WAI_ok) *v = wai_i16_from_u16(u);
    return s;
}

wai_status wai_read_i32(wai_reader *r, int32_t *v) {
    uint32_t u;
    wai_status s = wai_read_u32(r, &u);
    if (s == WAI_ok) *v = wai_i32_from_u32(u);
    return s;
}

wai_status wai_read_i64(wai_reader *r, int64_t *v) {
    uint64_t u;
    wai_status s = wai_read_u64(r, &u);
    if (s == WAI_ok) *v = wai_i64_from_u64(u);
    return s;
}
