/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIV1 encoder (src/encode): its payloads decode, through the public
 * decoder, to exactly the reconstruction it reports: lossless at q = 1, and
 * at q > 1 with the SSE it reports, frame by frame. */
#include <stdlib.h>
#include <string.h>

#include "wai/wai_write.h"
#include "common/reader.h"
#include "harness.h"
#include "wai/wai_decode.h"

static uint64_t g_seed = 0xe2c0de01;

static uint32_t rnd(uint32_t bound) { return (uint32_t)(harness_rand(&g_seed) % bound); }

/* A clip with something for motion search to find: a smooth random texture
 * that moves by a few pels a frame, with some noise and a flat patch. */
static uint8_t *make_clip(uint32_t n, uint32_t h, uint32_t w, int noisy) {
    uint8_t *c = malloc((size_t)n * h * w * 3);
    uint32_t th = h + 16 * n, tw = w + 16 * n;
    uint8_t *tex = malloc((size_t)th * tw * 3);
    for (size_t i = 0; i < (size_t)th * tw * 3; i++) tex[i] = (uint8_t)rnd(256);
    /* Smooth it a little so prediction helps. */
    for (uint32_t y = 1; y < th; y++)
        for (uint32_t x = 1; x < tw; x++)
            for (int k = 0; k < 3; k++) {
                size_t at = ((size_t)y * tw + x) * 3 + (size_t)k;
                tex[at] = (uint8_t)((tex[at] + tex[at - 3] + tex[at - (size_t)tw * 3] + 1) / 3);
            }
    int32_t vy = (int32_t)rnd(5) - 2, vx = (int32_t)rnd(5) - 2;
    for (uint32_t f = 0; f < n; f++) {
        int32_t oy = 8 * (int32_t)n + vy * (int32_t)f, ox = 8 * (int32_t)n + vx * (int32_t)f;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (int k = 0; k < 3; k++) {
                    size_t src = (((size_t)(y + (uint32_t)oy)) * tw + x + (uint32_t)ox) * 3 +
                                 (size_t)k;
                    int32_t v = tex[src];
                    if (noisy) v += (int32_t)rnd(9) - 4;
                    if (y < h / 4 && x < w / 4) v = 255 * (int32_t)(f & 1); /* extremes */
                    c[(((size_t)f * h + y) * w + x) * 3 + (size_t)k] =
                        (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
    }
    free(tex);
    return c;
}

/* Decodes payloads as one stream of `cap`; returns the frames (n*h*w*3
 * bytes) or NULL with a failed check. */
static uint8_t *decode_all(const char *cap, const uint8_t *const *payloads, const size_t *lens,
                           uint32_t n_payloads, uint32_t n, uint32_t h, uint32_t w) {
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = cap;
    size_t frame = (size_t)h * w * 3;
    uint8_t *out = malloc(frame * n);
    uint32_t got = 0;
    int ok = CHECK(wai_context_create(NULL, &ctx) == WAI_ok) &&
             CHECK(wai_decoder_create(ctx, &cfg, &dec) == WAI_ok);
    for (uint32_t i = 0; ok && i < n_payloads; i++) {
        wai_status st = wai_decoder_send(dec, payloads[i], lens[i], NULL);
        ok = CHECK_MSG(st == WAI_ok, "decode: %s", wai_status_name(st));
        for (;;) {
            wai_output o;
            if (!ok || !CHECK(wai_decoder_receive(dec, &o) == WAI_ok)) {
                ok = 0;
                break;
            }
            if (o.kind == WAI_OUTPUT_NONE) break;
            ok = CHECK(o.kind == WAI_OUTPUT_FRAME && o.size == frame && got < n);
            if (ok) memcpy(out + frame * got++, o.data, frame);
        }
    }
    if (ok) ok = CHECK(got == n);
    wai_decoder_destroy(dec);
    wai_context_destroy(ctx);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

static uint64_t frame_sse(const uint8_t *a, const uint8_t *b, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t d = (int32_t)a[i] - b[i];
        s += (uint64_t)(d * d);
    }
    return s;
}

/* Encodes, decodes as a clip and as a split frame stream, and checks the
 * reconstruction against the encoder's report. */
static void round_trip(uint32_t n, uint32_t h, uint32_t w, const wai_motion_encode_params *p,
                       int noisy) {
    uint8_t *clip = make_clip(n, h, w, noisy);
    size_t frame = (size_t)h * w * 3;
    const uint8_t **frames = malloc(n * sizeof *frames);
    for (uint32_t f = 0; f < n; f++) frames[f] = clip + frame * f;
    wai_motion_encode_result r;
    wai_status st = wai_motion_encode(NULL, frames, n, h, w, p, &r);
    if (!CHECK_MSG(st == WAI_ok, "encode %ux%ux%u q%u b%u s%u hp%d: %s", n, h, w, p->q,
                   p->block, p->search, p->half_pel, wai_status_name(st)))
        goto out;
    CHECK(r.pixels == (uint64_t)n * h * w && r.samples == 3 * r.pixels);
    const uint8_t *pl[1] = {r.payload};
    size_t ll[1] = {r.payload_len};
    uint8_t *dec = decode_all("wai.video.int_motion", pl, ll, 1, n, h, w);
    if (dec) {
        uint64_t total = 0;
        for (uint32_t f = 0; f < n; f++) {
            uint64_t s = frame_sse(dec + frame * f, clip + frame * f, frame);
            CHECK_MSG(s == r.frame_sse[f], "frame %u: sse %llu, encoder said %llu", f,
                      (unsigned long long)s, (unsigned long long)r.frame_sse[f]);
            total += s;
        }
        CHECK(total == r.sse);
        if (p->q == 1) CHECK_MSG(r.sse == 0 && memcmp(dec, clip, frame * n) == 0,
                                 "q=1 not lossless (%ux%ux%u)", n, h, w);
    }
    /* One frame: whole-pel and block 1 whatever was asked (§3). */
    if (n == 1) CHECK(r.payload[5] == 1 && r.payload[20] == 1 && r.payload[21] == 0);
    else CHECK(r.payload[5] == (p->half_pel ? 2 : 1));
    /* The same clip as a WIF1 group decodes to the same frames. */
    wai_payload *group = NULL;
    uint32_t n_group = 0;
    if (CHECK(wai_wiv1_split(NULL, r.payload, r.payload_len, &group, &n_group) == WAI_ok) &&
        CHECK(n_group == n)) {
        const uint8_t **gp = malloc(n * sizeof *gp);
        size_t *gl = malloc(n * sizeof *gl);
        for (uint32_t f = 0; f < n; f++) {
            gp[f] = group[f].data;
            gl[f] = group[f].len;
        }
        uint8_t *dec2 = decode_all("wai.video.int_motion.frame", gp, gl, n, n, h, w);
        if (dec && dec2) CHECK(memcmp(dec, dec2, frame * n) == 0);
        free(dec2);
        free(gp);
        free(gl);
    }
    wai_payloads_free(NULL, group, n_group);
    free(dec);
    wai_motion_encode_result_free(NULL, &r);
out:
    free(frames);
    free(clip);
}

static void test_round_trips(void) {
    static const uint32_t qs[] = {1, 2, 3, 8, 37, 255, 256, 65535};
    static const uint32_t dims[][3] = {{1, 1, 1},  {1, 17, 33}, {2, 1, 9},  {3, 5, 7},
                                       {4, 17, 33}, {2, 16, 16}, {3, 24, 8}, {5, 9, 40}};
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
        for (size_t qi = 0; qi < sizeof qs / sizeof qs[0]; qi++) {
            wai_motion_encode_params p;
            wai_motion_encode_params_default(&p);
            p.q = qs[qi];
            p.block = 1 + rnd(12);
            p.search = rnd(4);
            p.half_pel = (int)rnd(2);
            p.sad_search = (int)rnd(2);
            round_trip(dims[d][0], dims[d][1], dims[d][2], &p, (int)((d + qi) & 1));
        }
    }
}

/* Vectors far past the frame's edge, blocks larger than the frame. */
static void test_edges(void) {
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.search = 40;
    p.half_pel = 1;
    p.block = 64;
    round_trip(3, 6, 5, &p, 1);
    p.block = 1;
    p.search = 7;
    round_trip(3, 4, 4, &p, 0);
    p.q = 5;
    round_trip(3, 4, 4, &p, 1);
}

static void test_motion_helps(void) {
    /* A pure translation: searching must find it and cost fewer bytes. */
    uint32_t n = 3, h = 32, w = 32;
    uint8_t *clip = malloc((size_t)n * h * w * 3);
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (uint32_t k = 0; k < 3; k++) {
                    uint32_t xx = x + 3 * f, yy = y + 2 * f;
                    clip[(((size_t)f * h + y) * w + x) * 3 + k] =
                        (uint8_t)((xx * 37 + yy * yy * 11 + k * 50 + (xx * yy) % 17) & 255);
                }
    const uint8_t *frames[3];
    for (uint32_t f = 0; f < n; f++) frames[f] = clip + (size_t)f * h * w * 3;
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.block = 8;
    p.search = 0;
    wai_motion_encode_result still, moving, again;
    CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &still) == WAI_ok);
    p.search = 4;
    CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &moving) == WAI_ok);
    CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &again) == WAI_ok);
    CHECK_MSG(moving.payload_len < still.payload_len, "search 4: %zu bytes, search 0: %zu",
              moving.payload_len, still.payload_len);
    /* Deterministic: the same input gives the same bytes. */
    CHECK(again.payload_len == moving.payload_len &&
          memcmp(again.payload, moving.payload, moving.payload_len) == 0);
    /* The first block's vector (frame 1) is the translation, (+2, +3). */
    uint8_t *v = moving.payload + 36 + 4 * (size_t)moving.cdf_len;
    CHECK(v[0] == 2 && v[1] == 0 && v[2] == 3 && v[3] == 0);
    wai_motion_encode_result_free(NULL, &still);
    wai_motion_encode_result_free(NULL, &moving);
    wai_motion_encode_result_free(NULL, &again);
    free(clip);
}

