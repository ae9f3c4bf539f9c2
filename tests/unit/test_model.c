/* SPDX-License-Identifier: BSD-2-Clause */
/* WHM1 / WAM1 parse and write, planning (integer-payloads §7, reading N6)
 * and the parameter sums of the exactness rule. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"
#include "formats/whm1.h"
#include "gen/netgen.h"
#include "harness.h"
#include "ops/plan.h"
#include "gen/set_write.h"
#include "write/payloads.h"

static uint64_t g_seed = 0x5eed0a11;

static uint64_t rnd64(void) { return harness_rand(&g_seed); }

/* ---- a counting allocator: proves when nothing was allocated ------------ */

static wai_allocator counting(harness_alloc *c) {
    memset(c, 0, sizeof *c);
    return harness_allocator(c);
}

/* ---- building models by hand ------------------------------------------- */

/* Geometry only (netgen's builders): planning reads no parameter. */
static wai_model model_of(int dims, wai_layer *layers, uint32_t n) {
    return netgen_model_of(dims, layers, n, 16, 20, 24);
}

/* Fills a layer's arrays with random values, extremes included. */
static void fill(wai_layer *l) {
    static const int64_t edge64[] = {INT64_MIN, INT64_MAX, -1, 0};
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
        l->weights = malloc(sizeof *l->weights * (size_t)(l->n_weights ? l->n_weights : 1));
        l->mult = malloc(sizeof *l->mult * (l->cout ? l->cout : 1));
        l->bias = malloc(sizeof *l->bias * (l->cout ? l->cout : 1));
        for (uint64_t i = 0; i < l->n_weights; i++)
            l->weights[i] = i == 0 ? INT16_MIN : i == 1 ? INT16_MAX
                                               : wai_i16_from_u16((uint16_t)rnd64());
        for (uint32_t o = 0; o < l->cout; o++) {
            l->mult[o] = o < 4 ? edge64[o] : wai_i64_from_u64(rnd64());
            l->bias[o] = o < 4 ? edge64[3 - o] : wai_i64_from_u64(rnd64());
        }
    } else if (l->kind == WAI_LAYER_IGDN) {
        l->gamma = malloc(sizeof *l->gamma * ((size_t)l->c * l->c + 1));
        l->beta = malloc(sizeof *l->beta * (l->c + 1));
        for (uint64_t i = 0; i < (uint64_t)l->c * l->c; i++)
            l->gamma[i] = i == 0 ? INT32_MIN : wai_i32_from_u32((uint32_t)rnd64());
        for (uint32_t i = 0; i < l->c; i++) l->beta[i] = wai_i64_from_u64(rnd64());
    } else if (l->kind == WAI_LAYER_LEAKY) {
        l->slope = wai_i64_from_u64(rnd64());
        l->lshift = (uint32_t)rnd64();
    }
}

static void unfill(wai_layer *l, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        free(l[i].weights);
        free(l[i].mult);
        free(l[i].bias);
        free(l[i].gamma);
        free(l[i].beta);
    }
}

static int layers_equal(const wai_layer *x, const wai_layer *y) {
    if (x->kind != y->kind || x->cin != y->cin || x->cout != y->cout || x->k != y->k ||
        x->stride != y->stride || x->pad != y->pad || x->opad != y->opad ||
        x->n_weights != y->n_weights || x->c != y->c || x->slope != y->slope ||
        x->lshift != y->lshift)
        return 0;
    if (x->n_weights && memcmp(x->weights, y->weights, sizeof *x->weights * (size_t)x->n_weights))
        return 0;
    if ((x->kind == WAI_LAYER_CONV || x->kind == WAI_LAYER_CONV_T) && x->cout &&
        (memcmp(x->mult, y->mult, 8 * (size_t)x->cout) || memcmp(x->bias, y->bias, 8 * (size_t)x->cout)))
        return 0;
    if (x->kind == WAI_LAYER_IGDN && x->c &&
        (memcmp(x->gamma, y->gamma, 4 * (size_t)x->c * x->c) || memcmp(x->beta, y->beta, 8 * (size_t)x->c)))
        return 0;
    return 1;
}

/* A small WHM1 with every layer kind, and a small WAM1. */
#define SMALL_WHM1_LAYERS 6
static void small_whm1(wai_layer *l, wai_model *m) {
    l[0] = netgen_layer_conv(3, 4, 3, 1, 1);
    l[1] = netgen_layer_igdn(4);
    l[2] = netgen_layer_convt(4, 2, 3, 2, 1, 1, 2);
    l[3] = netgen_layer_plain(WAI_LAYER_RELU);
    l[4] = netgen_layer_plain(WAI_LAYER_LEAKY);
    l[5] = netgen_layer_conv(2, 5, 1, 1, 0);
    for (int i = 0; i < SMALL_WHM1_LAYERS; i++) fill(&l[i]);
    *m = model_of(2, l, SMALL_WHM1_LAYERS);
}

#define SMALL_WAM1_LAYERS 3
static void small_wam1(wai_layer *l, wai_model *m) {
    l[0] = netgen_layer_convt(3, 2, 4, 2, 1, 1, 1);
    l[1] = netgen_layer_igdn(2);
    l[2] = netgen_layer_convt(2, 1, 3, 1, 1, 0, 1);
    for (int i = 0; i < SMALL_WAM1_LAYERS; i++) fill(&l[i]);
    *m = model_of(1, l, SMALL_WAM1_LAYERS);
}

