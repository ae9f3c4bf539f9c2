/* SPDX-License-Identifier: BSD-2-Clause */
/* The entropy.json writer (integer-payloads §9): a set's tables as the
 * text sets/entropy_json.c reads, read back before it is handed out. */
#include "gen/set_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "entropy/cdf.h"
#include "sets/entropy_json.h"
#include "write/payloads.h"

/* Text goes to b when it is not NULL; at counts the bytes either way, so a
 * first pass sizes the buffer and a second fills it. */
typedef struct sink {
    uint8_t *b;
    uint64_t at;
} sink;

static void put(sink *k, const char *s) {
    size_t n = strlen(s);
    if (k->b) memcpy(k->b + k->at, s, n);
    k->at += n;
}

static void put_i64(sink *k, int64_t v) {
    char digits[24];
    int n = 0;
    /* The magnitude as u64, so INT64_MIN needs no special case. */
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (v < 0) digits[n++] = '-';
    if (k->b)
        for (int i = 0; i < n; i++) k->b[k->at + (uint64_t)i] = (uint8_t)digits[n - 1 - i];
    k->at += (uint64_t)n;
}

typedef enum table_part { PART_CDF, PART_LENGTH, PART_OFFSET } table_part;

static void put_tables(sink *k, const char *name, const wai_entropy_table *t, uint32_t count,
                       table_part part) {
    put(k, "\"");
    put(k, name);
    put(k, "\": [");
    for (uint32_t i = 0; i < count; i++) {
        if (i) put(k, part == PART_CDF ? ",\n  " : ", ");
        if (part == PART_LENGTH) {
            put_i64(k, t[i].n);
        } else if (part == PART_OFFSET) {
            put_i64(k, t[i].offset);
        } else {
            put(k, "[");
            for (uint32_t j = 0; j < t[i].n; j++) {
                if (j) put(k, ", ");
                put_i64(k, t[i].cdf[j]);
            }
            put(k, "]");
        }
    }
    put(k, "]");
}

static void put_i64s(sink *k, const char *name, const int64_t *v, uint32_t count) {
    put(k, "\"");
    put(k, name);
    put(k, "\": [");
    for (uint32_t i = 0; i < count; i++) {
        if (i) put(k, ", ");
        put_i64(k, v[i]);
    }
    put(k, "]");
}

static void put_set(sink *k, const wai_entropy_set *s) {
    put(k, "{");
    put_i64s(k, "scale_edges", s->scale_edges, s->n_edges);
    put(k, ",\n");
    /* The latent's tables, then the hyper-latent's: each part in turn. */
    static const char *const names[2][3] = {{"cdfs", "cdf_lengths", "offsets"},
                                            {"z_cdfs", "z_cdf_lengths", "z_offsets"}};
    for (int z = 0; z < 2; z++)
        for (int part = PART_CDF; part <= PART_OFFSET; part++) {
            put_tables(k, names[z][part], z ? s->hyper : s->latent, z ? s->n_z : s->n_edges,
                       (table_part)part);
            put(k, ",\n");
        }
    put_i64s(k, "z_median_q", s->z_median_q, s->n_z);
    put(k, "}\n");
}

/* The rules the text's reader would apply to what the writer can see, so a
 * table of a bad length is never read past its end. */
static int tables_valid(const wai_entropy_table *t, uint32_t count) {
    for (uint32_t i = 0; i < count; i++)
        if (!t[i].cdf || !wai_cdf_valid(t[i].cdf, t[i].n, WAI_CDF_T4097)) return 0;
    return 1;
}

wai_status wai_entropy_json_write(const wai_allocator *a, const wai_entropy_set *s,
                                  uint8_t **out, size_t *out_len) {
    if (!out || !out_len || !s) return WAI_invalid_argument;
    *out = NULL;
    *out_len = 0;
    if (s->n_edges < 1 || s->n_z < 1 || !tables_valid(s->latent, s->n_edges) ||
        !tables_valid(s->hyper, s->n_z))
        return WAI_model_mismatch;
    sink k = {NULL, 0};
    put_set(&k, s);
    if (!wai_fits_size(k.at)) return WAI_out_of_memory;
    uint8_t *b = wai_alloc(a, (size_t)k.at);
    if (!b) return WAI_out_of_memory;
    size_t len = (size_t)k.at;
    k.b = b;
    k.at = 0;
    put_set(&k, s);
    wai_entropy_set *back;
    wai_status st = wai_entropy_json_parse(a, b, len, &back);
    wai_entropy_set_free(a, back);
    return wai_written(a, b, len, st, out, out_len);
}