static void test_arguments(void) {
    uint8_t px[3] = {1, 2, 3};
    const uint8_t *frames[1] = {px};
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    wai_motion_encode_result r;
    p.q = 0;
    CHECK(wai_motion_encode(NULL, frames, 1, 1, 1, &p, &r) == WAI_invalid_argument);
    p.q = 65536;
    CHECK(wai_motion_encode(NULL, frames, 1, 1, 1, &p, &r) == WAI_invalid_argument);
    p.q = 1;
    p.block = 0;
    CHECK(wai_motion_encode(NULL, frames, 1, 1, 1, &p, &r) == WAI_invalid_argument);
    p.block = 1;
    p.search = WAI_MOTION_ENCODE_MAX_SEARCH + 1;
    CHECK(wai_motion_encode(NULL, frames, 1, 1, 1, &p, &r) == WAI_invalid_argument);
    p.search = 0;
    CHECK(wai_motion_encode(NULL, frames, 0, 1, 1, &p, &r) == WAI_invalid_argument);
    CHECK(wai_motion_encode(NULL, frames, 1, 0, 1, &p, &r) == WAI_invalid_argument);
    /* Past the frame cap (2^26 samples): refused before anything is read. */
    CHECK(wai_motion_encode(NULL, frames, 1, 4097, 8192, &p, &r) == WAI_too_large);
    CHECK(wai_motion_encode(NULL, frames, 1, 1, 1, &p, &r) == WAI_ok);
    wai_motion_encode_result_free(NULL, &r);
}

