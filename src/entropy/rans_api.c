/* SPDX-License-Identifier: BSD-2-Clause */
/* wai_rans_decode_symbols_tables (wai/wai_rans.h): the tables validated
 * and built (each with its own lookup), the symbols decoded in order, the
 * canonical end checked. */
#include "wai/wai_rans.h"

#include "common/alloc.h"
#include "entropy/cdf.h"
#include "entropy/rans.h"

WAI_API wai_status wai_rans_decode_symbols_tables(const wai_allocator *a, size_t n_tables,
                                                  const uint32_t *const *cdfs,
                                                  const size_t *cdf_lens,
                                                  const int32_t *offsets,
                                                  const uint32_t *table_of,
                                                  const uint8_t *stream, size_t len,
                                                  int32_t *out, size_t n) {
    if (n_tables == 0 || !cdfs || !cdf_lens || !offsets) return WAI_invalid_argument;
    if (n > 0 && (!table_of || !out)) return WAI_invalid_argument;
    if (len > 0 && !stream) return WAI_invalid_argument;
    for (size_t t = 0; t < n_tables; t++)
        if (!cdfs[t] || !wai_cdf_valid(cdfs[t], cdf_lens[t], WAI_CDF_T4097))
            return WAI_cdf_malformed;
    for (size_t i = 0; i < n; i++)
        if (table_of[i] >= n_tables) return WAI_invalid_argument;
    wai_cdf_table *tabs = wai_alloc_zeroed(a, n_tables, sizeof *tabs);
    if (!tabs) return WAI_out_of_memory;
    wai_status st = WAI_ok;
    size_t built = 0;
    /* Each table's lookup, 2^bits buckets built for this call alone: no
     * more buckets in all than symbols to decode, up to full resolution
     * (the fast lookup) for at most 16 tables, and never under 8 bits (a
     * short search). A call of a few symbols builds no 2^16-entry tables. */
    uint32_t bits = 8;
    while (n_tables <= 16 && bits < WAI_CDF_PRECISION && n >> (bits + 1) >= n_tables) bits++;
    while (built < n_tables && st == WAI_ok) {
        st = wai_cdf_table_init(&tabs[built], a, cdfs[built], (uint32_t)cdf_lens[built], bits);
        if (st == WAI_ok) built++;
    }
    if (st == WAI_ok) {
        wai_rans_dec d;
        wai_rans_dec_init(&d, stream, len);
        for (size_t i = 0; i < n && st == WAI_ok; i++)
            st = wai_rans_decode(&d, &tabs[table_of[i]], offsets[table_of[i]], &out[i]);
        if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    }
    for (size_t t = 0; t < built; t++) wai_cdf_table_free(&tabs[t], a);
    wai_free(a, tabs);
    return st;
}
