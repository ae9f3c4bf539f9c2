/* A parameter set parsed and lowered for one capability (integer-payloads
 * §7 steps 1 and 2, the set's own part): its networks parsed, with their
 * parameter sums (the per-model part of lowering, ops/plan.h), its entropy
 * tables read and given lookups. What it holds depends on the set alone, so
 * it can be kept between decodes (sets/cache.h). Planning, which depends on
 * the payload's shapes, is the decode's. Which members a capability reads
 * and how they load is the capability's own (wai_set_kind). */
#ifndef WAI_SETS_LOADED_H
#define WAI_SETS_LOADED_H

#include <stdint.h>

#include "entropy/cdf.h"
#include "ops/model.h"
#include "ops/plan.h"
#include "sets/entropy_json.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

/* One network and its parameter sums. */
typedef struct wai_net {
    wai_model model;
    wai_sums sums;
} wai_net;

typedef struct wai_loaded_set wai_loaded_set;

/* What a capability's set is (its codec's entry, decode/codecs.c): the
 * members its decode reads, in §9's order (reading N1), NULL-terminated,
 * and the loader of its own file that parses and lowers them into l (its
 * refusals are the capability's: model_mismatch for a member that does
 * not parse or a scale out of rule). The loader allocates through a. */
typedef struct wai_set_kind {
    const char *const *members;
    wai_status (*load)(const wai_allocator *a, const wai_set *set, wai_loaded_set *l);
} wai_set_kind;

struct wai_loaded_set {
    uint32_t afrac;             /* the networks' one fixed-point scale, 1..30 */
    wai_net g_s;                /* WIH1 and WIS1: g_s.whm; WIA1: model.wam */
    wai_net h_s;                /* WIH1 and WIM1 */
    wai_net entropy;            /* WIM1 only: the entropy network of model.wmb */
    wai_net cond[4];            /* WIC1/WCF1 only: model.wcb's ctx, prior, dec and recon */
    wai_entropy_set *tables;    /* WIH1 only: entropy.json */
    wai_cdf_table *latent;      /* [tables->n_edges] lookups of the latent tables */
    wai_cdf_table *hyper;       /* [tables->n_z] lookups of the hyper-latent tables */
    /* A capability's own parts, kept by its loader (wai.neural.bmshj2018's
     * tables), and how they are freed; NULL for the others. */
    void *own;
    void (*own_free)(const wai_allocator *a, void *own);
    uint64_t bytes;             /* the memory it holds (allocations while loading) */
};

/* §7 step 1's first half: every member of the kind present, in §9's order
 * (set_incomplete, reading N1); then a pin, if the set has one: the kind
 * reads one member and that file's SHA-256 is the pin (set_incomplete
 * otherwise). Reads no more than the pin's hash; nothing is cached. */
wai_status wai_set_check_members(const wai_set_kind *k, const wai_set *set);

/* Loads a set that passed wai_set_check_members with k's loader, counting
 * every byte it allocates (l->bytes). out_of_memory when an allocation
 * fails. On success *out is the caller's (wai_loaded_set_free). */
wai_status wai_loaded_set_load(const wai_allocator *a, const wai_set_kind *k, const wai_set *set,
                               wai_loaded_set **out);

void wai_loaded_set_free(const wai_allocator *a, wai_loaded_set *l);

/* The SHA-256 that names a set's bytes (the cache's key, §7 Informative):
 * over, for each member the kind reads in §9's order, its name's length
 * (u32 LE), its name, its length (u64 LE) and its bytes. set_incomplete
 * when a member is absent. */
wai_status wai_set_digest(const wai_set_kind *k, const wai_set *set, uint8_t out[32]);

/* ---- the loaders' parts (each refusal model_mismatch unless it says) ----- */

/* Member `name` parsed as a network of `dims` (2: WHM1, 1: WAM1), with its
 * parameter sums. */
wai_status wai_loaded_net(const wai_allocator *a, const wai_set *set, const char *name, int dims,
                          wai_net *out);

/* Member `name` read as entropy.json by every rule of §9 into l->tables,
 * with the lookups of its latent and hyper-latent tables. */
wai_status wai_loaded_tables(const wai_allocator *a, const wai_set *set, const char *name,
                             wai_loaded_set *l);

/* The same from a text and rules (WMB1's tables section, §14). */
wai_status wai_loaded_tables_text(const wai_allocator *a, const uint8_t *text, size_t len,
                                  const wai_entropy_rules *rules, wai_loaded_set *l);

/* A network from bytes (a bundle's section), with its parameter sums. */
wai_status wai_loaded_net_bytes(const wai_allocator *a, const uint8_t *bytes, size_t len, int dims,
                                wai_net *out);

/* §7 step 2's first check: every one of the n networks' afrac equal and in
 * 1..30 (model_mismatch otherwise); sets l->afrac. */
wai_status wai_loaded_one_scale(wai_loaded_set *l, const wai_net *const *nets, size_t n);

#endif
