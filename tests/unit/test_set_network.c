/* SPDX-License-Identifier: BSD-2-Clause */
/* include/wai/wai_network.h on the shipped WIH1 set (examples/hyperprior/
 * sets/q3): a network opened, planned and run gives the bits the core's
 * reference runner gives the same member on the same input; the tables
 * are entropy.json's as the core reads it, and the bucket is E3's; every
 * refusal has its code, the set's own are the decode's, and an allocation
 * failure anywhere is out_of_memory with nothing leaked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entropy/model.h"
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

/* h_s on a seeded hyper-latent: the handle's run against the reference
 * runner's on the member parsed here. */
static void test_run_matches_reference(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_set_network *n = NULL;
    wai_model m;
    wai_sums s;
    wai_plan p;
    memset(&p, 0, sizeof p);
    if (CHECK(wai_set_network_create(ctx, CAP, set, "h_s.whm", &n) == WAI_ok) &&
        CHECK(wai_model_parse(NULL, f.data[1], f.len[1], 2, &m) == WAI_ok)) {
        CHECK(wai_set_network_afrac(n) == m.afrac);
        CHECK(wai_sums_compute(NULL, &m, &s) == WAI_ok);
        const uint32_t in[3] = {m.layers[0].cin, 4, 6};
        uint32_t out[3] = {0, 0, 0};
        int64_t x0 = 0;
        CHECK(wai_set_network_run(n, &x0, &x0) == WAI_invalid_argument); /* before a plan */
        if (CHECK(wai_set_network_plan(n, in, out) == WAI_ok) &&
            CHECK(wai_plan_model(NULL, &m, in[0], in[1], in[2], &p) == WAI_ok)) {
            CHECK(out[0] == p.out_c && out[1] == p.out_h && out[2] == p.out_w);
            CHECK(out[1] == 16 && out[2] == 24); /* h_s's two stride-2 levels */
            const size_t ni = (size_t)in[0] * in[1] * in[2], no = (size_t)out[0] * out[1] * out[2];
            int64_t *x = malloc(ni * sizeof *x), *y = malloc(no * sizeof *y),
                    *want = malloc(no * sizeof *want);
            uint64_t seed = 59;
            for (size_t i = 0; i < ni; i++)
                x[i] = ((int64_t)(harness_rand(&seed) % 9) - 4) * ((int64_t)1 << m.afrac);
            CHECK(wai_set_network_run(n, x, y) == WAI_ok);
            CHECK(wai_network_run(NULL, NULL, &m, &s, &p, x, want) == WAI_ok);
            CHECK(memcmp(y, want, no * sizeof *y) == 0);
            free(x), free(y), free(want);
        }
        /* A plan that fails drops the one before: no run on a stale plan. */
        const uint32_t huge[3] = {m.layers[0].cin, 1u << 14, 1u << 14};
        uint32_t o2[3];
        CHECK(wai_set_network_plan(n, huge, o2) == WAI_too_large);
        CHECK(wai_set_network_run(n, &x0, &x0) == WAI_invalid_argument);
        wai_plan_free(NULL, &p);
        wai_sums_free(NULL, &s);
        wai_model_free(NULL, &m);
    }
    wai_set_network_destroy(n);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    harness_set_files_free(&f);
}

static void test_tables(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_context *ctx = context(NULL);
    wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
    wai_set_tables *t = NULL;
    wai_entropy_set *e = NULL;
    if (CHECK(wai_set_tables_create(ctx, CAP, set, "entropy.json", &t) == WAI_ok) &&
        CHECK(wai_entropy_json_parse(NULL, f.data[2], f.len[2], &e) == WAI_ok)) {
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
                  one.median == 0 && one.cdf[one.len - 1] == 65536);
        CHECK(wai_set_tables_at(t, WAI_TABLE_LATENT, e->n_edges, &one) == WAI_invalid_argument);
        CHECK(wai_set_tables_at(t, WAI_TABLE_HYPER, e->n_z, &one) == WAI_invalid_argument);
        CHECK(wai_set_tables_at(t, (wai_table_kind)7, 0, &one) == WAI_invalid_argument);
        /* E3 at and about every edge, and past both ends. */
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

/* Every allocation of an open, a plan and a run failed in turn. */
static void test_allocation_failures(void) {
    harness_set_files f;
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &f)) return harness_set_files_free(&f);
    wai_model m;
    if (!CHECK(wai_model_parse(NULL, f.data[1], f.len[1], 2, &m) == WAI_ok)) return harness_set_files_free(&f);
    const uint32_t in[3] = {m.layers[0].cin, 2, 2};
    wai_model_free(NULL, &m);
    int64_t *x = calloc((size_t)in[0] * 4, sizeof *x);
    size_t failures = 0;
    for (size_t k = 0; k < 5000; k++) {
        harness_alloc fa = {0};
        wai_allocator a = harness_allocator(&fa);
        wai_context *ctx = context(&a);
        if (!ctx) break;
        wai_set *set = harness_set_make(ctx, &f, N_MEMBERS, -1, JUNK);
        fa.fail_at = fa.calls + k + 1;
        wai_set_network *n = NULL;
        wai_set_tables *t = NULL;
        uint32_t out[3];
        int64_t *y = NULL;
        wai_status st = wai_set_network_create(ctx, CAP, set, "h_s.whm", &n);
        if (st == WAI_ok) st = wai_set_network_plan(n, in, out);
        if (st == WAI_ok && !(y = malloc((size_t)out[0] * out[1] * out[2] * sizeof *y)))
            st = WAI_invalid_argument;
        if (st == WAI_ok) st = wai_set_network_run(n, x, y);
        if (st == WAI_ok) st = wai_set_tables_create(ctx, CAP, set, "entropy.json", &t);
        const int done = st == WAI_ok && !fa.failed;
        if (st != WAI_ok) {
            failures += (size_t)fa.failed;
            CHECK_MSG(st == WAI_out_of_memory, "allocation %zu: %s", k, wai_status_name(st));
        }
        fa.fail_at = 0;
        free(y);
        wai_set_network_destroy(n);
        wai_set_tables_destroy(t);
        wai_set_destroy(set);
        wai_context_destroy(ctx);
        CHECK_MSG(fa.live == 0, "allocation %zu: %zu blocks leaked", k, fa.live);
        if (done || st != WAI_out_of_memory) break;
    }
    CHECK(failures > 0);
    free(x);
    harness_set_files_free(&f);
}

void suite_set_network(void) {
    harness_run("set_network/run_matches_reference", test_run_matches_reference);
    harness_run("set_network/tables", test_tables);
    harness_run("set_network/refusals", test_refusals);
    harness_run("set_network/allocation_failures", test_allocation_failures);
}
