/* SPDX-License-Identifier: BSD-2-Clause */
#include "sets/entropy_json.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/json.h"
#include "entropy/cdf.h"

/* The members of §9, each an array (any other type, or absence, refuses). */
typedef struct members {
    const wai_json_value *edges, *cdfs, *lengths, *offsets;
    const wai_json_value *z_cdfs, *z_lengths, *z_offsets, *z_medians;
    size_t n, k;               /* N and K */
    uint64_t entries;          /* every table's n_b, summed */
} members;

static const wai_json_value *array_member(const wai_json_value *root, const char *name) {
    const wai_json_value *v = wai_json_object_get(root, name);
    return wai_json_type_of(v) == WAI_JSON_ARRAY ? v : NULL;
}

/* 1 when every entry of arr is an integer fitting i64. */
static int all_i64(const wai_json_value *arr) {
    for (size_t i = 0; i < wai_json_array_len(arr); i++)
        if (!wai_json_get_i64(wai_json_array_at(arr, i), NULL)) return 0;
    return 1;
}

/* One table: an array of integers each fitting i32, all of them, those past
 * n_b too (reading N4); n_b a non-negative integer with 3 <= n_b <= 4097
 * (t2: 2 <= n_b, the entries' own rule bounding it by 65537) and
 * n_b no more than the array's length; over the first n_b entries cdf[0] = 0,
 * cdf[n_b - 1] = 65536, strictly increasing; its offset fitting i32. */
static int table_valid(const wai_json_value *cdf, const wai_json_value *length,
                       const wai_json_value *offset, int t2, uint32_t *n_b) {
    if (wai_json_type_of(cdf) != WAI_JSON_ARRAY) return 0;
    size_t len = wai_json_array_len(cdf);
    int32_t prev = 0;
    uint64_t n;
    const uint64_t lo = t2 ? 2 : 3, hi = t2 ? WAI_CDF_MAX_LEN_T2 : WAI_CDF_MAX_LEN_T4097;
    if (!wai_json_get_u64(length, &n) || n < lo || n > hi || n > len) return 0;
    if (!wai_json_get_i32(offset, NULL)) return 0;
    for (size_t i = 0; i < len; i++) {
        int32_t v;
        if (!wai_json_get_i32(wai_json_array_at(cdf, i), &v)) return 0;
        if (i >= n) continue; /* not a table entry: it need only fit i32 */
        if (i == 0 ? v != 0 : v <= prev) return 0;
        prev = v;
    }
    if (prev != (int32_t)WAI_CDF_TOTAL) return 0;
    *n_b = (uint32_t)n;
    return 1;
}

/* A group of tables: cdfs, lengths and offsets, count entries each. */
static int group_valid(const wai_json_value *cdfs, const wai_json_value *lengths,
                       const wai_json_value *offsets, size_t count, int t2, uint64_t *entries) {
    if (wai_json_array_len(cdfs) != count || wai_json_array_len(lengths) != count ||
        wai_json_array_len(offsets) != count)
        return 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t n_b;
        if (!table_valid(wai_json_array_at(cdfs, i), wai_json_array_at(lengths, i),
                         wai_json_array_at(offsets, i), t2, &n_b))
            return 0;
        *entries += n_b;
    }
    return 1;
}

/* §9's rules (and r's) on a parsed document; nothing is allocated. */
static int set_valid(const wai_json_value *root, const wai_entropy_rules *r, members *m) {
    memset(m, 0, sizeof *m);
    if (wai_json_type_of(root) != WAI_JSON_OBJECT) return 0;
    m->edges = array_member(root, "scale_edges");
    m->cdfs = array_member(root, "cdfs");
    m->lengths = array_member(root, "cdf_lengths");
    m->offsets = array_member(root, "offsets");
    if (!m->edges || !m->cdfs || !m->lengths || !m->offsets) return 0;
    m->n = wai_json_array_len(m->edges);
    if (m->n < 1 || !all_i64(m->edges)) return 0;
    if (!r->no_hyper) {
        m->z_cdfs = array_member(root, "z_cdfs");
        m->z_lengths = array_member(root, "z_cdf_lengths");
        m->z_offsets = array_member(root, "z_offsets");
        m->z_medians = array_member(root, "z_median_q");
        if (!m->z_cdfs || !m->z_lengths || !m->z_offsets || !m->z_medians) return 0;
        m->k = wai_json_array_len(m->z_cdfs);
        if (m->k < 1) return 0;
    }
    if (r->max_n && m->n > r->max_n) return 0;
    if (r->afrac && !wai_json_get_i64(wai_json_object_get(root, "afrac"), NULL)) return 0;
    if (!group_valid(m->cdfs, m->lengths, m->offsets, m->n, r->t2, &m->entries)) return 0;
    if (r->no_hyper) return 1;
    if (!group_valid(m->z_cdfs, m->z_lengths, m->z_offsets, m->k, r->t2, &m->entries)) return 0;
    return wai_json_array_len(m->z_medians) == m->k && all_i64(m->z_medians);
}

