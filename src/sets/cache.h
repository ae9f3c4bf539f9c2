/* SPDX-License-Identifier: BSD-2-Clause */
/* The loaded-set cache (integer-payloads §7, Informative): sets parsed and
 * lowered (sets/loaded.h), kept by the SHA-256 of the bytes they were
 * loaded from (wai_set_digest) and the loader that loaded them, within a
 * byte budget:
 * least recently used evicted first, no set larger than the budget kept, a
 * budget of 0 keeps nothing. A context owns one; it is locked, so decoders
 * of one context may run on several threads. What it keeps is the set's
 * own and is not part of any decode's declared working bytes. A decode that
 * finds its set here still makes every check of §7 that reads the payload
 * (and step 1's members and pin, which read the set), in order, so it gives
 * the same output and refusals as a cold one. */
#ifndef WAI_SETS_CACHE_H
#define WAI_SETS_CACHE_H

#include "sets/loaded.h"

typedef struct wai_set_cache wai_set_cache;

/* A loaded set held by a decode until wai_set_cache_release. */
typedef struct wai_set_ref wai_set_ref;

wai_status wai_set_cache_create(const wai_allocator *a, uint64_t budget, wai_set_cache **out);
void wai_set_cache_destroy(wai_set_cache *c);

/* The loaded set of `set` as kind k: from the cache, or loaded with
 * wai_loaded_set_load (its refusals pass up) and kept when it fits. The
 * set must have passed wai_set_check_members. *hit says which. */
wai_status wai_set_cache_acquire(wai_set_cache *c, const wai_set_kind *k, const wai_set *set,
                                 wai_set_ref **out, int *hit);
const wai_loaded_set *wai_set_ref_get(const wai_set_ref *r);
void wai_set_cache_release(wai_set_cache *c, wai_set_ref *r);

/* State another part keeps with a loaded set, for as long as the set is
 * loaded (a backend's program, opened once per loaded set and context):
 * found by its owner and key, else made by open(arg, &state) and freed by
 * close(owner, state) when the set is freed. A slot is used by one caller
 * at a time: wai_set_ref_attach returns it held (its state set), and
 * wai_set_slot_release lets the next in. open's failure passes up, and
 * the next attach opens again. */
typedef struct wai_set_slot wai_set_slot;
typedef struct wai_set_slot_ops {
    const void *owner;
    wai_status (*open)(const void *owner, void *arg, void **state);
    void (*close)(const void *owner, void *state);
} wai_set_slot_ops;

wai_status wai_set_ref_attach(wai_set_cache *c, wai_set_ref *r, const wai_set_slot_ops *ops,
                              const uint8_t key[32], void *arg, wai_set_slot **out);
void *wai_set_slot_state(const wai_set_slot *s);
void wai_set_slot_release(wai_set_slot *s);

/* For tests: the sets kept and their bytes. */
void wai_set_cache_stats(wai_set_cache *c, size_t *n_kept, uint64_t *bytes);

#endif
