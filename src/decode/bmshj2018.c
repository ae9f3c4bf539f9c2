/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.bmshj2018 (neural-dispatch §6; docs/bmshj2018.md): a B18F
 * payload against its set. The entropy stage (§6.3) is integer and table
 * reads only, here: the symbols of each channel against its table, their
 * digest. The synthesis is the set's program on the floating-point backend of the
 * path the dispatch chose (include/wai/wai_backend.h): its job is the
 * latent's shape and offsets (the channels' medians), the symbols and the
 * picture wanted. */
#include "decode/bmshj2018.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/json.h"
#include "entropy/rans.h"
#include "formats/b18f.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"


/* ---- the set: cdfs_q3.json ------------------------------------------------------ */

typedef struct tables {
    uint32_t m;
    uint32_t *cdf;          /* every channel's entries, one after another */
    wai_cdf_table *lookup;  /* [m] */
    int32_t *offsets;       /* [m] */
    uint32_t *median_bits;  /* [m] binary32 patterns */
    uint64_t macs_per_position, working_per_position;
} tables;

static void tables_free(const wai_allocator *a, void *p) {
    tables *t = p;
    for (uint32_t c = 0; t->lookup && c < t->m; c++) wai_cdf_table_free(&t->lookup[c], a);
    wai_free(a, t->lookup), wai_free(a, t->cdf), wai_free(a, t->offsets);
    wai_free(a, t->median_bits), wai_free(a, t);
}

static int u64_member(const wai_json_value *o, const char *key, uint64_t *out) {
    return wai_json_get_u64(wai_json_object_get(o, key), out);
}

/* Every rule of docs/bmshj2018.md (B2) on the text; model_mismatch for
 * any that fails. */
static wai_status read_tables(const wai_allocator *a, const wai_json_value *root, tables *t) {
    static const char *const keys[] = {"kind",    "channels", "cdfs", "offsets", "medians",
                                       "macs_per_position", "working_bytes_per_position", NULL};
    if (wai_json_type_of(root) != WAI_JSON_OBJECT) return WAI_model_mismatch;
    for (size_t i = 0; i < wai_json_object_len(root); i++) {
        const char *k;
        wai_json_object_value_at(root, i, &k, NULL);
        size_t j = 0;
        while (keys[j] && strcmp(keys[j], k) != 0) j++;
        if (!keys[j]) return WAI_model_mismatch;
    }
    const wai_json_value *kind = wai_json_object_get(root, "kind");
    if (!kind || wai_json_type_of(kind) != WAI_JSON_STRING ||
        strcmp(wai_json_string(kind, NULL), "wai-bmshj2018-tables/1") != 0)
        return WAI_model_mismatch;
    uint64_t m;
    if (!u64_member(root, "channels", &m) || m < 1 || m > 65536 ||
        !u64_member(root, "macs_per_position", &t->macs_per_position) ||
        !u64_member(root, "working_bytes_per_position", &t->working_per_position))
        return WAI_model_mismatch;
    const wai_json_value *cdfs = wai_json_object_get(root, "cdfs"),
                         *offs = wai_json_object_get(root, "offsets"),
                         *meds = wai_json_object_get(root, "medians");
    if (!cdfs || !offs || !meds || wai_json_array_len(cdfs) != m || wai_json_array_len(offs) != m ||
        wai_json_array_len(meds) != m || wai_json_type_of(cdfs) != WAI_JSON_ARRAY ||
        wai_json_type_of(offs) != WAI_JSON_ARRAY || wai_json_type_of(meds) != WAI_JSON_ARRAY)
        return WAI_model_mismatch;
    t->m = (uint32_t)m;
    uint64_t total = 0;
    for (uint32_t c = 0; c < t->m; c++) {
        const wai_json_value *row = wai_json_array_at(cdfs, c);
        size_t n = wai_json_array_len(row);
        if (wai_json_type_of(row) != WAI_JSON_ARRAY || n < 3 || n > WAI_CDF_MAX_LEN_T4097)
            return WAI_model_mismatch;
        total += n;
    }
    t->cdf = wai_alloc_array(a, (size_t)total, sizeof *t->cdf);
    t->lookup = wai_alloc_zeroed(a, t->m, sizeof *t->lookup);
    t->offsets = wai_alloc_array(a, t->m, sizeof *t->offsets);
    t->median_bits = wai_alloc_array(a, t->m, sizeof *t->median_bits);
    if (!t->cdf || !t->lookup || !t->offsets || !t->median_bits) return WAI_out_of_memory;
    uint32_t *at = t->cdf;
    for (uint32_t c = 0; c < t->m; c++) {
        const wai_json_value *row = wai_json_array_at(cdfs, c);
        uint32_t n = (uint32_t)wai_json_array_len(row);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t v;
            if (!wai_json_get_u64(wai_json_array_at(row, i), &v) || v > WAI_CDF_TOTAL)
                return WAI_model_mismatch;
            at[i] = (uint32_t)v;
        }
        if (!wai_cdf_valid(at, n, WAI_CDF_T4097)) return WAI_model_mismatch;
        int64_t o;
        uint64_t bits;
        if (!wai_json_get_i64(wai_json_array_at(offs, c), &o) || o < INT32_MIN || o > INT32_MAX ||
            !wai_json_get_u64(wai_json_array_at(meds, c), &bits) || bits > UINT32_MAX ||
            (bits & 0x7F800000u) == 0x7F800000u) /* a median is finite */
            return WAI_model_mismatch;
        t->offsets[c] = (int32_t)o;
        t->median_bits[c] = (uint32_t)bits;
        /* Tables of up to 4097 entries read by a 12-bit lookup. */
        wai_status st = wai_cdf_table_init(&t->lookup[c], a, at, n, 12);
        if (st != WAI_ok) return st;
        at += n;
    }
    return WAI_ok;
}