/* write, parse, compare fields, write again: the same bytes. */
static void check_round_trip(const wai_model *m) {
    uint8_t *b1 = NULL, *b2 = NULL;
    size_t n1 = 0, n2 = 0;
    if (!CHECK(wai_model_write(NULL, m, &b1, &n1) == WAI_ok)) return;
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    wai_model p;
    if (CHECK(wai_model_parse(&a, b1, n1, m->dims, &p) == WAI_ok)) {
        CHECK(cnt.calls == (m->n_layers ? 1u : 0u));   /* one block */
        CHECK(p.dims == m->dims && p.afrac == m->afrac && p.gf == m->gf &&
              p.shift == m->shift && p.n_layers == m->n_layers);
        for (uint32_t i = 0; i < m->n_layers; i++)
            CHECK_MSG(layers_equal(&m->layers[i], &p.layers[i]), "layer %u differs", i);
        CHECK(wai_model_write(NULL, &p, &b2, &n2) == WAI_ok);
        CHECK(n1 == n2 && b2 && memcmp(b1, b2, n1) == 0);
        /* The other form's magic is refused. */
        wai_model q;
        CHECK(wai_model_parse(&a, b1, n1, 3 - m->dims, &q) == WAI_model_mismatch);
        wai_model_free(&a, &p);
        CHECK(cnt.live == 0);
    }
    wai_free(NULL, b1);
    wai_free(NULL, b2);
}

static void test_round_trip(void) {
    wai_layer l[SMALL_WHM1_LAYERS];
    wai_model m;
    small_whm1(l, &m);
    m.afrac = 0xFFFFFFFFu;   /* not range-checked at parse (N6) */
    m.gf = 1000;
    m.shift = 128;
    check_round_trip(&m);
    unfill(l, SMALL_WHM1_LAYERS);

    small_wam1(l, &m);
    check_round_trip(&m);
    unfill(l, SMALL_WAM1_LAYERS);

    /* No layers; zero-sized layers (cin 0, c 0) are structure, not refusals. */
    m = model_of(2, NULL, 0);
    check_round_trip(&m);
    l[0] = netgen_layer_convt(0, 1, 1, 1, 0, 0, 2);
    l[1] = netgen_layer_igdn(0);
    for (int i = 0; i < 2; i++) fill(&l[i]);
    m = model_of(2, l, 2);
    check_round_trip(&m);
    unfill(l, 2);

    /* Random small models of every allowed kind. */
    for (int t = 0; t < 50; t++) {
        int dims = 1 + (int)(rnd64() % 2);
        uint32_t n = (uint32_t)(rnd64() % 6);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = (uint32_t)(rnd64() % (dims == 1 ? 2 : 5));
            uint32_t cin = 1 + (uint32_t)(rnd64() % 4), cout = 1 + (uint32_t)(rnd64() % 4);
            if (dims == 1) k = k ? 2 : 0;   /* tags 0 and 2 */
            switch (k) {
            case 0: l[i] = netgen_layer_convt(cin, cout, 1 + (uint32_t)(rnd64() % 4), 2, 1, 1, dims); break;
            case 1: l[i] = netgen_layer_conv(cin, cout, 1 + (uint32_t)(rnd64() % 4), 1, 1); break;
            case 2: l[i] = netgen_layer_igdn(cin); break;
            default: l[i] = netgen_layer_plain((wai_layer_kind)k); break;
            }
            fill(&l[i]);
        }
        m = model_of(dims, l, n);
        check_round_trip(&m);
        unfill(l, n);
    }
}

/* Every proper prefix of a model is model_mismatch, allocating nothing. */
static void check_truncations(const wai_model *m) {
    uint8_t *b;
    size_t n;
    if (!CHECK(wai_model_write(NULL, m, &b, &n) == WAI_ok)) return;
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    for (size_t cut = 0; cut < n; cut++) {
        /* A copy of exactly `cut` bytes, so ASan sees any read past it. */
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, b, cut);
        wai_model p;
        wai_status st = wai_model_parse(&a, c, cut, m->dims, &p);
        CHECK_MSG(st == WAI_model_mismatch, "cut %zu: %d", cut, (int)st);
        CHECK(p.storage == NULL && p.layers == NULL);
        free(c);
    }
    CHECK(cnt.calls == 0);
    /* A byte after the last layer. */
    uint8_t *t = malloc(n + 1);
    memcpy(t, b, n);
    t[n] = 0;
    wai_model p;
    CHECK(wai_model_parse(&a, t, n + 1, m->dims, &p) == WAI_model_mismatch);
    CHECK(cnt.calls == 0);
    free(t);
    free(b);
}

static void test_truncation_and_trailing(void) {
    wai_layer l[SMALL_WHM1_LAYERS];
    wai_model m;
    small_whm1(l, &m);
    check_truncations(&m);
    unfill(l, SMALL_WHM1_LAYERS);
    small_wam1(l, &m);
    check_truncations(&m);
    unfill(l, SMALL_WAM1_LAYERS);
    m = model_of(2, NULL, 0);
    check_truncations(&m);
}

/* A header and one raw layer, for layouts the writer will not produce. */
static size_t raw_model(uint8_t *b, const char *magic, uint32_t n_layers, const uint8_t *layer,
                        size_t layer_len) {
    memcpy(b, magic, 4);
    wai_store_u32le(b + 4, 16);
    wai_store_u32le(b + 8, 20);
    wai_store_u32le(b + 12, 24);
    wai_store_u32le(b + 16, n_layers);
    memcpy(b + 20, layer, layer_len);
    return 20 + layer_len;
}

