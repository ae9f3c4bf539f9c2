/* wai.neural.int_mlicpp's corpus (integer-payloads §14, docs/int_mlicpp.md):
 * seeded WMB1 bundles (model.wmb) and WIM1 payloads, each case a line of
 * index.txt with its set's directory.
 *
 * The generator makes the payloads the way the spec's reference vectors
 * were made: it picks every symbol and encodes it with the library's rANS
 * encoder, running the decode's own procedure on the reference kernels
 * (ops/layers_ref.c) for what the decode needs between symbols: z, h_s,
 * then for each slice and checkerboard pass the entropy network on the
 * partly decoded y, a bucket and a table per element; g_s for the
 * expected picture, which the corpus test asks of the library's decoder
 * (fast kernels).
 *
 *   neural/mlic/valid/NAME  decodes: two slices of 16x16; one slice; a 1x1
 *                           latent (a second pass with no position); a t2
 *                           table of two entries (only the escape); words
 *                           left unread and a final state other than 2^31
 *                           (final_only); the cost limit at the work
 *   neural/mlic/bad/NAME    refusals: the bundle's rules and step 1
 *                           (model_mismatch), the streams and the values
 *                           (payload_malformed), set_incomplete, the cost
 *                           limit one below and before the streams
 *   parse/wim1_NAME         the payload's rules alone (payload_malformed) */
#include "gen_io.h"
#include "gen_wim1.h"

#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "entropy/cdf.h"
#include "gen/netgen.h"
#include "gen/wim1gen.h"
#include "ops/layers.h"
#include "ops/plan.h"
#include "wai/wai_hash.h"

static const char *g_root;
static FILE *g_idx;
static uint64_t g_rng = 0x6d6c6963;

#define CAP "wai.neural.int_mlicpp"

/* ---- cases ------------------------------------------------------------------------------- */

static void put_set(const char *dir, const wim1gen_buf *wmb) {
    char rel[200];
    gen_mkdir(g_root, dir);
    snprintf(rel, sizeof rel, "%s/model.wmb", dir);
    gen_put(g_root, rel, wmb->b, wmb->len);
}

static void line(const char *status, const char *maxcost, const char *file, const uint8_t *rgb,
                 size_t n, const char *dir) {
    char hex[65] = "-";
    if (rgb) {
        uint8_t d[32];
        wai_sha256_oneshot(rgb, n, d);
        wai_hex(d, 32, hex);
    }
    fprintf(g_idx, "decode " CAP " %s %s %s %s %s\n", status, maxcost, file, hex, dir);
}

/* A case in dir: the payload (as given) against the set. */
static void write_case(const char *dir, const char *status, const char *maxcost, const uint8_t *p,
                       size_t len, const uint8_t *rgb, size_t rgb_len) {
    char rel[200];
    snprintf(rel, sizeof rel, "%s/image.wim1", dir);
    gen_put(g_root, rel, p, len);
    line(status, maxcost, rel, rgb, rgb_len, dir);
}

