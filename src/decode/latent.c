/* Latent decoding: E1 symbols rebuilt by E2 (see latent.h). */
#include "decode/latent.h"

#include <string.h>

#include "common/alloc.h"
#include "formats/sections.h"
#include "ops/layers.h"

/* Small lookups: a payload may carry many tables. */
#define PAYLOAD_LOOKUP_BITS 8

wai_status wai_decode_channels(wai_rans_dec *d, const wai_channel_coding *ch, uint32_t n_ch,
                               size_t per, uint32_t afrac, int64_t *out) {
    for (uint32_t k = 0; k < n_ch; k++) {
        int64_t *o = out + (size_t)k * per;
        for (size_t i = 0; i < per; i++) {
            int32_t s;
            wai_status st = wai_rans_decode(d, ch[k].table, ch[k].offset, &s);
            if (st == WAI_ok) st = wai_dequantize(s, afrac, ch[k].median, &o[i]);
            if (st != WAI_ok) return st;
        }
    }
    return WAI_ok;
}

wai_status wai_decode_bucketed(wai_rans_dec *d, const wai_cdf_table *tables,
                               const wai_entropy_table *meta, const int64_t *edges, uint32_t n_edges,
                               const int64_t *sigma, const int64_t *mu, size_t n,
                               uint32_t afrac, int64_t *out) {
    const int ascend = wai_edges_ascend(edges, n_edges);
    for (size_t p = 0; p < n; p++) {
        uint32_t b = ascend ? wai_bucket_ascending(sigma[p], edges, n_edges)
                            : wai_bucket(sigma[p], edges, n_edges);
        int32_t s;
        wai_status st = wai_rans_decode(d, &tables[b], meta[b].offset, &s);
        if (st == WAI_ok) st = wai_dequantize(s, afrac, mu[p], &out[p]);
        if (st != WAI_ok) return st;
    }
    return WAI_ok;
}

wai_status wai_payload_tables_init(const wai_allocator *a, const uint8_t *bytes, uint32_t n,
                                   const uint16_t *lens, uint32_t len, wai_payload_tables *t) {
    memset(t, 0, sizeof *t);
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) total += lens ? lens[k] : len;
    t->cdf = wai_alloc_array(a, total, sizeof *t->cdf);
    t->tables = wai_alloc_zeroed(a, n, sizeof *t->tables);
    if (!t->cdf || !t->tables) {
        wai_payload_tables_free(a, t);
        return WAI_out_of_memory;
    }
    t->n = n;
    size_t at = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t nk = lens ? lens[k] : len;
        wai_cdf_from_bytes(t->cdf + at, bytes + 4 * at, nk);
        wai_status st = wai_cdf_table_init(&t->tables[k], a, t->cdf + at, nk, PAYLOAD_LOOKUP_BITS);
        if (st != WAI_ok) {
            wai_payload_tables_free(a, t);
            return st;
        }
        at += nk;
    }
    return WAI_ok;
}

void wai_payload_tables_free(const wai_allocator *a, wai_payload_tables *t) {
    for (uint32_t k = 0; t->tables && k < t->n; k++) wai_cdf_table_free(&t->tables[k], a);
    wai_free(a, t->tables);
    wai_free(a, t->cdf);
    memset(t, 0, sizeof *t);
}