static void test_tags_and_magic(void) {
    uint8_t b[128], layer[64];
    wai_model p;
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    /* Unknown tags in WHM1. */
    const uint8_t bad2[] = {5, 6, 0x80, 0xFF};
    for (size_t i = 0; i < sizeof bad2; i++) {
        layer[0] = bad2[i];
        memset(layer + 1, 0, 40);
        size_t n = raw_model(b, "WHM1", 1, layer, 41);
        CHECK_MSG(wai_model_parse(&a, b, n, 2, &p) == WAI_model_mismatch, "tag %u", bad2[i]);
    }
    /* WAM1 allows tags 0 and 2 only; 1, 3 and 4 are refused even when the
     * bytes a WHM1 layer of that tag needs are all there. */
    for (uint8_t tag = 1; tag <= 6; tag++) {
        if (tag == 2) continue;
        wai_layer one[1];
        one[0] = tag == 1 ? netgen_layer_conv(1, 1, 1, 1, 0) : netgen_layer_plain((wai_layer_kind)(tag > 4 ? 3 : tag));
        fill(&one[0]);
        wai_model w2 = model_of(2, one, 1);
        uint8_t *bytes;
        size_t len;
        if (CHECK(wai_model_write(NULL, &w2, &bytes, &len) == WAI_ok)) {
            memcpy(bytes, "WAM1", 4);
            bytes[20] = tag;
            CHECK_MSG(wai_model_parse(&a, bytes, len, 1, &p) == WAI_model_mismatch, "WAM1 tag %u", tag);
            if (tag <= 4) {
                memcpy(bytes, "WHM1", 4);
                CHECK_MSG(wai_model_parse(&a, bytes, len, 2, &p) == WAI_ok, "WHM1 tag %u", tag);
                wai_model_free(&a, &p);
            }
            free(bytes);
        }
        unfill(one, 1);
        /* The writer refuses what WAM1 cannot hold. */
        wai_model w1 = model_of(1, one, 1);
        one[0] = tag == 1 ? netgen_layer_conv(1, 1, 1, 1, 0) : netgen_layer_plain((wai_layer_kind)(tag > 4 ? 3 : tag));
        uint8_t *o;
        size_t ol;
        CHECK(wai_model_write(NULL, &w1, &o, &ol) == WAI_invalid_argument && o == NULL);
    }
    /* Magic: wrong, short, other form's; and dims other than 1, 2. None
     * of these allocates (a model of no layers needs no block). */
    const size_t before = cnt.calls;
    size_t n = raw_model(b, "WHM2", 0, layer, 0);
    CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_model_mismatch);
    n = raw_model(b, "WHM1", 0, layer, 0);
    CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_ok);
    CHECK(wai_model_parse(&a, b, n, 1, &p) == WAI_model_mismatch);
    CHECK(wai_model_parse(&a, b, 3, 2, &p) == WAI_model_mismatch);
    CHECK(wai_model_parse(&a, NULL, 0, 2, &p) == WAI_model_mismatch);
    CHECK(wai_model_parse(&a, b, n, 0, &p) == WAI_invalid_argument);
    CHECK(cnt.calls == before);
}

/* Counts that do not fit, or whose bytes are absent: model_mismatch, and
 * not one allocation. */
static void test_giant_counts(void) {
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    uint8_t b[256], layer[64];
    wai_model p;
    const uint32_t big[][3] = {
        {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu},   /* past 64 bits */
        {65536, 65536, 65536},                     /* 2^64 exactly */
        {1000, 1000, 3},                           /* fits; 18 MB absent */
        {1, 0x10000000u, 1},                       /* the per-output arrays absent */
    };
    for (int dims = 1; dims <= 2; dims++)
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            layer[0] = 0;
            wai_store_u32le(layer + 1, big[i][0]);
            wai_store_u32le(layer + 5, big[i][1]);
            wai_store_u32le(layer + 9, big[i][2]);
            wai_store_u32le(layer + 13, 1);
            wai_store_u32le(layer + 17, 0);
            wai_store_u32le(layer + 21, 0);
            memset(layer + 25, 0x7F, 32);   /* a few weight bytes */
            size_t n = raw_model(b, dims == 2 ? "WHM1" : "WAM1", 1, layer, 57);
            CHECK_MSG(wai_model_parse(&a, b, n, dims, &p) == WAI_model_mismatch, "dims %d case %zu",
                      dims, i);
        }
    /* An inverse GDN of 2^32 − 1 channels; of 65536 (c² = 2^32). */
    const uint32_t cs[] = {0xFFFFFFFFu, 65536};
    for (size_t i = 0; i < 2; i++) {
        layer[0] = 2;
        wai_store_u32le(layer + 1, cs[i]);
        memset(layer + 5, 1, 40);
        size_t n = raw_model(b, "WHM1", 1, layer, 45);
        CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_model_mismatch);
    }
    /* 2^32 − 1 layers declared, three ReLUs present. */
    const uint8_t relus[] = {3, 3, 3};
    size_t n = raw_model(b, "WHM1", 0xFFFFFFFFu, relus, 3);
    CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_model_mismatch);
    /* The same three, declared as three: fine. */
    n = raw_model(b, "WHM1", 3, relus, 3);
    CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_ok && p.n_layers == 3);
    CHECK(cnt.calls == 1);
    wai_model_free(&a, &p);
    /* The allocator failing is out_of_memory with *out empty. */
    cnt.fail_at = cnt.calls + 1;
    CHECK(wai_model_parse(&a, b, n, 2, &p) == WAI_out_of_memory && p.storage == NULL);
}

static void test_write_refusals(void) {
    wai_layer l[2];
    l[0] = netgen_layer_conv(2, 2, 3, 1, 1);
    fill(&l[0]);
    wai_model m = model_of(2, l, 1);
    uint8_t *o;
    size_t n;
    l[0].n_weights--;
    CHECK(wai_model_write(NULL, &m, &o, &n) == WAI_invalid_argument && o == NULL);
    l[0].n_weights++;
    l[0].kind = (wai_layer_kind)5;
    CHECK(wai_model_write(NULL, &m, &o, &n) == WAI_invalid_argument);
    l[0].kind = WAI_LAYER_CONV;
    m.dims = 3;
    CHECK(wai_model_write(NULL, &m, &o, &n) == WAI_invalid_argument);
    m.dims = 2;
    CHECK(wai_model_write(NULL, &m, &o, &n) == WAI_ok);
    free(o);
    unfill(l, 1);
}

