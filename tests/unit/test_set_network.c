/* SPDX-License-Identifier: BSD-2-Clause */
/* include/wai/wai_network.h on the shipped WIH1 set (examples/hyperprior/
 * sets/q3): a network opened, planned and run gives the bits the core's
 * reference runner gives the same member on the same input; the tables
 * are entropy.json's as the core reads it, and the bucket is E3's; every
 * refusal has its code, the set's own are the decode's, and an allocation
 * failure anywhere is out_of_memory with nothing leaked. And a bundle's
 * sections by name ("model.wmb#h_s", the corpus's WMB1 and WCB1 sets):
 * each network the section parsed by the core, the tables read by the
 * bundle's rules, the names it does not have refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entropy/model.h"
#include "formats/bundle.h"
#include "formats/whm1.h"
#include "harness.h"
#include "ops/network.h"
#include "sets/entropy_json.h"
#include "wai/wai_network.h"

#define SET_DIR "../examples/hyperprior/sets/q3"
#define CAP "wai.neural.int_hyper"

static const char *const members[] = {"g_s.whm", "h_s.whm", "entropy.json"};
#define N_MEMBERS 3

/* What stands in for a broken member: a text no reader takes. */
#define JUNK "{}"

static wai_context *context(wai_allocator *a) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 2;
    if (a) s.allocator = *a;
    wai_context *ctx = NULL;
    CHECK(wai_context_create(&s, &ctx) == WAI_ok);
    return ctx;
}

/* n planned on in and run on a seeded input (whole values -spread ..
 * spread at 2^afrac) gives the bits the reference runner gives m, the same
 * member parsed here, and the shape of its plan (into out). */
static void runs_as_reference(wai_set_network *n, const wai_model *m, const uint32_t in[3],
                              uint64_t seed, int spread, uint32_t out[3]) {
    wai_sums s;
    wai_plan p;
    memset(&p, 0, sizeof p);
    if (!CHECK(wai_sums_compute(NULL, m, &s) == WAI_ok)) return;
    if (CHECK(wai_set_network_plan(n, in, out) == WAI_ok) &&
        CHECK(wai_plan_model(NULL, m, in[0], in[1], in[2], &p) == WAI_ok) &&
        CHECK(out[0] == p.out_c && out[1] == p.out_h && out[2] == p.out_w)) {
        const size_t ni = (size_t)in[0] * in[1] * in[2], no = (size_t)out[0] * out[1] * out[2];
        int64_t *x = malloc(ni * sizeof *x), *y = malloc(no * sizeof *y),
                *want = malloc(no * sizeof *want);
        for (size_t i = 0; i < ni; i++)
            x[i] = ((int64_t)(harness_rand(&seed) % (uint64_t)(2 * spread + 1)) - spread) *
                   ((int64_t)1 << m->afrac);
        CHECK(wai_set_network_run(n, x, y) == WAI_ok);
        CHECK(wai_network_run(NULL, NULL, m, &s, &p, x, want) == WAI_ok);
        CHECK(memcmp(y, want, no * sizeof *y) == 0);
        free(x), free(y), free(want);
    }
    wai_plan_free(NULL, &p);
    wai_sums_free(NULL, &s);
}

/* h_s on a seeded hyper-latent: the handle's run against the reference
 * runner's on the member parsed here. */
static void test_run_matches_reference(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_set_network *n = NULL;
    wai_model m;
    if (CHECK(wai_set_network_create(ctx, CAP, set, "h_s.whm", &n) == WAI_ok) &&
        CHECK(wai_model_parse(NULL, f.data[1], f.len[1], 2, &m) == WAI_ok)) {
        CHECK(wai_set_network_afrac(n) == m.afrac);
        const uint32_t in[3] = {m.layers[0].cin, 4, 6};
        uint32_t out[3] = {0, 0, 0};
        int64_t x0 = 0;
        CHECK(wai_set_network_run(n, &x0, &x0) == WAI_invalid_argument); /* before a plan */
        runs_as_reference(n, &m, in, 59, 4, out);
        CHECK(out[1] == 16 && out[2] == 24); /* h_s's two stride-2 levels */
        /* A plan that fails drops the one before: no run on a stale plan. */
        const uint32_t huge[3] = {m.layers[0].cin, 1u << 14, 1u << 14};
        uint32_t o2[3];
        CHECK(wai_set_network_plan(n, huge, o2) == WAI_too_large);
        CHECK(wai_set_network_run(n, &x0, &x0) == WAI_invalid_argument);
        wai_model_free(NULL, &m);
    }
    wai_set_network_destroy(n);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    harness_set_files_free(&f);
}

