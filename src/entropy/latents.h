/* SPDX-License-Identifier: BSD-2-Clause */
/* Decoding latents from a rANS stream (integer-payloads §4 steps 1 and 3,
 * §5 step 1, §6 step 1): each element one symbol of E1, rebuilt by E2 as
 * s·2^afrac + base, in channel, row, column order. A symbol that runs the
 * stream out is stream_exhausted before its value is formed; a value that
 * leaves i64 is field_range (§7 step 5). The stream's canonical end is the
 * caller's to check after the last symbol. */
#ifndef WAI_ENTROPY_LATENTS_H
#define WAI_ENTROPY_LATENTS_H

#include <stddef.h>
#include <stdint.h>

#include "entropy/cdf.h"
#include "entropy/rans.h"

/* One channel's coding: its table, offset and median. */
typedef struct wai_channel_coding {
    const wai_cdf_table *table;
    int32_t offset;
    int64_t median;
} wai_channel_coding;

/* n_ch channels of `per` elements each, channel k against ch[k]. */
wai_status wai_decode_channels(wai_rans_dec *d, const wai_channel_coding *ch, uint32_t n_ch,
                               size_t per, uint32_t afrac, int64_t *out);

/* The conditional latent (§4 step 3): element p's table is the ceil bucket
 * b (E3) of sigma[p] over the edges (lookup tables[b], offset
 * meta[b].offset), its base mu[p]. */
wai_status wai_decode_bucketed(wai_rans_dec *d, const wai_cdf_table *tables,
                               const wai_entropy_table *meta, const int64_t *edges, uint32_t n_edges,
                               const int64_t *sigma, const int64_t *mu, size_t n,
                               uint32_t afrac, int64_t *out);

/* Per-channel tables carried in a payload (WIA1, WIS1): n tables of
 * lengths len[k] (each a valid §2 table, as the parser checked) stored as
 * little-endian u32 one after another in `bytes`, with their lookups. */
typedef struct wai_payload_tables {
    uint32_t *cdf;             /* every entry, table after table */
    wai_cdf_table *tables;     /* [n] */
    uint32_t n;
} wai_payload_tables;

/* lens NULL: every table is `len` entries long. */
wai_status wai_payload_tables_init(const wai_allocator *a, const uint8_t *bytes, uint32_t n,
                                   const uint16_t *lens, uint32_t len, wai_payload_tables *t);
void wai_payload_tables_free(const wai_allocator *a, wai_payload_tables *t);

#endif