/* ---- planning ----------------------------------------------------------- */

static wai_status plan_on(const wai_model *m, uint32_t c, uint32_t h, uint32_t w, wai_plan *p) {
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    wai_status st = wai_plan_model(&a, m, c, h, w, p);
    /* A refused plan allocates nothing; a planned one one array at most. */
    CHECK(st == WAI_ok ? cnt.calls <= 1 : cnt.calls == 0);
    if (st == WAI_ok) {
        wai_plan_free(&a, p);
        CHECK(cnt.live == 0);
    }
    return st;
}

/* Plans one layer on [c, h, w]; the plan's code. */
static wai_status plan1(wai_layer l, int dims, uint32_t c, uint32_t h, uint32_t w) {
    wai_model m = model_of(dims, &l, 1);
    wai_plan p;
    return plan_on(&m, c, h, w, &p);
}

#define CAP26 ((uint32_t)1 << 26)

static void test_plan_input(void) {
    wai_model m = model_of(2, NULL, 0);
    wai_plan p;
    CHECK(plan_on(&m, 1, 1 << 13, 1 << 13, &p) == WAI_ok);   /* 2^26: equality allowed */
    CHECK(plan_on(&m, 1, (1 << 13) + 1, 1 << 13, &p) == WAI_too_large);
    CHECK(plan_on(&m, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, &p) == WAI_too_large); /* past 64 bits */
    CHECK(plan_on(&m, 0, 1, 1, &p) == WAI_invalid_argument);
    CHECK(plan_on(&m, 1, 0, 1, &p) == WAI_invalid_argument);
    /* The input cap comes before any layer's rules. */
    wai_layer bad = netgen_layer_conv(99, 1, 1, 1, 0);
    m = model_of(2, &bad, 1);
    CHECK(plan_on(&m, 3, CAP26, 2, &p) == WAI_too_large);
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_model_mismatch);
    /* A 1-D network runs on [c, 1, len]. */
    m = model_of(1, NULL, 0);
    CHECK(plan_on(&m, 1, 2, 8, &p) == WAI_invalid_argument);
    CHECK(plan_on(&m, 4, 1, CAP26 / 4, &p) == WAI_ok);
    CHECK(plan_on(&m, 4, 1, CAP26 / 4 + 1, &p) == WAI_too_large);
    /* No layers: the output is the input; its working bytes the input's. */
    m = model_of(2, NULL, 0);
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    if (CHECK(wai_plan_model(&a, &m, 3, 4, 5, &p) == WAI_ok)) {
        CHECK(p.out_c == 3 && p.out_h == 4 && p.out_w == 5 && p.out_elems == 60);
        CHECK(p.macs == 0 && p.work_bytes == 480 && p.layers == NULL && cnt.calls == 0);
        wai_plan_free(&a, &p);
    }
}

static void test_plan_rule1(void) {
    /* Channels, zero fields, shifts. */
    CHECK(plan1(netgen_layer_conv(3, 4, 3, 1, 1), 2, 3, 8, 8) == WAI_ok);
    CHECK(plan1(netgen_layer_conv(2, 4, 3, 1, 1), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_conv(3, 0, 3, 1, 1), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_conv(3, 4, 0, 1, 1), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_conv(3, 4, 3, 0, 1), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_convt(3, 4, 3, 0, 1, 0, 2), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_convt(3, 4, 0, 1, 0, 0, 2), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_convt(3, 0, 1, 1, 0, 0, 2), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_convt(4, 1, 1, 1, 0, 0, 2), 2, 3, 8, 8) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_igdn(3), 2, 3, 8, 8) == WAI_ok);
    CHECK(plan1(netgen_layer_igdn(4), 2, 3, 8, 8) == WAI_model_mismatch);
    wai_layer lk = netgen_layer_plain(WAI_LAYER_LEAKY);
    lk.lshift = 63;
    CHECK(plan1(lk, 2, 3, 8, 8) == WAI_ok);
    lk.lshift = 64;
    CHECK(plan1(lk, 2, 3, 8, 8) == WAI_model_mismatch);
    /* A hand-built layer whose weights disagree with its fields. */
    wai_layer odd = netgen_layer_conv(3, 4, 3, 1, 1);
    odd.n_weights++;
    CHECK(plan1(odd, 2, 3, 8, 8) == WAI_model_mismatch);
    /* A convolution in a 1-D network. */
    CHECK(plan1(netgen_layer_conv(3, 4, 1, 1, 0), 1, 3, 1, 8) == WAI_model_mismatch);

    /* The header's shift at each (transposed) convolution, gf at each
     * inverse GDN: a network without them plans whatever they hold. */
    wai_layer l[2] = {netgen_layer_plain(WAI_LAYER_RELU), netgen_layer_igdn(3)};
    wai_model m = model_of(2, l, 1);
    wai_plan p;
    m.shift = 1000;
    m.gf = 1000;
    m.afrac = 0;   /* afrac is the decode's check (§7 step 2), never the plan's */
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_ok);
    m.n_layers = 2;
    m.gf = 128;
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_model_mismatch);
    m.gf = 127;
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_ok);
    l[1] = netgen_layer_conv(3, 3, 1, 1, 0);
    m.shift = 128;
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_model_mismatch);
    m.shift = 127;
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_ok);
    l[1] = netgen_layer_convt(3, 3, 1, 1, 0, 0, 2);
    m.shift = 128;
    CHECK(plan_on(&m, 3, 4, 4, &p) == WAI_model_mismatch);

    /* Rule 1 comes before rule 2 in one layer: a channel mismatch, or a
     * shift of 128, with a padded side past the cap. */
    CHECK(plan1(netgen_layer_conv(2, 1, 1, 1, CAP26), 2, 3, 1, 1) == WAI_model_mismatch);
    m = model_of(2, l, 1);
    l[0] = netgen_layer_conv(3, 1, 1, 1, CAP26);
    m.shift = 128;
    CHECK(plan_on(&m, 3, 1, 1, &p) == WAI_model_mismatch);
    m.shift = 127;
    CHECK(plan_on(&m, 3, 1, 1, &p) == WAI_too_large);
    /* ... and a transposed convolution's uncropped side past the cap. */
    CHECK(plan1(netgen_layer_convt(2, 1, 0xFFFFFFFFu, 1, 0, 0, 2), 2, 3, 1, 1) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_convt(3, 1, 0xFFFFFFFFu, 0, 0, 0, 2), 2, 3, 1, 1) == WAI_model_mismatch);
    /* ... and an inverse GDN's gf with nothing else wrong. */
    wai_layer lr = netgen_layer_plain(WAI_LAYER_LEAKY);
    lr.lshift = 0xFFFFFFFFu;
    CHECK(plan1(lr, 2, 1, 1, 1) == WAI_model_mismatch);
}