/* Tables `name` of set, against the core's read of their text by rules
 * (NULL: entropy.json's): every table, the out-of-range ones refused, and
 * E3's bucket at and about every edge and past both ends. */
static void check_tables(wai_context *ctx, const char *cap, wai_set *set, const char *name,
                         const uint8_t *text, size_t len, const wai_entropy_rules *rules) {
    wai_set_tables *t = NULL;
    wai_entropy_set *e = NULL;
    if (CHECK_MSG(wai_set_tables_create(ctx, cap, set, name, &t) == WAI_ok, "%s", name) &&
        CHECK(wai_entropy_json_parse_rules(NULL, text, len, rules, &e) == WAI_ok)) {
        CHECK(rules ? e->afrac > 0 : e->afrac == 0);
        CHECK(wai_set_tables_count(t, WAI_TABLE_LATENT) == e->n_edges);
        CHECK(wai_set_tables_count(t, WAI_TABLE_HYPER) == e->n_z);
        wai_set_table one;
        for (uint32_t k = 0; k < e->n_z; k++)
            CHECK(wai_set_tables_at(t, WAI_TABLE_HYPER, k, &one) == WAI_ok &&
                  one.len == e->hyper[k].n && one.offset == e->hyper[k].offset &&
                  memcmp(one.cdf, e->hyper[k].cdf, one.len * sizeof *one.cdf) == 0 &&
                  one.median == e->z_median_q[k]);
        for (uint32_t k = 0; k < e->n_edges; k++)
            CHECK(wai_set_tables_at(t, WAI_TABLE_LATENT, k, &one) == WAI_ok &&
                  one.len == e->latent[k].n && one.offset == e->latent[k].offset &&
                  memcmp(one.cdf, e->latent[k].cdf, one.len * sizeof *one.cdf) == 0 &&
                  one.median == 0 && one.cdf[one.len - 1] == 65536);
        CHECK(wai_set_tables_at(t, WAI_TABLE_LATENT, e->n_edges, &one) == WAI_invalid_argument);
        CHECK(wai_set_tables_at(t, WAI_TABLE_HYPER, e->n_z, &one) == WAI_invalid_argument);
        CHECK(wai_set_tables_at(t, (wai_table_kind)7, 0, &one) == WAI_invalid_argument);
        for (uint32_t i = 0; i < e->n_edges; i++)
            for (int64_t d = -1; d <= 1; d++) {
                const int64_t sigma = e->scale_edges[i] + d;
                CHECK(wai_set_tables_bucket(t, sigma) ==
                      wai_bucket(sigma, e->scale_edges, e->n_edges));
            }
        CHECK(wai_set_tables_bucket(t, INT64_MIN) == 0);
        CHECK(wai_set_tables_bucket(t, INT64_MAX) == e->n_edges - 1);
    }
    wai_entropy_set_free(NULL, e);
    wai_set_tables_destroy(t);
}

static void test_tables(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    check_tables(ctx, CAP, set, "entropy.json", f.data[2], f.len[2], NULL);
    CHECK(wai_set_tables_count(NULL, WAI_TABLE_LATENT) == 0);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    harness_set_files_free(&f);
}

