/* SPDX-License-Identifier: BSD-2-Clause */
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
#include "formats/whm1.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"
#include "gen/set_write.h"
#include "write/payloads.h"

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
        char cap[64], status[64], form[128], payload[128], audio[128], model[128], rel[200];
        if (!CHECK(sscanf(line, "%63s %63s %127s %127s %127s %127s", cap, status, form, payload,
                          audio, model) == 6))
            continue;
        /* audio.json and the set's network, where the case gives them */
        size_t alen = 0, mlen = 0;
        uint8_t *aj = NULL, *mb = NULL;
        if (strcmp(audio, "-") != 0) {
            snprintf(rel, sizeof rel, "corpus/%s", audio);
            CHECK_MSG((aj = harness_read_file(rel, &alen)) != NULL, "%s", rel);
        }
        if (strcmp(model, "-") != 0) {
            snprintf(rel, sizeof rel, "corpus/%s", model);
            CHECK_MSG((mb = harness_read_file(rel, &mlen)) != NULL, "%s", rel);
        }
        wai_convert_options o;
        wai_convert_options_default(&o);
        o.audio_json = aj, o.audio_json_len = alen, o.model = mb, o.model_len = mlen;
        snprintf(rel, sizeof rel, "corpus/json/%s", form);
        size_t flen, plen = 0;
        uint8_t *f = harness_read_file(rel, &flen), *want = NULL;
        if (strcmp(payload, "-") != 0) {
            snprintf(rel, sizeof rel, "corpus/json/%s", payload);
            want = harness_read_file(rel, &plen);
        }
        uint8_t *got = NULL;
        size_t got_len = 0;
        wai_status st = f ? wai_convert_json(NULL, cap, f, flen, &o, &got, &got_len)
                          : WAI_invalid_argument;
        CHECK_MSG(strcmp(wai_status_name(st), status) == 0, "%s: %s, want %s", form,
                  wai_status_name(st), status);
        if (st == WAI_ok)
            CHECK_MSG(want && got_len == plen && memcmp(got, want, plen) == 0,
                      "%s: not the bytes of %s", form, payload);
        else
            CHECK_MSG(!got && !got_len, "%s: a refusal gave bytes", form);
        wai_write_free(NULL, got);
        free(f), free(want), free(aj), free(mb);
        n++;
    }
    CHECK(n >= 60);
    free(text);
}

/* payload -> form -> payload, byte for byte (o: audio.json and the model,
 * for WIA1 and WIS1). */
static int round_trip(const char *cap, const uint8_t *p, size_t len, const wai_convert_options *o) {
    char *json = NULL;
    size_t jlen = 0;
    uint8_t *back = NULL;
    size_t blen = 0;
    int ok = wai_export_json(NULL, cap, p, len, &json, &jlen) == WAI_ok && json[jlen] == '\0' &&
             wai_convert_json(NULL, cap, (const uint8_t *)json, jlen, o, &back, &blen) == WAI_ok &&
             blen == len && memcmp(back, p, len) == 0;
    wai_write_free(NULL, json);
    wai_write_free(NULL, back);
    return ok;
}

static void test_round_trips(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    int n = 0;
    int n_audio = 0, n_splat = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char mode[16], cap[64], status[64], maxc[32], file[512], hash[1024], set[256] = "-";
        if (sscanf(line, "%15s %63s %63s %31s %511s %1023s %255s", mode, cap, status, maxc, file,
                   hash, set) < 5)
            continue;
        if (strcmp(status, "ok") != 0 || strchr(file, ',') || !strncmp(file, "json/", 5)) continue;
        const int audio = !strcmp(cap, "wai.audio.int_codec"), splat = !strcmp(cap, "wai.splat.int_codec");
        if (strcmp(cap, "wai.video.int_motion") && strcmp(cap, "wai.video.int_hyper") &&
            strcmp(cap, "wai.neural.int_hyper") && !audio && !splat)
            continue;
        size_t len, mlen = 0;
        uint8_t *p = corpus_file(file, &len), *model = NULL;
        wai_convert_options o;
        wai_convert_options_default(&o);
        char audio_json[64], rel[300];
        if (p && (audio || splat) && len >= 12) {
            /* audio.json from the payload's sr; the set's network */
            snprintf(audio_json, sizeof audio_json, "{\"sample_rate\": %u}",
                     (unsigned)(p[8] | p[9] << 8 | p[10] << 16 | (unsigned)p[11] << 24));
            o.audio_json = (const uint8_t *)audio_json, o.audio_json_len = strlen(audio_json);
            snprintf(rel, sizeof rel, "%s/%s", set, audio ? "model.wam" : "g_s.whm");
            if (strcmp(set, "-") != 0) {
                model = corpus_file(rel, &mlen);
            } else {
                /* A parse case has no set: set0's network at the payload's afrac. */
                snprintf(rel, sizeof rel, "neural/%s/set0/%s", audio ? "audio" : "splat",
                         audio ? "model.wam" : "g_s.whm");
                uint8_t *base = corpus_file(rel, &mlen);
                wai_model m;
                if (base && wai_model_parse(NULL, base, mlen, audio ? 1 : 2, &m) == WAI_ok) {
                    m.afrac = p[5];
                    if (wai_model_write(NULL, &m, &model, &mlen) != WAI_ok) model = NULL;
                    wai_model_free(NULL, &m);
                }
                free(base);
            }
            o.model = model, o.model_len = mlen;
            n_audio += audio, n_splat += splat;
        }
        CHECK_MSG(p && round_trip(cap, p, len, &o), "%s (%s): no byte-exact round trip", file, cap);
        free(p), free(model);
        n++;
    }
    CHECK_MSG(n >= 10 && n_audio >= 2 && n_splat >= 2, "only %d payloads (%d WIA1, %d WIS1)", n,
              n_audio, n_splat);
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
    CHECK(wai_export_json(NULL, "wai.video.int_cond", clip, len, &json, &jlen) ==
          WAI_unsupported_capability);
    CHECK(wai_export_json(NULL, "wai.audio.int_codec", clip, len, &json, &jlen) ==
          WAI_format_capability_mismatch);
    CHECK(wai_export_json(NULL, "wai.video.int_motion.frame", clip, len, &json, &jlen) ==
          WAI_unsupported_capability);
    CHECK(wai_export_json(NULL, NULL, (const uint8_t *)"{}", 2, &json, &jlen) == WAI_bad_magic);
    CHECK(wai_convert_json(NULL, "wai.neural.int_synth", (const uint8_t *)"{}", 2, NULL,
                           (uint8_t **)&json, &jlen) == WAI_unsupported_capability);
    wai_convert_options o;
    wai_convert_options_default(&o);
    CHECK(!o.audio_json && !o.model && !o.audio_json_len && !o.model_len);
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
