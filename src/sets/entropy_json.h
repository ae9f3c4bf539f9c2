/* SPDX-License-Identifier: BSD-2-Clause */
/* entropy.json, the entropy tables of wai.neural.int_hyper and
 * wai.video.int_hyper (integer-payloads §9; readings N3, N4). */
#ifndef WAI_SETS_ENTROPY_JSON_H
#define WAI_SETS_ENTROPY_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "entropy/cdf.h"
#include "wai/wai.h"

/* The tables. A parsed set is one block (free it with wai_entropy_set_free);
 * a caller may also fill one by hand for wai_entropy_json_write
 * (write/payloads.h). */
typedef struct wai_entropy_set {
    uint32_t n_edges;                 /* N >= 1 */
    const int64_t *scale_edges;       /* N: e_0 .. e_{N-1} of the ceil bucket (E3) */
    const wai_entropy_table *latent;  /* N: table b of the latent */
    uint32_t n_z;                     /* K >= 1: hyper-latent channels the tables cover */
    const wai_entropy_table *hyper;   /* K: channel k's table of the hyper-latent */
    const int64_t *z_median_q;        /* K: channel k's median at 2^afrac */
    int64_t afrac;                    /* WMB1's tables (§14): their afrac member; else 0 */
} wai_entropy_set;

/* How a text is read beyond §9's members: entropy.json's rules (the
 * default), WMB1's tables' (§14: an afrac member, at most 65536 edges,
 * E1's t2 table rule, 2 <= n_b, in place of §2's), or WCB1's (§17.3: an
 * afrac member, at most 65536 edges, §2's tables, no hyper-latent tables;
 * other members ignored). */
typedef struct wai_entropy_rules {
    int t2;          /* tables by the t2 rule */
    int afrac;       /* an integer member afrac is required (into ->afrac) */
    uint32_t max_n;  /* the most scale edges; 0: no limit */
    int no_hyper;    /* WCB1's tables (§17.3): no hyper-latent members (n_z 0) */
} wai_entropy_rules;

/* The bundles' tables as their decodes read them: WMB1's (§14) and
 * WCB1's (§17.3). */
#define WAI_WMB1_TABLE_RULES {1, 1, 65536, 0}
#define WAI_WCB1_TABLE_RULES {0, 1, 65536, 1}

/* wai_entropy_json_parse with rules (NULL: entropy.json's). */
wai_status wai_entropy_json_parse_rules(const wai_allocator *a, const uint8_t *text, size_t len,
                                        const wai_entropy_rules *rules, wai_entropy_set **out);

/* Reads entropy.json's text with the strict JSON reader and checks every
 * rule of §9. Any failure, a text that is not JSON included, is
 * model_mismatch; an allocation failure is out_of_memory. On success *out
 * is one block from a, freed with wai_entropy_set_free(a, *out). */
wai_status wai_entropy_json_parse(const wai_allocator *a, const uint8_t *text,
                                  size_t len, wai_entropy_set **out);

void wai_entropy_set_free(const wai_allocator *a, wai_entropy_set *s);

#endif