static void test_plan_conv_rules(void) {
    /* Padded sides: each at most 2^26, equality allowed. [1, 2, 2] padded by
     * 2^25 − 1 is 2^26 a side; a kernel of 2^26 leaves one output. */
    const uint32_t half = (1u << 25) - 1;
    CHECK(plan1(netgen_layer_conv(1, 1, CAP26, 1, half), 2, 1, 2, 2) == WAI_ok);
    CHECK(plan1(netgen_layer_conv(1, 1, CAP26, 1, half + 1), 2, 1, 2, 2) == WAI_too_large);
    /* The height alone, then the width alone, past the cap. */
    CHECK(plan1(netgen_layer_conv(1, 1, 1, 1, half), 2, 1, 3, 2) == WAI_too_large);
    CHECK(plan1(netgen_layer_conv(1, 1, 1, 1, half), 2, 1, 2, 3) == WAI_too_large);
    /* A padded side past 64 bits cannot happen with u32 fields; a pad of
     * 2^32 − 1 is past the cap. */
    CHECK(plan1(netgen_layer_conv(1, 1, 1, 1, 0xFFFFFFFFu), 2, 1, 1, 1) == WAI_too_large);
    /* The output: cout·oh·ow at most 2^26. */
    CHECK(plan1(netgen_layer_conv(1, 1, 1, 1, 0), 2, 1, 1 << 13, 1 << 13) == WAI_ok);
    CHECK(plan1(netgen_layer_conv(1, 2, 1, 1, 0), 2, 1, 1 << 13, 1 << 13) == WAI_too_large);
    CHECK(plan1(netgen_layer_conv(1, 2, 1, 2, 0), 2, 1, 1 << 13, 1 << 13) == WAI_ok);
    CHECK(plan1(netgen_layer_conv(1, 0xFFFFFFFFu, 1, 1, 0), 2, 1, 4, 4) == WAI_too_large);
    /* Rule 2 before rule 3: a padded side past the cap with a kernel larger
     * still is too_large, not model_mismatch. */
    CHECK(plan1(netgen_layer_conv(1, 1, 0xFFFFFFFFu, 1, CAP26), 2, 1, 1, 1) == WAI_too_large);
    /* Rule 3: the kernel no larger than each padded side. */
    CHECK(plan1(netgen_layer_conv(1, 1, 5, 1, 1), 2, 1, 3, 3) == WAI_ok);
    CHECK(plan1(netgen_layer_conv(1, 1, 6, 1, 1), 2, 1, 3, 3) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_conv(1, 1, 6, 1, 1), 2, 1, 4, 3) == WAI_model_mismatch);
    CHECK(plan1(netgen_layer_conv(1, 1, 6, 1, 1), 2, 1, 3, 4) == WAI_model_mismatch);
    /* A kernel that does not fit leaves no output, so rule 2's output check
     * passes however many channels it has, and rule 3 refuses. */
    CHECK(plan1(netgen_layer_conv(1, 0xFFFFFFFFu, 6, 1, 1), 2, 1, 3, 3) == WAI_model_mismatch);

    /* Shapes and work: [3, 7, 9], 4 out, k 3, stride 2, pad 1:
     * floor((7 + 2 − 3)/2) + 1 = 4, floor((9 + 2 − 3)/2) + 1 = 5. */
    wai_layer l = netgen_layer_conv(3, 4, 3, 2, 1);
    wai_model m = model_of(2, &l, 1);
    wai_plan p;
    if (CHECK(wai_plan_model(NULL, &m, 3, 7, 9, &p) == WAI_ok)) {
        const wai_plan_layer *e = &p.layers[0];
        CHECK(e->in_c == 3 && e->in_h == 7 && e->in_w == 9 && e->in_elems == 189);
        CHECK(e->out_c == 4 && e->out_h == 4 && e->out_w == 5 && e->out_elems == 80);
        CHECK(e->uncropped_elems == 0 && e->uh == 0);
        CHECK(e->macs == 80 * 27 && p.macs == 80 * 27);
        CHECK(e->work_bytes == 8 * (189 + 80) && p.work_bytes == e->work_bytes);
        CHECK(p.out_c == 4 && p.out_h == 4 && p.out_w == 5);
        wai_plan_free(NULL, &p);
    }
}

