#include "entropy/cdf.h"

#include "common/alloc.h"

int wai_cdf_valid(const uint32_t *cdf, size_t n, wai_cdf_rule rule) {
    size_t min_len = rule == WAI_CDF_T4097 ? 3 : 2;
    size_t max_len = rule == WAI_CDF_T4097 ? WAI_CDF_MAX_LEN_T4097 : WAI_CDF_MAX_LEN_T2;
    if (n < min_len || n > max_len || !cdf) return 0;
    if (cdf[0] != 0 || cdf[n - 1] != WAI_CDF_TOTAL) return 0;
    for (size_t i = 1; i < n; i++)
        if (cdf[i] <= cdf[i - 1]) return 0;
    return 1;
}

/* The step table of a full-resolution table (cdf.h): slices of 16 where
 * the mixed ones are rare, else of one slot. */
static wai_status step_init(wai_cdf_table *t, const wai_allocator *a) {
    const uint32_t width = WAI_CDF_TOTAL >> WAI_CDF_STEP_BITS;
    /* A slice is mixed when a symbol boundary cdf[s] (0 < s < n - 1) falls
     * strictly inside it; at most n - 2 of them. */
    uint32_t mixed = 0, prev = UINT32_MAX;
    for (uint32_t s = 1; s + 1 < t->n; s++) {
        uint32_t c = t->cdf[s];
        if (c % width && c / width != prev) mixed++, prev = c / width;
    }
    t->step_shift = (uint64_t)mixed * width * 32 <= WAI_CDF_TOTAL ? 4 : 0;
    uint32_t slices = WAI_CDF_TOTAL >> t->step_shift, span = 1u << t->step_shift;
    t->step = wai_alloc_array(a, slices, sizeof *t->step);
    if (!t->step) return WAI_out_of_memory;
    for (uint32_t i = 0; i < slices; i++) {
        uint32_t first = i * span, s = t->bucket[first], lo = t->cdf[s], hi = t->cdf[s + 1];
        t->step[i] = hi >= first + span ? (hi - lo - 1) << 16 | lo : WAI_CDF_STEP_MIXED;
    }
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
    t->step = NULL;
    t->step_shift = 0;
    if (bits == WAI_CDF_PRECISION && step_init(t, a) != WAI_ok) {
        wai_cdf_table_free(t, a);   /* a failed init holds nothing */
        return WAI_out_of_memory;
    }
    return WAI_ok;
}

void wai_cdf_table_free(wai_cdf_table *t, const wai_allocator *a) {
    wai_free(a, t->bucket);
    wai_free(a, t->step);
    t->bucket = NULL;
    t->step = NULL;
}
