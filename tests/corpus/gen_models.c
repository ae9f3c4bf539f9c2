/* The network fixtures (issue 4): a file for every refusal of a WHM1/WAM1
 * parse, of planning and of the exactness rule, each with what a decoder
 * must answer, plus valid networks with the SHA-256 of their output.
 *
 * models/index.txt, one case a line:  FORM FILE SHAPE INPUT STATUS SHA256
 *   FORM    whm1 or wam1: the form FILE is parsed as
 *   SHAPE   c,h,w the network is planned on (h = 1 for wam1), or - to
 *           parse only
 *   INPUT   the input tensor, c·h·w little-endian i64, or - to plan only
 *   STATUS  the first refusal of the parse, the plan, then the run
 *           (every layer's exactness bound before it runs), or ok
 *   SHA256  of the output tensor as little-endian i64 when STATUS is ok and
 *           INPUT is given, else -
 *
 * Each case states the status it is built to give; the generator runs the
 * library's reference path on it and stops if the two disagree, so the
 * index says what the fixture was made for, not merely what the code did.
 * Thresholds of the exactness rule come from netgen_bound_max (a binary
 * search with ops/bounds.h): each bound has an input at its largest
 * accepted A and one at A + 1. */
#include "gen_io.h"
#include "gen_models.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/alloc.h"
#include "common/reader.h"
#include "formats/whm1.h"
#include "gen/netgen.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "wai/wai_hash.h"
#include "gen/set_write.h"
#include "write/payloads.h"

static const char *g_dir;
static FILE *g_idx;
static uint64_t g_rng = 4;



/* ---- building layers by hand --------------------------------------------- */

/* Storage for hand-built layers' arrays: every fixture's model is small. */
typedef struct params {
    int16_t w[4096];
    int64_t mult[128], bias[128], beta[128];
    int32_t gamma[4096];
} params;

/* Points l's arrays into p (each layer its own params) and fills them with
 * small values drawn from the seed: w in [-8, 8], mult 1, bias 0 unless the
 * fixture sets them; gamma small and non-negative, beta 2^(2·afrac) (an
 * inverse GDN near the identity). */
static void attach(wai_layer *l, params *p, uint32_t afrac) {
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
        if (l->n_weights > 4096 || l->cout > 128) gen_die("fixture layer too large");
        for (uint64_t i = 0; i < l->n_weights; i++)
            p->w[i] = (int16_t)((int)netgen_below(&g_rng, 17) - 8);
        for (uint32_t o = 0; o < l->cout; o++) {
            p->mult[o] = 1;
            p->bias[o] = 0;
        }
        l->weights = p->w;
        l->mult = p->mult;
        l->bias = p->bias;
    } else if (l->kind == WAI_LAYER_IGDN) {
        if ((uint64_t)l->c * l->c > 4096) gen_die("fixture layer too large");
        for (uint32_t i = 0; i < l->c * l->c; i++) p->gamma[i] = (int32_t)netgen_below(&g_rng, 4);
        for (uint32_t i = 0; i < l->c; i++) p->beta[i] = (int64_t)1 << (2 * afrac);
        l->gamma = p->gamma;
        l->beta = p->beta;
    }
}

/* ---- writing a case ---------------------------------------------------------- */

typedef struct shape {
    uint32_t c, h, w; /* c = 0: parse only */
} shape;

static const shape PARSE_ONLY = {0, 0, 0};

/* What the library's reference path gives for the case: the status and,
 * when it ran to the end, the output's hash. */
static wai_status reference_answer(const uint8_t *bytes, size_t len, int dims, shape sh,
                                   const int64_t *in, char hex[65]) {
    wai_model m;
    wai_sums s;
    wai_plan p;
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    strcpy(hex, "-");
    wai_status st = wai_model_parse(NULL, bytes, len, dims, &m);
    if (st != WAI_ok || sh.c == 0) goto out_model;
    st = wai_plan_model(NULL, &m, sh.c, sh.h, sh.w, &p);
    if (st != WAI_ok || in == NULL) goto out_plan;
    if (wai_sums_compute(NULL, &m, &s) != WAI_ok) gen_die("sums");
    int64_t *out = malloc(sizeof *out * (size_t)(p.out_elems ? p.out_elems : 1));
    if (!out) gen_die("memory");
    st = wai_network_run(NULL, &wai_kernels_ref, &m, &s, &p, in, out);
    if (st == WAI_ok) {
        wai_sha256 h;
        wai_sha256_init(&h);
        for (uint64_t i = 0; i < p.out_elems; i++) {
            uint8_t b[8];
            wai_store_u64le(b, (uint64_t)out[i]);
            wai_sha256_update(&h, b, 8);
        }
        uint8_t d[32];
        wai_sha256_final(&h, d);
        wai_hex(d, 32, hex);
    }
    free(out);
    wai_sums_free(NULL, &s);
out_plan:
    wai_plan_free(NULL, &p);
out_model:
    wai_model_free(NULL, &m);
    return st;
}

