/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIM1 encoder (wai_mlic_encode) against a WIM1 set made here from the
 * shipped WIH1 set (examples/hyperprior/sets/q3): model.wmb holds its h_s,
 * g_s and entropy.json (with afrac, as tools/mlicpp/lower.py bundles them)
 * and an entropy network that passes h_s's sigma || mu through, whatever
 * the latent coded so far (a 1x1 convolution); beside them, the same
 * analysis. Every element is then coded against the scale and mean the
 * WIH1 encoder codes it against, so the WIM1 of a picture has the WIH1's z
 * stream and decodes to the WIH1's picture, at every slice count: the
 * encoder's order of passes and the rebuilt latent the entropy network
 * sees are the decode's. Also: the payload's header, its decode's squared
 * error as reported, the same payload at every thread count, the
 * refusals, each with its code, and an allocation failure anywhere is
 * out_of_memory (or one the native WebNN absorbs), with nothing leaked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "gen/netgen.h"
#include "gen/wim1gen.h"
#include "encode_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_write.h"

#define SET_DIR "../examples/hyperprior/sets/q3"
#define MLIC "wai.neural.int_mlicpp"

static const char *const members[] = {"g_s.whm", "h_s.whm", "entropy.json", "analysis.webnn.json",
                                      "analysis.f32"};
#define N_MEMBERS 5
enum { G_S, H_S, ENTROPY, ANALYSIS, WEIGHTS };

/* What stands in for a broken member: a text no reader takes. */
#define JUNK "{\"kind\": \"wai-webnn-graph/1\"}"

/* The WIH1 set's files and the WIM1 set's (model.wmb, then the analysis). */
typedef struct sets {
    harness_set_files hyper;
    harness_set_files mlic;
    uint32_t cy;
} sets;

static const char *const mlic_names[] = {"model.wmb", "analysis.webnn.json", "analysis.f32"};

/* The entropy network of cy latent channels at h_s's header: output o is
 * input channel cy + o (weight 1, multiplier 2^shift, no bias). */
static uint8_t *pass_through(const uint8_t *h_s, uint32_t cy, size_t *len) {
    const uint32_t afrac = wai_load_u32le(h_s + 4), gf = wai_load_u32le(h_s + 8),
                   shift = wai_load_u32le(h_s + 12);
    wai_layer l = netgen_layer_conv(3 * cy, 2 * cy, 1, 1, 0);
    int16_t *w = calloc((size_t)l.n_weights, sizeof *w);
    int64_t *mult = malloc(2 * cy * sizeof *mult), *bias = calloc(2 * cy, sizeof *bias);
    for (uint32_t o = 0; o < 2 * cy; o++) {
        w[(size_t)o * 3 * cy + cy + o] = 1;
        mult[o] = (int64_t)1 << shift;
    }
    l.weights = w, l.mult = mult, l.bias = bias;
    wai_model m = netgen_model_of(2, &l, 1, afrac, gf, shift);
    uint8_t *out = NULL;
    CHECK(netgen_bytes(NULL, &m, &out, len) == WAI_ok);
    free(w), free(mult), free(bias);
    return out;
}

/* Reads the WIH1 set and makes the WIM1 set's members; 0 when a file is
 * missing (a failed check). tables_afrac 0 leaves afrac out of the tables. */
static int sets_read(sets *s, int tables_afrac) {
    memset(s, 0, sizeof *s);
    if (!harness_set_files_read(SET_DIR, members, N_MEMBERS, &s->hyper)) return 0;
    const harness_set_files *f = &s->hyper;
    s->cy = 96; /* the shipped set's latent channels */
    size_t ent_len = 0;
    uint8_t *ent = pass_through(f->data[H_S], s->cy, &ent_len);
    char head[64];
    snprintf(head, sizeof head, "{\"afrac\": %u, ", (unsigned)wai_load_u32le(f->data[H_S] + 4));
    const size_t head_len = tables_afrac ? strlen(head) : 1;
    wim1gen_buf b = {0};
    wim1gen_add(&b, "WMB1", 4);
    const uint8_t *parts[3] = {f->data[H_S], ent, f->data[G_S]};
    const size_t lens[3] = {f->len[H_S], ent_len, f->len[G_S]};
    for (int i = 0; i < 3; i++) {
        wim1gen_add_u32(&b, (uint32_t)lens[i]);
        wim1gen_add(&b, parts[i], lens[i]);
    }
    wim1gen_add_u32(&b, (uint32_t)(head_len + f->len[ENTROPY] - 1));
    wim1gen_add(&b, head, head_len);
    wim1gen_add(&b, f->data[ENTROPY] + 1, f->len[ENTROPY] - 1);
    free(ent);
    s->mlic.names = mlic_names;
    s->mlic.n = 3;
    s->mlic.data[0] = b.b;
    s->mlic.len[0] = b.len;
    for (int i = 1; i < 3; i++) {
        s->mlic.data[i] = f->data[ANALYSIS + i - 1];
        s->mlic.len[i] = f->len[ANALYSIS + i - 1];
    }
    return 1;
}