static void test_refusals(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *full = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_set *two = harness_set_make(ctx, &f, 2, -1, JUNK);
    wai_set *bad_tables = harness_set_make(ctx, &f, N_MEMBERS, 2, JUNK);
    wai_set *bad_g_s = harness_set_make(ctx, &f, N_MEMBERS, 0, JUNK);
    wai_set_network *n = (wai_set_network *)1;
    wai_set_tables *t = (wai_set_tables *)1;
    CHECK(wai_set_network_create(ctx, CAP, full, "h_s.whm", NULL) == WAI_invalid_argument);
    CHECK(wai_set_network_create(NULL, CAP, full, "h_s.whm", &n) == WAI_invalid_argument && !n);
    CHECK(wai_set_network_create(ctx, NULL, full, "h_s.whm", &n) == WAI_invalid_argument);
    CHECK(wai_set_network_create(ctx, CAP, NULL, "h_s.whm", &n) == WAI_invalid_argument);
    CHECK(wai_set_network_create(ctx, CAP, full, NULL, &n) == WAI_invalid_argument);
    CHECK(wai_set_network_create(ctx, "wai.neural.nope", full, "h_s.whm", &n) ==
          WAI_unsupported_capability);
    /* A capability that reads no set has no member to open. */
    CHECK(wai_set_network_create(ctx, "wai.video.int_motion", full, "h_s.whm", &n) ==
          WAI_invalid_argument);
    CHECK(wai_set_network_create(ctx, CAP, full, "analysis.f32", &n) == WAI_invalid_argument);
    CHECK(wai_set_network_create(ctx, CAP, full, "entropy.json", &n) == WAI_invalid_argument);
    CHECK(wai_set_tables_create(ctx, CAP, full, "g_s.whm", &t) == WAI_invalid_argument && !t);
    /* A section of a member that is no bundle. */
    CHECK(wai_set_network_create(ctx, CAP, full, "h_s.whm#h_s", &n) == WAI_invalid_argument && !n);
    CHECK(wai_set_tables_create(ctx, CAP, full, "entropy.json#tables", &t) == WAI_invalid_argument);
    /* The set's own refusals, as its decode gives them, whichever member
     * was asked for. */
    CHECK(wai_set_network_create(ctx, CAP, two, "h_s.whm", &n) == WAI_set_incomplete && !n);
    CHECK(wai_set_tables_create(ctx, CAP, two, "entropy.json", &t) == WAI_set_incomplete);
    CHECK(wai_set_network_create(ctx, CAP, bad_tables, "h_s.whm", &n) == WAI_model_mismatch);
    CHECK(wai_set_tables_create(ctx, CAP, bad_g_s, "entropy.json", &t) == WAI_model_mismatch);
    CHECK(wai_set_network_afrac(NULL) == 0);
    uint32_t in[3] = {1, 1, 1}, out[3];
    CHECK(wai_set_network_plan(NULL, in, out) == WAI_invalid_argument);
    CHECK(wai_set_network_run(NULL, NULL, NULL) == WAI_invalid_argument);
    wai_set_network_destroy(NULL);
    wai_set_tables_destroy(NULL);
    wai_set_destroy(full);
    wai_set_destroy(two);
    wai_set_destroy(bad_tables);
    wai_set_destroy(bad_g_s);
    wai_context_destroy(ctx);
    harness_set_files_free(&f);
}

/* h_s opened, planned on [cin, 2, 2] (*arg, cin) and run on zeros, and
 * the tables opened. */
static wai_status open_plan_run(wai_context *ctx, wai_set *set, const void *arg) {
    const uint32_t in[3] = {*(const uint32_t *)arg, 2, 2};
    wai_set_network *n = NULL;
    wai_set_tables *t = NULL;
    uint32_t out[3];
    int64_t *x = calloc((size_t)in[0] * 4, sizeof *x), *y = NULL;
    wai_status st = wai_set_network_create(ctx, CAP, set, "h_s.whm", &n);
    if (st == WAI_ok) st = wai_set_network_plan(n, in, out);
    if (st == WAI_ok && !(y = malloc((size_t)out[0] * out[1] * out[2] * sizeof *y)))
        st = WAI_invalid_argument;
    if (st == WAI_ok) st = wai_set_network_run(n, x, y);
    if (st == WAI_ok) st = wai_set_tables_create(ctx, CAP, set, "entropy.json", &t);
    free(x), free(y);
    wai_set_network_destroy(n);
    wai_set_tables_destroy(t);
    return st;
}

