/* SPDX-License-Identifier: BSD-2-Clause */
/* Loading a parameter set for one format: §7 steps 1 and 2 (the set's own
 * part), then the per-model part of lowering (the parameter sums) and the
 * entropy tables' lookups. */
#include "sets/loaded.h"

#include <string.h>

#include "common/alloc.h"
#include "formats/whm1.h"
#include "sets/listing.h"
#include "sets/set.h"
#include "wai/wai_hash.h"

/* A latent or hyper-latent table's lookup: 2 KiB, a short search (a set may
 * hold hundreds of tables). */
#define SET_LOOKUP_BITS 10

static size_t member_count(const wai_set_kind *k) {
    size_t n = 0;
    while (k->members[n]) n++;
    return n;
}

wai_status wai_set_check_members(const wai_set_kind *k, const wai_set *set) {
    if (!k || !k->members) return WAI_invalid_argument;
    if (!set) return WAI_set_incomplete;
    size_t n = member_count(k);
    const uint8_t *data = NULL;
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        if (wai_set_find(set, k->members[i], &data, &len) != WAI_ok) return WAI_set_incomplete;
    /* Check 5: a listing the set carries covers every file the set holds,
     * so whatever a path reads later (a backend's program, its weights) is
     * checked here, before any of it is used (docs/spec-readings.md, L5a);
     * pinned, the set holds every file listed, as the pin was taken over. */
    int listed = wai_set_find(set, WAI_SET_LISTING, &data, &len) == WAI_ok;
    if (listed && wai_listing_check(data, len, set, set->pinned) != WAI_ok)
        return WAI_set_incomplete;
    if (!set->pinned) return WAI_ok;
    /* The pin: over the listing, or form-less over a set of one file (then
     * every byte a path may read); a set of several is pinned through its
     * listing only, even where the capability registers one member. */
    const uint8_t *d = listed ? wai_set_member_sha256(set, WAI_SET_LISTING)
                       : wai_set_count(set) == 1 ? set->members[0].sha256
                                                 : NULL;
    return d && memcmp(d, set->pin, 32) == 0 ? WAI_ok : WAI_set_incomplete;
}

wai_status wai_set_digest(const wai_set_kind *k, const wai_set *set, uint8_t out[32]) {
    if (!k || !k->members || !set) return WAI_invalid_argument;
    const char *const *names = k->members;
    size_t n = member_count(k);
    wai_sha256 h;
    wai_sha256_init(&h);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        size_t len;
        if (wai_set_find(set, names[i], &data, &len) != WAI_ok) return WAI_set_incomplete;
        uint8_t b[8];
        size_t nl = strlen(names[i]);
        for (int s = 0; s < 4; s++) b[s] = (uint8_t)(nl >> (8 * s));
        wai_sha256_update(&h, b, 4);
        wai_sha256_update(&h, names[i], nl);
        for (int s = 0; s < 8; s++) b[s] = (uint8_t)((uint64_t)len >> (8 * s));
        wai_sha256_update(&h, b, 8);
        /* The member's own SHA-256, taken when it was added (sets/set.h):
         * the key covers its bytes without hashing them every decode. */
        wai_sha256_update(&h, wai_set_member_sha256(set, names[i]), 32);
    }
    wai_sha256_final(&h, out);
    return WAI_ok;
}

/* ---- loading, with every allocation counted -------------------------------- */

typedef struct counting {
    const wai_allocator *inner;
    uint64_t bytes;
} counting;

static void *count_alloc(void *opaque, size_t size) {
    counting *c = opaque;
    void *p = wai_alloc(c->inner, size);
    if (p) c->bytes += size;
    return p;
}

static void count_free(void *opaque, void *p) {
    counting *c = opaque;
    wai_free(c->inner, p);
}

void *wai_loaded_own(const wai_allocator *a, wai_loaded_set *l, size_t size,
                     void (*own_free)(const wai_allocator *a, void *own)) {
    void *own = wai_alloc_zeroed(a, 1, size);
    if (own) {
        l->own = own;
        l->own_free = own_free;
    }
    return own;
}

