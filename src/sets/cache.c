/* SPDX-License-Identifier: BSD-2-Clause */
/* The loaded-set cache: a short list in recency order (see cache.h). */
#include "sets/cache.h"

#include <string.h>

#include "common/alloc.h"
#include "common/lock.h"

struct wai_set_slot {
    wai_set_slot_ops ops;
    uint8_t key[32];
    void *state;       /* NULL until an open succeeds */
    wai_lock lock;     /* held by the one caller using it */
    wai_set_slot *next;
};

struct wai_set_ref {
    uint8_t key[32];
    /* Which loader loaded it: part of the key (one set's bytes may load
     * as two capabilities' sets). */
    wai_set_loader load;
    wai_loaded_set *loaded;
    size_t refs;       /* decodes holding it */
    int kept;          /* in the list (else freed at its last release) */
    wai_set_ref *prev, *next;  /* the list: most recently used first */
    wai_set_slot *slots;       /* what other parts keep with it (under the cache's lock) */
};

struct wai_set_cache {
    wai_allocator alloc;
    uint64_t budget, bytes;
    size_t n;
    wai_set_ref *head, *tail;
    wai_lock lock;
};

wai_status wai_set_cache_create(const wai_allocator *a, uint64_t budget, wai_set_cache **out) {
    wai_set_cache *c = wai_alloc_zeroed(a, 1, sizeof *c);
    if (!c) return WAI_out_of_memory;
    c->alloc = *a;
    c->budget = budget;
    if (!wai_lock_init(&c->lock)) {
        wai_free(a, c);
        return WAI_out_of_memory;
    }
    *out = c;
    return WAI_ok;
}

static void unlink_ref(wai_set_cache *c, wai_set_ref *r) {
    if (r->prev) r->prev->next = r->next;
    else c->head = r->next;
    if (r->next) r->next->prev = r->prev;
    else c->tail = r->prev;
    r->prev = r->next = NULL;
}

static void push_front(wai_set_cache *c, wai_set_ref *r) {
    r->prev = NULL;
    r->next = c->head;
    if (c->head) c->head->prev = r;
    c->head = r;
    if (!c->tail) c->tail = r;
}

static void free_ref(wai_set_cache *c, wai_set_ref *r) {
    while (r->slots) {
        wai_set_slot *s = r->slots;
        r->slots = s->next;
        if (s->state) s->ops.close(s->ops.owner, s->state);
        wai_lock_destroy(&s->lock);
        wai_free(&c->alloc, s);
    }
    wai_loaded_set_free(&c->alloc, r->loaded);
    wai_free(&c->alloc, r);
}

/* Drops r from the list; freed now, or at its last release. */
static void evict(wai_set_cache *c, wai_set_ref *r) {
    unlink_ref(c, r);
    r->kept = 0;
    c->bytes -= r->loaded->bytes;
    c->n--;
    if (r->refs == 0) free_ref(c, r);
}

void wai_set_cache_destroy(wai_set_cache *c) {
    if (!c) return;
    while (c->head) evict(c, c->head);
    wai_lock_destroy(&c->lock);
    wai_allocator a = c->alloc;
    wai_free(&a, c);
}

static wai_set_ref *find(wai_set_cache *c, const wai_set_kind *k, const uint8_t key[32]) {
    for (wai_set_ref *r = c->head; r; r = r->next)
        if (r->load == k->load && memcmp(r->key, key, 32) == 0) return r;
    return NULL;
}

/* Keeps r when it fits the budget, evicting the least recently used. */
static void keep(wai_set_cache *c, wai_set_ref *r) {
    uint64_t size = r->loaded->bytes;
    if (size == 0 || size > c->budget) return;
    while (c->tail && c->budget - c->bytes < size) evict(c, c->tail);
    push_front(c, r);
    r->kept = 1;
    c->bytes += size;
    c->n++;
}

wai_status wai_set_cache_acquire(wai_set_cache *c, const wai_set_kind *k, const wai_set *set,
                                 wai_set_ref **out, int *hit) {
    uint8_t key[32];
    wai_status st = wai_set_digest(k, set, key);
    if (st != WAI_ok) return st;
    wai_lock_take(&c->lock);
    wai_set_ref *r = find(c, k, key);
    if (r) {
        unlink_ref(c, r);
        push_front(c, r);
        r->refs++;
    }
    wai_lock_give(&c->lock);
    *hit = r != NULL;
    if (r) {
        *out = r;
        return WAI_ok;
    }
    /* Loading runs unlocked; a set another thread kept meanwhile wins. */
    wai_loaded_set *l;
    if ((st = wai_loaded_set_load(&c->alloc, k, set, &l)) != WAI_ok) return st;
    wai_set_ref *fresh = wai_alloc_zeroed(&c->alloc, 1, sizeof *fresh);
    if (!fresh) {
        wai_loaded_set_free(&c->alloc, l);
        return WAI_out_of_memory;
    }
    memcpy(fresh->key, key, 32);
    fresh->load = k->load;
    fresh->loaded = l;
    fresh->refs = 1;
    wai_lock_take(&c->lock);
    if ((r = find(c, k, key)) != NULL) {
        r->refs++;
        free_ref(c, fresh);
        fresh = r;
    } else {
        keep(c, fresh);
    }
    wai_lock_give(&c->lock);
    *out = fresh;
    return WAI_ok;
}

const wai_loaded_set *wai_set_ref_get(const wai_set_ref *r) { return r->loaded; }

void wai_set_cache_release(wai_set_cache *c, wai_set_ref *r) {
    if (!r) return;
    wai_lock_take(&c->lock);
    int drop = --r->refs == 0 && !r->kept;
    wai_lock_give(&c->lock);
    if (drop) free_ref(c, r);
}

wai_status wai_set_ref_attach(wai_set_cache *c, wai_set_ref *r, const wai_set_slot_ops *ops,
                              const uint8_t key[32], void *arg, wai_set_slot **out) {
    wai_set_slot *s;
    wai_lock_take(&c->lock);
    for (s = r->slots; s; s = s->next)
        if (s->ops.owner == ops->owner && memcmp(s->key, key, 32) == 0) break;
    if (!s && (s = wai_alloc_zeroed(&c->alloc, 1, sizeof *s)) != NULL) {
        if (wai_lock_init(&s->lock)) {
            s->ops = *ops;
            memcpy(s->key, key, 32);
            s->next = r->slots;
            r->slots = s;
        } else {
            wai_free(&c->alloc, s);
            s = NULL;
        }
    }
    wai_lock_give(&c->lock);
    if (!s) return WAI_out_of_memory;
    /* Opened under the slot's own lock: a second caller waits for it
     * rather than opening the same program twice. */
    wai_lock_take(&s->lock);
    if (!s->state) {
        wai_status st = ops->open(ops->owner, arg, &s->state);
        if (st != WAI_ok) {
            s->state = NULL;
            wai_lock_give(&s->lock);
            return st;
        }
    }
    *out = s;
    return WAI_ok;
}

void *wai_set_slot_state(const wai_set_slot *s) { return s->state; }

void wai_set_slot_release(wai_set_slot *s) {
    if (s) wai_lock_give(&s->lock);
}

void wai_set_cache_stats(wai_set_cache *c, size_t *n_kept, uint64_t *bytes) {
    wai_lock_take(&c->lock);
    *n_kept = c->n;
    *bytes = c->bytes;
    wai_lock_give(&c->lock);
}
