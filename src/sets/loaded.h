/* A parameter set parsed and lowered for one capability (integer-payloads
 * §7 steps 1 and 2, the set's own part): its networks parsed, with their
 * parameter sums (the per-model part of lowering, ops/plan.h), its entropy
 * tables read and given lookups. What it holds depends on the set alone, so
 * it can be kept between decodes (sets/cache.h). Planning, which depends on
 * the payload's shapes, is the decode's. */
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

typedef struct wai_loaded_set {
    wai_format format;          /* the payload format it serves: WIH1 (and keyframe-1
                                 * video), WIA1 or WIS1 */
    uint32_t afrac;             /* the networks' one fixed-point scale, 1..30 */
    wai_net g_s;                /* WIH1 and WIS1: g_s.whm; WIA1: model.wam */
    wai_net h_s;                /* WIH1 only */
    wai_entropy_set *tables;    /* WIH1 only: entropy.json */
    wai_cdf_table *latent;      /* [tables->n_edges] lookups of the latent tables */
    wai_cdf_table *hyper;       /* [tables->n_z] lookups of the hyper-latent tables */
    uint64_t bytes;             /* the memory it holds (allocations while loading) */
} wai_loaded_set;

/* The members a capability's decode reads, in §9's order (reading N1):
 * WIH1 g_s.whm, h_s.whm, entropy.json; WIA1 model.wam; WIS1 g_s.whm. Sets
 * *n; NULL for a format with no set this build loads. */
const char *const *wai_set_members_of(wai_format f, size_t *n);

/* §7 step 1's first half: every member present, in §9's order
 * (set_incomplete, reading N1); then a pin, if the set has one: the format
 * reads one member and that file's SHA-256 is the pin (set_incomplete
 * otherwise). Reads no more than the pin's hash; nothing is cached. */
wai_status wai_set_check_members(wai_format f, const wai_set *set);

/* Loads a set that passed wai_set_check_members for format f (WIH1, WIA1,
 * WIS1), checking in this order and refusing with the first that fails:
 *   1. each member parsed, in §9's order (model_mismatch): WHM1/WAM1,
 *      entropy.json by every rule of §9;
 *   2. one fixed-point scale: every network's afrac equal and in 1..30
 *      (model_mismatch; §7 step 2's first check).
 * out_of_memory when an allocation fails. On success *out is the caller's
 * (wai_loaded_set_free). */
wai_status wai_loaded_set_load(const wai_allocator *a, wai_format f, const wai_set *set,
                               wai_loaded_set **out);

void wai_loaded_set_free(const wai_allocator *a, wai_loaded_set *l);

/* The SHA-256 that names a set's bytes (the cache's key, §7 Informative):
 * over, for each member the format reads in §9's order, its name's length
 * (u32 LE), its name, its length (u64 LE) and its bytes. set_incomplete
 * when a member is absent. */
wai_status wai_set_digest(wai_format f, const wai_set *set, uint8_t out[32]);

#endif