static void test_plan_convt_rules(void) {
    /* Uncropped sides (n − 1)·stride + k + opad, each at most 2^26:
     * [1, 2^26, 1] with k 1, stride 1 is 2^26 × 1 (equality allowed). */
    CHECK(plan1(netgen_layer_convt(1, 1, 1, 1, 0, 0, 2), 2, 1, CAP26, 1) == WAI_ok);
    CHECK(plan1(netgen_layer_convt(1, 1, 1, 2, 0, 0, 2), 2, 1, (1 << 25) + 1, 1) == WAI_too_large);
    CHECK(plan1(netgen_layer_convt(1, 1, 1, 1, 0, 1, 2), 2, 1, 1, CAP26) == WAI_too_large);
    CHECK(plan1(netgen_layer_convt(1, 1, 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0xFFFFFFFFu, 2), 2, 1, 2, 2) ==
          WAI_too_large);
    /* The uncropped plane cout·Hu·Wu: [1, 2^12, 2^12], stride 2, k 2 gives
     * 2^13 a side, 2^26 a plane per output channel. */
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 2, 0, 0, 2), 2, 1, 1 << 12, 1 << 12) == WAI_ok);
    CHECK(plan1(netgen_layer_convt(1, 2, 2, 2, 0, 0, 2), 2, 1, 1 << 12, 1 << 12) == WAI_too_large);
    /* The plane is checked though the crop would bring the output within
     * the cap: k 3 gives (2^13 + 1)² uncropped, (2^13 − 1)² cropped. */
    CHECK(plan1(netgen_layer_convt(1, 1, 3, 2, 1, 0, 2), 2, 1, 1 << 12, 1 << 12) == WAI_too_large);
    CHECK(plan1(netgen_layer_convt(1, 1, 1, 2, 0, 0, 2), 2, 1, 1 << 12, 1 << 12) == WAI_ok);
    /* Rule 2 before rule 3: with a crop that takes everything, an uncropped
     * side past the cap, or a plane past it, is too_large; within both it
     * is model_mismatch. */
    CHECK(plan1(netgen_layer_convt(1, 1, CAP26 + 1, 1, 0xFFFFFFFFu, 0, 2), 2, 1, 1, 1) == WAI_too_large);
    CHECK(plan1(netgen_layer_convt(1, 1, (1 << 13) + 1, 1, 0xFFFFFFFFu, 0, 2), 2, 1, 1, 1) == WAI_too_large);
    CHECK(plan1(netgen_layer_convt(1, 1, 1 << 13, 1, 0xFFFFFFFFu, 0, 2), 2, 1, 1, 1) == WAI_model_mismatch);
    /* Rule 3: 2·pad smaller than each uncropped side. [1, 3, 4], stride 1,
     * k 2: uncropped 4 × 5. */
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 1, 1, 0, 2), 2, 1, 3, 4) == WAI_ok);
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 1, 2, 0, 2), 2, 1, 3, 4) == WAI_model_mismatch);  /* 4 rows */
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 1, 2, 0, 2), 2, 1, 4, 3) == WAI_model_mismatch);  /* 4 columns */
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 1, 2, 1, 2), 2, 1, 3, 4) == WAI_ok);              /* 5 × 6 */

    /* Shapes: [2, 3, 4], 5 out, k 3, stride 2, pad 1, opad 1: uncropped
     * (3−1)·2+3+1 = 8 by (4−1)·2+3+1 = 10, output 6 × 8. */
    wai_layer l = netgen_layer_convt(2, 5, 3, 2, 1, 1, 2);
    wai_model m = model_of(2, &l, 1);
    wai_plan p;
    if (CHECK(wai_plan_model(NULL, &m, 2, 3, 4, &p) == WAI_ok)) {
        const wai_plan_layer *e = &p.layers[0];
        CHECK(e->uh == 8 && e->uw == 10 && e->uncropped_elems == 400);
        CHECK(e->out_c == 5 && e->out_h == 6 && e->out_w == 8 && e->out_elems == 240);
        CHECK(e->macs == 24 * 5 * 9);
        CHECK(e->work_bytes == 8 * (24 + 240 + 400) && p.work_bytes == e->work_bytes);
        wai_plan_free(NULL, &p);
    }

    /* 1-D (WAM1): [3, 1, 10], 2 out, k 4, stride 2, pad 1, opad 1: the
     * length (10−1)·2+4+1 = 23 uncropped, 21 cropped; h stays 1 and is not
     * cropped (a pad of 1 would leave no row in 2-D). */
    l = netgen_layer_convt(3, 2, 4, 2, 1, 1, 1);
    m = model_of(1, &l, 1);
    if (CHECK(wai_plan_model(NULL, &m, 3, 1, 10, &p) == WAI_ok)) {
        const wai_plan_layer *e = &p.layers[0];
        CHECK(e->uh == 1 && e->uw == 23 && e->uncropped_elems == 46);
        CHECK(e->out_c == 2 && e->out_h == 1 && e->out_w == 21);
        CHECK(e->macs == 30 * 2 * 4);   /* every input × cout·k */
        wai_plan_free(NULL, &p);
    }
    /* 1-D crop: 2·pad smaller than the uncropped length. */
    CHECK(plan1(netgen_layer_convt(1, 1, 3, 1, 1, 0, 1), 1, 1, 1, 1) == WAI_ok);            /* 3 → 1 */
    CHECK(plan1(netgen_layer_convt(1, 1, 2, 1, 1, 0, 1), 1, 1, 1, 1) == WAI_model_mismatch);
    /* 1-D weight count is cin·cout·k: the 2-D count is refused. */
    wai_layer t2 = netgen_layer_convt(1, 2, 3, 1, 0, 0, 2);
    CHECK(plan1(t2, 1, 1, 1, 4) == WAI_model_mismatch);
}

/* Layer by layer: layer 1's rule 2 before layer 2's rule 1, and the other
 * way round. */
static void test_plan_layer_order(void) {
    wai_layer l[2];
    l[0] = netgen_layer_conv(1, 2, 1, 1, 0);
    l[1] = netgen_layer_igdn(7);
    wai_model m = model_of(2, l, 2);
    wai_plan p;
    CHECK(plan_on(&m, 1, 1 << 13, 1 << 13, &p) == WAI_too_large);
    CHECK(plan_on(&m, 1, 8, 8, &p) == WAI_model_mismatch);
    l[0] = netgen_layer_conv(1, 1, 9, 1, 0);   /* no output on 8 × 8 */
    l[1] = netgen_layer_conv(1, 1, 1, 1, CAP26);
    CHECK(plan_on(&m, 1, 8, 8, &p) == WAI_model_mismatch);
    CHECK(plan_on(&m, 1, 9, 9, &p) == WAI_too_large);
}

