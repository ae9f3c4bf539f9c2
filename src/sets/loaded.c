/* Loading a parameter set for one format: §7 steps 1 and 2 (the set's own
 * part), then the per-model part of lowering (the parameter sums) and the
 * entropy tables' lookups. */
#include "sets/loaded.h"

#include <string.h>

#include "common/alloc.h"
#include "formats/whm1.h"
#include "sets/set.h"
#include "wai/wai_hash.h"

/* A latent or hyper-latent table's lookup: 2 KiB, a short search (a set may
 * hold hundreds of tables). */
#define SET_LOOKUP_BITS 10

static const char *const hyper_members[] = {"g_s.whm", "h_s.whm", "entropy.json"};
static const char *const audio_members[] = {"model.wam"};
static const char *const splat_members[] = {"g_s.whm"};

const char *const *wai_set_members_of(wai_format f, size_t *n) {
    switch (f) {
    case WAI_FORMAT_WIH1: *n = 3; return hyper_members;
    case WAI_FORMAT_WIA1: *n = 1; return audio_members;
    case WAI_FORMAT_WIS1: *n = 1; return splat_members;
    default: *n = 0; return NULL;
    }
}

wai_status wai_set_check_members(wai_format f, const wai_set *set) {
    size_t n;
    const char *const *names = wai_set_members_of(f, &n);
    if (!names) return WAI_invalid_argument;
    if (!set) return WAI_set_incomplete;
    const uint8_t *data = NULL;
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        if (wai_set_find(set, names[i], &data, &len) != WAI_ok) return WAI_set_incomplete;
    if (!set->pinned) return WAI_ok;
    if (n != 1) return WAI_set_incomplete; /* several files pin through a listing */
    uint8_t d[32];
    wai_sha256_oneshot(data, len, d);
    return memcmp(d, set->pin, 32) == 0 ? WAI_ok : WAI_set_incomplete;
}

wai_status wai_set_digest(wai_format f, const wai_set *set, uint8_t out[32]) {
    size_t n;
    const char *const *names = wai_set_members_of(f, &n);
    if (!names || !set) return WAI_invalid_argument;
    wai_sha256 h;
    wai_sha256_init(&h);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        size_t len;
        if (wai_set_find(set, names[i], &data, &len) != WAI_ok) return WAI_set_incomplete;
        uint8_t b[8];
        size_t nl = strlen(names[i]);
        for (int k = 0; k < 4; k++) b[k] = (uint8_t)(nl >> (8 * k));
        wai_sha256_update(&h, b, 4);
        wai_sha256_update(&h, names[i], nl);
        for (int k = 0; k < 8; k++) b[k] = (uint8_t)((uint64_t)len >> (8 * k));
        wai_sha256_update(&h, b, 8);
        wai_sha256_update(&h, data, len);
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

static wai_status parse_net(const wai_allocator *a, const wai_set *set, const char *name,
                            int dims, wai_net *out) {
    const uint8_t *data;
    size_t len;
    wai_status st = wai_set_find(set, name, &data, &len);
    if (st != WAI_ok) return st;
    return wai_model_parse(a, data, len, dims, &out->model);
}

static wai_status parse_tables(const wai_allocator *a, const wai_set *set,
                               wai_entropy_set **out) {
    const uint8_t *data;
    size_t len;
    wai_status st = wai_set_find(set, "entropy.json", &data, &len);
    if (st != WAI_ok) return st;
    return wai_entropy_json_parse(a, data, len, out);
}

/* Lookups for n tables (each already a valid §2 table). */
static wai_status lookups(const wai_allocator *a, const wai_entropy_table *t, uint32_t n,
                          wai_cdf_table **out) {
    wai_cdf_table *l = wai_alloc_zeroed(a, n, sizeof *l);
    if (!l) return WAI_out_of_memory;
    *out = l;
    for (uint32_t i = 0; i < n; i++) {
        wai_status st = wai_cdf_table_init(&l[i], a, t[i].cdf, t[i].n, SET_LOOKUP_BITS);
        if (st != WAI_ok) return st;
    }
    return WAI_ok;
}

/* §7 step 2's first check: one fixed-point scale in 1..30. */
static int one_scale(const wai_loaded_set *l) {
    uint32_t afrac = l->g_s.model.afrac;
    if (afrac < 1 || afrac > 30) return 0;
    return l->format != WAI_FORMAT_WIH1 || l->h_s.model.afrac == afrac;
}

static wai_status load_parts(const wai_allocator *a, const wai_set *set, wai_loaded_set *l) {
    wai_status st;
    if (l->format == WAI_FORMAT_WIH1) {
        if ((st = parse_net(a, set, "g_s.whm", 2, &l->g_s)) != WAI_ok ||
            (st = parse_net(a, set, "h_s.whm", 2, &l->h_s)) != WAI_ok ||
            (st = parse_tables(a, set, &l->tables)) != WAI_ok)
            return st;
    } else if ((st = parse_net(a, set, l->format == WAI_FORMAT_WIA1 ? "model.wam" : "g_s.whm",
                               l->format == WAI_FORMAT_WIA1 ? 1 : 2, &l->g_s)) != WAI_ok) {
        return st;
    }
    if (!one_scale(l)) return WAI_model_mismatch;
    l->afrac = l->g_s.model.afrac;
    if ((st = wai_sums_compute(a, &l->g_s.model, &l->g_s.sums)) != WAI_ok) return st;
    if (l->format != WAI_FORMAT_WIH1) return WAI_ok;
    if ((st = wai_sums_compute(a, &l->h_s.model, &l->h_s.sums)) != WAI_ok) return st;
    if ((st = lookups(a, l->tables->latent, l->tables->n_edges, &l->latent)) != WAI_ok)
        return st;
    return lookups(a, l->tables->hyper, l->tables->n_z, &l->hyper);
}

static void free_parts(const wai_allocator *a, wai_loaded_set *l) {
    if (l->tables) {
        for (uint32_t i = 0; l->latent && i < l->tables->n_edges; i++)
            wai_cdf_table_free(&l->latent[i], a);
        for (uint32_t i = 0; l->hyper && i < l->tables->n_z; i++)
            wai_cdf_table_free(&l->hyper[i], a);
    }
    wai_free(a, l->latent);
    wai_free(a, l->hyper);
    wai_entropy_set_free(a, l->tables);
    wai_sums_free(a, &l->g_s.sums);
    wai_sums_free(a, &l->h_s.sums);
    wai_model_free(a, &l->g_s.model);
    wai_model_free(a, &l->h_s.model);
}

wai_status wai_loaded_set_load(const wai_allocator *a, wai_format f, const wai_set *set,
                               wai_loaded_set **out) {
    size_t n;
    if (!out || !set || !wai_set_members_of(f, &n)) return WAI_invalid_argument;
    *out = NULL;
    counting cnt = {a, 0};
    wai_allocator ca = {count_alloc, count_free, &cnt};
    wai_loaded_set *l = wai_alloc_zeroed(&ca, 1, sizeof *l);
    if (!l) return WAI_out_of_memory;
    l->format = f;
    wai_status st = load_parts(&ca, set, l);
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
