/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_mlicpp (docs/int_mlicpp.md) beyond its corpus fixtures:
 * WMB1's tables read by §14's rules (an integer afrac, 1 <= N <= 65536,
 * E1's t2 table rule in place of §2's), which entropy.json's reading does
 * not take, and the decode the same on 1 and 3 threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
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

void suite_int_mlicpp(void) {
    harness_run("int_mlicpp_tables_rules", test_tables_rules);
    harness_run("int_mlicpp_threads_agree", test_threads_agree);
}