/* bmshj2018-factorized's synthesis at N = 128, M = 192, on a 512 × 768
 * image's latent [192, 32, 48]: four 5×5 transposed convolutions, stride
 * 2, pad 2, opad 1 (each side n → (n−1)·2 + 5 + 1 − 4 = 2n), with an
 * inverse GDN after each but the last.
 *
 * Multiply-accumulates (§7: a transposed convolution's every input ×
 * cout·k·k, an inverse GDN's every element × c):
 *   convT 192→128 on 192·32·48    =    294,912 inputs × 3200 =    943,718,400
 *   IGDN 128 on 128·64·96         =    786,432 elems  ×  128 =    100,663,296
 *   convT 128→128 on 128·64·96    =    786,432 inputs × 3200 =  2,516,582,400
 *   IGDN 128 on 128·128·192       =  3,145,728 elems  ×  128 =    402,653,184
 *   convT 128→128 on 128·128·192  =  3,145,728 inputs × 3200 = 10,066,329,600
 *   IGDN 128 on 128·256·384       = 12,582,912 elems  ×  128 =  1,610,612,736
 *   convT 128→3 on 128·256·384    = 12,582,912 inputs ×   75 =    943,718,400
 *   total                                                     = 16,584,278,016
 * Working bytes: the largest layer is the third convT: input 3,145,728,
 * uncropped plane 128·260·388 = 12,912,640, output 12,582,912; 28,641,280
 * elements × 8 = 229,130,240 bytes. */
static void test_plan_bmshj(void) {
    wai_layer l[7];
    l[0] = netgen_layer_convt(192, 128, 5, 2, 2, 1, 2);
    l[1] = netgen_layer_igdn(128);
    l[2] = netgen_layer_convt(128, 128, 5, 2, 2, 1, 2);
    l[3] = netgen_layer_igdn(128);
    l[4] = netgen_layer_convt(128, 128, 5, 2, 2, 1, 2);
    l[5] = netgen_layer_igdn(128);
    l[6] = netgen_layer_convt(128, 3, 5, 2, 2, 1, 2);
    wai_model m = model_of(2, l, 7);
    wai_plan p;
    if (!CHECK(wai_plan_model(NULL, &m, 192, 32, 48, &p) == WAI_ok)) return;
    CHECK(p.out_c == 3 && p.out_h == 512 && p.out_w == 768 && p.out_elems == 3u * 512 * 768);
    CHECK(p.macs == 16584278016ull);
    CHECK(p.work_bytes == 229130240ull);
    CHECK(p.n_layers == 7);
    static const uint32_t side[] = {64, 64, 128, 128, 256, 256, 512};
    for (int i = 0; i < 7; i++)
        CHECK_MSG(p.layers[i].out_h == side[i] && p.layers[i].out_w == side[i] * 3 / 2,
                  "layer %d: %u x %u", i, p.layers[i].out_h, p.layers[i].out_w);
    CHECK(p.layers[4].uh == 260 && p.layers[4].uw == 388 && p.layers[4].uncropped_elems == 12912640);
    CHECK(p.layers[3].macs == 402653184 && p.layers[3].work_bytes == 8ull * 2 * 3145728);
    uint64_t sum = 0;
    for (int i = 0; i < 7; i++) sum += p.layers[i].macs;
    CHECK(sum == p.macs);
    wai_plan_free(NULL, &p);
    /* Twice the sides still plans (the third convT's plane 128·516·772 =
     * 50,987,136 <= 2^26); four times does not (128·1028·1540). */
    CHECK(plan_on(&m, 192, 64, 96, &p) == WAI_ok);
    CHECK(plan_on(&m, 192, 128, 192, &p) == WAI_too_large);
}

/* A plan's numbers through a ReLU and leaky ReLU: shape kept, no work. */
static void test_plan_activations(void) {
    wai_layer l[3] = {netgen_layer_plain(WAI_LAYER_RELU), netgen_layer_plain(WAI_LAYER_LEAKY), netgen_layer_igdn(2)};
    wai_model m = model_of(2, l, 3);
    wai_plan p;
    if (CHECK(wai_plan_model(NULL, &m, 2, 3, 5, &p) == WAI_ok)) {
        CHECK(p.layers[0].macs == 0 && p.layers[1].macs == 0 && p.layers[2].macs == 60);
        CHECK(p.layers[1].out_c == 2 && p.layers[1].out_h == 3 && p.layers[1].out_w == 5);
        CHECK(p.work_bytes == 8 * 60 && p.macs == 60);
        wai_plan_free(NULL, &p);
    }
}

/* ---- parameter sums ----------------------------------------------------- */

