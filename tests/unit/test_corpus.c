/* SPDX-License-Identifier: BSD-2-Clause */
/* The conformance corpus (tests/corpus/index.txt, written by
 * tests/corpus/generate.c): every case through the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

#define MAX_FIELD 8192

typedef struct corpus_case {
    char mode[16], capability[64], status[64], max_cost[32];
    char files[MAX_FIELD], hashes[MAX_FIELD];
    char set[256];   /* the parameter set's directory, or "-" */
    char offer[256]; /* the dispatch offer (`wai decode --offer`'s list), or "-" */
} corpus_case;

/* Runs one case; returns the status and writes the outputs' hashes. */
static wai_status run_decode(const corpus_case *c, char *hashes, size_t cap) {
    wai_context *ctx;
    wai_decoder *dec;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = c->capability;
    if (strcmp(c->max_cost, "-") != 0) cfg.max_cost = strtoull(c->max_cost, NULL, 10);
    wai_dispatch_options dispatch;
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
    wai_dispatch_options_default(&dispatch);
    if (strcmp(c->offer, "-") != 0) {
        if (wai_dispatch_parse_offer(c->offer, paths, WAI_DISPATCH_MAX_PATHS,
                                     &dispatch.offer.n) != WAI_ok)
            return WAI_invalid_argument;
        dispatch.offer.paths = paths;
        cfg.dispatch = &dispatch;
    }
    if (wai_context_create(NULL, &ctx) != WAI_ok) return WAI_out_of_memory;
    wai_set *set = corpus_set(ctx, c->capability, c->set);
    cfg.set = set;
    wai_status st = wai_decoder_create(ctx, &cfg, &dec);
    size_t at = 0;
    hashes[0] = '\0';
    char files[MAX_FIELD];
    snprintf(files, sizeof files, "%s", c->files);
    for (char *f = strtok(files, ","); f && st == WAI_ok; f = strtok(NULL, ",")) {
        char rel[MAX_FIELD + 16];
        snprintf(rel, sizeof rel, "corpus/%s", f);
        size_t len = 0;
        uint8_t *data = harness_read_file(rel, &len);
        if (!data) {
            st = WAI_io_error;
            break;
        }
        st = wai_decoder_send(dec, data, len, NULL);
        wai_output o;
        while (st == WAI_ok && wai_decoder_receive(dec, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
            uint8_t d[32];
            char hex[65];
            wai_sha256_oneshot(o.data, o.size, d);
            wai_hex(d, 32, hex);
            at += (size_t)snprintf(hashes + at, cap - at, "%s%s", at ? "," : "", hex);
        }
        free(data);
    }
    if (at == 0) snprintf(hashes, cap, "-");
    wai_decoder_destroy(dec);
    wai_set_destroy(set);
    wai_context_destroy(ctx);
    return st;
}

static wai_status run_parse(const corpus_case *c) {
    char rel[MAX_FIELD + 16];
    snprintf(rel, sizeof rel, "corpus/%s", c->files);
    size_t len = 0;
    uint8_t *data = harness_read_file(rel, &len);
    if (!data) return WAI_io_error;
    wai_checked checked;
    wai_status st = wai_check_payload(wai_capability_find(c->capability), data, len, &checked);
    free(data);
    return st;
}

static void test_corpus(void) {
    size_t len;
    char *text = (char *)harness_read_file("corpus/index.txt", &len);
    if (!CHECK_MSG(text != NULL, "tests/corpus/index.txt missing")) return;
    text = realloc(text, len + 1);
    text[len] = '\0';
    int n_cases = 0, codes_seen[128] = {0};
    static char got[MAX_FIELD];
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        static corpus_case c;
        strcpy(c.set, "-");
        strcpy(c.offer, "-");
        int fields = sscanf(line, "%15s %63s %63s %31s %8191s %8191s %255s %255s", c.mode,
                            c.capability, c.status, c.max_cost, c.files, c.hashes, c.set, c.offer);
        if (!CHECK_MSG(fields >= 6 && fields <= 8, "bad index line: %.80s", line)) continue;
        n_cases++;
        wai_status st = strcmp(c.mode, "parse") == 0 ? run_parse(&c)
                                                      : run_decode(&c, got, sizeof got);
        CHECK_MSG(strcmp(wai_status_name(st), c.status) == 0, "%s %s: got %s, want %s", c.mode,
                  c.files, wai_status_name(st), c.status);
        if (strcmp(c.mode, "decode") == 0)
            CHECK_MSG(strcmp(got, c.hashes) == 0, "%s: outputs differ", c.files);
        wai_status code;
        if (wai_status_from_name(c.status, &code) && code < 128) codes_seen[code] = 1;
    }
    CHECK(n_cases > 100);
    /* Every code a WIV1/WIF1 parse or a keyframe-0 decode can give has a
     * case, and not_dispatchable (the OFFER column's). */
    static const wai_status needed[] = {
        WAI_bad_magic, WAI_format_capability_mismatch, WAI_keyframe_capability_mismatch,
        WAI_version, WAI_reserved_nonzero, WAI_field_range, WAI_too_large, WAI_cdf_malformed,
        WAI_stream_length, WAI_nested_length, WAI_trailing, WAI_stream_exhausted,
        WAI_stream_noncanonical, WAI_geometry_mismatch, WAI_cost_over_limit,
        WAI_unsupported_capability, WAI_not_dispatchable};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        CHECK_MSG(codes_seen[needed[i]], "no fixture expects %s", wai_status_name(needed[i]));
    free(text);
}

void suite_corpus(void) {
    harness_run("corpus/motion", test_corpus);
}