wai_status wai_loaded_net(const wai_allocator *a, const uint8_t *bytes, size_t len, int dims,
                          wai_net *out) {
    wai_status st = wai_model_parse(a, bytes, len, dims, &out->model);
    if (st == WAI_ok) st = wai_sums_compute(a, &out->model, &out->sums);
    return st;
}

void wai_net_free(const wai_allocator *a, wai_net *n) {
    wai_sums_free(a, &n->sums);
    wai_model_free(a, &n->model);
}

/* Lookups for n tables (each already a valid §2 table). */
static wai_status lookups(const wai_allocator *a, const wai_entropy_table *t, uint32_t n,
                          wai_cdf_table **out) {
    if (n == 0) return WAI_ok; /* WCB1's tables have no hyper-latent ones */
    wai_cdf_table *l = wai_alloc_zeroed(a, n, sizeof *l);
    if (!l) return WAI_out_of_memory;
    *out = l;
    for (uint32_t i = 0; i < n; i++) {
        wai_status st = wai_cdf_table_init(&l[i], a, t[i].cdf, t[i].n, SET_LOOKUP_BITS);
        if (st != WAI_ok) return st;
    }
    return WAI_ok;
}

wai_status wai_loaded_tables_parse(const wai_allocator *a, const uint8_t *text, size_t len,
                                   const wai_entropy_rules *rules, wai_loaded_tables *out) {
    wai_status st = wai_entropy_json_parse_rules(a, text, len, rules, &out->set);
    if (st == WAI_ok) st = lookups(a, out->set->latent, out->set->n_edges, &out->latent);
    if (st == WAI_ok) st = lookups(a, out->set->hyper, out->set->n_z, &out->hyper);
    return st;
}

void wai_loaded_tables_free(const wai_allocator *a, wai_loaded_tables *t) {
    if (t->set) {
        for (uint32_t i = 0; t->latent && i < t->set->n_edges; i++)
            wai_cdf_table_free(&t->latent[i], a);
        for (uint32_t i = 0; t->hyper && i < t->set->n_z; i++) wai_cdf_table_free(&t->hyper[i], a);
    }
    wai_free(a, t->latent);
    wai_free(a, t->hyper);
    wai_entropy_set_free(a, t->set);
    memset(t, 0, sizeof *t);
}

wai_status wai_loaded_one_scale(wai_loaded_set *l, const wai_net *const *nets, size_t n) {
    uint32_t afrac = n ? nets[0]->model.afrac : 0;
    if (afrac < 1 || afrac > 30) return WAI_model_mismatch;
    for (size_t i = 1; i < n; i++)
        if (nets[i]->model.afrac != afrac) return WAI_model_mismatch;
    l->afrac = afrac;
    return WAI_ok;
}

static void free_parts(const wai_allocator *a, wai_loaded_set *l) {
    if (l->own && l->own_free) l->own_free(a, l->own);
}

wai_status wai_loaded_set_load(const wai_allocator *a, const wai_set_kind *k, const wai_set *set,
                               wai_loaded_set **out) {
    if (!out || !set || !k || !k->load) return WAI_invalid_argument;
    *out = NULL;
    counting cnt = {a, 0};
    wai_allocator ca = {count_alloc, count_free, &cnt};
    wai_loaded_set *l = wai_alloc_zeroed(&ca, 1, sizeof *l);
    if (!l) return WAI_out_of_memory;
    wai_status st = k->load(&ca, set, k->members, l);
    if (st != WAI_ok) {
        free_parts(&ca, l);
        wai_free(&ca, l);
        return st;
    }
    l->bytes = cnt.bytes;
    *out = l;
    return WAI_ok;
}

void wai_loaded_set_free(const wai_allocator *a, wai_loaded_set *l) {
    if (!l) return;
    free_parts(a, l);
    wai_free(a, l);
}