/* Every allocation failing in turn: out_of_memory, nothing leaked (ASan). */
static void test_allocation_failures(void) {
    uint32_t n = 3, h = 9, w = 11;
    uint8_t *clip = make_clip(n, h, w, 1);
    const uint8_t *frames[3];
    for (uint32_t f = 0; f < n; f++) frames[f] = clip + (size_t)f * h * w * 3;
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.q = 4;
    p.block = 4;
    p.half_pel = 1;
    size_t failures = 0;
    for (size_t k = 0; k < 1000; k++) {
        harness_alloc fa = {0};
        fa.fail_at = k + 1;
        wai_allocator a = harness_allocator(&fa);
        wai_motion_encode_result r;
        wai_status st = wai_motion_encode(&a, frames, n, h, w, &p, &r);
        if (st == WAI_ok) {
            CHECK(!fa.failed);
            wai_motion_encode_result_free(&a, &r);
            CHECK(fa.live == 0);
            break;
        }
        CHECK_MSG(fa.live == 0, "allocation %zu: %zu blocks leaked", k, fa.live);
        failures += (size_t)fa.failed;
        if (!CHECK_MSG(st == WAI_out_of_memory, "allocation %zu: %s", k, wai_status_name(st)))
            break;
    }
    CHECK(failures > 0); /* the allocator did fail calls: the test is not vacuous */
    free(clip);
}