static void sets_free(sets *s) {
    free(s->mlic.data[0]);
    harness_set_files_free(&s->hyper);
}

/* 1 when the public decoder decodes the payload to want (size bytes). */
static int decodes_to(wai_context *ctx, wai_set *set, const uint8_t *payload, size_t len,
                      const uint8_t *want, size_t size) {
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = MLIC;
    cfg.set = set;
    wai_decoder *dec = NULL;
    wai_output o;
    int same = 0;
    if (CHECK(wai_decoder_create(ctx, &cfg, &dec) == WAI_ok) &&
        CHECK(wai_decoder_send(dec, payload, len, NULL) == WAI_ok) &&
        CHECK(wai_decoder_receive(dec, &o) == WAI_ok) &&
        CHECK_MSG(o.kind == WAI_OUTPUT_IMAGE && o.size == size, "output of %zu bytes", o.size))
        same = memcmp(o.data, want, size) == 0;
    wai_decoder_destroy(dec);
    return same;
}

static void test_round_trip(void) {
    sets s;
    if (!sets_read(&s, 1)) return sets_free(&s);
    const uint32_t h = 40, w = 50;
    uint8_t *pic = encode_picture(h, w);
    wai_context *ctx = encode_context(1, NULL);
    wai_set *hyper = harness_set_make(ctx, &s.hyper, N_MEMBERS, -1, JUNK);
    wai_set *mlic = harness_set_make(ctx, &s.mlic, 3, -1, JUNK);
    wai_hyper_encode_params hp;
    wai_hyper_encode_params_default(&hp);
    hp.keep_decoded = 1;
    wai_mlic_encode_params mp;
    wai_mlic_encode_params_default(&mp);
    mp.keep_decoded = 1;
    wai_hyper_encode_result key;
    wai_mlic_encode_result r, again;
    if (CHECK(wai_hyper_encode(ctx, hyper, pic, h, w, &hp, &key) == WAI_ok) &&
        CHECK(wai_mlic_encode(ctx, mlic, pic, h, w, &mp, &r) == WAI_ok)) {
        CHECK(r.h == h && r.w == w && r.coded_h == 64 && r.coded_w == 64);
        CHECK(r.samples == (uint64_t)h * w * 3 && r.m == s.cy && r.n_z == 64 && r.k == 4);
        CHECK(r.payload_len == 36 + r.z_bytes + r.y_bytes);
        const uint8_t *p = r.payload;
        CHECK(memcmp(p, "WIM1", 4) == 0 && wai_load_u32le(p + 4) == 64 &&
              wai_load_u32le(p + 8) == 64);
        static const uint16_t fields[8] = {64, 1, 1, 96, 4, 4, 4, 0};
        for (int i = 0; i < 8; i++)
            CHECK_MSG(wai_load_u16le(p + 12 + 2 * i) == fields[i], "header field %d", i);
        CHECK(wai_load_u32le(p + 28) == r.z_bytes && wai_load_u32le(p + 32) == r.y_bytes);
        /* The WIH1's z stream (after its 32-byte header and the length),
         * scales and decode. */
        CHECK(r.z_bytes == key.z_bytes && memcmp(p + 36, key.payload + 36, r.z_bytes) == 0);
        CHECK(r.y_escapes == key.y_escapes && r.z_escapes == key.z_escapes);
        CHECK(r.sse == key.sse && r.decoded &&
              memcmp(r.decoded, key.decoded, (size_t)64 * 64 * 3) == 0);
        CHECK(decodes_to(ctx, mlic, r.payload, r.payload_len, r.decoded, (size_t)64 * 64 * 3));
        CHECK_MSG(r.sse < 400 * r.samples, "sse %llu", (unsigned long long)r.sse);
        /* The same payload at every thread count. */
        for (unsigned threads = 2; threads <= 3; threads++) {
            wai_context *more = encode_context(threads, NULL);
            memset(&again, 0, sizeof again);
            if (more && CHECK(wai_mlic_encode(more, mlic, pic, h, w, NULL, &again) == WAI_ok))
                CHECK_MSG(again.payload_len == r.payload_len && again.decoded == NULL &&
                              memcmp(again.payload, r.payload, r.payload_len) == 0,
                          "%u threads", threads);
            wai_mlic_encode_result_free(more, &again);
            wai_context_destroy(more);
        }
        wai_mlic_encode_result_free(ctx, &r);
    }
    wai_hyper_encode_result_free(ctx, &key);
    wai_set_destroy(hyper);
    wai_set_destroy(mlic);
    wai_context_destroy(ctx);
    free(pic);
    sets_free(&s);
}

