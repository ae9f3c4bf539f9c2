/* wai.neural.int_synth's corpus (integer-payloads §13, docs/int_synth.md):
 * seeded sets (int_synth.json) and payloads, each case a line of index.txt
 * with its set's directory; the expected pictures come from this file's
 * own decode, written from the design note's definition (the scatter form
 * of a transposed convolution; the library gathers), not the library's.
 *
 *   neural/synth/valid/NAME  decodes: a 1x1 picture, odd sizes, shifts of 64 and
 *                       127 (exact), the certificate at its boundary, a
 *                       64x64 picture through three layers, members the
 *                       decode ignores, the cost limit at the declared work
 *   neural/synth/bad/NAME    refusals: every member rule, the chain, the
 *                       certificate one past, the plan (layer 0's input, the
 *                       output's shape, an uncropped plane past 2^26, a crop
 *                       that leaves nothing), the payload before the set,
 *                       set_incomplete, the cost limit one below
 *   parse/int_synth_NAME  the payload's rules alone (every one payload_malformed)
 */
#include "gen_io.h"
#include "gen_synth.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "wai/wai_hash.h"

static const char *g_root;
static FILE *g_idx;
static uint64_t g_rng = 0x73796e7468;

static uint64_t rnd(void) {
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int64_t between(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---- a set -------------------------------------------------------------------------- */

#define MAX_LAYERS 4

typedef struct layer {
    uint32_t in, out, k, stride, pad, out_pad, shift;
    int relu;
    int64_t *w;  /* [in][out][k][k] (i64 here: the writer spells anything) */
    int64_t *b;
} layer;

typedef struct model {
    uint32_t n;
    layer l[MAX_LAYERS];
    const char *extra; /* a member text added to the object (or NULL) */
} model;

static layer make_layer(uint32_t in, uint32_t out, uint32_t k, uint32_t stride, uint32_t pad,
                        uint32_t out_pad, uint32_t shift, int relu, int64_t wmax, int64_t bmax) {
    layer l = {in, out, k, stride, pad, out_pad, shift, relu, NULL, NULL};
    size_t n = (size_t)in * out * k * k;
    l.w = malloc((n ? n : 1) * sizeof *l.w);
    l.b = malloc(out * sizeof *l.b);
    if (!l.w || !l.b) gen_die("memory");
    for (size_t i = 0; i < n; i++) l.w[i] = between(-wmax, wmax);
    for (uint32_t o = 0; o < out; o++) l.b[o] = between(-bmax, bmax);
    return l;
}

static void model_free(model *m) {
    for (uint32_t i = 0; i < m->n; i++) free(m->l[i].w), free(m->l[i].b);
}

/* The text of m as int_synth.json; `fault` edits one layer's text. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
    va_list ap;
    if (!t->s && !(t->s = malloc(t->cap = 256))) gen_die("memory");
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) gen_die("format");
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n + 64;
        if (!(t->s = realloc(t->s, t->cap))) gen_die("memory");
    }
}

static text json_of(const model *m) {
    text t = {NULL, 0, 0};
    put(&t, "{\"layers\": [");
    for (uint32_t i = 0; i < m->n; i++) {
        const layer *l = &m->l[i];
        put(&t, "%s{\"in_ch\": %u, \"out_ch\": %u, \"k\": %u, \"stride\": %u, \"pad\": %u",
            i ? ", " : "", l->in, l->out, l->k, l->stride, l->pad);
        if (l->out_pad) put(&t, ", \"out_pad\": %u", l->out_pad);
        if (l->shift) put(&t, ", \"shift\": %u", l->shift);
        if (l->relu) put(&t, ", \"relu\": true");
        put(&t, ", \"weight\": [");
        const size_t n = (size_t)l->in * l->out * l->k * l->k;
        for (size_t j = 0; j < n; j++) put(&t, "%s%lld", j ? "," : "", (long long)l->w[j]);
        put(&t, "], \"bias\": [");
        for (uint32_t o = 0; o < l->out; o++) put(&t, "%s%lld", o ? "," : "", (long long)l->b[o]);
        put(&t, "]}");
    }
    put(&t, "]%s%s}", m->extra ? ", " : "", m->extra ? m->extra : "");
    return t;
}

/* ---- the decode, from the definition ------------------------------------------------- */

static int64_t floor_shift(int64_t v, uint32_t s) {
    /* floor(v / 2^s), s up to 127, by halving: exact for every i64. */
    for (uint32_t i = 0; i < s; i++) {
        if (v == 0 || v == -1) return v;
        v = v >= 0 ? v / 2 : -((-(v + 1)) / 2) - 1;
    }
    return v;
}

/* latents [c][n][n] through m; returns [3][side][side] as HWC bytes. */
static uint8_t *reference(const model *m, const int8_t *lat, uint32_t c, uint32_t n,
                          uint32_t *side) {
    int64_t *x = malloc((size_t)c * n * n * sizeof *x);
    if (!x) gen_die("memory");
    for (size_t i = 0; i < (size_t)c * n * n; i++) x[i] = lat[i];
    for (uint32_t li = 0; li < m->n; li++) {
        const layer *l = &m->l[li];
        const uint32_t hu = (n - 1) * l->stride + l->k + l->out_pad, mo = hu - 2 * l->pad;
        int64_t *u = calloc((size_t)l->out * hu * hu, sizeof *u);
        int64_t *y = malloc((size_t)l->out * mo * mo * sizeof *y);
        if (!u || !y) gen_die("memory");
        /* Scatter every input through every tap into the uncropped plane. */
        for (uint32_t i = 0; i < l->in; i++)
            for (uint32_t iy = 0; iy < n; iy++)
                for (uint32_t ix = 0; ix < n; ix++)
                    for (uint32_t o = 0; o < l->out; o++)
                        for (uint32_t ky = 0; ky < l->k; ky++)
                            for (uint32_t kx = 0; kx < l->k; kx++)
                                u[((size_t)o * hu + iy * l->stride + ky) * hu + ix * l->stride + kx] +=
                                    l->w[(((size_t)i * l->out + o) * l->k + ky) * l->k + kx] *
                                    x[((size_t)i * n + iy) * n + ix];
        for (uint32_t o = 0; o < l->out; o++)
            for (uint32_t yy = 0; yy < mo; yy++)
                for (uint32_t xx = 0; xx < mo; xx++) {
                    int64_t v = floor_shift(u[((size_t)o * hu + yy + l->pad) * hu + xx + l->pad] + l->b[o],
                                            l->shift);
                    y[((size_t)o * mo + yy) * mo + xx] = l->relu && v < 0 ? 0 : v;
                }
        free(u), free(x);
        x = y, n = mo;
    }
    uint8_t *rgb = malloc((size_t)3 * n * n);
    if (!rgb) gen_die("memory");
    for (size_t p = 0; p < (size_t)n * n; p++)
        for (int ch = 0; ch < 3; ch++) {
            int64_t v = x[ch * (size_t)n * n + p];
            rgb[p * 3 + ch] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    free(x);
    *side = n;
    return rgb;
}

/* ---- payloads and cases --------------------------------------------------------------- */

static uint8_t *payload(uint32_t h, uint32_t w, uint32_t c, uint32_t s_log2, const int8_t *lat,
                        size_t *len) {
    const size_t n = (size_t)c << (2 * s_log2);
    uint8_t *p = malloc(12 + n);
    if (!p) gen_die("memory");
    wai_store_u32le(p, h);
    wai_store_u32le(p + 4, w);
    wai_store_u16le(p + 8, (uint16_t)c);
    p[10] = (uint8_t)s_log2;
    p[11] = 0;
    memcpy(p + 12, lat, n);
    *len = 12 + n;
    return p;
}

static int8_t *latents(size_t n) {
    int8_t *l = malloc(n ? n : 1);
    if (!l) gen_die("memory");
    for (size_t i = 0; i < n; i++) l[i] = (int8_t)between(-128, 127);
    return l;
}

static void write_set(const char *dir, const char *json, size_t len) {
    char rel[256];
    gen_mkdir(g_root, dir);
    snprintf(rel, sizeof rel, "%s/int_synth.json", dir);
    gen_put(g_root, rel, json, len);
}

static void decode_line(const char *status, const char *maxcost, const char *file, const char *hash,
                        const char *set) {
    fprintf(g_idx, "decode wai.neural.int_synth %s %s %s %s %s\n", status, maxcost, file, hash, set);
}

/* A valid case: m's set, a payload of c x 2^s_log2 latents, the decode by
 * the definition; the line, and (when maxcost_too) the cost limit at the
 * declared work (ok) and one below it (cost_over_limit). */
static void valid(const char *name, const model *m, uint32_t c, uint32_t s_log2, int cost_too) {
    char dir[128], rel[160], hex[65];
    snprintf(dir, sizeof dir, "neural/synth/valid/%s", name);
    text t = json_of(m);
    write_set(dir, t.s, t.len);
    free(t.s);
    const uint32_t s = 1u << s_log2;
    int8_t *lat = latents((size_t)c * s * s);
    uint32_t side;
    uint8_t *rgb = reference(m, lat, c, s, &side);
    size_t len;
    uint8_t *p = payload(side, side, c, s_log2, lat, &len);
    snprintf(rel, sizeof rel, "%s/image.bin", dir);
    gen_put(g_root, rel, p, len);
    uint8_t d[32];
    wai_sha256_oneshot(rgb, (size_t)3 * side * side, d);
    wai_hex(d, 32, hex);
    decode_line("ok", "-", rel, hex, dir);
    if (cost_too) {
        /* S5: network_macs = sum over layers of inputs · out_ch · k². */
        uint64_t macs = 0, n = s, ch = c;
        for (uint32_t i = 0; i < m->n; i++) {
            const layer *l = &m->l[i];
            macs += ch * n * n * l->out * l->k * l->k;
            n = (n - 1) * l->stride + l->k + l->out_pad - 2 * l->pad, ch = l->out;
        }
        char at[32], below[32];
        snprintf(at, sizeof at, "%llu", (unsigned long long)macs);
        snprintf(below, sizeof below, "%llu", (unsigned long long)macs - 1);
        decode_line("ok", at, rel, hex, dir);
        decode_line("cost_over_limit", below, rel, "-", dir);
    }
    free(p), free(rgb), free(lat);
}

/* A refused decode: a set text and a payload, in synth/bad/NAME. */
static void refused(const char *name, const char *status, const char *json, const uint8_t *p,
                    size_t len, const char *extra_member) {
    char dir[128], rel[160];
    snprintf(dir, sizeof dir, "neural/synth/bad/%s", name);
    gen_mkdir(g_root, dir);
    if (json) write_set(dir, json, strlen(json));
    if (extra_member) {
        snprintf(rel, sizeof rel, "%s/%s", dir, extra_member);
        gen_put(g_root, rel, "{}\n", 3);
    }
    snprintf(rel, sizeof rel, "%s/image.bin", dir);
    gen_put(g_root, rel, p, len);
    decode_line(status, "-", rel, "-", dir);
}

/* ---- the corpus ------------------------------------------------------------------------- */

/* One layer 1 -> 3, k 1: the smallest set (a 1x1 picture from one latent). */
static model tiny(void) {
    model m = {1, {make_layer(1, 3, 1, 1, 0, 0, 0, 0, 2, 100)}, NULL};
    return m;
}

/* The certificate at its boundary (reading S3): layer 1 takes A = 128 to
 * 2^31 (weights 2^24); layer 2's filter sums to 2^32 - 1 and its bias is
 * 2^31 - 1: A·S + |b| = 2^63 - 1 exactly; shift 62 brings A to 2; layer 3
 * makes three channels. `past` makes the bias -2^31: one past. */
static model boundary(int past) {
    model m = {3, {make_layer(1, 2, 1, 1, 0, 0, 0, 0, 0, 0), make_layer(2, 1, 1, 1, 0, 0, 62, 0, 0, 0),
                   make_layer(1, 3, 1, 1, 0, 0, 0, 0, 0, 0)}, NULL};
    m.l[0].w[0] = m.l[0].w[1] = (int64_t)1 << 24;
    m.l[1].w[0] = 2147483647;
    m.l[1].w[1] = -2147483647 - 1;
    m.l[1].b[0] = past ? -2147483647 - 1 : 2147483647;
    m.l[2].w[0] = 60, m.l[2].w[1] = -70, m.l[2].w[2] = 1;
    m.l[2].b[0] = 128, m.l[2].b[1] = 128, m.l[2].b[2] = 7;
    return m;
}

static void valid_cases(void) {
    model m = tiny();
    valid("tiny", &m, 1, 0, 1);
    model_free(&m);
    /* Odd sizes: 4 -> 7 (k 3, stride 2, pad 1), then 7 -> 7; members the
     * decode ignores; relu false spelled out. */
    model odd = {2, {make_layer(3, 8, 3, 2, 1, 0, 3, 1, 40, 200), make_layer(8, 3, 3, 1, 1, 0, 6, 0, 40, 3000)},
                 "\"comment\": \"members other than layers are ignored\", \"relu\": 12"};
    valid("odd", &odd, 3, 2, 1);
    model_free(&odd);
    /* Shifts of 127 and 64, exact: a layer of only -1 and 0, read back by a
     * layer that shows which; output padding. */
    model wide = {3, {make_layer(2, 4, 2, 2, 0, 1, 0, 0, 50, 50), make_layer(4, 4, 1, 1, 0, 0, 127, 0, 9, 9),
                      make_layer(4, 3, 3, 1, 1, 0, 0, 0, 60, 100)}, NULL};
    valid("shift127", &wide, 2, 1, 0);
    wide.l[1].shift = 64;
    valid("shift64", &wide, 2, 1, 0);
    model_free(&wide);
    m = boundary(0);
    valid("certificate_at_boundary", &m, 1, 0, 0);
    model_free(&m);
    /* A 64x64 picture from [8, 8, 8] latents through three layers. */
    model big = {3, {make_layer(8, 16, 4, 2, 1, 0, 5, 1, 30, 400), make_layer(16, 16, 4, 2, 1, 0, 7, 1, 30, 400),
                     make_layer(16, 3, 4, 2, 1, 0, 8, 0, 30, 30000)}, NULL};
    valid("three_layers_64x64", &big, 8, 3, 1);
    model_free(&big);
}

/* The tiny set's text with one edit: `from` (its first occurrence) made `to`. */
static char *edited(const char *from, const char *to) {
    model m = tiny();
    text t = json_of(&m);
    model_free(&m);
    char *at = strstr(t.s, from);
    if (!at) gen_die(from);
    size_t a = (size_t)(at - t.s), fl = strlen(from), tl = strlen(to);
    char *r = malloc(t.len - fl + tl + 1);
    if (!r) gen_die("memory");
    memcpy(r, t.s, a);
    memcpy(r + a, to, tl);
    memcpy(r + a + tl, at + fl, t.len - a - fl + 1);
    free(t.s);
    return r;
}

static void bad_cases(void) {
    /* The tiny set's payload: one latent, a 1x1 picture. */
    const int8_t one = 5;
    size_t len;
    uint8_t *p = payload(1, 1, 1, 0, &one, &len);
    static const struct { const char *name, *from, *to; } member_rules[] = {
        {"not_json", "{\"layers\"", "{layers"},
        {"no_layers", "\"layers\"", "\"layer\""},
        {"layers_empty", "[{\"in_ch\"", "[], \"x\": [{\"in_ch\""},
        {"layer_not_object", "[{\"in_ch\"", "[7, {\"in_ch\""},
        {"in_ch_absent", "\"in_ch\": 1, ", ""},
        {"in_ch_2_32", "\"in_ch\": 1", "\"in_ch\": 4294967296"},
        {"in_ch_negative", "\"in_ch\": 1", "\"in_ch\": -1"},
        {"in_ch_not_integer", "\"in_ch\": 1", "\"in_ch\": 1.0"},
        {"out_ch_0", "\"out_ch\": 3", "\"out_ch\": 0"},
        {"k_0", "\"k\": 1", "\"k\": 0"},
        {"stride_0", "\"stride\": 1", "\"stride\": 0"},
        {"pad_absent", "\"pad\": 0, ", ""},
        {"shift_128", "\"pad\": 0", "\"pad\": 0, \"shift\": 128"},
        {"relu_null", "\"pad\": 0", "\"pad\": 0, \"relu\": null"},
        {"relu_number", "\"pad\": 0", "\"pad\": 0, \"relu\": 1"},
        {"out_pad_2_32", "\"pad\": 0", "\"pad\": 0, \"out_pad\": 4294967296"},
        {"weight_short", "\"weight\": [", "\"weight\": [1, "},
        {"weight_not_array", "\"weight\": [", "\"weight\": 3, \"w\": ["},
        {"weight_past_i32", "\"weight\": [", "\"weight\": [2147483648, "},
        {"bias_long", "\"bias\": [", "\"bias\": [1, "},
        {"duplicate_member", "\"k\": 1", "\"k\": 1, \"k\": 1"},
        {"bom", "{\"layers\"", "\xEF\xBB\xBF{\"layers\""},
    };
    for (size_t i = 0; i < sizeof member_rules / sizeof *member_rules; i++) {
        char *j = edited(member_rules[i].from, member_rules[i].to);
        refused(member_rules[i].name, "payload_malformed", j, p, len, NULL);
        free(j);
    }
    /* The weights' count follows in_ch: a short array once in_ch is 2. */
    char *j = edited("\"in_ch\": 1", "\"in_ch\": 2");
    refused("weight_count_follows_in_ch", "payload_malformed", j, p, len, NULL);
    free(j);
    /* The chain: layer 2 takes 4 channels, layer 1 gives 3. */
    model chain = {2, {make_layer(1, 3, 1, 1, 0, 0, 0, 0, 2, 2), make_layer(4, 3, 1, 1, 0, 0, 0, 0, 2, 2)}, NULL};
    text t = json_of(&chain);
    refused("chain", "payload_malformed", t.s, p, len, NULL);
    free(t.s), model_free(&chain);
    /* The certificate one past. */
    model past = boundary(1);
    t = json_of(&past);
    refused("certificate_one_past", "payload_malformed", t.s, p, len, NULL);
    free(t.s), model_free(&past);
    /* The plan: layer 0's input is not C; the output is not [3, H, W]. */
    model m = tiny();
    t = json_of(&m);
    uint8_t *p2 = payload(1, 1, 2, 0, (const int8_t *)"\1\2", &len);
    refused("layer0_in_not_c", "payload_malformed", t.s, p2, len, NULL);
    free(p2);
    p2 = payload(2, 1, 1, 0, &one, &len);
    refused("height_not_output", "payload_malformed", t.s, p2, len, NULL);
    free(p2);
    p2 = payload(1, 2, 1, 0, &one, &len);
    refused("width_not_output", "payload_malformed", t.s, p2, len, NULL);
    free(p2);
    model four = {1, {make_layer(1, 4, 1, 1, 0, 0, 0, 0, 2, 2)}, NULL};
    text t4 = json_of(&four);
    p2 = payload(1, 1, 1, 0, &one, &len);
    refused("four_channels", "payload_malformed", t4.s, p2, len, NULL);
    free(t4.s), free(p2), model_free(&four);
    /* An uncropped plane past 2^26: side (2 - 1)·65536 + 1 = 65537. */
    model wide = {1, {make_layer(1, 3, 1, 65536, 0, 0, 0, 0, 2, 2)}, NULL};
    text tw = json_of(&wide);
    const int8_t four_lat[4] = {1, 2, 3, 4};
    p2 = payload(65537, 65537, 1, 1, four_lat, &len);
    refused("uncropped_past_cap", "payload_malformed", tw.s, p2, len, NULL);
    free(tw.s), free(p2), model_free(&wide);
    /* A crop that leaves nothing: k 1, pad 1 on a 1x1 input (2·pad >= 1). */
    model crop = {1, {make_layer(1, 3, 1, 1, 1, 0, 0, 0, 2, 2)}, NULL};
    text tc = json_of(&crop);
    p2 = payload(1, 1, 1, 0, &one, &len);
    refused("crop_leaves_nothing", "payload_malformed", tc.s, p2, len, NULL);
    free(tc.s), free(p2), model_free(&crop);
    /* set_incomplete: a set without int_synth.json; and the payload is
     * checked first (reading S1): a bad payload with no member is
     * payload_malformed. */
    p2 = payload(1, 1, 1, 0, &one, &len);
    refused("set_incomplete", "set_incomplete", NULL, p2, len, "other.json");
    p2[11] = 1;
    refused("payload_before_set", "payload_malformed", NULL, p2, len, "other.json");
    free(p2);
    free(t.s), model_free(&m);
    free(p);
}

/* The payload's rules alone (parse cases). */
static void parse_cases(void) {
    const int8_t lat[4] = {1, -2, 3, -4};
    size_t len;
    uint8_t *p = payload(2, 2, 1, 1, lat, &len);
    static const char *const names[] = {"ok",        "11_bytes", "h_0",      "w_0",       "reserved",
                                        "c_0",       "one_short", "one_long", "s_log2_14"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        uint8_t b[32];
        memcpy(b, p, len);
        size_t n = len;
        switch (i) {
        case 1: n = 11; break;
        case 2: memset(b, 0, 4); break;
        case 3: memset(b + 4, 0, 4); break;
        case 4: b[11] = 1; break;
        case 5: memset(b + 8, 0, 2); break;
        case 6: n = len - 1; break;
        case 7: b[n++] = 0; break;
        case 8: b[10] = 14; break;
        default: break;
        }
        char rel[96];
        snprintf(rel, sizeof rel, "parse/int_synth_%s.bin", names[i]);
        gen_put(g_root, rel, b, n);
        fprintf(g_idx, "parse wai.neural.int_synth %s - %s -\n", i ? "payload_malformed" : "ok", rel);
    }
    free(p);
    /* C·S·S at the cap, and one past (C 2, S 2^13): the cap comes before
     * the length, so the header alone shows it. */
    uint8_t h[12];
    wai_store_u32le(h, 8192), wai_store_u32le(h + 4, 8192), wai_store_u16le(h + 8, 2);
    h[10] = 13, h[11] = 0;
    gen_put(g_root, "parse/int_synth_cap_one_past.bin", h, 12);
    fprintf(g_idx, "parse wai.neural.int_synth payload_malformed - parse/int_synth_cap_one_past.bin -\n");
}

void gen_synth(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    gen_mkdir(g_root, "neural/synth");
    gen_mkdir(g_root, "neural/synth/valid");
    gen_mkdir(g_root, "neural/synth/bad");
    valid_cases();
    bad_cases();
    parse_cases();
}