static uint64_t round_up(uint64_t v, uint64_t to) { return wai_sat_mul(wai_ceil_div(v, to), to); }

/* Copies table i of a group into t, its entries at *next. */
static void fill_table(wai_entropy_table *t, uint32_t **next, const wai_json_value *cdfs,
                       const wai_json_value *lengths, const wai_json_value *offsets, size_t i) {
    uint64_t n;
    const wai_json_value *cdf = wai_json_array_at(cdfs, i);
    wai_json_get_u64(wai_json_array_at(lengths, i), &n);
    wai_json_get_i32(wai_json_array_at(offsets, i), &t->offset);
    t->n = (uint32_t)n;
    t->cdf = *next;
    for (uint32_t j = 0; j < t->n; j++) {
        int32_t v;
        wai_json_get_i32(wai_json_array_at(cdf, j), &v);
        (*next)[j] = (uint32_t)v; /* 0..65536 by the rule */
    }
    *next += t->n;
}

/* One block: the set, the edges and medians (i64), the tables, the entries. */
static wai_status build(const wai_allocator *a, const members *m, wai_entropy_set **out) {
    if (m->n > UINT32_MAX || m->k > UINT32_MAX) return WAI_out_of_memory; /* cannot be held */
    uint64_t at_i64 = round_up(sizeof(wai_entropy_set), _Alignof(int64_t));
    uint64_t at_tables = round_up(wai_sat_add(at_i64, wai_sat_mul(8, (uint64_t)m->n + m->k)),
                                  _Alignof(wai_entropy_table));
    uint64_t at_entries =
        round_up(wai_sat_add(at_tables, wai_sat_mul(sizeof(wai_entropy_table),
                                                    (uint64_t)m->n + m->k)),
                 _Alignof(uint32_t));
    uint64_t total = wai_sat_add(at_entries, wai_sat_mul(4, m->entries));
    if (!wai_fits_size(total)) return WAI_out_of_memory;
    uint8_t *block = wai_alloc(a, (size_t)total);
    if (!block) return WAI_out_of_memory;
    wai_entropy_set *s = (wai_entropy_set *)(void *)block;
    int64_t *edges = (int64_t *)(void *)(block + at_i64);
    int64_t *medians = edges + m->n;
    wai_entropy_table *latent = (wai_entropy_table *)(void *)(block + at_tables);
    wai_entropy_table *hyper = latent + m->n;
    uint32_t *next = (uint32_t *)(void *)(block + at_entries);
    for (size_t i = 0; i < m->n; i++) {
        wai_json_get_i64(wai_json_array_at(m->edges, i), &edges[i]);
        fill_table(&latent[i], &next, m->cdfs, m->lengths, m->offsets, i);
    }
    for (size_t i = 0; i < m->k; i++) {
        wai_json_get_i64(wai_json_array_at(m->z_medians, i), &medians[i]);
        fill_table(&hyper[i], &next, m->z_cdfs, m->z_lengths, m->z_offsets, i);
    }
    s->n_edges = (uint32_t)m->n;
    s->scale_edges = edges;
    s->latent = latent;
    s->n_z = (uint32_t)m->k;
    s->hyper = hyper;
    s->z_median_q = medians;
    s->afrac = 0;
    *out = s;
    return WAI_ok;
}

/* Reads and checks the text. */
static wai_status parse(const wai_allocator *a, const uint8_t *text, size_t len,
                        const wai_entropy_rules *r, wai_entropy_set **out) {
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(a, text, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return WAI_model_mismatch; /* not a JSON text (§9, N3) */
    members m;
    wai_status st = WAI_model_mismatch;
    if (set_valid(wai_json_root(doc), r, &m)) st = build(a, &m, out);
    if (st == WAI_ok && r->afrac)
        wai_json_get_i64(wai_json_object_get(wai_json_root(doc), "afrac"), &(*out)->afrac);
    wai_json_free(doc);
    return st;
}

wai_status wai_entropy_json_parse_rules(const wai_allocator *a, const uint8_t *text, size_t len,
                                        const wai_entropy_rules *rules, wai_entropy_set **out) {
    static const wai_entropy_rules json_rules = {0, 0, 0, 0};
    if (!out || (!text && len)) return WAI_invalid_argument;
    *out = NULL;
    return parse(a, text, len, rules ? rules : &json_rules, out);
}

wai_status wai_entropy_json_parse(const wai_allocator *a, const uint8_t *text, size_t len,
                                  wai_entropy_set **out) {
    return wai_entropy_json_parse_rules(a, text, len, NULL, out);
}

void wai_entropy_set_free(const wai_allocator *a, wai_entropy_set *s) { wai_free(a, s); }
