/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: entropy.json (integer-payloads §9; readings N3, N4).
 *
 * Input: the text of an entropy.json.
 *
 * Invariants: a refusal is model_mismatch (out_of_memory never, with libc's
 * allocator and these sizes), and every text the JSON reader refuses is
 * refused; a set that parses keeps §9's rules (N, K >= 1, every table a §2
 * table over its n entries, the same tables as the text's arrays), and the
 * writer's text of it reads back to the very same set. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/json.h"
#include "entropy/cdf.h"
#include "sets/entropy_json.h"
#include "gen/set_write.h"
#include "write/payloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_tables(const wai_entropy_table *a, const wai_entropy_table *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        if (a[i].n != b[i].n || a[i].offset != b[i].offset) __builtin_trap();
        if (memcmp(a[i].cdf, b[i].cdf, 4 * (size_t)a[i].n) != 0) __builtin_trap();
        if (!wai_cdf_valid(a[i].cdf, a[i].n, WAI_CDF_T4097)) __builtin_trap();
    }
}

/* The set's tables against the text's own arrays. */
static void check_against_text(const wai_entropy_set *s, const wai_json_value *root) {
    const wai_json_value *cdfs = wai_json_object_get(root, "cdfs");
    const wai_json_value *z = wai_json_object_get(root, "z_cdfs");
    if (wai_json_array_len(cdfs) != s->n_edges || wai_json_array_len(z) != s->n_z)
        __builtin_trap();
    for (uint32_t b = 0; b < s->n_edges; b++) {
        const wai_json_value *t = wai_json_array_at(cdfs, b);
        for (uint32_t j = 0; j < s->latent[b].n; j++) {
            int32_t v;
            if (!wai_json_get_i32(wai_json_array_at(t, j), &v) || (uint32_t)v != s->latent[b].cdf[j])
                __builtin_trap();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_entropy_set *s;
    wai_status st = wai_entropy_json_parse(NULL, data, size, &s);
    wai_json_doc *doc;
    wai_json_error je = wai_json_parse(NULL, data, size, &doc, NULL);
    if (st != WAI_ok) {
        if (st != WAI_model_mismatch || s) __builtin_trap();
        if (je == WAI_JSON_OK) wai_json_free(doc);
        return 0;
    }
    if (je != WAI_JSON_OK) __builtin_trap();
    if (s->n_edges < 1 || s->n_z < 1) __builtin_trap();
    same_tables(s->latent, s->latent, s->n_edges);
    same_tables(s->hyper, s->hyper, s->n_z);
    check_against_text(s, wai_json_root(doc));
    wai_json_free(doc);

    uint8_t *text;
    size_t len;
    if (wai_entropy_json_write(NULL, s, &text, &len) != WAI_ok) __builtin_trap();
    wai_entropy_set *back;
    if (wai_entropy_json_parse(NULL, text, len, &back) != WAI_ok) __builtin_trap();
    if (back->n_edges != s->n_edges || back->n_z != s->n_z) __builtin_trap();
    if (memcmp(back->scale_edges, s->scale_edges, 8 * (size_t)s->n_edges) != 0 ||
        memcmp(back->z_median_q, s->z_median_q, 8 * (size_t)s->n_z) != 0)
        __builtin_trap();
    same_tables(s->latent, back->latent, s->n_edges);
    same_tables(s->hyper, back->hyper, s->n_z);
    /* The writer is a fixed point: its text of the read-back set is its text. */
    uint8_t *again;
    size_t again_len;
    if (wai_entropy_json_write(NULL, back, &again, &again_len) != WAI_ok || again_len != len ||
        memcmp(again, text, len) != 0)
        __builtin_trap();
    wai_free(NULL, again);
    wai_free(NULL, text);
    wai_entropy_set_free(NULL, back);
    wai_entropy_set_free(NULL, s);
    return 0;
}