/* Every K that divides the 96 channels decodes to the same picture (the
 * pass-through network's), each payload its own; the others are refused. */
static void test_slices(void) {
    sets s;
    if (!sets_read(&s, 1)) return sets_free(&s);
    const uint32_t h = 64, w = 128;
    uint8_t *pic = encode_picture(h, w);
    wai_context *ctx = encode_context(2, NULL);
    wai_set *mlic = harness_set_make(ctx, &s.mlic, 3, -1, JUNK);
    wai_mlic_encode_params p;
    wai_mlic_encode_params_default(&p);
    p.keep_decoded = 1;
    wai_mlic_encode_result first, r;
    p.k = 1;
    if (CHECK(wai_mlic_encode(ctx, mlic, pic, h, w, &p, &first) == WAI_ok)) {
        /* Under qemu-i386 each encode takes some 19 s whatever its K: the
         * six encodes took 114 s, the three below 74 s. The emulators take
         * two K (the slice logic is the same C everywhere; the kernels'
         * arithmetic is in every pass); the x86-64 builds take every K up
         * to M / 2. */
#if defined(__x86_64__)
        static const uint32_t ks[] = {2, 3, 4, 32, 96};
#else
        static const uint32_t ks[] = {2, 32};
#endif
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            p.k = ks[i];
            if (!CHECK_MSG(wai_mlic_encode(ctx, mlic, pic, h, w, &p, &r) == WAI_ok, "K %u", ks[i]))
                continue;
            CHECK(r.k == ks[i] && wai_load_u16le(r.payload + 24) == ks[i]);
            CHECK_MSG(r.sse == first.sse && memcmp(r.decoded, first.decoded, (size_t)h * w * 3) == 0,
                      "K %u decodes unlike K 1", ks[i]);
            CHECK(decodes_to(ctx, mlic, r.payload, r.payload_len, r.decoded, (size_t)h * w * 3));
            wai_mlic_encode_result_free(ctx, &r);
        }
        wai_mlic_encode_result_free(ctx, &first);
    }
    static const uint32_t bad[] = {5, 7, 64, 192, 65535, 65536, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p.k = bad[i];
        CHECK_MSG(wai_mlic_encode(ctx, mlic, pic, h, w, &p, &r) == WAI_invalid_argument, "K %u",
                  bad[i]);
        CHECK(r.payload == NULL && r.decoded == NULL);
    }
    wai_set_destroy(mlic);
    wai_context_destroy(ctx);
    free(pic);
    sets_free(&s);
}

/* Each refusal with its code, the result left empty; the sets in the
 * order of the set column (set_of). */
enum { FULL, DECODER_ONLY, WIH1_SET, BAD_BUNDLE, BAD_GRAPH, NO_AFRAC, NO_SET, N_SETS };

