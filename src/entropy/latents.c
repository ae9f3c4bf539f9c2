/* SPDX-License-Identifier: BSD-2-Clause */
/* Latent decoding: E1 symbols rebuilt by E2 (see latents.h). */
#include "entropy/latents.h"

#include <string.h>

#include "common/alloc.h"
#include "entropy/model.h"

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

/* Buckets a run at a time, then the run's symbols: the bucket (a search
 * over the edges, off the rANS chain) no longer waits between one symbol's
 * state and the next, and the state stays in locals (wai_rans_local_decode
 * is wai_rans_decode exactly). A symbol that runs the stream out stops the
 * run before its value is rebuilt, as before. */
#define BUCKET_RUN 256

wai_status wai_decode_bucketed(wai_rans_dec *d, const wai_cdf_table *tables,
                               const wai_entropy_table *meta, const int64_t *edges, uint32_t n_edges,
                               const int64_t *sigma, const int64_t *mu, size_t n,
                               uint32_t afrac, int64_t *out) {
    const int ascend = wai_edges_ascend(edges, n_edges);
    uint32_t bk[BUCKET_RUN];
    wai_rans_local l = wai_rans_local_load(d);
    wai_status st = WAI_ok;
    for (size_t p0 = 0; p0 < n && st == WAI_ok; p0 += BUCKET_RUN) {
        const size_t m = n - p0 < BUCKET_RUN ? n - p0 : BUCKET_RUN;
        for (size_t i = 0; i < m; i++)
            bk[i] = ascend ? wai_bucket_ascending(sigma[p0 + i], edges, n_edges)
                           : wai_bucket(sigma[p0 + i], edges, n_edges);
        for (size_t i = 0; i < m; i++) {
            const uint32_t b = bk[i];
            int32_t s = wai_rans_local_decode(&l, d, &tables[b], meta[b].offset);
            if (l.ran_out) {
                st = WAI_stream_exhausted;
                break;
            }
            if ((st = wai_dequantize(s, afrac, mu[p0 + i], &out[p0 + i])) != WAI_ok) break;
        }
    }
    wai_rans_local_store(d, &l);
    return st;
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
