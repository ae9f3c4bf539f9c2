/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_mlicpp (docs/int_mlicpp.md) beyond its corpus fixtures:
 * WMB1's tables read by §14's rules (an integer afrac, 1 <= N <= 65536,
 * E1's t2 table rule in place of §2's), which entropy.json's reading does
 * not take, the decode the same on 1 and 3 threads, and the entropy
 * network's kept first layer (decode/mlic_entropy.h) the same as whole runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/context.h"
#include "corpus_util.h"
#include "gen/wim1gen.h"
#include "harness.h"
#include "sets/entropy_json.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

/* A tables text with n edges, each table [0, 65536] (t2: two entries) or
 * [0, 1, 65536]; afrac_member the text of the afrac member or NULL. */
static char *tables(size_t n, int two, const char *afrac_member) {
    size_t cap = 512 + n * 64;
    char *t = malloc(cap), *at = t, *end = t + cap;
    if (!t) return NULL;
#define PUT(...) at += snprintf(at, (size_t)(end - at), __VA_ARGS__)
    PUT("{%s%s\"scale_edges\": [", afrac_member ? afrac_member : "", afrac_member ? ", " : "");
    for (size_t i = 0; i < n; i++) PUT("%s%zu", i ? "," : "", i);
    PUT("], \"cdfs\": [");
    for (size_t i = 0; i < n; i++) PUT("%s%s", i ? "," : "", two ? "[0,65536]" : "[0,1,65536]");
    PUT("], \"cdf_lengths\": [");
    for (size_t i = 0; i < n; i++) PUT("%s%d", i ? "," : "", two ? 2 : 3);
    PUT("], \"offsets\": [");
    for (size_t i = 0; i < n; i++) PUT("%s0", i ? "," : "");
    PUT("], \"z_cdfs\": [[0,1,65536]], \"z_cdf_lengths\": [3], \"z_offsets\": [0], "
        "\"z_median_q\": [0]}");
#undef PUT
    return t;
}

static wai_status read_with(const char *t, const wai_entropy_rules *r) {
    wai_entropy_set *s = NULL;
    wai_status st = wai_entropy_json_parse_rules(NULL, (const uint8_t *)t, strlen(t), r, &s);
    wai_entropy_set_free(NULL, s);
    return st;
}

static void test_tables_rules(void) {
    const wai_entropy_rules wmb = {1, 1, 65536, 0};
    char *t = tables(4, 1, "\"afrac\": 10");
    CHECK(read_with(t, &wmb) == WAI_ok);
    CHECK_MSG(read_with(t, NULL) == WAI_model_mismatch, "two-entry tables are not entropy.json's");
    free(t);
    t = tables(4, 0, NULL);
    CHECK_MSG(read_with(t, &wmb) == WAI_model_mismatch, "WMB1's tables need afrac");
    CHECK(read_with(t, NULL) == WAI_ok);
    free(t);
    t = tables(4, 0, "\"afrac\": 10.0");
    CHECK_MSG(read_with(t, &wmb) == WAI_model_mismatch, "afrac is an integer");
    free(t);
    t = tables(65536, 0, "\"afrac\": 10");
    CHECK_MSG(read_with(t, &wmb) == WAI_ok, "N = 65536 passes");
    free(t);
    t = tables(65537, 0, "\"afrac\": 10");
    CHECK_MSG(read_with(t, &wmb) == WAI_model_mismatch, "N = 65537 is refused");
    CHECK_MSG(read_with(t, NULL) == WAI_ok, "entropy.json has no N limit (reading N4)");
    free(t);
    /* The afrac read back. */
    t = tables(1, 1, "\"afrac\": 17");
    wai_entropy_set *s = NULL;
    CHECK(wai_entropy_json_parse_rules(NULL, (const uint8_t *)t, strlen(t), &wmb, &s) == WAI_ok &&
          s->afrac == 17 && s->latent[0].n == 2);
    wai_entropy_set_free(NULL, s);
    free(t);
}

static void test_threads_agree(void) {
    uint8_t *first = NULL;
    size_t first_len = 0, len;
    uint8_t *p = corpus_file("neural/mlic/valid/one_slice/image.wim1", &len);
    static const unsigned threads[] = {1, 3};
    for (size_t i = 0; p && i < 2; i++) {
        wai_settings s;
        wai_settings_default(&s);
        s.n_threads = threads[i];
        wai_context *ctx;
        if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) break;
        wai_set *set = corpus_set(ctx, "wai.neural.int_mlicpp", "neural/mlic/valid/one_slice");
        wai_decoder_config c;
        wai_decoder_config_default(&c);
        c.set = set;
        wai_decoder *d = NULL;
        wai_output o;
        if (CHECK(set && wai_decoder_create(ctx, &c, &d) == WAI_ok &&
                  wai_decoder_send(d, p, len, NULL) == WAI_ok &&
                  wai_decoder_receive(d, &o) == WAI_ok && o.kind == WAI_OUTPUT_IMAGE)) {
            if (!first) {
                first = malloc(o.size);
                if (first) memcpy(first, o.data, o.size), first_len = o.size;
            } else {
                CHECK_MSG(o.size == first_len && memcmp(o.data, first, o.size) == 0,
                          "%u threads differ", threads[i]);
            }
        }
        wai_decoder_destroy(d);
        wai_set_destroy(set);
        wai_context_destroy(ctx);
    }
    CHECK(first != NULL);
    free(first), free(p);
}

