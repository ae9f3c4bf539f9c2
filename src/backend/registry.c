/* SPDX-License-Identifier: BSD-2-Clause */
/* See registry.h. */
#include "backend/registry.h"

#include <string.h>

#include "backend/claim.h"
#include "backend/interpreter.h"
#include "common/context.h"
#include "dispatch/path.h"
#include "wai/wai_hash.h"
#include "sets/set.h"

/* A backend on an integer path runs whole integer networks; one on any
 * other path (WAI_ARITHMETIC_FLOAT), a latent's program. */
static int runs_networks(const wai_backend_ops *d) {
    return d->path.arithmetic == WAI_ARITHMETIC_INTEGER;
}

/* A plug-in on an integer path: each network a public job for its network
 * callback, its output kept apart until every bound has passed. No kept
 * arena: a codec running on one would reach it through the decoder's own,
 * unbound exec (the arena's), and so the kernels. */
static void bind_device(const wai_backend_entry *e, void *program, const wai_exec *ex,
                        wai_backend_exec *b) {
    b->binding = (wai_backend_binding){e->desc, e->self, program, ex->alloc};
    b->ex = *ex;
    b->ex.backend = &b->binding;
    b->ex.ws = NULL;
}

/* The interpreter inside a decode: the kernels of the decoder's exec and
 * its kept arena, with no public job between (its network callback is the
 * same runner, for whoever holds only the public object). */
static void bind_kernels(const wai_backend_entry *e, void *program, const wai_exec *ex,
                         wai_backend_exec *b) {
    (void)e, (void)program;
    b->ex = *ex;
    b->ex.backend = NULL;
}

static wai_backend_entry entry_of(const wai_backend_ops *d, void *self) {
    wai_backend_entry e = {d, self, 0, runs_networks(d) ? bind_device : NULL};
    return e;
}

wai_status wai_backends_init(wai_backends *b, wai_context *ctx) {
    memset(b, 0, sizeof *b);
    b->has_lock = wai_lock_init(&b->lock);
    void *self = NULL;
    wai_status st = b->has_lock ? wai_backend_interpreter.create(ctx, &self) : WAI_out_of_memory;
    if (st != WAI_ok) return st;
    b->entries[0] = entry_of(&wai_backend_interpreter, self);
    b->entries[0].claim = 1;
    b->entries[0].bind = bind_kernels;
    b->n = 1;
    return WAI_ok;
}

wai_backend_entry *wai_backends_integer(wai_backends *b) { return &b->entries[0]; }

void wai_backends_destroy(wai_backends *b) {
    if (!b) return;
    for (size_t i = 0; i < b->n; i++)
        if (b->entries[i].desc->destroy)
            b->entries[i].desc->destroy(b->entries[i].self);
    b->n = 0;
    if (b->has_lock) wai_lock_destroy(&b->lock);
    b->has_lock = 0;
}

static int serves(const wai_backend_entry *e, wai_networks networks) {
    return networks == (runs_networks(e->desc) ? WAI_NETWORKS_INTEGER : WAI_NETWORKS_LATENT);
}

wai_backend_entry *wai_backends_find(wai_backends *b, wai_networks networks, const wai_path *path) {
    for (size_t i = 0; b && i < b->n; i++)
        if (wai_path_same(&b->entries[i].desc->path, path) && serves(&b->entries[i], networks))
            return &b->entries[i];
    return NULL;
}

int wai_backend_takes_latent(const wai_backend_entry *e) { return !runs_networks(e->desc); }

/* ---- the public registry (include/wai/wai_backend.h) ------------------------ */

/* A latent path's backend runs a latent job, an integer path's networks. */
static int desc_valid(const wai_backend_ops *d) {
    for (size_t i = 0; i < sizeof d->reserved / sizeof *d->reserved; i++)
        if (d->reserved[i]) return 0;
    if (!wai_path_valid(&d->path)) return 0;
    return runs_networks(d) ? d->network && !d->run : d->run && !d->network;
}

wai_status wai_context_add_backend(wai_context *ctx, const wai_backend_ops *d) {
    if (!ctx || !d || !desc_valid(d)) return WAI_invalid_argument;
    wai_backends *b = ctx->backends;
    for (size_t i = 0; i < b->n; i++)
        if (wai_path_same(&b->entries[i].desc->path, &d->path)) return WAI_invalid_argument;
    if (b->n == WAI_BACKENDS_MAX) return WAI_invalid_argument;
    void *self = NULL;
    if (d->create) {
        wai_status st = d->create(ctx, &self);
        if (st != WAI_ok) return st;
    }
    b->entries[b->n++] = entry_of(d, self);
    return WAI_ok;
}

void *wai_context_backend(const wai_context *ctx, const wai_backend_ops *d) {
    for (size_t i = 0; ctx && d && i < ctx->backends->n; i++)
        if (ctx->backends->entries[i].desc == d) return ctx->backends->entries[i].self;
    return NULL;
}

const char *wai_backends_program_member(const wai_backends *b, wai_networks networks, size_t i) {
    for (size_t e = 0; b && e < b->n; e++) {
        const wai_backend_ops *d = b->entries[e].desc;
        if (!d->program_members || !serves(&b->entries[e], networks)) continue;
        for (const char *const *m = d->program_members; *m; m++) {
            /* Each name once: skip one an earlier backend named. */
            int seen = 0;
            for (size_t f = 0; f < e && !seen; f++) {
                const wai_backend_ops *g = b->entries[f].desc;
                for (const char *const *n = g->program_members && serves(&b->entries[f], networks)
                                                ? g->program_members
                                                : NULL;
                     n && *n && !seen; n++)
                    seen = strcmp(*n, *m) == 0;
            }
            if (seen) continue;
            if (i-- == 0) return *m;
        }
    }
    return NULL;
}

