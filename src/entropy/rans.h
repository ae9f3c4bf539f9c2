/* SPDX-License-Identifier: BSD-2-Clause */
/* E1 rans64_decode (integer-payloads §2) and its canonical encoder.
 *
 * State x is 64 bits, loaded from the stream's first two u32 words; symbols
 * are coded at precision 16 with a 4-bit-group bypass escape for values
 * outside the table. Renormalisation reads at most one word (reading R2);
 * with no word left it marks the stream run out and leaves x as it is
 * (mode "lenient"). */
#ifndef WAI_ENTROPY_RANS_H
#define WAI_ENTROPY_RANS_H

#include <stddef.h>
#include <stdint.h>

#include "common/reader.h"
#include "common/sibling.h"
#include "entropy/cdf.h"
#include "wai/wai.h"

#define WAI_RANS_L ((uint64_t)1 << 31)
#define WAI_RANS_ESCAPE_MAX_GROUPS 8

typedef struct wai_rans_dec {
    uint64_t x;
    const uint8_t *words;  /* the stream's bytes, read as u32 LE words */
    size_t n_words;
    size_t next;           /* index of the next unread word */
    int ran_out;           /* sticky: some renormalisation found no word */
} wai_rans_dec;

/* Reads a stream's framing (reading R6): u32 L present, then L a multiple of
 * 4 and at least 8, then L bytes present; each failure is stream_length. */
wai_status wai_rans_read_stream(wai_reader *r, const uint8_t **bytes, size_t *len);

/* Loads the state from a framed stream (len % 4 == 0, len >= 8). Loading does
 * no renormalisation. */
WAI_SIBLING void wai_rans_dec_init(wai_rans_dec *d, const uint8_t *bytes, size_t len);

static inline void wai_rans_renorm(wai_rans_dec *d) {
    if (d->x < WAI_RANS_L) {
        if (d->next < d->n_words) {
            d->x = (d->x << 32) | wai_load_u32le(d->words + 4 * d->next);
            d->next++;
        } else {
            d->ran_out = 1;
        }
    }
}

static inline uint32_t wai_rans_bits4(wai_rans_dec *d) {
    uint32_t v = (uint32_t)(d->x & 15);
    d->x >>= 4;
    wai_rans_renorm(d);
    return v;
}

/* The escape's value (§2): count groups, then raw groups; returns the value
 * before the offset, already saturated to i32. Out of line: it is rare. */
int32_t wai_rans_decode_escape(wai_rans_dec *d, uint32_t n);

