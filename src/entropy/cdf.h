/* SPDX-License-Identifier: BSD-2-Clause */
/* CDF tables of the rANS coder (integer-payloads §2; E1's table rules) and
 * the lookup structure that finds a symbol without scanning the table. */
#ifndef WAI_ENTROPY_CDF_H
#define WAI_ENTROPY_CDF_H

#include <stddef.h>
#include <stdint.h>

#include "common/sibling.h"
#include "wai/wai.h"

#define WAI_CDF_PRECISION 16
#define WAI_CDF_TOTAL ((uint32_t)1 << WAI_CDF_PRECISION)
#define WAI_CDF_MAX_LEN_T4097 4097
/* Strictly increasing from 0 to 2^16 allows at most 2^16 + 1 entries. */
#define WAI_CDF_MAX_LEN_T2 (WAI_CDF_TOTAL + 1)

typedef enum wai_cdf_rule {
    WAI_CDF_T4097, /* 3 <= n <= 4097 (§2) */
    WAI_CDF_T2     /* 2 <= n (§14, WIM1) */
} wai_cdf_rule;

/* 1 when cdf[0..n) keeps the rule: its length, cdf[0] = 0,
 * cdf[n-1] = 65536, every entry greater than the one before. */
WAI_SIBLING int wai_cdf_valid(const uint32_t *cdf, size_t n, wai_cdf_rule rule);

/* A validated table with its lookup: bucket[b] is the largest s with
 * cdf[s] <= b << (16 - bits), so the symbol of cum lies between bucket[b] and
 * bucket[b + 1]; with bits = 16 the bucket is the answer. Smaller `bits`
 * trades a short binary search for memory (many tables per set). */
typedef struct wai_cdf_table {
    const uint32_t *cdf;   /* borrowed; n entries */
    uint32_t n;
    uint32_t bits;         /* lookup resolution, 0..16 */
    uint16_t *bucket;      /* 2^bits + 1 entries, owned */
    uint64_t *pair;        /* a full-resolution table's pair table, owned; or NULL */
    uint16_t *pair_last;   /* the symbol at each pair slice's last slot, owned */
    uint32_t *step;        /* else its per-slot step table, owned; else NULL */
} wai_cdf_table;

/* The step tables (docs/integer-operators.md, "The rANS step") of a
 * full-resolution table: what a decode step needs to advance the state,
 * found with one load on the state's chain.
 *
 * The pair table: for each of the 2^11 slices of 32 slots, the first
 * symbol a of the slice and the last b, lo_a | (freq_a − 1) << 16 | lo_b
 * << 32 | (freq_b − 1) << 48 (a = b where no boundary cuts the slice), and
 * the symbol b in pair_last; cum < lo_b picks a. A slice cut by two or more
 * boundaries holds WAI_CDF_PAIR_MULTI in its low half (lo = freq − 1 =
 * 65535 is no symbol's: lo + freq ≤ 2^16) and takes the bucket's way. 16
 * KiB and 4 KiB, in L1; built where those slices hold at most 1/32 of the
 * mass, so the step's branch goes all but always one way.
 *
 * Else the per-slot step table: (freq − 1) << 16 | lo of each slot's
 * symbol, 256 KiB (an L2 load), which still saves the cdf's load. */
#define WAI_CDF_PAIR_BITS 11
#define WAI_CDF_PAIR_SHIFT (WAI_CDF_PRECISION - WAI_CDF_PAIR_BITS)
#define WAI_CDF_PAIR_MULTI 0xFFFFFFFFu

/* Copies n little-endian u32 entries (a payload's or a set's table) into cdf. */
WAI_SIBLING void wai_cdf_from_bytes(uint32_t *cdf, const uint8_t *bytes, uint32_t n);

/* One table of §2 over its first n entries, with its symbol offset. */
typedef struct wai_entropy_table {
    uint32_t n;                /* n_b: 3..4097 */
    int32_t offset;
    const uint32_t *cdf;       /* n entries: 0, strictly increasing, 65536 */
} wai_entropy_table;

/* Builds the lookup of a table already validated. */
WAI_SIBLING wai_status wai_cdf_table_init(wai_cdf_table *t, const wai_allocator *a,
                                          const uint32_t *cdf, uint32_t n, uint32_t bits);
WAI_SIBLING void wai_cdf_table_free(wai_cdf_table *t, const wai_allocator *a);

/* The largest s in [0, n-2] with cdf[s] <= cum, for cum < 2^16. */
static inline uint32_t wai_cdf_find(const wai_cdf_table *t, uint32_t cum) {
    uint32_t b = cum >> (WAI_CDF_PRECISION - t->bits);
    uint32_t lo = t->bucket[b], hi = t->bucket[b + 1];
    /* Invariant: cdf[lo] <= cum, and the answer is at most hi. */
    while (lo < hi) {
        uint32_t mid = lo + ((hi - lo + 1) >> 1);
        if (t->cdf[mid] <= cum) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

#endif