/* Every allocation of an open, a plan and a run failed in turn. */
static void test_allocation_failures(void) {
    harness_set_files f;
    wai_model m;
    if (harness_set_files_read(SET_DIR, members, N_MEMBERS, &f) &&
        CHECK(wai_model_parse(NULL, f.data[1], f.len[1], 2, &m) == WAI_ok)) {
        const uint32_t cin = m.layers[0].cin;
        wai_model_free(NULL, &m);
        harness_sweep_allocations(0, 1, 2, &f, N_MEMBERS, open_plan_run, &cin);
    }
    harness_set_files_free(&f);
}

/* ---- bundles' sections ---------------------------------------------------- */

#define MLIC "wai.neural.int_mlicpp"
#define MLIC_DIR "corpus/neural/mlic/valid/two_slices"
#define COND "wai.video.int_cond"
#define COND_DIR "corpus/neural/cond/valid/one_frame"

static const char *const wmb_member[] = {"model.wmb"};
static const char *const wcb_member[] = {"model.wcb"};

/* Network section `name` of the set's one bundle (section i of b): the
 * handle's afrac and runs are the core's on the section parsed here. */
static void check_section(wai_context *ctx, const char *cap, wai_set *set, const char *name,
                          const wai_bundle *b, unsigned i) {
    wai_set_network *n = NULL;
    wai_model m;
    if (CHECK_MSG(wai_set_network_create(ctx, cap, set, name, &n) == WAI_ok, "%s", name) &&
        CHECK(wai_model_parse(NULL, b->section[i], b->len[i], 2, &m) == WAI_ok)) {
        CHECK(wai_set_network_afrac(n) == m.afrac);
        const uint32_t in[3] = {m.layers[0].cin, 3, 5};
        uint32_t out[3];
        runs_as_reference(n, &m, in, 61 + i, 2, out);
        wai_model_free(NULL, &m);
    }
    wai_set_network_destroy(n);
}

static void test_bundle_sections(void) {
    harness_set_files fm, fc;
    int have = harness_set_files_read(MLIC_DIR, wmb_member, 1, &fm);
    have &= harness_set_files_read(COND_DIR, wcb_member, 1, &fc);
    wai_bundle bm, bc;
    if (!have || !CHECK(wai_bundle_split(fm.data[0], fm.len[0], "WMB1", WAI_WMB1_SECTIONS, &bm) ==
                        WAI_ok) ||
        !CHECK(wai_bundle_split(fc.data[0], fc.len[0], "WCB1", WAI_WCB1_SECTIONS, &bc) == WAI_ok))
        goto out;
    wai_context *ctx = context(NULL);
    wai_set *wmb = harness_set_make(ctx, &fm, 1, -1, JUNK);
    wai_set *wcb = harness_set_make(ctx, &fc, 1, -1, JUNK);
    check_section(ctx, MLIC, wmb, "model.wmb#h_s", &bm, WAI_WMB1_HS);
    check_section(ctx, MLIC, wmb, "model.wmb#entropy", &bm, WAI_WMB1_ENTROPY);
    check_section(ctx, MLIC, wmb, "model.wmb#g_s", &bm, WAI_WMB1_GS);
    const wai_entropy_rules wmb_rules = WAI_WMB1_TABLE_RULES, wcb_rules = WAI_WCB1_TABLE_RULES;
    check_tables(ctx, MLIC, wmb, "model.wmb#tables", bm.section[WAI_WMB1_TABLES],
                 bm.len[WAI_WMB1_TABLES], &wmb_rules);
    static const char *const cond[] = {"model.wcb#ctx", "model.wcb#prior", "model.wcb#dec",
                                       "model.wcb#recon"};
    for (unsigned i = 0; i < 4; i++) check_section(ctx, COND, wcb, cond[i], &bc, i);
    check_tables(ctx, COND, wcb, "model.wcb#tables", bc.section[WAI_WCB1_TABLES],
                 bc.len[WAI_WCB1_TABLES], &wcb_rules);
    wai_set_destroy(wcb);
    wai_set_destroy(wmb);
    wai_context_destroy(ctx);
out:
    harness_set_files_free(&fm);
    harness_set_files_free(&fc);
}

