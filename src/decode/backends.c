/* SPDX-License-Identifier: BSD-2-Clause */
/* See backends.h. */
#include "decode/backends.h"

#include <string.h>

#include "common/context.h"
#include "decode/claim.h"
#include "decode/net_device.h"
#include "dispatch/path.h"
#include "wai/wai_hash.h"
#include "sets/set.h"

wai_status wai_backends_init(wai_backends *b) {
    memset(b, 0, sizeof *b);
    b->entries[0].path = (wai_path){WAI_UNIT_CPU, WAI_BACKEND_WAI_OPS, WAI_ARITHMETIC_INTEGER};
    b->n = 1;
    b->has_lock = wai_lock_init(&b->lock);
    return b->has_lock ? WAI_ok : WAI_out_of_memory;
}

wai_backend_entry *wai_backends_integer(wai_backends *b) { return &b->entries[0]; }

/* A plug-in backend on an integer path: runs whole integer networks. */
static int runs_networks(const wai_backend_ops *d) {
    return d && d->path.arithmetic == WAI_ARITHMETIC_INTEGER;
}

void wai_backends_destroy(wai_backends *b) {
    if (!b) return;
    for (size_t i = 0; i < b->n; i++)
        if (b->entries[i].desc && b->entries[i].desc->destroy)
            b->entries[i].desc->destroy(b->entries[i].self);
    b->n = 0;
    if (b->has_lock) wai_lock_destroy(&b->lock);
    b->has_lock = 0;
}

/* The integer interpreter and an integer path's backend run integer
 * networks; one on a latent path, a latent's program. */
static int serves(const wai_backend_entry *e, const wai_codec *c) {
    return e->desc && !runs_networks(e->desc) ? c->networks == WAI_NETWORKS_LATENT
                                              : c->networks == WAI_NETWORKS_INTEGER;
}

wai_backend_entry *wai_backends_find(wai_backends *b, const wai_codec *c, const wai_path *path) {
    for (size_t i = 0; b && c && c->ops && i < b->n; i++)
        if (wai_path_same(&b->entries[i].path, path) && serves(&b->entries[i], c))
            return &b->entries[i];
    return NULL;
}

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
        if (wai_path_same(&b->entries[i].path, &d->path)) return WAI_invalid_argument;
    if (b->n == WAI_BACKENDS_MAX) return WAI_invalid_argument;
    void *self = NULL;
    if (d->create) {
        wai_status st = d->create(ctx, &self);
        if (st != WAI_ok) return st;
    }
    b->entries[b->n].path = d->path;
    b->entries[b->n].desc = d;
    b->entries[b->n].self = self;
    b->n++;
    return WAI_ok;
}

void *wai_context_backend(const wai_context *ctx, const wai_backend_ops *d) {
    for (size_t i = 0; ctx && d && i < ctx->backends->n; i++)
        if (ctx->backends->entries[i].desc == d) return ctx->backends->entries[i].self;
    return NULL;
}

const char *wai_context_program_member(const wai_context *ctx, const wai_capability *cap,
                                       size_t i) {
    const wai_codec *c = wai_codec_of(cap);
    const wai_backends *b = ctx ? ctx->backends : NULL;
    for (size_t e = 0; c && b && e < b->n; e++) {
        const wai_backend_ops *d = b->entries[e].desc;
        if (!d || !d->program_members || !serves(&b->entries[e], c)) continue;
        for (const char *const *m = d->program_members; *m; m++) {
            /* Each name once: skip one an earlier backend named. */
            int seen = 0;
            for (size_t f = 0; f < e && !seen; f++) {
                const wai_backend_ops *g = b->entries[f].desc;
                for (const char *const *n = g && g->program_members && serves(&b->entries[f], c)
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

static wai_status answer_program(wai_backend_turn *t, wai_job *j) {
    const wai_backend_entry *e = t->entry;
    uint8_t key[32];
    wai_status st = program_key(e->desc, j->members, key);
    if (st != WAI_ok) return st;
    const wai_set_slot_ops ops = {e, open_program, close_program};
    open_arg arg = {j->members, &j->codec->cap};
    return wai_set_ref_attach(t->ctx->sets, t->held, &ops, key, &arg, &t->slot);
}

/* An integer path's backend holds decode-equivalence only once it has
 * given the known answer (decode/claim.h); checked before its first
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

wai_status wai_backend_answer(wai_backend_turn *t, wai_job *j, wai_dispatch_question q,
                              wai_placement *plan) {
    const wai_backend_entry *e = t->entry;
    if (q == WAI_DISPATCH_UNIT) {
        if (!e) return WAI_dispatch_unit_absent;
        return runs_networks(e->desc) ? claim(t) : WAI_ok;
    }
    /* The integer interpreter's program is the set's integer networks,
     * found and checked against the payload before the dispatch. */
    if (!e || !e->desc) return WAI_ok;
    const wai_backend_ops *d = e->desc;
    if (q == WAI_DISPATCH_PROGRAM) return answer_program(t, j);
    /* An integer path's backend takes the networks as planned. */
    if (runs_networks(d)) return WAI_ok;
    void *program = wai_set_slot_state(t->slot);
    if (q == WAI_DISPATCH_SHAPE) return d->shape ? d->shape(e->self, program, &j->latent) : WAI_ok;
    if (q == WAI_DISPATCH_PLAN && d->plan) {
        memset(plan, 0, sizeof *plan);
        return d->plan(e->self, program, &j->latent, plan);
    }
    return WAI_ok;
}

wai_status wai_backend_run(wai_backend_turn *t, wai_job *j, const wai_exec *ex, uint8_t *out) {
    const wai_backend_entry *e = t->entry;
    j->path = e->path;
    if (!e->desc) return j->codec->ops->run(j, ex, out);
    if (runs_networks(e->desc)) {
        /* The codec's own run, its networks on the device. */
        wai_net_device_of of = {e->desc, e->self, wai_set_slot_state(t->slot), ex->alloc};
        wai_net_device dev;
        wai_net_device_bind(&dev, &of);
        wai_exec on = *ex;
        on.device = &dev;
        on.ws = NULL;
        return j->codec->ops->run(j, &on, out);
    }
    /* A latent's networks: the entropy stage (once, whichever path runs),
     * then the backend's program. */
    wai_status st = j->latent.symbols ? WAI_ok : j->codec->ops->latent(j, ex->alloc);
    if (st != WAI_ok) return st;
    j->latent.rgb = out;
    st = e->desc->run(e->self, wai_set_slot_state(t->slot), &j->latent);
    j->out.data = out;
    return st;
}

void wai_backend_turn_end(wai_backend_turn *t) {
    wai_set_slot_release(t->slot);
    t->slot = NULL;
}