static void test_sums(void) {
    /* CONV [cout 2][cin 2][2][2]: S_o sums its own filter. */
    int16_t cw[16] = {1, -2, 3, -4, 5, 6, 7, 8, /* o = 0 */
                      INT16_MIN, 0, 0, 0, 0, 0, 0, -1 /* o = 1 */};
    int64_t mb[3] = {0, 0, 0};
    wai_layer l[4];
    l[0] = netgen_layer_conv(2, 2, 2, 1, 0);
    l[0].weights = cw;
    l[0].mult = mb;
    l[0].bias = mb;
    /* CONV_T [cin 2][cout 3][1][1]: S_o sums W[·][o]. */
    int16_t tw[6] = {1, -2, 3, /* i = 0 */ -10, 20, INT16_MIN /* i = 1 */};
    l[1] = netgen_layer_convt(2, 3, 1, 1, 0, 0, 2);
    l[1].weights = tw;
    l[1].mult = mb;
    l[1].bias = mb;
    int32_t g[4] = {INT32_MIN, 5, -7, 0};
    int64_t beta[2] = {0, 0};
    l[2] = netgen_layer_igdn(2);
    l[2].gamma = g;
    l[2].beta = beta;
    l[3] = netgen_layer_plain(WAI_LAYER_RELU);
    wai_model m = model_of(2, l, 4);
    harness_alloc cnt;
    wai_allocator a = counting(&cnt);
    wai_sums s;
    if (CHECK(wai_sums_compute(&a, &m, &s) == WAI_ok)) {
        CHECK(cnt.calls == 1 && s.n_layers == 4);
        CHECK(s.layers[0].n == 2 && s.layers[0].sums[0] == 36 && s.layers[0].sums[1] == 32769);
        CHECK(s.layers[0].max == 32769);
        CHECK(s.layers[1].n == 3 && s.layers[1].sums[0] == 11 && s.layers[1].sums[1] == 22 &&
              s.layers[1].sums[2] == 32771 && s.layers[1].max == 32771);
        CHECK(s.layers[2].n == 2 && s.layers[2].sums[0] == 2147483653ull &&
              s.layers[2].sums[1] == 7 && s.layers[2].max == 2147483653ull);
        CHECK(s.layers[3].n == 0 && s.layers[3].sums == NULL && s.layers[3].max == 0);
        wai_sums_free(&a, &s);
        CHECK(cnt.live == 0);
    }
    /* 1-D: [cin 1][cout 2][k 3]. */
    int16_t w1[6] = {1, 2, 3, -4, -5, -6};
    l[0] = netgen_layer_convt(1, 2, 3, 1, 0, 0, 1);
    l[0].weights = w1;
    l[0].mult = mb;
    l[0].bias = mb;
    m = model_of(1, l, 1);
    if (CHECK(wai_sums_compute(NULL, &m, &s) == WAI_ok)) {
        CHECK(s.layers[0].sums[0] == 6 && s.layers[0].sums[1] == 15 && s.layers[0].max == 15);
        wai_sums_free(NULL, &s);
    }
    /* No weights, however large the other fields: every sum 0, at once
     * (the fuzzer's cin 2^32 − 1 with k 0 once spun for billions of steps). */
    int64_t mb2[2] = {0, 0};
    l[0] = netgen_layer_conv(0xFFFFFFFFu, 2, 0, 1, 0);
    l[0].mult = mb2;
    l[0].bias = mb2;
    l[1] = netgen_layer_convt(0xFFFFFFFFu, 0, 3, 1, 0, 0, 2);
    m = model_of(2, l, 2);
    if (CHECK(wai_sums_compute(NULL, &m, &s) == WAI_ok)) {
        CHECK(s.layers[0].n == 2 && s.layers[0].sums[0] == 0 && s.layers[0].max == 0);
        CHECK(s.layers[1].n == 0);
        wai_sums_free(NULL, &s);
    }
    /* A hand-built layer whose count disagrees is refused, never read past. */
    l[0] = netgen_layer_convt(1, 2, 3, 1, 0, 0, 1);
    l[0].weights = w1;
    l[0].mult = mb;
    l[0].bias = mb;
    m = model_of(1, l, 1);
    l[0].n_weights = 7;
    CHECK(wai_sums_compute(NULL, &m, &s) == WAI_invalid_argument);
    /* Random parsed models: sums equal a direct loop. */
    wai_layer r[SMALL_WHM1_LAYERS];
    small_whm1(r, &m);
    uint8_t *b;
    size_t n;
    wai_model p;
    if (CHECK(wai_model_write(NULL, &m, &b, &n) == WAI_ok) &&
        CHECK(wai_model_parse(NULL, b, n, 2, &p) == WAI_ok)) {
        if (CHECK(wai_sums_compute(NULL, &p, &s) == WAI_ok)) {
            const wai_layer *c0 = &p.layers[0];   /* netgen_layer_conv(3, 4, 3, 1, 1) */
            for (uint32_t o = 0; o < 4; o++) {
                uint64_t e = 0;
                for (uint32_t i = 0; i < 27; i++) {
                    int32_t v = c0->weights[o * 27 + i];
                    e += (uint64_t)(v < 0 ? -v : v);
                }
                CHECK(s.layers[0].sums[o] == e);
            }
            const wai_layer *t0 = &p.layers[2];   /* netgen_layer_convt(4, 2, 3, ...) */
            for (uint32_t o = 0; o < 2; o++) {
                uint64_t e = 0;
                for (uint32_t i = 0; i < 4; i++)
                    for (uint32_t k = 0; k < 9; k++) {
                        int32_t v = t0->weights[(i * 2 + o) * 9 + k];
                        e += (uint64_t)(v < 0 ? -v : v);
                    }
                CHECK(s.layers[2].sums[o] == e);
            }
            wai_sums_free(NULL, &s);
        }
        wai_model_free(NULL, &p);
    }
    free(b);
    unfill(r, SMALL_WHM1_LAYERS);
}

void suite_model(void) {
    harness_run("model_round_trip", test_round_trip);
    harness_run("model_truncation_trailing", test_truncation_and_trailing);
    harness_run("model_tags_magic", test_tags_and_magic);
    harness_run("model_giant_counts", test_giant_counts);
    harness_run("model_write_refusals", test_write_refusals);
    harness_run("model_plan_input", test_plan_input);
    harness_run("model_plan_rule1", test_plan_rule1);
    harness_run("model_plan_conv", test_plan_conv_rules);
    harness_run("model_plan_convt", test_plan_convt_rules);
    harness_run("model_plan_layer_order", test_plan_layer_order);
    harness_run("model_plan_bmshj", test_plan_bmshj);
    harness_run("model_plan_activations", test_plan_activations);
    harness_run("model_sums", test_sums);
}
