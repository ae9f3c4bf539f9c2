/* SPDX-License-Identifier: BSD-2-Clause */
/* include/wai/wai_network.h: a capability's set opened as its decode opens
 * it (decode/steps.c's resolve, through the context's cache), then one of
 * its members, or one section of a bundle member ("model.wmb#h_s"), parsed
 * for the caller: a network with its sums, or entropy tables. The member is
 * parsed again rather than taken from the codec's own object, so this reads
 * every codec's set the same way. */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "decode/codec.h"
#include "entropy/model.h"
#include "formats/bundle.h"
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

/* The bundles a member may be (§14 WMB1, §17.3 WCB1): their sections'
 * names in order, the tables' section, and how their decode reads it. */
typedef struct bundle_form {
    char magic[5];
    unsigned n, tables;
    const char *names[WAI_BUNDLE_MAX_SECTIONS];
    wai_entropy_rules rules;
} bundle_form;

static const bundle_form bundles[] = {
    {"WMB1", WAI_WMB1_SECTIONS, WAI_WMB1_TABLES, {"h_s", "entropy", "g_s", "tables"},
     WAI_WMB1_TABLE_RULES},
    {"WCB1", WAI_WCB1_SECTIONS, WAI_WCB1_TABLES, {"ctx", "prior", "dec", "recon", "tables"},
     WAI_WCB1_TABLE_RULES},
};

/* What a name opens: a member's bytes or a section's, and the rules its
 * tables are read by (NULL: entropy.json's). */
typedef struct member_view {
    const uint8_t *b;
    size_t len;
    const wai_entropy_rules *rules;
} member_view;

/* The bundle a member's bytes are, or NULL. */
static const bundle_form *bundle_of(const uint8_t *b, size_t len) {
    for (size_t i = 0; i < sizeof bundles / sizeof bundles[0]; i++)
        if (len >= 4 && memcmp(b, bundles[i].magic, 4) == 0) return &bundles[i];
    return NULL;
}

/* Section `name` of the bundle member b; invalid_argument for a member that
 * is no bundle or a name it has no section of. */
static wai_status section_of(const uint8_t *b, size_t len, const char *name, member_view *v) {
    const bundle_form *f = bundle_of(b, len);
    for (unsigned i = 0; f && i < f->n; i++) {
        if (strcmp(f->names[i], name) != 0) continue;
        wai_bundle parts;
        wai_status st = wai_bundle_split(b, len, f->magic, f->n, &parts);
        v->b = parts.section[i];
        v->len = parts.len[i];
        v->rules = i == f->tables ? &f->rules : NULL;
        return st;
    }
    return WAI_invalid_argument;
}

/* The bytes `member` names once the capability's whole set passed §7 steps
 * 1 and 2: a member, or with "#section" one section of a bundle member.
 * invalid_argument for a member its set does not read, a bundle named
 * without a section, or a section it does not have. */
static wai_status open_member(wai_context *ctx, const char *capability, const wai_set *set,
                              const char *member, member_view *v) {
    if (!ctx || !capability || !set || !member) return WAI_invalid_argument;
    const wai_codec *c = wai_codec_of(wai_capability_find(capability));
    if (!c || !c->ops) return WAI_unsupported_capability;
    const wai_set_kind k = wai_codec_set_kind(c);
    const char *hash = strchr(member, '#'), *file = NULL;
    const size_t n = hash ? (size_t)(hash - member) : strlen(member);
    for (size_t i = 0; k.load && k.members[i] && !file; i++)
        if (strlen(k.members[i]) == n && strncmp(k.members[i], member, n) == 0) file = k.members[i];
    if (!file) return WAI_invalid_argument;
    wai_set_ref *held = NULL;
    int hit;
    wai_status st = wai_set_check_members(&k, set);
    if (st == WAI_ok) st = wai_set_cache_acquire(ctx->sets, &k, set, &held, &hit);
    wai_set_cache_release(ctx->sets, held);
    if (st == WAI_ok) st = wai_set_find(set, file, &v->b, &v->len);
    if (st != WAI_ok) return st;
    v->rules = NULL;
    if (hash) return section_of(v->b, v->len, hash + 1, v);
    return bundle_of(v->b, v->len) ? WAI_invalid_argument : WAI_ok;
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
    member_view v;
    wai_status st = open_member(ctx, capability, set, member, &v);
    if (st != WAI_ok) return st;
    const int dims = network_dims(v.b, v.len);
    if (!dims) return WAI_invalid_argument;
    wai_set_network *n = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *n);
    if (!n) return WAI_out_of_memory;
    n->ctx = ctx;
    if ((st = wai_loaded_net(&ctx->alloc, v.b, v.len, dims, &n->net)) != WAI_ok) {
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
    member_view v;
    wai_status st = open_member(ctx, capability, set, member, &v);
    if (st != WAI_ok) return st;
    if (network_dims(v.b, v.len)) return WAI_invalid_argument;
    wai_set_tables *t = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *t);
    if (!t) return WAI_out_of_memory;
    t->ctx = ctx;
    if ((st = wai_entropy_json_parse_rules(&ctx->alloc, v.b, v.len, v.rules, &t->set)) != WAI_ok) {
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