static void test_bundle_refusals(void) {
    harness_set_files f;
    if (!harness_set_files_read(MLIC_DIR, wmb_member, 1, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *full = harness_set_make(ctx, &f, 1, -1, JUNK);
    wai_set *none = harness_set_make(ctx, &f, 0, -1, JUNK);
    wai_set *broken = harness_set_make(ctx, &f, 1, 0, JUNK);
    wai_set_network *n = (wai_set_network *)1;
    wai_set_tables *t = (wai_set_tables *)1;
    /* Names the bundle does not have, a bundle without a section, a
     * section of the other kind, a member the set does not read. */
    static const char *const not_networks[] = {"model.wmb#nope", "model.wmb#", "model.wmb",
                                               "model.wmb#tables", "model.wmb#H_S", "model.wm#h_s",
                                               "model.wmb#h_s#", "#h_s", "model.wmb#ctx"};
    for (size_t i = 0; i < sizeof not_networks / sizeof not_networks[0]; i++)
        CHECK_MSG(wai_set_network_create(ctx, MLIC, full, not_networks[i], &n) ==
                      WAI_invalid_argument && !n,
                  "%s", not_networks[i]);
    static const char *const not_tables[] = {"model.wmb#h_s", "model.wmb#entropy", "model.wmb",
                                             "model.wmb#Tables", "model.wmb#"};
    for (size_t i = 0; i < sizeof not_tables / sizeof not_tables[0]; i++)
        CHECK_MSG(wai_set_tables_create(ctx, MLIC, full, not_tables[i], &t) ==
                      WAI_invalid_argument && !t,
                  "%s", not_tables[i]);
    /* The set's own refusals come first, as for any member. */
    CHECK(wai_set_network_create(ctx, MLIC, none, "model.wmb#h_s", &n) == WAI_set_incomplete);
    CHECK(wai_set_tables_create(ctx, MLIC, none, "model.wmb#tables", &t) == WAI_set_incomplete);
    CHECK(wai_set_network_create(ctx, MLIC, broken, "model.wmb#h_s", &n) == WAI_model_mismatch);
    CHECK(wai_set_tables_create(ctx, MLIC, broken, "model.wmb#tables", &t) == WAI_model_mismatch);
    wai_set_destroy(full);
    wai_set_destroy(none);
    wai_set_destroy(broken);
    wai_context_destroy(ctx);
    harness_set_files_free(&f);
}

/* The entropy network's and the tables' sections opened. */
static wai_status open_sections(wai_context *ctx, wai_set *set, const void *arg) {
    (void)arg;
    wai_set_network *n = NULL;
    wai_set_tables *t = NULL;
    wai_status st = wai_set_network_create(ctx, MLIC, set, "model.wmb#entropy", &n);
    if (st == WAI_ok) st = wai_set_tables_create(ctx, MLIC, set, "model.wmb#tables", &t);
    wai_set_network_destroy(n);
    wai_set_tables_destroy(t);
    return st;
}

/* Every allocation of a section's open failed in turn. */
static void test_bundle_allocation_failures(void) {
    harness_set_files f;
    if (harness_set_files_read(MLIC_DIR, wmb_member, 1, &f))
        harness_sweep_allocations(0, 1, 2, &f, 1, open_sections, NULL);
    harness_set_files_free(&f);
}

void suite_set_network(void) {
    harness_run("set_network/run_matches_reference", test_run_matches_reference);
    harness_run("set_network/tables", test_tables);
    harness_run("set_network/refusals", test_refusals);
    harness_run("set_network/allocation_failures", test_allocation_failures);
    harness_run("set_network/bundle_sections", test_bundle_sections);
    harness_run("set_network/bundle_refusals", test_bundle_refusals);
    harness_run("set_network/bundle_allocation_failures", test_bundle_allocation_failures);
}