static void valid_cases(void) {
    static const struct { const char *name; wim1gen_shape s; int same; int cost; } v[] = {
        {"two_slices", {2, 1, 1, 4, 2}, 0, 1},   /* z 1x1 -> y 4x4 -> 16x16 */
        {"one_slice", {3, 2, 1, 2, 1}, 0, 0},    /* y 8x4 -> 32x16 */
        {"latent_1x1", {2, 1, 1, 4, 4}, 1, 0},   /* y 1x1: a second pass with no position */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char dir[128];
        snprintf(dir, sizeof dir, "neural/mlic/valid/%s", v[i].name);
        wim1gen_bundle b;
        wim1gen_make_bundle(&b, 500 + i, &g_rng, v[i].s.cz, v[i].s.cy, 6, 8, 2, v[i].same);
        wim1gen_buf wmb = wim1gen_bundle_bytes(&b);
        put_set(dir, &wmb);
        wim1gen_coded c = wim1gen_make_payload(&b, &v[i].s, &g_rng, &wai_kernels_ref);
        write_case(dir, "ok", "-", c.payload, c.len, c.rgb, (size_t)3 * c.h * c.w);
        if (v[i].cost) {
            char at[32], below[32];
            uint64_t w = wim1gen_work(&b, &v[i].s, &c);
            snprintf(at, sizeof at, "%llu", (unsigned long long)w);
            snprintf(below, sizeof below, "%llu", (unsigned long long)w - 1);
            line("ok", at, "neural/mlic/valid/two_slices/image.wim1", c.rgb, (size_t)3 * c.h * c.w, dir);
            line("cost_over_limit", below, "neural/mlic/valid/two_slices/image.wim1", NULL, 0, dir);
        }
        free(c.payload), free(c.rgb), free(wmb.b);
        wim1gen_bundle_free(&b);
    }
    /* A t2 table of two entries (the escape alone) in every latent bucket
     * but the first; and a stream with words left unread and an end state
     * other than 2^31 (both allowed by final_only). */
    wim1gen_bundle b;
    wim1gen_shape s = {2, 1, 1, 4, 2};
    wim1gen_make_bundle(&b, 600, &g_rng, s.cz, s.cy, 6, 8, 2, 0);
    for (uint32_t i = 1; i < b.n_edges; i++) {
        b.lat[i].n = 2, b.lat[i].cdf[0] = 0, b.lat[i].cdf[1] = WAI_CDF_TOTAL, b.lat[i].offset = 5;
    }
    wim1gen_buf wmb = wim1gen_bundle_bytes(&b);
    put_set("neural/mlic/valid/t2_two_entries", &wmb);
    wim1gen_coded c = wim1gen_make_payload(&b, &s, &g_rng, &wai_kernels_ref);
    write_case("neural/mlic/valid/t2_two_entries", "ok", "-", c.payload, c.len, c.rgb, (size_t)3 * c.h * c.w);
    /* Two words appended to the y stream (Ly + 8): unread, accepted. */
    wim1gen_buf p = {NULL, 0, 0};
    wim1gen_add(&p, c.payload, c.len);
    wim1gen_add_u32(&p, 0x12345678u), wim1gen_add_u32(&p, 0x9abcdef0u);
    wai_store_u32le(p.b + 32, wai_load_u32le(p.b + 32) + 8);
    put_set("neural/mlic/valid/words_left", &wmb);
    write_case("neural/mlic/valid/words_left", "ok", "-", p.b, p.len, c.rgb, (size_t)3 * c.h * c.w);
    free(p.b), free(c.payload), free(c.rgb), free(wmb.b);
    wim1gen_bundle_free(&b);
}