static inline int32_t wai_sat_i32(int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* The rANS step (E1): the index s whose slot holds the state's low bits,
 * the state advanced past it, x' = freq_s * (x >> 16) + cum - lo_s, then
 * renormalised; returns s. */
static inline uint32_t wai_rans_advance(wai_rans_dec *d, const wai_cdf_table *t) {
    uint32_t cum = (uint32_t)(d->x & (WAI_CDF_TOTAL - 1));
    uint32_t s = wai_cdf_find(t, cum);
    uint32_t lo = t->cdf[s], freq = t->cdf[s + 1] - lo;
    d->x = (uint64_t)freq * (d->x >> WAI_CDF_PRECISION) + cum - lo;
    wai_rans_renorm(d);
    return s;
}

/* Decodes one symbol against table t at offset o. Returns WAI_ok and the
 * symbol, or WAI_stream_exhausted when the stream ran out during this
 * symbol's decode (its value is then not to be used). */
static inline wai_status wai_rans_decode(wai_rans_dec *d, const wai_cdf_table *t, int32_t o,
                                         int32_t *symbol) {
    uint32_t s = wai_rans_advance(d, t);
    int32_t value = s < t->n - 2 ? (int32_t)s : wai_rans_decode_escape(d, t->n);
    if (d->ran_out) return WAI_stream_exhausted;
    *symbol = wai_sat_i32((int64_t)value + o);
    return WAI_ok;
}

/* The state of a decoder held in locals by a hot loop: a copy of x, next
 * and ran_out whose address does not escape, so the compiler keeps it in
 * registers (stores to the loop's output bytes could otherwise alias it).
 * wai_rans_local_decode is wai_rans_decode exactly; the rare escape syncs
 * the copy with the decoder around the out-of-line group reads. */
typedef struct wai_rans_local {
    uint64_t x;
    size_t next;
    int ran_out;
} wai_rans_local;

static inline wai_rans_local wai_rans_local_load(const wai_rans_dec *d) {
    wai_rans_local l = {d->x, d->next, d->ran_out};
    return l;
}

static inline void wai_rans_local_store(wai_rans_dec *d, const wai_rans_local *l) {
    d->x = l->x;
    d->next = l->next;
    d->ran_out = l->ran_out;
}

/* For a table built at full resolution (bits 16): bucket[cum] is the symbol.
 * With a step table (cdf.h) the state's next value waits on one load
 * instead of the bucket's and then the cdf's: x' = (freq − 1)·(x >> 16) +
 * (x >> 16) + cum − lo, the sum beside the product computed while the
 * multiply runs. In a pair slice cum < lo_b picks the first symbol, else
 * the slice's last; a per-slot entry takes the symbol's own load off the
 * chain. A slice that two boundaries cut takes the bucket's way;
 * every way gives wai_rans_decode's state and symbol exactly. */
static inline int32_t wai_rans_local_decode(wai_rans_local *l, wai_rans_dec *d,
                                            const wai_cdf_table *t, int32_t o) {
    uint64_t x = l->x, hi = x >> WAI_CDF_PRECISION;
    uint32_t cum = (uint32_t)(x & (WAI_CDF_TOTAL - 1));
    uint32_t s;
    uint64_t e = t->pair ? t->pair[cum >> WAI_CDF_PAIR_SHIFT] : WAI_CDF_PAIR_MULTI;
    if ((uint32_t)e != WAI_CDF_PAIR_MULTI) {
        /* A branch, not a select: where no boundary cuts the slice (lo_b =
         * lo_a) it always goes one way, and the select's two more steps
         * on the chain cost more than the cut slices' mispredictions. */
        uint32_t lo_b = (uint32_t)(e >> 32) & 0xFFFF;
        s = t->pair_last[cum >> WAI_CDF_PAIR_SHIFT];
        if (cum < lo_b) {
            x = (e >> 16 & 0xFFFF) * hi + (hi + cum - (e & 0xFFFF));
            s--;
        } else {
            x = (e >> 48) * hi + (hi + cum - lo_b);
        }
    } else if (t->step) {
        uint32_t u = t->step[cum];
        s = t->bucket[cum];
        x = (uint64_t)(u >> 16) * hi + (hi + cum - (u & 0xFFFF));
    } else {
        s = t->bits == WAI_CDF_PRECISION ? t->bucket[cum] : wai_cdf_find(t, cum);
        uint32_t lo = t->cdf[s];
        x = (uint64_t)(t->cdf[s + 1] - lo) * hi + cum - lo;
    }
    if (x < WAI_RANS_L) {
        if (l->next < d->n_words) x = (x << 32) | wai_load_u32le(d->words + 4 * l->next++);
        else l->ran_out = 1;
    }
    l->x = x;
    int32_t value = (int32_t)s;
    if (s == t->n - 2) {
        wai_rans_local_store(d, l);
        value = wai_rans_decode_escape(d, t->n);
        *l = wai_rans_local_load(d);
    }
    return wai_sat_i32((int64_t)value + o);
}

/* End rules after a stream's last symbol. canonical: every word read and
 * x = 2^31 (else stream_noncanonical); final_only: the stream did not run out
 * (else stream_exhausted). */
WAI_SIBLING wai_status wai_rans_end_canonical(const wai_rans_dec *d);
wai_status wai_rans_end_final_only(const wai_rans_dec *d);

#endif