/* ---- one job's turn on a backend ------------------------------------------------ */

/* A program's key: the SHA-256 over its members' names and digests, so a
 * set whose program files differ opens its own. */
static wai_status program_key(const wai_backend_ops *d, const wai_set *set, uint8_t key[32]) {
    wai_sha256 h;
    wai_sha256_init(&h);
    for (const char *const *m = d->program_members; m && *m; m++) {
        const uint8_t *digest = wai_set_member_sha256(set, *m);
        if (!digest) return WAI_dispatch_program_absent;
        wai_sha256_update(&h, (const uint8_t *)*m, strlen(*m) + 1);
        wai_sha256_update(&h, digest, 32);
    }
    wai_sha256_final(&h, key);
    return WAI_ok;
}

typedef struct open_arg {
    const wai_set *set;
    const wai_capability *cap;
} open_arg;

static wai_status open_program(const void *owner, void *arg, void **state) {
    const wai_backend_entry *e = owner;
    const open_arg *o = arg;
    *state = NULL;
    if (!e->desc->program_open) {
        *state = (void *)e; /* no program of its own: any non-NULL state */
        return WAI_ok;
    }
    wai_status st = e->desc->program_open(e->self, o->set, o->cap, state);
    return st == WAI_ok && !*state ? WAI_dispatch_backend_failed : st;
}

static void close_program(const void *owner, void *state) {
    const wai_backend_entry *e = owner;
    if (e->desc->program_close) e->desc->program_close(e->self, state);
}

static wai_status answer_program(wai_backend_turn *t, const wai_set *members,
                                 const wai_capability *cap) {
    const wai_backend_entry *e = t->entry;
    /* A backend that opens no program and reads no member has none to keep
     * (the interpreter: its program is the set's integer networks, found
     * and checked against the payload before the dispatch). */
    if (!e->desc->program_open && !e->desc->program_members) return WAI_ok;
    uint8_t key[32];
    wai_status st = program_key(e->desc, members, key);
    if (st != WAI_ok) return st;
    const wai_set_slot_ops ops = {e, open_program, close_program};
    open_arg arg = {members, cap};
    return wai_set_ref_attach(t->ctx->sets, t->held, &ops, key, &arg, &t->slot);
}

/* An integer path's backend holds decode-equivalence only once it has
 * given the known answer (backend/claim.h); checked before its first
 * decode, and a refusal lasts the context's life. */
static wai_status claim(wai_backend_turn *t) {
    wai_backend_entry *e = t->entry;
    wai_lock *lock = &t->ctx->backends->lock;
    wai_status st = WAI_ok;
    wai_lock_take(lock);
    if (e->claim == 0) {
        st = wai_claim_check(&t->ctx->exec, e->desc, e->self);
        if (st != WAI_out_of_memory) e->claim = st == WAI_ok ? 1 : -1;
    }
    if (st != WAI_out_of_memory) st = e->claim > 0 ? WAI_ok : WAI_dispatch_backend_failed;
    wai_lock_give(lock);
    return st;
}

/* The turn's program: NULL for a backend that keeps none. */
static void *program_of(const wai_backend_turn *t) {
    return t->slot ? wai_set_slot_state(t->slot) : NULL;
}

wai_status wai_backend_answer(wai_backend_turn *t, const wai_set *members,
                              const wai_capability *cap, const wai_latent_job *latent,
                              wai_dispatch_question q, wai_placement *plan) {
    const wai_backend_entry *e = t->entry;
    if (q == WAI_DISPATCH_UNIT) {
        if (!e) return WAI_dispatch_unit_absent;
        wai_status st = e->desc->unit ? e->desc->unit(e->self, &e->desc->path) : WAI_ok;
        if (st != WAI_ok) return st;
        return runs_networks(e->desc) ? claim(t) : WAI_ok;
    }
    if (!e) return WAI_ok;
    const wai_backend_ops *d = e->desc;
    if (q == WAI_DISPATCH_PROGRAM) return answer_program(t, members, cap);
    /* An integer path's backend takes the networks as planned. */
    if (runs_networks(d)) return WAI_ok;
    void *program = program_of(t);
    if (q == WAI_DISPATCH_SHAPE) return d->shape ? d->shape(e->self, program, latent) : WAI_ok;
    if (q == WAI_DISPATCH_PLAN && d->plan) {
        memset(plan, 0, sizeof *plan);
        return d->plan(e->self, program, latent, plan);
    }
    return WAI_ok;
}

void wai_backend_bind(const wai_backend_turn *t, const wai_exec *ex, wai_backend_exec *b) {
    t->entry->bind(t->entry, program_of(t), ex, b);
}

wai_status wai_backend_run_latent(const wai_backend_turn *t, wai_latent_job *job) {
    const wai_backend_entry *e = t->entry;
    return e->desc->run(e->self, program_of(t), job);
}

void wai_backend_turn_end(wai_backend_turn *t) {
    wai_set_slot_release(t->slot);
    t->slot = NULL;
}
