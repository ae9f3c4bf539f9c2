/* The tools' JSON forms (integer-payloads §10, docs/json-forms.md):
 * every case of tests/corpus/json/index.txt converts to its code, an ok
 * form to its payload's bytes; every valid WIV1 and WIH1 of the corpus
 * exports to a form that converts back byte for byte; export refuses what
 * a parse refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

static void test_fixtures(void) {
    size_t len;
    char *text = (char *)harness_read_file("corpus/json/index.txt", &len);
    if (!CHECK(text != NULL)) return;
    char *copy = malloc(len + 1);
    if (!CHECK(copy)) {
        free(text);
        return;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    free(text);
    text = copy;
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        char cap[64], status[64], form[128], payload[128], rel[200];
        if (!CHECK(sscanf(line, "%63s %63s %127s %127s", cap, status, form, payload) == 4)) continue;
        snprintf(rel, sizeof rel, "corpus/json/%s", form);
        size_t flen, plen = 0;
        uint8_t *f = harness_read_file(rel, &flen), *want = NULL;
        if (strcmp(payload, "-") != 0) {
            snprintf(rel, sizeof rel, "corpus/json/%s", payload);
            want = harness_read_file(rel, &plen);
        }
        uint8_t *got = NULL;
        size_t got_len = 0;
        wai_status st = f ? wai_convert_json(NULL, cap, f, flen, NULL, &got, &got_len)
                          : WAI_invalid_argument;
        CHECK_MSG(strcmp(wai_status_name(st), status) == 0, "%s: %s, want %s", form,
                  wai_status_name(st), status);
        if (st == WAI_ok)
            CHECK_MSG(want && got_len == plen && memcmp(got, want, plen) == 0,
                      "%s: not the bytes of %s", form, payload);
        else
            CHECK_MSG(!got && !got_len, "%s: a refusal gave bytes", form);
        wai_write_free(NULL, got);
        free(f), free(want);
        n++;
    }
    CHECK(n >= 30);
    free(text);
}

/* payload -> form -> payload, byte for byte. */
static int round_trip(const char *cap, const uint8_t *p, size_t len) {
    char *json = NULL;
    size_t jlen = 0;
    uint8_t *back = NULL;
    size_t blen = 0;
    int ok = wai_export_json(NULL, cap, p, len, &json, &jlen) == WAI_ok && json[jlen] == '\0' &&
             wai_convert_json(NULL, cap, (const uint8_t *)json, jlen, NULL, &back, &blen) == WAI_ok &&
             blen == len && memcmp(back, p, len) == 0;
    wai_write_free(NULL, json);
    wai_write_free(NULL, back);
    return ok;
}

static void test_round_trips(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char mode[16], cap[64], status[64], maxc[32], file[512];
        if (sscanf(line, "%15s %63s %63s %31s %511s", mode, cap, status, maxc, file) != 5) continue;
        if (strcmp(status, "ok") != 0 || strchr(file, ',') || !strncmp(file, "json/", 5)) continue;
        if (strcmp(cap, "wai.video.int_motion") && strcmp(cap, "wai.video.int_hyper") &&
            strcmp(cap, "wai.neural.int_hyper"))
            continue;
        size_t len;
        uint8_t *p = corpus_file(file, &len);
        CHECK_MSG(p && round_trip(cap, p, len), "%s (%s): no byte-exact round trip", file, cap);
        free(p);
        n++;
    }
    CHECK_MSG(n >= 10, "only %d payloads", n);
    free(text);
}

static void test_export_refusals(void) {
    size_t len;
    uint8_t *clip = corpus_file("json/clip.wiv1", &len);
    char *json = NULL;
    size_t jlen;
    if (!CHECK(clip)) return;
    CHECK(wai_export_json(NULL, NULL, clip, len - 1, &json, &jlen) == WAI_stream_length && !json);
    CHECK(wai_export_json(NULL, "wai.video.int_hyper", clip, len, &json, &jlen) ==
          WAI_keyframe_capability_mismatch);
    CHECK(wai_export_json(NULL, "wai.audio.int_codec", clip, len, &json, &jlen) ==
          WAI_unsupported_capability);
    CHECK(wai_export_json(NULL, "wai.video.int_motion.frame", clip, len, &json, &jlen) ==
          WAI_unsupported_capability);
    CHECK(wai_export_json(NULL, NULL, (const uint8_t *)"{}", 2, &json, &jlen) == WAI_bad_magic);
    CHECK(wai_convert_json(NULL, "wai.audio.int_codec", (const uint8_t *)"{}", 2, NULL,
                           (uint8_t **)&json, &jlen) == WAI_unsupported_capability);
    wai_convert_options o;
    wai_convert_options_default(&o);
    CHECK(o.model_afrac == -1 && o.sample_rate == 0);
    o.reserved[1] = 1;
    CHECK(wai_convert_json(NULL, "wai.video.int_motion", (const uint8_t *)"{}", 2, &o,
                           (uint8_t **)&json, &jlen) == WAI_invalid_argument);
    /* The exported form is the fixture's text printed by the library: the
     * generator's printer and the library's agree on the payload. */
    CHECK(wai_export_json(NULL, NULL, clip, len, &json, &jlen) == WAI_ok);
    size_t flen;
    uint8_t *fixture = corpus_file("json/clip.json", &flen);
    uint8_t *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    CHECK(fixture && wai_convert_json(NULL, "wai.video.int_motion", fixture, flen, NULL, &a, &al) ==
                         WAI_ok &&
          wai_convert_json(NULL, "wai.video.int_motion", (const uint8_t *)json, jlen, NULL, &b,
                           &bl) == WAI_ok &&
          al == bl && memcmp(a, b, al) == 0);
    wai_write_free(NULL, a), wai_write_free(NULL, b), wai_write_free(NULL, json);
    free(fixture), free(clip);
}

void suite_json_forms(void) {
    harness_run("json_forms_fixtures", test_fixtures);
    harness_run("json_forms_round_trips", test_round_trips);
    harness_run("json_forms_export_refusals", test_export_refusals);
}