/* One decode of payload against the bundle: its status, and its picture
 * (malloc'd) when it decodes. plain: the reference kernels, on which the
 * entropy network runs whole before every pass. */
static wai_status decode_with(const uint8_t *wmb, size_t wmb_len, const uint8_t *p, size_t len,
                              int plain, unsigned threads, uint8_t **rgb, size_t *rgb_len) {
    wai_settings st;
    wai_settings_default(&st);
    st.n_threads = threads;
    wai_context *ctx;
    *rgb = NULL, *rgb_len = 0;
    if (wai_context_create(&st, &ctx) != WAI_ok) return WAI_out_of_memory;
    if (plain) ctx->exec.kernels = &wai_kernels_ref;
    wai_set *set = NULL;
    wai_decoder *d = NULL;
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    wai_status e = wai_set_create(ctx, &set);
    if (e == WAI_ok) e = wai_set_add(set, "model.wmb", wmb, wmb_len);
    c.set = set;
    if (e == WAI_ok) e = wai_decoder_create(ctx, &c, &d);
    if (e == WAI_ok) e = wai_decoder_send(d, p, len, NULL);
    wai_output o;
    if (e == WAI_ok && (e = wai_decoder_receive(d, &o)) == WAI_ok && (*rgb = malloc(o.size)))
        memcpy(*rgb, o.data, o.size), *rgb_len = o.size;
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    return e;
}

/* The kept way against the plain one: the same status and bytes. */
static void same_both_ways(const char *what, const uint8_t *wmb, size_t wmb_len, const uint8_t *p,
                           size_t len, const uint8_t *want) {
    uint8_t *a, *b;
    size_t al, bl;
    wai_status sa = decode_with(wmb, wmb_len, p, len, 1, 1, &a, &al);
    wai_status sb = decode_with(wmb, wmb_len, p, len, 0, 3, &b, &bl);
    CHECK_MSG(sa == sb, "%s: whole runs %s, kept %s", what, wai_status_name(sa), wai_status_name(sb));
    CHECK_MSG(al == bl && (!al || memcmp(a, b, al) == 0), "%s: the pictures differ", what);
    if (want) CHECK_MSG(b && memcmp(b, want, bl) == 0, "%s: not the generator's picture", what);
    free(a), free(b);
}

static void test_kept_first_layer(void) {
    /* Every WIM1 fixture of the corpus that reaches the y stream. */
    static const char *const cases[] = {
        "valid/two_slices",  "valid/one_slice",  "valid/latent_1x1",   "valid/t2_two_entries",
        "valid/words_left",  "bad/y_stream_run_out", "bad/h_s_exactness",
        "bad/entropy_exactness_late"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char f[200];
        size_t wl, pl;
        snprintf(f, sizeof f, "neural/mlic/%s/model.wmb", cases[i]);
        uint8_t *w = corpus_file(f, &wl);
        snprintf(f, sizeof f, "neural/mlic/%s/image.wim1", cases[i]);
        uint8_t *p = corpus_file(f, &pl);
        if (CHECK_MSG(w && p, "%s: no fixture", cases[i])) same_both_ways(cases[i], w, wl, p, pl, NULL);
        free(w), free(p);
    }
    /* Seeded shapes: K of 1, 2 and 4, odd sides, a 1 x 1 latent, a first
     * layer of 1 x 1 (the `same` h_s keeps the side; the entropy network's
     * kernels are 3 x 3 either way). */
    static const struct { wim1gen_shape s; uint32_t emid; int same; } shapes[] = {
        {{3, 3, 5, 8, 1}, 12, 0},  {{2, 2, 3, 8, 2}, 16, 0}, {{4, 5, 3, 16, 4}, 24, 0},
        {{2, 7, 9, 4, 4}, 8, 1},   {{2, 1, 1, 4, 2}, 8, 1},
    };
    uint64_t rng = 0x6b657074;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        wim1gen_bundle b;
        wim1gen_make_bundle(&b, 900 + i, &rng, shapes[i].s.cz, shapes[i].s.cy, 6, shapes[i].emid, 1,
                            shapes[i].same);
        wim1gen_buf wmb = wim1gen_bundle_bytes(&b);
        wim1gen_coded c = wim1gen_make_payload(&b, &shapes[i].s, &rng, &wai_kernels_ref);
        char what[64];
        snprintf(what, sizeof what, "seeded shape %zu (y %ux%u, K %u)", i, c.yh, c.yw,
                 shapes[i].s.k);
        same_both_ways(what, wmb.b, wmb.len, c.payload, c.len, c.rgb);
        free(wmb.b), free(c.payload), free(c.rgb);
        wim1gen_bundle_free(&b);
    }
}

void suite_int_mlicpp(void) {
    harness_run("int_mlicpp_tables_rules", test_tables_rules);
    harness_run("int_mlicpp_threads_agree", test_threads_agree);
    harness_run("int_mlicpp_kept_first_layer", test_kept_first_layer);
}