/* Writes NAME.whm / NAME.wam (and NAME.in when `in` is given) and its index
 * line, after checking that the reference path gives `want`. */
static void emit_bytes(const char *name, const uint8_t *bytes, size_t len, int dims, shape sh,
                       const int64_t *in, wai_status want) {
    char file[256], in_file[256], hex[65];
    snprintf(file, sizeof file, "%s.%s", name, dims == 1 ? "wam" : "whm");
    wai_status got = reference_answer(bytes, len, dims, sh, in, hex);
    if (got != want) {
        fprintf(stderr, "models/%s: built for %s, gives %s\n", file, wai_status_name(want),
                wai_status_name(got));
        exit(1);
    }
    gen_put(g_dir, file, bytes, len);
    strcpy(in_file, "-");
    if (in) {
        size_t n = (size_t)sh.c * sh.h * sh.w;
        uint8_t *b = malloc(n * 8);
        if (!b) gen_die("memory");
        for (size_t i = 0; i < n; i++) wai_store_u64le(b + 8 * i, (uint64_t)in[i]);
        snprintf(in_file, sizeof in_file, "%s.in", name);
        gen_put(g_dir, in_file, b, n * 8);
        free(b);
    }
    char shape_txt[64] = "-";
    if (sh.c) snprintf(shape_txt, sizeof shape_txt, "%u,%u,%u", sh.c, sh.h, sh.w);
    fprintf(g_idx, "%s %s %s %s %s %s\n", dims == 1 ? "wam1" : "whm1", file, shape_txt, in_file,
            wai_status_name(want), hex);
}

static void emit(const char *name, const wai_model *m, shape sh, const int64_t *in,
                 wai_status want) {
    uint8_t *b;
    size_t len;
    if (wai_model_write(NULL, m, &b, &len) != WAI_ok) gen_die(name);
    emit_bytes(name, b, len, m->dims, sh, in, want);
    wai_free(NULL, b);
}

/* ---- parse refusals (model_mismatch) ------------------------------------------ */

/* A small WHM1 with every layer kind, and its bytes. */
static wai_model every_kind(wai_layer *l, params *p) {
    l[0] = netgen_layer_convt(2, 3, 3, 2, 1, 1, 2);
    l[1] = netgen_layer_igdn(3);
    l[2] = netgen_layer_plain(WAI_LAYER_RELU);
    l[3] = netgen_layer_conv(3, 2, 3, 1, 1);
    l[4] = netgen_layer_leaky(-64, 8);
    for (int i = 0; i < 5; i++) attach(&l[i], &p[i], 8);
    return netgen_model_of(2, l, 5, 8, 16, 4);
}

static uint8_t *bytes_of(const wai_model *m, size_t *len) {
    uint8_t *b;
    if (wai_model_write(NULL, m, &b, len) != WAI_ok) gen_die("write");
    uint8_t *c = malloc(*len + 64);
    if (!c) gen_die("memory");
    memcpy(c, b, *len);
    wai_free(NULL, b);
    return c;
}

/* The model of one layer l (arrays attached), as bytes. */
static uint8_t *one_layer_bytes(wai_layer l, int dims, size_t *len) {
    static params p;
    attach(&l, &p, 8);
    wai_model m = netgen_model_of(dims, &l, 1, 8, 16, 4);
    return bytes_of(&m, len);
}