/* At q > 1 the payload is never larger than q 1's (issue 16: a grey clip was
 * 24,208 bytes at q 8 against 12,592 at q 1): a ramp whose q 2 coding costs
 * more than its lossless one, and noise whose coarse steps pay. res->q says
 * which step the payload has, and its header agrees. */
static void test_never_larger_than_lossless(void) {
    const uint32_t n = 4, h = 48, w = 64;
    size_t frame = (size_t)h * w * 3;
    uint8_t *clip = malloc(frame * n);
    const uint8_t *frames[4];
    for (int kind = 0; kind < 2; kind++) {
        uint64_t seed = 7;
        for (uint32_t f = 0; f < n; f++) {
            for (size_t i = 0; i < frame; i += 3) {
                size_t px = i / 3;
                uint8_t v = kind ? (uint8_t)(harness_rand(&seed) >> 24)
                                 : (uint8_t)((px % w) * 3 + (px / w) * 5 + f * 2);
                clip[f * frame + i] = clip[f * frame + i + 1] = clip[f * frame + i + 2] = v;
            }
            frames[f] = clip + f * frame;
        }
        wai_motion_encode_params p;
        wai_motion_encode_params_default(&p);
        wai_motion_encode_result lossless;
        if (!CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &lossless) == WAI_ok)) break;
        CHECK(lossless.q == 1);
        int switched = 0, kept = 0;
        for (uint32_t q = 2; q <= 16; q *= 2) {
            wai_motion_encode_result r;
            p.q = q;
            if (!CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &r) == WAI_ok)) continue;
            CHECK_MSG(r.payload_len <= lossless.payload_len, "%s q %u: %zu bytes, q 1 %zu",
                      kind ? "noise" : "ramp", q, r.payload_len, lossless.payload_len);
            CHECK(r.q == q || r.q == 1);
            CHECK(wai_load_u32le(r.payload + 24) == r.q);   /* the header's q */
            if (r.q == 1) CHECK(r.sse == 0 && r.payload_len == lossless.payload_len);
            switched += r.q == 1;
            kept += r.q == q;
            wai_motion_encode_result_free(NULL, &r);
        }
        /* The ramp takes lossless at some step, the noise keeps every step. */
        CHECK(kind ? kept == 4 : switched > 0);
        wai_motion_encode_result_free(NULL, &lossless);
    }
    free(clip);
}

/* The rate term (issue 16): a block whose least-SAD vector leaves residuals
 * that cost more bits than another's. Frame 1's left block is S; frame 0
 * holds S + -1 on every sample at the zero vector (SAD 768, each residual
 * about 3 bits under the first inter frame's costs) and, 16 columns right,
 * S with 96 samples off by 9 (SAD 864, but 672 zeros). Lossless either way:
 * SAD alone keeps (0, 0), the rate term takes (0, 16) and a smaller
 * payload. Both decode to the clip (round_trip's checks), and the rate
 * term's payload is the same at every thread count. */
