/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.video.int_cond and .frame (docs/int_cond.md) beyond the corpus: a
 * clip's split and join (§17.2) byte for byte and their refusals, the clip
 * and its split group decoding to the same frames, and the decode the same
 * on 1 and 3 threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"
#include "wai/wai_write.h"

#define SIX "neural/cond/valid/six_frames"

/* Decodes payloads[0..n) through one decoder of cap on n_threads; returns
 * every frame's bytes, concatenated (malloc), and their count. */
static uint8_t *decode_all(const char *cap, const wai_payload *payloads, uint32_t n,
                           unsigned n_threads, size_t *len, uint32_t *frames) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = n_threads;
    wai_context *ctx = NULL;
    wai_set *set = NULL;
    wai_decoder *d = NULL;
    uint8_t *all = NULL;
    *len = 0;
    *frames = 0;
    if (wai_context_create(&s, &ctx) != WAI_ok) return NULL;
    set = corpus_set(ctx, cap, SIX);
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.capability = cap;
    c.set = set;
    int ok = set && wai_decoder_create(ctx, &c, &d) == WAI_ok;
    for (uint32_t i = 0; ok && i < n; i++) {
        ok = wai_decoder_send(d, payloads[i].data, payloads[i].len, NULL) == WAI_ok;
        wai_output o;
        while (ok && (ok = wai_decoder_receive(d, &o) == WAI_ok) && o.kind != WAI_OUTPUT_NONE) {
            uint8_t *grown = realloc(all, *len + o.size);
            if (!(ok = grown != NULL)) break;
            memcpy(grown + *len, o.data, o.size);
            all = grown;
            *len += o.size;
            ++*frames;
        }
    }
    wai_decoder_destroy(d);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    if (!ok) {
        free(all);
        return NULL;
    }
    return all;
}

static void test_split_join(void) {
    size_t len;
    uint8_t *clip = corpus_file(SIX "/clip.wic1", &len);
    wai_payload *fr = NULL;
    uint32_t n = 0;
    if (!CHECK(clip && wai_wic1_split(NULL, clip, len, &fr, &n) == WAI_ok && n == 6)) goto out;
    for (uint32_t i = 0; i < n; i++) {
        char name[128];
        size_t flen;
        snprintf(name, sizeof name, SIX "/f%03u.wcf1", i);
        uint8_t *want = corpus_file(name, &flen);
        CHECK_MSG(want && flen == fr[i].len && memcmp(want, fr[i].data, flen) == 0,
                  "frame %u is not the corpus's %s", i, name);
        free(want);
    }
    uint8_t *joined = NULL;
    size_t jlen = 0;
    CHECK(wai_wcf1_join(NULL, fr, n, &joined, &jlen) == WAI_ok && jlen == len &&
          memcmp(joined, clip, len) == 0);
    wai_write_free(NULL, joined);
    /* The join's refusals: the parse's codes of the clip it would write. */
    CHECK(wai_wcf1_join(NULL, fr, 0, &joined, &jlen) == WAI_field_range && !joined);
    CHECK(wai_wcf1_join(NULL, fr + 1, 2, &joined, &jlen) == WAI_field_range);   /* inter first */
    wai_payload two_intra[2] = {fr[0], fr[0]};
    CHECK(wai_wcf1_join(NULL, two_intra, 2, &joined, &jlen) == WAI_field_range);
    size_t olen;
    uint8_t *other = corpus_file("neural/cond/valid/size_8x12/clip.wic1", &olen);
    wai_payload *ofr = NULL;
    uint32_t on = 0;
    if (CHECK(other && wai_wic1_split(NULL, other, olen, &ofr, &on) == WAI_ok && on == 2)) {
        wai_payload mixed[2] = {fr[0], ofr[1]};
        CHECK_MSG(wai_wcf1_join(NULL, mixed, 2, &joined, &jlen) == WAI_geometry_mismatch,
                  "another header");
    }
    wai_payloads_free(NULL, ofr, on);
    free(other);
    wai_payload cut = {fr[1].data, fr[1].len - 1};
    wai_payload with_cut[2] = {fr[0], cut};
    CHECK(wai_wcf1_join(NULL, with_cut, 2, &joined, &jlen) == WAI_stream_length);
    CHECK(wai_wcf1_join(NULL, fr, (1u << 20) + 1, &joined, &jlen) == WAI_too_large);
    /* The split's: the clip's parse codes, and nothing allocated. */
    wai_payload *none = NULL;
    uint32_t nn = 7;
    CHECK(wai_wic1_split(NULL, clip, len - 1, &none, &nn) == WAI_stream_length && !none && !nn);
    clip[5] = 1;
    CHECK(wai_wic1_split(NULL, clip, len, &none, &nn) == WAI_reserved_nonzero && !none);
out:
    wai_payloads_free(NULL, fr, n);
    free(clip);
}

/* The clip, and its split frames as one group of the frame form, decode to
 * the same frames (§17.2), on 1 and 3 threads alike. */
static void test_clip_is_its_group(void) {
    size_t len;
    uint8_t *clip = corpus_file(SIX "/clip.wic1", &len);
    wai_payload *fr = NULL;
    uint32_t n = 0;
    if (!CHECK(clip && wai_wic1_split(NULL, clip, len, &fr, &n) == WAI_ok)) goto out;
    wai_payload whole = {clip, len};
    static const unsigned threads[] = {1, 3};
    uint8_t *first = NULL;
    size_t first_len = 0;
    for (size_t t = 0; t < 2; t++) {
        size_t a_len, b_len;
        uint32_t a_n, b_n;
        uint8_t *a = decode_all("wai.video.int_cond", &whole, 1, threads[t], &a_len, &a_n);
        uint8_t *b = decode_all("wai.video.int_cond.frame", fr, n, threads[t], &b_len, &b_n);
        CHECK_MSG(a && b && a_n == 6 && b_n == 6 && a_len == b_len && memcmp(a, b, a_len) == 0,
                  "%u threads: the clip and its group differ", threads[t]);
        if (!first) {
            first = a, first_len = a_len, a = NULL;
        } else {
            CHECK_MSG(a && a_len == first_len && memcmp(a, first, a_len) == 0,
                      "%u threads differ from 1", threads[t]);
        }
        free(a), free(b);
    }
    free(first);
out:
    wai_payloads_free(NULL, fr, n);
    free(clip);
}

void suite_int_cond(void) {
    harness_run("int_cond_split_join", test_split_join);
    harness_run("int_cond_clip_is_its_group", test_clip_is_its_group);
}