/* The bad cases share the two-slice bundle and payload; each edits one. */
static void bad_cases(void) {
    wim1gen_bundle b;
    wim1gen_shape s = {2, 1, 1, 4, 2};
    wim1gen_make_bundle(&b, 500, &g_rng, s.cz, s.cy, 6, 8, 2, 0);
    wim1gen_buf wmb = wim1gen_bundle_bytes(&b);
    wim1gen_coded c = wim1gen_make_payload(&b, &s, &g_rng, &wai_kernels_ref);
    char dir[160];
#define BAD(name, status, set_bytes, set_len, pay, pay_len)                     \
    do {                                                                        \
        snprintf(dir, sizeof dir, "neural/mlic/bad/%s", name);                  \
        wim1gen_buf w_ = {(uint8_t *)(set_bytes), (set_len), 0};                        \
        put_set(dir, &w_);                                                      \
        write_case(dir, status, "-", pay, pay_len, NULL, 0);                    \
    } while (0)
    /* The bundle (model_mismatch). */
    wim1gen_buf x = {NULL, 0, 0};
    wim1gen_add(&x, wmb.b, wmb.len);
    x.b[3] = '2';
    BAD("bundle_magic", "model_mismatch", x.b, x.len, c.payload, c.len);
    BAD("bundle_cut", "model_mismatch", wmb.b, wmb.len - 1, c.payload, c.len);
    x.len = 0;
    wim1gen_add(&x, wmb.b, wmb.len);
    wim1gen_add(&x, "\0", 1);
    BAD("bundle_trailing", "model_mismatch", x.b, x.len, c.payload, c.len);
    free(x.b);
    {
        wim1gen_bundle t = b;
        t.tables_afrac = b.afrac + 1;
        wim1gen_buf w = wim1gen_bundle_bytes(&t);
        BAD("tables_afrac", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.tables_afrac = b.afrac;
        t.lat[2].n = 1;
        w = wim1gen_bundle_bytes(&t);
        BAD("t2_table_of_one", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.lat[2] = b.lat[2];
        t.lat[2].cdf[1] = 0; /* not increasing */
        w = wim1gen_bundle_bytes(&t);
        BAD("table_not_increasing", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.lat[2] = b.lat[2];
        t.n_z = 1; /* Cz = 2 needs two z tables */
        w = wim1gen_bundle_bytes(&t);
        BAD("cz_past_z_tables", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.n_z = b.n_z;
        /* The networks: g_s's afrac, a shift of 128, a bias of 2^63 - 1,
         * a network of only a ReLU. */
        t.gs.afrac = b.afrac + 1;
        w = wim1gen_bundle_bytes(&t);
        BAD("networks_afrac", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.gs.afrac = b.afrac;
        t.ent.shift = 128;
        w = wim1gen_bundle_bytes(&t);
        BAD("shift_128", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.ent.shift = b.ent.shift;
        int64_t keep = t.hs.layers[0].bias[0];
        t.hs.layers[0].bias[0] = INT64_MAX;
        w = wim1gen_bundle_bytes(&t);
        BAD("bias_2_63", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
        t.hs.layers[0].bias[0] = keep;
        wai_layer relu = {WAI_LAYER_RELU, 0, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0};
        wai_model only = {2, b.afrac, 16, 16, 1, &relu, NULL};
        t.ent = only;
        w = wim1gen_bundle_bytes(&t);
        BAD("entropy_only_relu", "model_mismatch", w.b, w.len, c.payload, c.len);
        free(w.b);
    }
    /* Step 1: the payload's shapes against the networks (model_mismatch). */
    wim1gen_buf p = {NULL, 0, 0};
    wim1gen_add(&p, c.payload, c.len);
    wai_store_u16le(p.b + 20, 5); /* Yh 5: h_s gives 4 */
    BAD("yh_not_h_s", "model_mismatch", wmb.b, wmb.len, p.b, p.len);
    memcpy(p.b, c.payload, c.len);
    wai_store_u32le(p.b + 4, c.h + 1); /* H: g_s gives another */
    BAD("h_not_g_s", "model_mismatch", wmb.b, wmb.len, p.b, p.len);
    memcpy(p.b, c.payload, c.len);
    /* h_s's first layer would form [6, 4096, 4096] values */
    wai_store_u16le(p.b + 14, 2048), wai_store_u16le(p.b + 16, 2048);
    wai_store_u16le(p.b + 20, 2048), wai_store_u16le(p.b + 22, 2048);
    BAD("tensor_past_cap", "model_mismatch", wmb.b, wmb.len, p.b, p.len);
    /* The streams and values (payload_malformed). */
    memcpy(p.b, c.payload, c.len);
    wai_store_u32le(p.b + 28, (uint32_t)c.lz - 2), wai_store_u32le(p.b + 32, wai_load_u32le(c.payload + 32) + 2);
    BAD("z_length_not_words", "payload_malformed", wmb.b, wmb.len, p.b, p.len);
    memcpy(p.b, c.payload, c.len);
    wai_store_u32le(p.b + 28, (uint32_t)c.lz - 4), wai_store_u32le(p.b + 32, wai_load_u32le(c.payload + 32) + 4);
    BAD("z_stream_run_out", "payload_malformed", wmb.b, wmb.len, p.b, p.len);
    /* The y stream cut to 4 bytes: under 8. */
    {
        wim1gen_buf q = {NULL, 0, 0};
        wim1gen_add(&q, c.payload, 36 + c.lz + 4);
        wai_store_u32le(q.b + 32, 4);
        BAD("y_length_under_8", "payload_malformed", wmb.b, wmb.len, q.b, q.len);
        /* Cut to its first 8 bytes: it runs out. */
        q.len = 0;
        wim1gen_add(&q, c.payload, 36 + c.lz + 8);
        wai_store_u32le(q.b + 32, 8);
        BAD("y_stream_run_out", "payload_malformed", wmb.b, wmb.len, q.b, q.len);
        free(q.b);
    }
    /* A z median that makes E2 leave i64 (the value the decode forms). */
    {
        wim1gen_bundle t = b;
        for (uint32_t i = 0; i < t.n_z; i++) t.zmed[i] = INT64_MAX - 5;
        wim1gen_buf w = wim1gen_bundle_bytes(&t);
        BAD("z_value_past_i64", "payload_malformed", w.b, w.len, c.payload, c.len);
        /* And a median that passes E2 but breaks h_s's exactness bound. */
        for (uint32_t i = 0; i < t.n_z; i++) t.zmed[i] = (int64_t)1 << 60;
        free(w.b);
        w = wim1gen_bundle_bytes(&t);
        BAD("h_s_exactness", "payload_malformed", w.b, w.len, c.payload, c.len);
        free(w.b);
    }
    /* mu biased past the entropy network's first bound: the first pass's
     * run passes (y all 0, A the hyper latent's), the second's refuses (S11:
     * each run under the exactness rule), however the decoder runs the
     * first layer (decode/mlic_entropy.h). */
    {
        wai_sums su;
        uint64_t amax = 0;
        if (wai_sums_compute(NULL, &b.ent, &su) != WAI_ok || !netgen_bound_max(&b.ent, &su, 0, &amax) ||
            amax > ((uint64_t)1 << 60))
            abort();
        wai_sums_free(NULL, &su);
        wai_layer *last = &b.ent.layers[b.ent.n_layers - 1];
        int64_t keep[8];
        for (uint32_t o = 0; o < s.cy; o++) {
            keep[o] = last->bias[s.cy + o];
            last->bias[s.cy + o] = (int64_t)amax + ((int64_t)1 << (b.afrac + 8));
        }
        wim1gen_buf w = wim1gen_bundle_bytes(&b);
        BAD("entropy_exactness_late", "payload_malformed", w.b, w.len, c.payload, c.len);
        free(w.b);
        for (uint32_t o = 0; o < s.cy; o++) last->bias[s.cy + o] = keep[o];
    }
    /* The cost limit before the streams (S13): a bad z length and a limit
     * one below the work gives cost_over_limit. */
    memcpy(p.b, c.payload, c.len);
    wai_store_u32le(p.b + 28, (uint32_t)c.lz - 2), wai_store_u32le(p.b + 32, wai_load_u32le(c.payload + 32) + 2);
    snprintf(dir, sizeof dir, "neural/mlic/bad/cost_before_streams");
    put_set(dir, &wmb);
    {
        char rel[200], below[32];
        snprintf(rel, sizeof rel, "%s/image.wim1", dir);
        gen_put(g_root, rel, p.b, p.len);
        snprintf(below, sizeof below, "%llu", (unsigned long long)wim1gen_work(&b, &s, &c) - 1);
        line("cost_over_limit", below, rel, NULL, 0, dir);
    }
    /* set_incomplete: no model.wmb; the payload is parsed first (S7). */
    snprintf(dir, sizeof dir, "neural/mlic/bad/set_incomplete");
    gen_mkdir(g_root, dir);
    {
        char rel[200];
        snprintf(rel, sizeof rel, "%s/other.json", dir);
        gen_put(g_root, rel, "{}\n", 3);
    }
    write_case(dir, "set_incomplete", "-", c.payload, c.len, NULL, 0);
    snprintf(dir, sizeof dir, "neural/mlic/bad/payload_before_set");
    gen_mkdir(g_root, dir);
    {
        char rel[200];
        snprintf(rel, sizeof rel, "%s/other.json", dir);
        gen_put(g_root, rel, "{}\n", 3);
    }
    memcpy(p.b, c.payload, c.len);
    p.b[26] = 1;
    write_case(dir, "payload_malformed", "-", p.b, p.len, NULL, 0);
#undef BAD
    free(p.b), free(c.payload), free(c.rgb), free(wmb.b);
    wim1gen_bundle_free(&b);
}

/* The payload's rules alone (parse cases): each one fault of a valid
 * header (Cz 2, 1x1 z; Cy 4 in 2 slices of 4x4; 16x16; streams of 8). */
static void parse_cases(void) {
    uint8_t base[52];
    memset(base, 0, sizeof base);
    memcpy(base, "WIM1", 4);
    wai_store_u32le(base + 4, 16), wai_store_u32le(base + 8, 16);
    const uint16_t f[7] = {2, 1, 1, 4, 4, 4, 2};
    for (int i = 0; i < 7; i++) wai_store_u16le(base + 12 + 2 * i, f[i]);
    wai_store_u32le(base + 28, 8), wai_store_u32le(base + 32, 8);
    static const char *const names[] = {"ok",       "35_bytes",  "magic_wiv1", "reserved",
                                        "h_0",      "cz_0",      "k_0",        "cy_not_multiple_of_k",
                                        "z_cap",    "y_cap",     "hw_cap",     "one_short",
                                        "one_long"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        uint8_t b[64];
        memcpy(b, base, sizeof base);
        size_t n = sizeof base;
        switch (i) {
        case 1: n = 35; break;
        case 2: memcpy(b, "WIV1", 4); break;
        case 3: wai_store_u16le(b + 26, 1); break;
        case 4: wai_store_u32le(b + 4, 0); break;
        case 5: wai_store_u16le(b + 12, 0); break;
        case 6: wai_store_u16le(b + 24, 0); break;
        case 7: wai_store_u16le(b + 24, 3); break;
        case 8: wai_store_u16le(b + 12, 65535), wai_store_u16le(b + 14, 65535); break;
        case 9: wai_store_u16le(b + 18, 1024), wai_store_u16le(b + 20, 256), wai_store_u16le(b + 22, 256); break;
        case 10: wai_store_u32le(b + 4, 8192), wai_store_u32le(b + 8, 8192); break;
        case 11: n--; break;
        case 12: b[n++] = 0; break;
        default: break;
        }
        char rel[96];
        snprintf(rel, sizeof rel, "parse/wim1_%s.wim1", names[i]);
        gen_put(g_root, rel, b, n);
        fprintf(g_idx, "parse " CAP " %s - %s -\n", i ? "payload_malformed" : "ok", rel);
    }
}

void gen_wim1(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    gen_mkdir(g_root, "neural/mlic");
    gen_mkdir(g_root, "neural/mlic/valid");
    gen_mkdir(g_root, "neural/mlic/bad");
    valid_cases();
    bad_cases();
    parse_cases();
}