static void test_rate_term(void) {
    const uint32_t n = 2, h = 16, w = 32;
    size_t frame = (size_t)h * w * 3;
    uint8_t *clip = malloc(frame * n);
    uint64_t seed = 99;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < 16; x++)
            for (uint32_t k = 0; k < 3; k++) {
                size_t l = ((size_t)y * w + x) * 3 + k, r = l + 16 * 3;
                uint8_t v = (uint8_t)(20 + (harness_rand(&seed) >> 24) % 200);
                size_t i = ((size_t)y * 16 + x) * 3 + k;
                clip[frame + l] = v;                                      /* S */
                clip[l] = (uint8_t)(v + ((harness_rand(&seed) >> 40) & 1 ? 1 : -1));
                clip[r] = (uint8_t)(v + (i % 8 == 0 ? 9 : 0));            /* 96 off */
                clip[frame + r] = clip[r];    /* the right block stays */
            }
    const uint8_t *frames[2] = {clip, clip + frame};
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.search = 16;
    wai_motion_encode_result sad, rate;
    p.sad_search = 1;
    CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &sad) == WAI_ok);
    p.sad_search = 0;
    CHECK(wai_motion_encode(NULL, frames, n, h, w, &p, &rate) == WAI_ok);
    const uint8_t *vs = sad.payload + 36 + 4 * (size_t)sad.cdf_len;
    const uint8_t *vr = rate.payload + 36 + 4 * (size_t)rate.cdf_len;
    CHECK_MSG(wai_load_u16le(vs) == 0 && wai_load_u16le(vs + 2) == 0, "SAD: (%d, %d)",
              (int16_t)wai_load_u16le(vs), (int16_t)wai_load_u16le(vs + 2));
    CHECK_MSG(wai_load_u16le(vr) == 0 && wai_load_u16le(vr + 2) == 16, "rate: (%d, %d)",
              (int16_t)wai_load_u16le(vr), (int16_t)wai_load_u16le(vr + 2));
    CHECK_MSG(rate.payload_len < sad.payload_len, "rate term %zu bytes, SAD alone %zu",
              rate.payload_len, sad.payload_len);
    CHECK(sad.sse == 0 && rate.sse == 0);
    wai_motion_encode_result_free(NULL, &sad);
    wai_motion_encode_result_free(NULL, &rate);
    free(clip);
    p.q = 6;
    p.half_pel = 1;
    p.block = 8;
    p.search = 5;
    round_trip(4, 40, 56, &p, 1);
    uint8_t *moving = make_clip(4, 40, 56, 1);
    const uint8_t *mf[4];
    for (uint32_t f = 0; f < 4; f++) mf[f] = moving + (size_t)f * 40 * 56 * 3;
    wai_motion_encode_result one, three;
    p.n_threads = 1;
    CHECK(wai_motion_encode(NULL, mf, 4, 40, 56, &p, &one) == WAI_ok);
    p.n_threads = 3;
    CHECK(wai_motion_encode(NULL, mf, 4, 40, 56, &p, &three) == WAI_ok);
    CHECK(one.payload_len == three.payload_len &&
          memcmp(one.payload, three.payload, one.payload_len) == 0);
    wai_motion_encode_result_free(NULL, &one);
    wai_motion_encode_result_free(NULL, &three);
    free(moving);
}

void suite_encode(void) {
    harness_run("encode.rate_term", test_rate_term);
    harness_run("encode.never_larger_than_lossless", test_never_larger_than_lossless);
    harness_run("encode.round_trips", test_round_trips);
    harness_run("encode.edges", test_edges);
    harness_run("encode.motion_helps", test_motion_helps);
    harness_run("encode.arguments", test_arguments);
    harness_run("encode.allocation_failures", test_allocation_failures);
}
