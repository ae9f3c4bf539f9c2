/* SPDX-License-Identifier: BSD-2-Clause */
/* A parameter set parsed and lowered for one capability (integer-payloads
 * §7 steps 1 and 2, the set's own part): its networks parsed, with their
 * parameter sums (the per-model part of lowering, ops/plan.h), its entropy
 * tables read and given lookups. What it holds depends on the set alone, so
 * it can be kept between decodes (sets/cache.h). Planning, which depends on
 * the payload's shapes, is the decode's. Which members a capability reads
 * is its codec row's, and what they load into its own object
 * (wai_set_kind); here the parts every codec shares. */
#ifndef WAI_SETS_LOADED_H
#define WAI_SETS_LOADED_H

#include <stdint.h>

#include "wai/wai.h"
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

/* A set's entropy tables, read by §9's rules, with the lookups of its
 * latent and hyper-latent tables. */
typedef struct wai_loaded_tables {
    wai_entropy_set *set;
    wai_cdf_table *latent;      /* [set->n_edges] */
    wai_cdf_table *hyper;       /* [set->n_z] */
} wai_loaded_tables;

typedef struct wai_loaded_set wai_loaded_set;

/* The loader of a capability's set (its codec's entry, decode/codecs.c):
 * parses and lowers the members, named in §9's order by the codec's row
 * (members), into the codec's own object (wai_loaded_own). Its refusals
 * are the capability's: model_mismatch for a member that does not parse
 * or a scale out of rule. It allocates through a. */
typedef wai_status (*wai_set_loader)(const wai_allocator *a, const wai_set *set,
                                     const char *const *members, wai_loaded_set *l);

/* What a capability's set is: the members its decode reads, in §9's
 * order (reading N1), NULL-terminated, and its loader. */
typedef struct wai_set_kind {
    const char *const *members;
    wai_set_loader load;
} wai_set_kind;

/* A loaded set: what every codec shares, and the codec's own object. */
struct wai_loaded_set {
    uint32_t afrac;             /* the integer networks' one fixed-point scale, 1..30 */
    void *own;                  /* the codec's own (its networks, its tables) */
    void (*own_free)(const wai_allocator *a, void *own);
    uint64_t bytes;             /* the memory it holds (allocations while loading) */
};

/* The codec's own object as its type. */
#define WAI_LOADED(l, type) ((const type *)(l)->own)

/* §7 step 1's first half: every member of the kind present, in §9's order
 * (set_incomplete, reading N1); then SPEC §3.1's check 5 where the set
 * carries a listing (sets/listing.h); then a pin, if the set has one: the
 * listing's SHA-256, or the one member's when the kind reads one
 * (set_incomplete otherwise). Reads no more than the listing and the
 * members' hashes taken when they were added; nothing is cached. */
wai_status wai_set_check_members(const wai_set_kind *k, const wai_set *set);

/* Loads a set that passed wai_set_check_members with k's loader, counting
 * every byte it allocates (l->bytes). out_of_memory when an allocation
 * fails. On success *out is the caller's (wai_loaded_set_free). */
wai_status wai_loaded_set_load(const wai_allocator *a, const wai_set_kind *k,
                               const wai_set *set, wai_loaded_set **out);

void wai_loaded_set_free(const wai_allocator *a, wai_loaded_set *l);

/* The SHA-256 that names a set's bytes (the cache's key, §7 Informative):
 * over, for each member the kind reads in §9's order, its name's length
 * (u32 LE), its name, its length (u64 LE) and its bytes. set_incomplete
 * when a member is absent. */
wai_status wai_set_digest(const wai_set_kind *k, const wai_set *set, uint8_t out[32]);

/* ---- the loaders' parts (each refusal model_mismatch unless it says) ----- */

/* The codec's own object: size bytes, zeroed, kept as l->own and freed by
 * own_free (which must take a half-loaded one); NULL when out of memory. */
void *wai_loaded_own(const wai_allocator *a, wai_loaded_set *l, size_t size,
                     void (*own_free)(const wai_allocator *a, void *own));

/* A network from a member's bytes (or a bundle's section) of `dims` (2:
 * WHM1, 1: WAM1), with its parameter sums. */
wai_status wai_loaded_net(const wai_allocator *a, const uint8_t *bytes, size_t len, int dims,
                          wai_net *out);

void wai_net_free(const wai_allocator *a, wai_net *n);

/* Entropy tables from a text by every rule of §9 (rules NULL), or by a
 * bundle's (§14, §17), with their lookups. */
wai_status wai_loaded_tables_parse(const wai_allocator *a, const uint8_t *text, size_t len,
                                   const wai_entropy_rules *rules, wai_loaded_tables *out);

void wai_loaded_tables_free(const wai_allocator *a, wai_loaded_tables *t);

/* §7 step 2's first check: every one of the n networks' afrac equal and in
 * 1..30 (model_mismatch otherwise); sets l->afrac. */
wai_status wai_loaded_one_scale(wai_loaded_set *l, const wai_net *const *nets, size_t n);

#endif