static void parse_fixtures(void) {
    static params p[5];
    wai_layer l[5];
    wai_model m = every_kind(l, p);
    size_t len;
    uint8_t *b = bytes_of(&m, &len);
    int64_t in[2 * 3 * 4];
    netgen_input(&g_rng, 8, in, 24);
    emit_bytes("valid_every_kind", b, len, 2, (shape){2, 3, 4}, in, WAI_ok);

    uint8_t *c = malloc(len + 64);
    if (!c) gen_die("memory");
    memcpy(c, b, len);
    c[3] = 'X';
    emit_bytes("parse_bad_magic", c, len, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
    memcpy(c, b, len);
    emit_bytes("parse_whm1_read_as_wam1", c, len, 1, PARSE_ONLY, NULL, WAI_model_mismatch);
    emit_bytes("parse_short_header", c, WAI_WHM1_HEADER_BYTES - 1, 2, PARSE_ONLY, NULL,
               WAI_model_mismatch);
    wai_store_u32le(c + 16, 6); /* one layer more than the file holds */
    emit_bytes("parse_missing_layer", c, len, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
    c[len] = 5; /* ... and that layer's tag is unknown */
    emit_bytes("parse_unknown_tag", c, len + 1, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
    memcpy(c, b, len);
    c[len] = 0;
    emit_bytes("parse_trailing_byte", c, len + 1, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
    free(c);
    free(b);

    /* Each kind cut one byte short (its last field or array), and a
     * transposed convolution cut inside its weights. */
    static const struct {
        const char *name;
        wai_layer_kind kind;
    } cut[] = {{"parse_cut_convt_bias", WAI_LAYER_CONV_T},
               {"parse_cut_conv_bias", WAI_LAYER_CONV},
               {"parse_cut_igdn_beta", WAI_LAYER_IGDN},
               {"parse_cut_leaky_lshift", WAI_LAYER_LEAKY}};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        wai_layer one = cut[i].kind == WAI_LAYER_CONV_T ? netgen_layer_convt(2, 2, 2, 1, 0, 0, 2)
                        : cut[i].kind == WAI_LAYER_CONV ? netgen_layer_conv(2, 2, 2, 1, 0)
                        : cut[i].kind == WAI_LAYER_IGDN ? netgen_layer_igdn(2)
                                                        : netgen_layer_leaky(3, 2);
        b = one_layer_bytes(one, 2, &len);
        emit_bytes(cut[i].name, b, len - 1, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
        free(b);
    }
    b = one_layer_bytes(netgen_layer_convt(2, 2, 2, 1, 0, 0, 2), 2, &len);
    /* header 20, tag 1, six u32 24: the weights start at 45 */
    emit_bytes("parse_cut_convt_weights", b, 45 + 3, 2, PARSE_ONLY, NULL, WAI_model_mismatch);
    free(b);

    /* A layer whose counts would need more bytes than 64 bits count. */
    uint8_t g[WAI_WHM1_HEADER_BYTES + 1 + 24];
    memcpy(g, "WHM1", 4);
    wai_store_u32le(g + 4, 8);
    wai_store_u32le(g + 8, 16);
    wai_store_u32le(g + 12, 4);
    wai_store_u32le(g + 16, 1);
    g[20] = 0;
    for (int f = 0; f < 6; f++) wai_store_u32le(g + 21 + 4 * f, f < 3 ? UINT32_MAX : 1);
    emit_bytes("parse_giant_counts", g, sizeof g, 2, PARSE_ONLY, NULL, WAI_model_mismatch);

    /* Tags WAM1 has no use for: a convolution, a ReLU, a leaky ReLU. */
    static const struct {
        const char *name;
        uint8_t tag;
    } wam[] = {{"parse_wam1_conv", 1}, {"parse_wam1_relu", 3}, {"parse_wam1_leaky", 4}};
    for (size_t i = 0; i < sizeof wam / sizeof wam[0]; i++) {
        uint8_t w[WAI_WHM1_HEADER_BYTES + 1 + 64];
        memset(w, 0, sizeof w);
        memcpy(w, "WAM1", 4);
        wai_store_u32le(w + 4, 8);
        wai_store_u32le(w + 8, 16);
        wai_store_u32le(w + 12, 4);
        wai_store_u32le(w + 16, 1);
        w[20] = wam[i].tag;
        /* What a WHM1 would hold after the tag (a 1->1 k1 convolution's
         * fields and arrays, or a leaky ReLU's), so only the tag is wrong. */
        size_t n = 21;
        if (wam[i].tag == 1) {
            for (int f = 0; f < 5; f++) wai_store_u32le(w + n + 4 * f, f < 4 ? 1 : 0);
            n += 20 + 2 + 16;
        } else if (wam[i].tag == 4) {
            n += 12;
        }
        emit_bytes(wam[i].name, w, n, 1, PARSE_ONLY, NULL, WAI_model_mismatch);
    }
}

/* ---- planning refusals -------------------------------------------------------- */

/* Plans (no input) a model of the given layers, arrays attached. */
static void plan_case(const char *name, int dims, wai_layer *l, uint32_t n, uint32_t gf,
                      uint32_t shift, shape sh, wai_status want) {
    static params p[4];
    if (n > 4) gen_die("plan_case");
    for (uint32_t i = 0; i < n; i++) attach(&l[i], &p[i], 8);
    wai_model m = netgen_model_of(dims, l, n, 8, gf, shift);
    emit(name, &m, sh, NULL, want);
}

static void plan_fixtures(void) {
    wai_layer l[4];
    const uint32_t big = 1u << 13; /* 8192: 8192·8192 = 2^26, the cap */
    l[0] = netgen_layer_plain(WAI_LAYER_RELU);
    plan_case("plan_input_at_cap", 2, l, 1, 16, 4, (shape){1, big, big}, WAI_ok);
    plan_case("plan_input_past_cap", 2, l, 1, 16, 4, (shape){1, big, big + 1}, WAI_too_large);

    /* Rule 1 (model_mismatch), each field; and the largest values it
     * accepts. */
    l[0] = netgen_layer_conv(2, 1, 1, 1, 0);
    plan_case("plan_conv_cin", 2, l, 1, 16, 4, (shape){3, 2, 2}, WAI_model_mismatch);
    l[0] = netgen_layer_convt(2, 1, 1, 1, 0, 0, 2);
    plan_case("plan_convt_cin", 2, l, 1, 16, 4, (shape){3, 2, 2}, WAI_model_mismatch);
    l[0] = netgen_layer_convt(1, 1, 1, 0, 0, 0, 2);
    plan_case("plan_convt_stride0", 2, l, 1, 16, 4, (shape){1, 2, 2}, WAI_model_mismatch);
    l[0] = netgen_layer_conv(1, 1, 0, 1, 0);
    plan_case("plan_conv_k0", 2, l, 1, 16, 4, (shape){1, 2, 2}, WAI_model_mismatch);
    l[0] = netgen_layer_conv(1, 1, 1, 1, 0);
    plan_case("plan_conv_shift128", 2, l, 1, 16, 128, (shape){1, 2, 2}, WAI_model_mismatch);
    plan_case("plan_conv_shift127", 2, l, 1, 16, 127, (shape){1, 2, 2}, WAI_ok);
    l[0] = netgen_layer_igdn(2);
    plan_case("plan_igdn_c", 2, l, 1, 16, 4, (shape){3, 2, 2}, WAI_model_mismatch);
    plan_case("plan_igdn_gf128", 2, l, 1, 128, 4, (shape){2, 2, 2}, WAI_model_mismatch);
    plan_case("plan_igdn_gf127", 2, l, 1, 127, 4, (shape){2, 2, 2}, WAI_ok);
    l[0] = netgen_layer_leaky(1, 64);
    plan_case("plan_leaky_lshift64", 2, l, 1, 16, 4, (shape){1, 2, 2}, WAI_model_mismatch);
    l[0] = netgen_layer_leaky(1, 63);
    plan_case("plan_leaky_lshift63", 2, l, 1, 16, 4, (shape){1, 2, 2}, WAI_ok);
    l[0] = netgen_layer_convt(1, 1, 3, 2, 1, 0, 1);
    plan_case("plan_wam1_cin", 1, l, 1, 16, 4, (shape){2, 1, 8}, WAI_model_mismatch);

    /* Rule 2 (too_large): a padded side, an output, an uncropped side, an
     * uncropped plane. */
    l[0] = netgen_layer_conv(1, 1, 1, 1, 1u << 25);
    plan_case("plan_conv_padded_side", 2, l, 1, 16, 4, (shape){1, 1, 1}, WAI_too_large);
    l[0] = netgen_layer_conv(1, 65, 1, 1, 0);
    plan_case("plan_conv_output", 2, l, 1, 16, 4, (shape){1, 1024, 1024}, WAI_too_large);
    l[0] = netgen_layer_conv(1, 64, 1, 1, 0);
    plan_case("plan_conv_output_at_cap", 2, l, 1, 16, 4, (shape){1, 1024, 1024}, WAI_ok);
    l[0] = netgen_layer_convt(1, 1, 1, 1u << 26, 0, 0, 2);
    plan_case("plan_convt_uncropped_side", 2, l, 1, 16, 4, (shape){1, 1, 2}, WAI_too_large);
    l[0] = netgen_layer_convt(1, 17, 1, 64, 0, 0, 2);
    plan_case("plan_convt_uncropped_plane", 2, l, 1, 16, 4, (shape){1, 64, 64},
              WAI_too_large);
    l[0] = netgen_layer_convt(1, 1, 1, 1u << 26, 0, 0, 1);
    plan_case("plan_wam1_uncropped_side", 1, l, 1, 16, 4, (shape){1, 1, 2}, WAI_too_large);

    /* Rule 3 (model_mismatch): no output. */
    l[0] = netgen_layer_conv(1, 1, 5, 1, 1);
    plan_case("plan_conv_kernel_past_input", 2, l, 1, 16, 4, (shape){1, 2, 2},
              WAI_model_mismatch);
    l[0] = netgen_layer_convt(1, 1, 1, 1, 1, 0, 2);
    plan_case("plan_convt_crop", 2, l, 1, 16, 4, (shape){1, 1, 1}, WAI_model_mismatch);

    /* Order: rule 1 before rule 2 in a layer; an earlier layer first. */
    l[0] = netgen_layer_conv(2, 65, 1, 1, 0);
    plan_case("plan_rule1_before_rule2", 2, l, 1, 16, 4, (shape){1, 1024, 1024},
              WAI_model_mismatch);
    l[0] = netgen_layer_conv(1, 65, 1, 1, 0);
    l[1] = netgen_layer_igdn(3);
    plan_case("plan_earlier_layer_first", 2, l, 2, 16, 4, (shape){1, 1024, 1024},
              WAI_too_large);
}

/* ---- exactness (field_range) --------------------------------------------------- */

/* One single-layer model at its bound: an input of max |x| = A passes, one
 * of A + 1 is refused. */
static void bound_pair(const char *name, const wai_model *m, shape sh) {
    wai_sums s;
    if (wai_sums_compute(NULL, m, &s) != WAI_ok) gen_die("sums");
    uint64_t amax;
    if (!netgen_bound_max(m, &s, 0, &amax) || amax == (uint64_t)1 << 63) gen_die(name);
    wai_sums_free(NULL, &s);
    size_t n = (size_t)sh.c * sh.h * sh.w;
    int64_t *x = malloc(sizeof *x * n);
    if (!x) gen_die("memory");
    char nm[128];
    netgen_bound_input(&g_rng, amax, x, n);
    snprintf(nm, sizeof nm, "%s_at", name);
    emit(nm, m, sh, x, WAI_ok);
    netgen_bound_input(&g_rng, amax + 1, x, n);
    snprintf(nm, sizeof nm, "%s_past", name);
    emit(nm, m, sh, x, WAI_field_range);
    free(x);
}

static void exactness_fixtures(void) {
    static params p[2];
    wai_layer l[2];
    wai_model m;
    /* Convolution, A·max S_o binding (the requantisation is halved). */
    l[0] = netgen_layer_conv(2, 2, 3, 1, 1);
    attach(&l[0], &p[0], 8);
    m = netgen_model_of(2, l, 1, 8, 16, 2);
    bound_pair("run_conv_sum", &m, (shape){2, 3, 3});
    /* Convolution, the requantisation binding: M 2^20 with shift 1. */
    p[0].mult[0] = (int64_t)1 << 20;
    p[0].mult[1] = -((int64_t)1 << 19);
    p[0].bias[0] = 12345;
    p[0].bias[1] = -7;
    bound_pair("run_conv_requant", &m, (shape){2, 3, 3});
    /* The same two for a transposed convolution, and in one dimension. */
    l[0] = netgen_layer_convt(2, 2, 3, 2, 1, 1, 2);
    attach(&l[0], &p[0], 8);
    m = netgen_model_of(2, l, 1, 8, 16, 2);
    bound_pair("run_convt_sum", &m, (shape){2, 2, 3});
    p[0].mult[1] = INT64_MIN;
    p[0].bias[1] = INT64_MAX / 2;
    bound_pair("run_convt_requant", &m, (shape){2, 2, 3});
    l[0] = netgen_layer_convt(2, 2, 4, 2, 1, 0, 1);
    attach(&l[0], &p[0], 8);
    m = netgen_model_of(1, l, 1, 8, 16, 2);
    bound_pair("run_wam1_convt_sum", &m, (shape){2, 1, 5});
    p[0].mult[0] = (int64_t)1 << 40;
    bound_pair("run_wam1_convt_requant", &m, (shape){2, 1, 5});
    /* Inverse GDN: A²·max G_i binding (gf 127 makes N_i tiny), then the
     * output bound (beta and gamma large, afrac 1). */
    l[0] = netgen_layer_igdn(2);
    attach(&l[0], &p[0], 8);
    p[0].gamma[0] = 4;
    p[0].gamma[1] = 1;
    p[0].gamma[2] = 2;
    p[0].gamma[3] = 2;
    m = netgen_model_of(2, l, 1, 30, 127, 2);
    bound_pair("run_igdn_square", &m, (shape){2, 2, 2});
    p[0].beta[0] = (int64_t)1 << 62;
    p[0].beta[1] = -((int64_t)1 << 62);
    m = netgen_model_of(2, l, 1, 1, 0, 2);
    bound_pair("run_igdn_output", &m, (shape){2, 2, 2});
    /* Leaky ReLU, a negative slope and a large one. */
    l[0] = netgen_layer_leaky(-5, 2);
    m = netgen_model_of(2, l, 1, 8, 16, 2);
    bound_pair("run_leaky", &m, (shape){1, 2, 3});
    l[0] = netgen_layer_leaky(INT64_MIN, 63);
    bound_pair("run_leaky_min_slope", &m, (shape){1, 2, 3});

    /* Two layers: the first passes, and the activations it gives are past
     * the second's bound, so the refusal is the second layer's. */
    l[0] = netgen_layer_conv(1, 1, 1, 1, 0);
    attach(&l[0], &p[0], 8);
    p[0].w[0] = 1;
    p[0].mult[0] = (int64_t)1 << 40;
    l[1] = netgen_layer_leaky(-16, 0);
    m = netgen_model_of(2, l, 2, 8, 16, 0);
    int64_t x[4] = {1 << 18, -3, 0, (1 << 18) - 1};
    emit("run_second_layer_ok", &m, (shape){1, 2, 2}, x, WAI_ok);
    x[1] = -(1 << 19);
    emit("run_second_layer_refused", &m, (shape){1, 2, 2}, x, WAI_field_range);
}

/* ---- realistic networks that run ----------------------------------------------- */

static void valid_fixtures(void) {
    wai_model m;
    int64_t x[6 * 3 * 5];
    if (netgen_bmshj(NULL, 11, 8, 6, 5, 3, 2, &m) != WAI_ok) gen_die("bmshj");
    netgen_input(&g_rng, 8, x, 6 * 3 * 5);
    emit("valid_bmshj_small", &m, (shape){6, 3, 5}, x, WAI_ok);
    wai_model_free(NULL, &m);
    if (netgen_mbt_hyper(NULL, 12, 10, 4, 6, 5, &m) != WAI_ok) gen_die("mbt");
    netgen_input(&g_rng, 10, x, 4 * 3 * 5);
    emit("valid_mbt_hyper_small", &m, (shape){4, 3, 5}, x, WAI_ok);
    wai_model_free(NULL, &m);
    if (netgen_wam1(NULL, 13, 12, 5, 6, 1, 3, &m) != WAI_ok) gen_die("wam1");
    netgen_input(&g_rng, 12, x, 5 * 9);
    emit("valid_wam1_small", &m, (shape){5, 1, 9}, x, WAI_ok);
    wai_model_free(NULL, &m);
}

void gen_models(const char *outdir) {
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s/models", outdir);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) gen_die(dir);
    g_dir = dir;
    char path[1100];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    g_idx = fopen(path, "w");
    if (!g_idx) gen_die(path);
    fprintf(g_idx, "# Written by tests/corpus/gen_models.c; see its header for the columns.\n");
    parse_fixtures();
    plan_fixtures();
    exactness_fixtures();
    valid_fixtures();
    if (fclose(g_idx) != 0) gen_die("models/index.txt");
}
