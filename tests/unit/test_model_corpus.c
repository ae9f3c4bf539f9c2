/* SPDX-License-Identifier: BSD-2-Clause */
/* The network fixtures (tests/corpus/models/index.txt, written by
 * tests/corpus/gen_models.c): each file parsed, planned and run as its line
 * says, through the reference kernels and the fast ones, which must both
 * give the line's status and output hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "formats/whm1.h"
#include "harness.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "wai/wai_hash.h"

typedef struct model_case {
    char form[8], file[128], shape[64], input[128], status[64], hash[72];
} model_case;

static void hash_i64(const int64_t *v, uint64_t n, char hex[65]) {
    wai_sha256 h;
    wai_sha256_init(&h);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t b[8];
        wai_store_u64le(b, (uint64_t)v[i]);
        wai_sha256_update(&h, b, 8);
    }
    uint8_t d[32];
    wai_sha256_final(&h, d);
    wai_hex(d, 32, hex);
}

/* Runs the planned network on the case's input with kernel set k. */
static wai_status run_with(const wai_kernels *k, const wai_model *m, const wai_plan *p,
                           const int64_t *in, char hex[65]) {
    wai_sums s;
    strcpy(hex, "-");
    if (wai_sums_compute(NULL, m, &s) != WAI_ok) return WAI_out_of_memory;
    int64_t *out = malloc(sizeof *out * (size_t)(p->out_elems ? p->out_elems : 1));
    wai_status st = out ? wai_network_run(NULL, k, m, &s, p, in, out) : WAI_out_of_memory;
    if (st == WAI_ok) hash_i64(out, p->out_elems, hex);
    free(out);
    wai_sums_free(NULL, &s);
    return st;
}

static int64_t *read_input(const model_case *c, size_t n) {
    char rel[200];
    snprintf(rel, sizeof rel, "corpus/models/%s", c->input);
    size_t len = 0;
    uint8_t *b = harness_read_file(rel, &len);
    if (!CHECK_MSG(b && len == 8 * n, "%s: input missing or of the wrong size", c->input)) {
        free(b);
        return NULL;
    }
    int64_t *x = malloc(sizeof *x * n);
    for (size_t i = 0; x && i < n; i++) x[i] = wai_i64_from_u64(wai_load_u64le(b + 8 * i));
    free(b);
    return x;
}

/* The case's answer through kernel set k: parse, plan, then run. */
static wai_status answer(const model_case *c, const wai_kernels *k, char hex[65]) {
    char rel[200];
    snprintf(rel, sizeof rel, "corpus/models/%s", c->file);
    size_t len = 0;
    uint8_t *bytes = harness_read_file(rel, &len);
    strcpy(hex, "-");
    if (!bytes) return WAI_io_error;
    wai_model m;
    wai_status st = wai_model_parse(NULL, bytes, len, strcmp(c->form, "wam1") == 0 ? 1 : 2, &m);
    free(bytes);
    unsigned ch, h, w;
    if (st != WAI_ok || strcmp(c->shape, "-") == 0) goto out;
    if (sscanf(c->shape, "%u,%u,%u", &ch, &h, &w) != 3) {
        st = WAI_invalid_argument;
        goto out;
    }
    wai_plan p;
    st = wai_plan_model(NULL, &m, ch, h, w, &p);
    if (st == WAI_ok && strcmp(c->input, "-") != 0) {
        int64_t *x = read_input(c, (size_t)ch * h * w);
        st = x ? run_with(k, &m, &p, x, hex) : WAI_io_error;
        free(x);
    }
    wai_plan_free(NULL, &p);
out:
    wai_model_free(NULL, &m);
    return st;
}

static void test_model_corpus(void) {
    size_t len;
    char *text = (char *)harness_read_file("corpus/models/index.txt", &len);
    if (!CHECK_MSG(text != NULL, "tests/corpus/models/index.txt missing")) return;
    text = realloc(text, len + 1);
    text[len] = '\0';
    int n_cases = 0, seen_ok = 0, seen_mm = 0, seen_tl = 0, seen_fr = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        model_case c;
        if (!CHECK_MSG(sscanf(line, "%7s %127s %63s %127s %63s %71s", c.form, c.file, c.shape,
                              c.input, c.status, c.hash) == 6,
                       "bad index line: %.80s", line))
            continue;
        n_cases++;
        const wai_kernels *sets[2] = {&wai_kernels_ref, &wai_kernels_fast};
        for (int k = 0; k < 2; k++) {
            char hex[65];
            wai_status st = answer(&c, sets[k], hex);
            CHECK_MSG(strcmp(wai_status_name(st), c.status) == 0, "%s (%s kernels): %s, want %s",
                      c.file, k ? "fast" : "reference", wai_status_name(st), c.status);
            CHECK_MSG(strcmp(hex, c.hash) == 0, "%s (%s kernels): output hash differs", c.file,
                      k ? "fast" : "reference");
        }
        seen_ok |= strcmp(c.status, "ok") == 0 && strcmp(c.hash, "-") != 0;
        seen_mm |= strcmp(c.status, "model_mismatch") == 0;
        seen_tl |= strcmp(c.status, "too_large") == 0;
        seen_fr |= strcmp(c.status, "field_range") == 0;
    }
    CHECK(n_cases >= 60);
    CHECK(seen_ok && seen_mm && seen_tl && seen_fr);
    free(text);
}

void suite_model_corpus(void) { harness_run("model_corpus/fixtures", test_model_corpus); }
