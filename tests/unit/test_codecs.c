/* SPDX-License-Identifier: BSD-2-Clause */
/* The codec table (src/decode/codecs.c) against the corpus and itself:
 * every code a capability's parse can give has a fixture that expects it,
 * every parse fixture's code is one its capability's list names, and each
 * row's parts agree (a decoder's set has a loader and members, the public
 * registry reads the row). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "decode/codec.h"
#include "harness.h"
#include "wai/wai_decode.h"

/* 1 when index holds a case of cap expecting status (any mode). */
static int has_fixture(const char *index, const char *cap, const char *status) {
    char key[160];
    snprintf(key, sizeof key, " %s %s ", cap, status);
    for (const char *p = index; (p = strstr(p, key)) != NULL; p++) {
        const char *line = p;
        while (line > index && line[-1] != '\n') line--;
        if (strncmp(line, "decode ", 7) == 0 || strncmp(line, "parse ", 6) == 0) return 1;
    }
    return 0;
}

static int listed(const wai_status *codes, wai_status s) {
    for (; *codes != WAI_ok; codes++)
        if (*codes == s) return 1;
    return 0;
}

static void test_every_parse_code_has_a_fixture(void) {
    char *index = corpus_index();
    if (!CHECK(index)) return;
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *cap = wai_capability_at(i);
        const wai_codec *c = wai_codec_of(cap);
        if (!CHECK(c && c->parse_codes)) continue;
        for (const wai_status *s = c->parse_codes; *s != WAI_ok; s++) {
            CHECK_MSG(wai_status_kind_of(*s) == WAI_KIND_PAYLOAD, "%s lists %s, not a payload code",
                      cap->name, wai_status_name(*s));
            CHECK_MSG(!listed(s + 1, *s), "%s lists %s twice", cap->name, wai_status_name(*s));
            CHECK_MSG(has_fixture(index, cap->name, wai_status_name(*s)),
                      "no corpus fixture of %s expects %s", cap->name, wai_status_name(*s));
        }
    }
    free(index);
}

/* A parse case's code is ok or one its capability's list names, so the
 * lists miss nothing the corpus shows a parse giving. */
static void test_parse_fixtures_are_listed(void) {
    char *index = corpus_index();
    if (!CHECK(index)) return;
    size_t n = 0;
    for (char *line = strtok(index, "\n"); line; line = strtok(NULL, "\n")) {
        char mode[16], cap[64], status[64];
        if (sscanf(line, "%15s %63s %63s", mode, cap, status) != 3 || strcmp(mode, "parse")) continue;
        wai_status s;
        const wai_codec *c = wai_codec_of(wai_capability_find(cap));
        if (!CHECK_MSG(c && wai_status_from_name(status, &s), "parse case: %s", line)) continue;
        CHECK_MSG(s == WAI_ok || listed(c->parse_codes, s), "%s's parse gives %s, which its row "
                  "does not list", cap, status);
        n++;
    }
    CHECK(n > 100);
    free(index);
}

static void test_rows_agree(void) {
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *cap = wai_capability_at(i);
        const wai_codec *c = wai_codec_of(cap);
        if (!CHECK(c && &c->cap == cap)) continue;
        CHECK(wai_codec_of(wai_capability_find(cap->name)) == c);
        CHECK(wai_capability_has_decoder(cap) == (c->ops != NULL));
        CHECK(wai_capability_output(cap) == c->output && c->output != WAI_OUTPUT_NONE);
        CHECK(wai_payload_max_bytes(cap) == c->max_bytes);
        /* A decoder reads a set exactly when its row names members, and
         * then through its loader. */
        if (c->ops) CHECK_MSG((c->load_set != NULL) == (cap->set_members[0] != NULL), "%s", cap->name);
        /* Integer networks run in the codec's own run; a latent's, on a
         * backend, after the codec's entropy stage (which frees on release). */
        if (c->ops)
            CHECK_MSG(c->ops->parse && c->ops->prepare && c->ops->describe &&
                          (c->networks == WAI_NETWORKS_INTEGER
                               ? c->ops->run && !c->ops->latent
                               : c->ops->latent && c->ops->release && !c->ops->run),
                      "%s", cap->name);
        if (c->ops && c->ops->stream_bytes) CHECK(c->ops->stream_close != NULL);
    }
    CHECK(wai_codec_of(NULL) == NULL);
}

/* The API's one rule for text into a caller's buffer (include/wai/wai.h),
 * in the header's JSON: the whole length always; a buffer too small is
 * invalid_argument and an empty string; one that fits, the text and a NUL. */
static void test_header_json_rule(void) {
    size_t len = 0;
    uint8_t *p = corpus_file("neural/hyper/image0.wih1", &len);
    const wai_capability *cap = wai_capability_find("wai.neural.int_hyper");
    if (!CHECK(p && cap)) {
        free(p);
        return;
    }
    size_t need = 0;
    CHECK(wai_payload_header_json(cap, p, len, NULL, 0, &need) == WAI_invalid_argument && need > 10);
    char small[8] = "xxxxxxx", *whole = malloc(need + 1);
    size_t n = 0;
    CHECK(wai_payload_header_json(cap, p, len, small, sizeof small, &n) == WAI_invalid_argument &&
          n == need && small[0] == '\0');
    CHECK(whole && wai_payload_header_json(cap, p, len, whole, need, &n) == WAI_invalid_argument &&
          whole[0] == '\0');
    CHECK(whole && wai_payload_header_json(cap, p, len, whole, need + 1, &n) == WAI_ok &&
          n == need && strlen(whole) == need && whole[0] == '{');
    /* A refusal of the parse is its code, with nothing written. */
    CHECK(wai_payload_header_json(cap, p, 10, small, sizeof small, &n) != WAI_ok &&
          n == 0 && small[0] == '\0');
    free(whole);
    free(p);
}

void suite_codecs(void) {
    harness_run("codecs_header_json_rule", test_header_json_rule);
    harness_run("codecs_every_parse_code_has_a_fixture", test_every_parse_code_has_a_fixture);
    harness_run("codecs_parse_fixtures_are_listed", test_parse_fixtures_are_listed);
    harness_run("codecs_rows_agree", test_rows_agree);
}