/* The row's one member: the tables (cdfs_q3.json). */
wai_status wai_bmshj2018_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l) {
    const uint8_t *text;
    size_t len;
    if (wai_set_find(set, members[0], &text, &len) != WAI_ok) return WAI_set_incomplete;
    tables *t = wai_loaded_own(a, l, sizeof *t, tables_free);
    if (!t) return WAI_out_of_memory;
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(a, text, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return WAI_model_mismatch;
    wai_status st = read_tables(a, wai_json_root(doc), t);
    wai_json_free(doc);
    return st;
}

/* ---- the codec -------------------------------------------------------------------- */

typedef struct bmshj_job {
    wai_b18f b;
} bmshj_job;

_Static_assert(sizeof(bmshj_job) <= WAI_JOB_STATE_BYTES, "bmshj_job fits a job");

static const tables *tables_of(const wai_job *j) { return WAI_LOADED(j->set, tables); }

static wai_status b_parse(wai_job *j, const uint8_t *data, size_t len) {
    return wai_b18f_parse(data, len, &WAI_JOB_STATE(j, bmshj_job)->b);
}

/* The set's channels are the payload's (model_mismatch); the cost from
 * the tables' per-position figures (docs/bmshj2018.md, B3). */
static wai_status b_prepare(wai_job *j, const wai_allocator *a) {
    (void)a;
    const wai_b18f *b = &WAI_JOB_STATE(j, bmshj_job)->b;
    const tables *t = tables_of(j);
    if (b->m != t->m) return WAI_model_mismatch;
    const uint64_t positions = wai_sat_mul(b->lh, b->lw), symbols = wai_sat_mul(b->m, positions);
    wai_cost *c = &j->cost;
    c->output_bytes = wai_sat_mul3(3, b->height, b->width);
    c->entropy_steps = symbols;
    c->macs = wai_sat_mul(t->macs_per_position, positions);
    c->working_bytes = wai_sat_add(wai_sat_add(c->output_bytes, wai_sat_mul(4, symbols)),
                                   wai_sat_mul(t->working_per_position, positions));
    j->out.kind = WAI_OUTPUT_IMAGE;
    j->out.width = b->width;
    j->out.height = b->height;
    j->out.n = 1;
    j->out.bytes = (size_t)c->output_bytes;
    wai_latent_job *l = &j->latent;
    l->capability = &j->codec->cap;
    l->set = j->members;
    l->offsets = t->median_bits;
    l->channels = b->m;
    l->height = b->lh;
    l->width = b->lw;
    l->picture_width = b->width;
    l->picture_height = b->height;
    return WAI_ok;
}

/* §6.3: the symbols, channel after channel, each against its channel's
 * table and offset; the stream's canonical end; their digest. */
static wai_status entropy(wai_job *j, int32_t *symbols) {
    const wai_b18f *b = &WAI_JOB_STATE(j, bmshj_job)->b;
    const tables *t = tables_of(j);
    const size_t per = (size_t)b->lh * b->lw;
    wai_rans_dec d;
    wai_rans_dec_init(&d, b->stream.bytes, b->stream.len);
    for (uint32_t c = 0; c < b->m; c++)
        for (size_t i = 0; i < per; i++) {
            wai_status st = wai_rans_decode(&d, &t->lookup[c], t->offsets[c], &symbols[c * per + i]);
            if (st != WAI_ok) return st;
        }
    wai_status st = wai_rans_end_canonical(&d);
    if (st != WAI_ok) return st;
    wai_blake3 h;
    wai_blake3_init(&h);
    uint8_t le[4];
    for (size_t i = 0; i < (size_t)b->m * per; i++) {
        wai_store_u32le(le, (uint32_t)symbols[i]);
        wai_blake3_update(&h, le, 4);
    }
    wai_blake3_final(&h, j->symbols_digest, 32);
    j->has_digest = 1;
    return WAI_ok;
}

static wai_status b_symbols(wai_job *j, const wai_allocator *a, int32_t *out) {
    const wai_b18f *b = &WAI_JOB_STATE(j, bmshj_job)->b;
    int32_t *s = out ? out : wai_alloc_array(a, (size_t)b->m * b->lh * b->lw, sizeof *s);
    if (!s) return WAI_out_of_memory;
    wai_status st = entropy(j, s);
    if (!out) wai_free(a, s);
    return st;
}

/* The entropy stage of a decode: the symbols the backend's program takes. */
static wai_status b_latent(wai_job *j, const wai_allocator *a) {
    const wai_b18f *b = &WAI_JOB_STATE(j, bmshj_job)->b;
    int32_t *s = wai_alloc_array(a, (size_t)b->m * b->lh * b->lw, sizeof *s);
    if (!s) return WAI_out_of_memory;
    wai_status st = entropy(j, s);
    if (st != WAI_ok) {
        wai_free(a, s);
        return st;
    }
    j->latent.symbols = s;
    return WAI_ok;
}

static void b_release(wai_job *j, const wai_allocator *a) {
    wai_free(a, (void *)j->latent.symbols);
    j->latent.symbols = NULL;
}

static void b_describe(const wai_job *j, wai_text *t) {
    wai_b18f_describe(&WAI_JOB_STATE(j, const bmshj_job)->b, t);
}

const wai_codec_ops wai_bmshj2018_ops = {.parse = b_parse,
                                         .prepare = b_prepare,
                                         .latent = b_latent,
                                         .release = b_release,
                                         .describe = b_describe,
                                         .symbols = b_symbols};
