/* SPDX-License-Identifier: BSD-2-Clause */
/* The canonical rANS encoder. It runs backwards over the symbols; each
 * decode step (a table symbol, or a 4-bit group) is undone by the matching
 * encode step, so the decoder's first read is the encoder's last write. */
#include <string.h>

#include "common/alloc.h"
#include "entropy/cdf.h"
#include "wai/wai_write.h"
#include "write/rans_encode.h"

typedef struct word_stack {
    const wai_allocator *a;
    uint32_t *w;
    size_t n, cap;
    int failed;
} word_stack;

static void push_word(word_stack *s, uint32_t w) {
    if (s->failed) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        uint32_t *grown = wai_alloc_array(s->a, cap, sizeof *grown);
        if (!grown) {
            s->failed = 1;
            return;
        }
        if (s->n) memcpy(grown, s->w, s->n * sizeof *grown);
        wai_free(s->a, s->w);
        s->w = grown;
        s->cap = cap;
    }
    s->w[s->n++] = w;
}

/* Undoes x' = freq * (x >> scale) + (x mod 2^scale) - start, then a
 * renormalisation. The flush bound keeps x in [2^31, 2^63) after the step. */
static void put(uint64_t *x, word_stack *s, uint32_t start, uint32_t freq, uint32_t scale) {
    uint64_t x_max = ((WAI_RANS_L >> scale) << 32) * freq;
    if (*x >= x_max) {
        push_word(s, (uint32_t)*x);
        *x >>= 32;
    }
    *x = ((*x / freq) << scale) + (*x % freq) + start;
}

int wai_rans_encodable(int32_t symbol, int32_t o) {
    int64_t value = (int64_t)symbol - o;
    return value >= INT32_MIN && value <= INT32_MAX;
}

static void put_symbol(uint64_t *x, word_stack *s, const wai_cdf_table *t, int64_t value) {
    uint32_t n = t->n;
    if (value >= 0 && value < (int64_t)n - 2) {
        uint32_t v = (uint32_t)value;
        put(x, s, t->cdf[v], t->cdf[v + 1] - t->cdf[v], WAI_CDF_PRECISION);
        return;
    }
    /* Escape: raw even for value >= n - 2, odd for value < 0 (see decode). */
    uint64_t raw = value >= 0 ? 2 * (uint64_t)(value - ((int64_t)n - 2))
                              : 2 * (uint64_t)(-(value + 1)) + 1;
    uint32_t groups = 0;
    for (uint64_t r = raw; r; r >>= 4) groups++;
    for (uint32_t j = groups; j-- > 0;) put(x, s, (uint32_t)(raw >> (4 * j)) & 15, 1, 4);
    put(x, s, groups, 1, 4);
    put(x, s, t->cdf[n - 2], t->cdf[n - 1] - t->cdf[n - 2], WAI_CDF_PRECISION);
}

/* Lays the flushed words out in decode order behind the final state. */
static wai_status finish(const wai_allocator *a, word_stack *s, uint64_t x, uint8_t **out,
                         size_t *out_len) {
    if (s->failed) {
        wai_free(a, s->w);
        return WAI_out_of_memory;
    }
    size_t len = 8 + 4 * s->n;
    uint8_t *bytes = wai_alloc(a, len);
    if (!bytes) {
        wai_free(a, s->w);
        return WAI_out_of_memory;
    }
    wai_store_u32le(bytes, (uint32_t)x);
    wai_store_u32le(bytes + 4, (uint32_t)(x >> 32));
    for (size_t i = 0; i < s->n; i++) wai_store_u32le(bytes + 8 + 4 * i, s->w[s->n - 1 - i]);
    wai_free(a, s->w);
    *out = bytes;
    *out_len = len;
    return WAI_ok;
}

wai_status wai_rans_encode(const wai_allocator *a, const wai_cdf_table *table,
                           const wai_cdf_table *const *tables, const int32_t *offsets,
                           int32_t offset, const int32_t *symbols, size_t n_symbols,
                           uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    for (size_t i = 0; i < n_symbols; i++)
        if (!wai_rans_encodable(symbols[i], offsets ? offsets[i] : offset))
            return WAI_field_range;
    word_stack s = {a, NULL, 0, 0, 0};
    uint64_t x = WAI_RANS_L;
    for (size_t i = n_symbols; i-- > 0;) {
        const wai_cdf_table *t = tables ? tables[i] : table;
        put_symbol(&x, &s, t, (int64_t)symbols[i] - (offsets ? offsets[i] : offset));
    }
    return finish(a, &s, x, out, out_len);
}

