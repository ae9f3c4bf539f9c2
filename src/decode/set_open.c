/* SPDX-License-Identifier: BSD-2-Clause */
/* include/wai/wai_network.h: a capability's set opened as its decode opens
 * it (decode/steps.c's resolve, through the context's cache), then one of
 * its members parsed for the caller: a network with its sums, or entropy
 * tables. The member is parsed again rather than taken from the codec's own
 * object, so this reads every codec's set the same way. */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "decode/codec.h"
#include "entropy/model.h"
#include "formats/whm1.h"
#include "ops/network.h"
#include "sets/cache.h"
#include "wai/wai_network.h"

struct wai_set_network {
    wai_context *ctx;
    wai_net net;
    wai_plan plan;
    int planned;
};

struct wai_set_tables {
    wai_context *ctx;
    wai_entropy_set *set;
};

/* The member's bytes once the capability's whole set passed §7 steps 1 and
 * 2; invalid_argument for a member its set does not read. */
static wai_status open_member(wai_context *ctx, const char *capability, const wai_set *set,
                              const char *member, const uint8_t **bytes, size_t *len) {
    if (!ctx || !capability || !set || !member) return WAI_invalid_argument;
    const wai_codec *c = wai_codec_of(wai_capability_find(capability));
    if (!c || !c->ops) return WAI_unsupported_capability;
    const wai_set_kind k = wai_codec_set_kind(c);
    int reads = 0;
    for (size_t i = 0; k.load && k.members[i]; i++) reads |= strcmp(k.members[i], member) == 0;
    if (!reads) return WAI_invalid_argument;
    wai_set_ref *held = NULL;
    int hit;
    wai_status st = wai_set_check_members(&k, set);
    if (st == WAI_ok) st = wai_set_cache_acquire(ctx->sets, &k, set, &held, &hit);
    wai_set_cache_release(ctx->sets, held);
    return st == WAI_ok ? wai_set_find(set, member, bytes, len) : st;
}

/* The dims of a network member by its magic (2: WHM1, 1: WAM1); 0 else. */
static int network_dims(const uint8_t *b, size_t len) {
    for (int dims = 1; dims <= 2; dims++)
        if (len >= 4 && memcmp(b, wai_whm1_magic(dims), 4) == 0) return dims;
    return 0;
}

wai_status wai_set_network_create(wai_context *ctx, const char *capability, const wai_set *set,
                                const char *member, wai_set_network **out) {
    if (!out) return WAI_invalid_argument;
    *out = NULL;
    const uint8_t *b;
    size_t len;
    wai_status st = open_member(ctx, capability, set, member, &b, &len);
    if (st != WAI_ok) return st;
    const int dims = network_dims(b, len);
    if (!dims) return WAI_invalid_argument;
    wai_set_network *n = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *n);
    if (!n) return WAI_out_of_memory;
    n->ctx = ctx;
    if ((st = wai_loaded_net(&ctx->alloc, b, len, dims, &n->net)) != WAI_ok) {
        wai_set_network_destroy(n);
        return st;
    }
    *out = n;
    return WAI_ok;
}

void wai_set_network_destroy(wai_set_network *n) {
    if (!n) return;
    const wai_allocator *a = &n->ctx->alloc;
    wai_plan_free(a, &n->plan);
    wai_net_free(a, &n->net);
    wai_free(a, n);
}

uint32_t wai_set_network_afrac(const wai_set_network *n) { return n ? n->net.model.afrac : 0; }

wai_status wai_set_network_plan(wai_set_network *n, const uint32_t in[3], uint32_t out[3]) {
    if (!n || !in || !out) return WAI_invalid_argument;
    const wai_allocator *a = &n->ctx->alloc;
    wai_plan_free(a, &n->plan);
    n->planned = 0;
    wai_status st = wai_plan_model(a, &n->net.model, in[0], in[1], in[2], &n->plan);
    if (st != WAI_ok) return st;
    n->planned = 1;
    out[0] = n->plan.out_c;
    out[1] = n->plan.out_h;
    out[2] = n->plan.out_w;
    return WAI_ok;
}

wai_status wai_set_network_run(wai_set_network *n, const int64_t *input, int64_t *output) {
    if (!n || !n->planned || !input || !output) return WAI_invalid_argument;
    const wai_exec *ex = &n->ctx->exec;
    return wai_network_run_ex(ex, ex->kernels, &n->net.model, &n->net.sums, &n->plan, input,
                              output);
}

wai_status wai_set_tables_create(wai_context *ctx, const char *capability, const wai_set *set,
                               const char *member, wai_set_tables **out) {
    if (!out) return WAI_invalid_argument;
    *out = NULL;
    const uint8_t *b;
    size_t len;
    wai_status st = open_member(ctx, capability, set, member, &b, &len);
    if (st != WAI_ok) return st;
    if (network_dims(b, len)) return WAI_invalid_argument;
    wai_set_tables *t = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *t);
    if (!t) return WAI_out_of_memory;
    t->ctx = ctx;
    if ((st = wai_entropy_json_parse_rules(&ctx->alloc, b, len, NULL, &t->set)) != WAI_ok) {
        wai_set_tables_destroy(t);
        return st;
    }
    *out = t;
    return WAI_ok;
}

void wai_set_tables_destroy(wai_set_tables *t) {
    if (!t) return;
    wai_entropy_set_free(&t->ctx->alloc, t->set);
    wai_free(&t->ctx->alloc, t);
}

size_t wai_set_tables_count(const wai_set_tables *t, wai_table_kind kind) {
    if (!t) return 0;
    return kind == WAI_TABLE_HYPER ? t->set->n_z : kind == WAI_TABLE_LATENT ? t->set->n_edges : 0;
}

wai_status wai_set_tables_at(const wai_set_tables *t, wai_table_kind kind, size_t i,
                             wai_set_table *out) {
    if (!out || i >= wai_set_tables_count(t, kind)) return WAI_invalid_argument;
    const wai_entropy_table *e = kind == WAI_TABLE_HYPER ? &t->set->hyper[i] : &t->set->latent[i];
    memset(out, 0, sizeof *out);
    out->cdf = e->cdf;
    out->len = e->n;
    out->offset = e->offset;
    out->median = kind == WAI_TABLE_HYPER ? t->set->z_median_q[i] : 0;
    return WAI_ok;
}

size_t wai_set_tables_bucket(const wai_set_tables *t, int64_t sigma) {
    return t ? wai_bucket(sigma, t->set->scale_edges, t->set->n_edges) : 0;
}
