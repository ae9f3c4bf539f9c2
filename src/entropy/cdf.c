/* SPDX-License-Identifier: BSD-2-Clause */
#include "entropy/cdf.h"

#include "common/alloc.h"
#include "common/reader.h"

int wai_cdf_valid(const uint32_t *cdf, size_t n, wai_cdf_rule rule) {
    size_t min_len = rule == WAI_CDF_T4097 ? 3 : 2;
    size_t max_len = rule == WAI_CDF_T4097 ? WAI_CDF_MAX_LEN_T4097 : WAI_CDF_MAX_LEN_T2;
    if (n < min_len || n > max_len || !cdf) return 0;
    if (cdf[0] != 0 || cdf[n - 1] != WAI_CDF_TOTAL) return 0;
    for (size_t i = 1; i < n; i++)
        if (cdf[i] <= cdf[i - 1]) return 0;
    return 1;
}

/* The step tables of a full-resolution table (cdf.h): the pair table where
 * the slices of 32 that two or more boundaries cut are rare, else the per-
 * slot one. */
static uint32_t slot_entry(const wai_cdf_table *t, uint32_t s) {
    return (t->cdf[s + 1] - t->cdf[s] - 1) << 16 | t->cdf[s];
}

static wai_status step_init(wai_cdf_table *t, const wai_allocator *a) {
    const uint32_t slices = 1u << WAI_CDF_PAIR_BITS, span = 1u << WAI_CDF_PAIR_SHIFT;
    uint32_t multi = 0;
    for (uint32_t i = 0; i < slices; i++)
        multi += t->bucket[i * span + span - 1] > t->bucket[i * span] + 1u;
    if ((uint64_t)multi * span * 32 <= WAI_CDF_TOTAL) {
        t->pair = wai_alloc_array(a, slices, sizeof *t->pair);
        t->pair_last = wai_alloc_array(a, slices, sizeof *t->pair_last);
        if (!t->pair || !t->pair_last) return WAI_out_of_memory;
        for (uint32_t i = 0; i < slices; i++) {
            uint32_t sa = t->bucket[i * span], sb = t->bucket[i * span + span - 1];
            t->pair[i] = sb > sa + 1 ? WAI_CDF_PAIR_MULTI
                                     : (uint64_t)slot_entry(t, sb) << 32 | slot_entry(t, sa);
            t->pair_last[i] = (uint16_t)sb;
        }
        return WAI_ok;
    }
    t->step = wai_alloc_array(a, WAI_CDF_TOTAL, sizeof *t->step);
    if (!t->step) return WAI_out_of_memory;
    for (uint32_t cum = 0; cum < WAI_CDF_TOTAL; cum++) t->step[cum] = slot_entry(t, t->bucket[cum]);
    return WAI_ok;
}

wai_status wai_cdf_table_init(wai_cdf_table *t, const wai_allocator *a, const uint32_t *cdf,
                              uint32_t n, uint32_t bits) {
    if (bits > WAI_CDF_PRECISION || n < 2 || n > WAI_CDF_MAX_LEN_T2)
        return WAI_invalid_argument;
    size_t n_buckets = ((size_t)1 << bits) + 1;
    t->cdf = cdf;
    t->n = n;
    t->bits = bits;
    t->bucket = wai_alloc_array(a, n_buckets, sizeof *t->bucket);
    if (!t->bucket) return WAI_out_of_memory;
    /* One pass: s only moves forward as the bucket's lower edge grows. The
     * last symbol a search may return is n - 2 (cdf[n-1] = 2^16 > any cum). */
    uint32_t shift = WAI_CDF_PRECISION - bits, s = 0, last = n - 2;
    for (size_t b = 0; b + 1 < n_buckets; b++) {
        uint32_t edge = (uint32_t)b << shift;
        while (s < last && cdf[s + 1] <= edge) s++;
        t->bucket[b] = (uint16_t)s;
    }
    t->bucket[n_buckets - 1] = (uint16_t)last;
    t->pair = NULL;
    t->pair_last = NULL;
    t->step = NULL;
    if (bits == WAI_CDF_PRECISION && step_init(t, a) != WAI_ok) {
        wai_cdf_table_free(t, a);   /* a failed init holds nothing */
        return WAI_out_of_memory;
    }
    return WAI_ok;
}

void wai_cdf_table_free(wai_cdf_table *t, const wai_allocator *a) {
    wai_free(a, t->bucket);
    wai_free(a, t->pair);
    wai_free(a, t->pair_last);
    wai_free(a, t->step);
    t->bucket = NULL;
    t->pair = NULL;
    t->pair_last = NULL;
    t->step = NULL;
}

void wai_cdf_from_bytes(uint32_t *cdf, const uint8_t *bytes, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) cdf[i] = wai_load_u32le(bytes + 4 * (size_t)i);
}