wai_status wai_rans_encode_steps(const wai_allocator *a, const wai_cdf_table *t,
                                 const wai_rans_step *steps, size_t n_steps, uint8_t **out,
                                 size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    for (size_t i = 0; i < n_steps; i++) {
        uint32_t v = steps[i] & ~WAI_RANS_GROUP;
        if ((steps[i] & WAI_RANS_GROUP) ? v > 15 : v > t->n - 2) return WAI_invalid_argument;
    }
    word_stack s = {a, NULL, 0, 0, 0};
    uint64_t x = WAI_RANS_L;
    for (size_t i = n_steps; i-- > 0;) {
        uint32_t v = steps[i] & ~WAI_RANS_GROUP;
        if (steps[i] & WAI_RANS_GROUP) put(&x, &s, v, 1, 4);
        else put(&x, &s, t->cdf[v], t->cdf[v + 1] - t->cdf[v], WAI_CDF_PRECISION);
    }
    return finish(a, &s, x, out, out_len);
}

/* The decode of one symbol as its steps (the decoder's own loop, each
 * group kept as read). */
wai_status wai_rans_decode_steps(wai_rans_dec *d, const wai_cdf_table *t, wai_rans_step *steps,
                                 size_t *n_steps) {
    uint32_t s = wai_rans_advance(d, t);
    size_t n = 0;
    steps[n++] = s;
    if (s == t->n - 2) {
        /* The escape's groups exactly as read: the same loop as the value's. */
        uint32_t v = wai_rans_bits4(d), count = v;
        steps[n++] = WAI_RANS_GROUP | v;
        for (int i = 0; i < WAI_RANS_ESCAPE_MAX_GROUPS && v == 15 && !d->ran_out; i++) {
            v = wai_rans_bits4(d);
            count += v;
            steps[n++] = WAI_RANS_GROUP | v;
        }
        if (count > WAI_RANS_ESCAPE_MAX_GROUPS) count = WAI_RANS_ESCAPE_MAX_GROUPS;
        for (uint32_t j = 0; j < count; j++) steps[n++] = WAI_RANS_GROUP | wai_rans_bits4(d);
    }
    *n_steps = n;
    return d->ran_out ? WAI_stream_exhausted : WAI_ok;
}

/* ---- the public face (include/wai/wai_write.h) ----------------------------- */

wai_status wai_rans_encode_symbols(const wai_allocator *a, const uint32_t *cdf, size_t cdf_len,
                                   int32_t offset, const int32_t *symbols, size_t n,
                                   uint8_t **out, size_t *out_len) {
    if (!out || !out_len || !cdf || (!symbols && n)) return WAI_invalid_argument;
    *out = NULL;
    *out_len = 0;
    if (cdf_len > WAI_CDF_MAX_LEN_T4097 || !wai_cdf_valid(cdf, cdf_len, WAI_CDF_T4097))
        return WAI_cdf_malformed;
    wai_cdf_table t;
    wai_status st = wai_cdf_table_init(&t, a, cdf, (uint32_t)cdf_len, 8);
    if (st != WAI_ok) return st;
    st = wai_rans_encode(a, &t, NULL, NULL, offset, symbols, n, out, out_len);
    wai_cdf_table_free(&t, a);
    return st;
}

wai_status wai_rans_encode_symbols_tables(const wai_allocator *a, size_t n_tables,
                                          const uint32_t *const *cdfs, const size_t *cdf_lens,
                                          const int32_t *offsets, const uint32_t *table_of,
                                          const int32_t *symbols, size_t n, uint8_t **out,
                                          size_t *out_len) {
    if (!out || !out_len || !n_tables || !cdfs || !cdf_lens || !offsets ||
        ((!table_of || !symbols) && n))
        return WAI_invalid_argument;
    *out = NULL;
    *out_len = 0;
    for (size_t i = 0; i < n; i++)
        if (table_of[i] >= n_tables) return WAI_invalid_argument;
    wai_cdf_table *t = wai_alloc_zeroed(a, n_tables, sizeof *t);
    const wai_cdf_table **per = wai_alloc_array(a, n ? n : 1, sizeof *per);
    int32_t *offs = wai_alloc_array(a, n ? n : 1, sizeof *offs);
    wai_status st = t && per && offs ? WAI_ok : WAI_out_of_memory;
    size_t made = 0;
    for (; st == WAI_ok && made < n_tables; made++) {
        if (!cdfs[made] || cdf_lens[made] > WAI_CDF_MAX_LEN_T4097 ||
            !wai_cdf_valid(cdfs[made], cdf_lens[made], WAI_CDF_T4097)) {
            st = WAI_cdf_malformed;
            break;
        }
        st = wai_cdf_table_init(&t[made], a, cdfs[made], (uint32_t)cdf_lens[made], 8);
    }
    for (size_t i = 0; st == WAI_ok && i < n; i++) {
        per[i] = &t[table_of[i]];
        offs[i] = offsets[table_of[i]];
    }
    if (st == WAI_ok) st = wai_rans_encode(a, NULL, per, offs, 0, symbols, n, out, out_len);
    for (size_t k = 0; t && k < made; k++) wai_cdf_table_free(&t[k], a);
    wai_free(a, t), wai_free(a, per), wai_free(a, offs);
    return st;
}

void wai_write_free(const wai_allocator *a, void *p) { wai_free(a, p); }