static void test_refusals(void) {
    sets s, plain;
    const int have = sets_read(&s, 1);
    if (!sets_read(&plain, 0) || !have) {
        sets_free(&s);
        return sets_free(&plain);
    }
    uint8_t *pic = encode_picture(64, 64);
    wai_context *ctx = encode_context(1, NULL);
    wai_set *set_of[N_SETS] = {
        harness_set_make(ctx, &s.mlic, 3, -1, JUNK),      harness_set_make(ctx, &s.mlic, 1, -1, JUNK),
        harness_set_make(ctx, &s.hyper, N_MEMBERS, -1, JUNK), harness_set_make(ctx, &s.mlic, 3, 0, JUNK),
        harness_set_make(ctx, &s.mlic, 3, 1, JUNK),       harness_set_make(ctx, &plain.mlic, 3, -1, JUNK),
        NULL};
    static const struct {
        int no_ctx, set, no_pic;
        uint32_t h, w;
        uint8_t reserved; /* p.reserved[23] */
        wai_status want;
        const char *what;
    } cases[] = {
        {1, FULL, 0, 64, 64, 0, WAI_invalid_argument, "no context"},
        {0, NO_SET, 0, 64, 64, 0, WAI_invalid_argument, "no set"},
        {0, FULL, 1, 64, 64, 0, WAI_invalid_argument, "no picture"},
        {0, FULL, 0, 0, 64, 0, WAI_invalid_argument, "no rows"},
        {0, FULL, 0, 64, 0, 0, WAI_invalid_argument, "no columns"},
        {0, FULL, 0, 64, 64, 1, WAI_invalid_argument, "a reserved byte"},
        /* 3 x 4736 x 4736 passes 2^26: refused before the picture is read. */
        {0, FULL, 0, 4700, 4700, 0, WAI_too_large, "past 2^26 coded"},
        {0, FULL, 0, 1, 1u << 22, 0, WAI_too_large, "past 2^26 coded, one row"},
        {0, DECODER_ONLY, 0, 64, 64, 0, WAI_set_incomplete, "no analysis"},
        {0, WIH1_SET, 0, 64, 64, 0, WAI_set_incomplete, "a WIH1 set: no model.wmb"},
        {0, BAD_BUNDLE, 0, 64, 64, 0, WAI_model_mismatch, "a bundle that does not parse"},
        {0, BAD_GRAPH, 0, 64, 64, 0, WAI_model_mismatch, "an analysis that does not parse"},
        {0, NO_AFRAC, 0, 64, 64, 0, WAI_model_mismatch, "WMB1's tables without afrac"},
    };
    wai_mlic_encode_params p;
    wai_mlic_encode_params_default(&p);
    wai_mlic_encode_result r;
    CHECK(wai_mlic_encode(ctx, set_of[FULL], pic, 64, 64, &p, NULL) == WAI_invalid_argument);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p.reserved[23] = cases[i].reserved;
        memset(&r, 0xa5, sizeof r);
        const wai_status st = wai_mlic_encode(cases[i].no_ctx ? NULL : ctx, set_of[cases[i].set],
                                              cases[i].no_pic ? NULL : pic, cases[i].h, cases[i].w,
                                              &p, &r);
        CHECK_MSG(st == cases[i].want, "%s: %s", cases[i].what, wai_status_name(st));
        CHECK_MSG(r.payload == NULL && r.payload_len == 0 && r.decoded == NULL && r.sse == 0,
                  "%s: the result is not empty", cases[i].what);
    }
    wai_mlic_encode_result_free(ctx, NULL);
    for (int i = 0; i < N_SETS; i++) wai_set_destroy(set_of[i]);
    wai_context_destroy(ctx);
    free(pic);
    sets_free(&s);
    sets_free(&plain);
}

/* An encode of the 64 x 64 picture arg in two slices, keeping its decode
 * (the result's every allocation too). */
static wai_status encode_kept(wai_context *ctx, wai_set *set, const void *arg) {
    wai_mlic_encode_params p;
    wai_mlic_encode_params_default(&p);
    p.keep_decoded = 1;
    p.k = 2;
    wai_mlic_encode_result r;
    const wai_status st = wai_mlic_encode(ctx, set, arg, 64, 64, &p, &r);
    if (st == WAI_ok) CHECK(r.decoded != NULL);
    wai_mlic_encode_result_free(ctx, &r);
    return st;
}

/* Part p fails the encode's calls p + 1, p + 1 + parts, ... */
static void test_allocation_failures(unsigned part, unsigned parts) {
    sets s;
    uint8_t *pic = encode_picture(64, 64);
    if (sets_read(&s, 1)) harness_sweep_allocations(part, parts, 1, &s.mlic, 3, encode_kept, pic);
    sets_free(&s);
    free(pic);
}

void suite_mlic_encode(void) {
    harness_run("mlic_encode/round_trip", test_round_trip);
    harness_run("mlic_encode/slices", test_slices);
    harness_run("mlic_encode/refusals", test_refusals);
    /* Some 800 encodes: on the x86-64 builds (gcc, clang, ASan), not under
     * the emulators of the other architectures, where it takes minutes. */
#if defined(__x86_64__)
    harness_run_parts("mlic_encode/allocation_failures", 4, test_allocation_failures);
#else
    (void)test_allocation_failures;
#endif
}
