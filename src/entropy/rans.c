/* SPDX-License-Identifier: BSD-2-Clause */
#include "entropy/rans.h"

wai_status wai_rans_read_stream(wai_reader *r, const uint8_t **bytes, size_t *len) {
    uint32_t l;
    wai_status st = wai_read_u32(r, &l);
    if (st != WAI_ok) return st;
    if (l % 4 != 0 || l < 8) return WAI_stream_length;
    st = wai_read_span(r, l, bytes);
    if (st == WAI_ok) *len = l;
    return st;
}

void wai_rans_dec_init(wai_rans_dec *d, const uint8_t *bytes, size_t len) {
    d->words = bytes;
    d->n_words = len / 4;
    d->x = (uint64_t)wai_load_u32le(bytes) | ((uint64_t)wai_load_u32le(bytes + 4) << 32);
    d->next = 2;
    d->ran_out = 0;
}

int32_t wai_rans_decode_escape(wai_rans_dec *d, uint32_t n) {
    uint32_t v = wai_rans_bits4(d);
    uint32_t count = v;
    /* "at most 8 times, while v = 15 and the stream has not run out" */
    for (int i = 0; i < WAI_RANS_ESCAPE_MAX_GROUPS && v == 15 && !d->ran_out; i++) {
        v = wai_rans_bits4(d);
        count += v;
    }
    if (count > WAI_RANS_ESCAPE_MAX_GROUPS) count = WAI_RANS_ESCAPE_MAX_GROUPS;
    uint64_t raw = 0;
    for (uint32_t j = 0; j < count; j++) raw |= (uint64_t)wai_rans_bits4(d) << (4 * j);
    /* raw < 2^32: an odd raw gives -(raw >> 1) - 1 >= -2^31, which fits; an even
     * one gives (raw >> 1) + (n - 2), which may pass i32 and saturates. */
    if (raw & 1) return (int32_t)(-(int64_t)(raw >> 1) - 1);
    return wai_sat_i32((int64_t)(raw >> 1) + (int64_t)(n - 2));
}

wai_status wai_rans_end_canonical(const wai_rans_dec *d) {
    if (d->ran_out) return WAI_stream_exhausted;
    if (d->next != d->n_words || d->x != WAI_RANS_L) return WAI_stream_noncanonical;
    return WAI_ok;
}

wai_status wai_rans_end_final_only(const wai_rans_dec *d) {
    return d->ran_out ? WAI_stream_exhausted : WAI_ok;
}
