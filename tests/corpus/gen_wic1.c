/* wai.video.int_cond and .frame's corpus (integer-payloads §17,
 * docs/int_cond.md): seeded WCB1 bundles (model.wcb), WIC1 clips and their
 * WCF1 frames, made by tests/gen/wic1gen.c (the decode's own frame loop on
 * the reference kernels beside the encoder); each case a line of
 * index.txt with its set's directory.
 *
 *   neural/cond/valid/NAME  a six-frame 16x16 clip and its frames as one
 *                           group; one frame; two groups; a lost frame; a
 *                           1x1 latent; another picture
 *                           size; the cost limit at the clip's work
 *   neural/cond/bad/NAME    the bundle (model_mismatch), the plan (S19's
 *                           order), the streams, the values, set_incomplete,
 *                           the frame form's groups (R7, S21), the cost limit
 *   parse/wcf1_NAME, parse/wic1_NAME   every parse code (§17.1, §17.2,
 *                           readings S14-S16) */
#include "gen_io.h"
#include "gen_wic1.h"

#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "gen/wic1gen.h"
#include "ops/network.h"
#include "wai/wai_hash.h"

static const char *g_root;
static FILE *g_idx;
static uint64_t g_rng = 0x636f6e64;

#define CLIP "wai.video.int_cond"
#define FRAME "wai.video.int_cond.frame"

/* The shapes: latent [2, 4, 4], feature [3, 4, 4], context 4, 16x16 frames. */
enum { M = 2, SH = 4, SW = 4, CF = 3, CC = 4, MID = 8 };

static void hashes(const uint8_t *rgb, uint32_t n, size_t frame, char *out, size_t cap) {
    size_t at = 0;
    for (uint32_t f = 0; f < n; f++) {
        uint8_t d[32];
        char hex[65];
        wai_sha256_oneshot(rgb + f * frame, frame, d);
        wai_hex(d, 32, hex);
        at += (size_t)snprintf(out + at, cap - at, "%s%s", f ? "," : "", hex);
    }
    if (!n) snprintf(out, cap, "-");
}

static void put_set(const char *dir, const uint8_t *b, size_t len) {
    char rel[200];
    gen_mkdir(g_root, dir);
    snprintf(rel, sizeof rel, "%s/model.wcb", dir);
    gen_put(g_root, rel, b, len);
}

static void put_file(const char *rel, const uint8_t *b, size_t len) { gen_put(g_root, rel, b, len); }

/* The frame form: frames[i] as dir/fNNN.wcf1, one decode line. */
static void group_line(const char *dir, const char *status, const wim1gen_buf *const *frames,
                       uint32_t n, const char *hash) {
    char files[2048] = "", rel[200];
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        snprintf(rel, sizeof rel, "%s/f%03u.wcf1", dir, i);
        put_file(rel, frames[i]->b, frames[i]->len);
        at += (size_t)snprintf(files + at, sizeof files - at, "%s%s", i ? "," : "", rel);
    }
    fprintf(g_idx, "decode " FRAME " %s - %s %s %s\n", status, files, hash, dir);
}

static void clip_line(const char *dir, const char *status, const char *maxcost, const uint8_t *p,
                      size_t len, const char *hash) {
    char rel[200];
    snprintf(rel, sizeof rel, "%s/clip.wic1", dir);
    put_file(rel, p, len);
    fprintf(g_idx, "decode " CLIP " %s %s %s %s %s\n", status, maxcost, rel, hash, dir);
}

static void valid_cases(void) {
    wic1gen_bundle b;
    wic1gen_make_bundle(&b, 700, &g_rng, CF, CC, M, MID);
    wim1gen_buf wcb = wic1gen_bundle_bytes(&b);
    static char hs[6 * 66 + 1];
    /* Six frames: the clip, and its frames as one group. */
    wic1gen_clip c = wic1gen_make_clip(&b, 6, M, SH, SW, CF, &g_rng, &wai_kernels_ref);
    const size_t frame = (size_t)c.h * c.w * 3;
    hashes(c.rgb, c.n, frame, hs, sizeof hs);
    put_set("neural/cond/valid/six_frames", wcb.b, wcb.len);
    clip_line("neural/cond/valid/six_frames", "ok", "-", c.clip, c.len, hs);
    const wim1gen_buf *fr[12];
    for (uint32_t i = 0; i < 6; i++) fr[i] = &c.frames[i];
    group_line("neural/cond/valid/six_frames", "ok", fr, 6, hs);
    /* The cost limit at the clip's work, and one below (S20). */
    char at[32], below[32];
    const uint64_t w = wic1gen_work(&b, 6, M, SH, SW, CF);
    snprintf(at, sizeof at, "%llu", (unsigned long long)w);
    snprintf(below, sizeof below, "%llu", (unsigned long long)w - 1);
    clip_line("neural/cond/valid/six_frames", "ok", at, c.clip, c.len, hs);
    clip_line("neural/cond/valid/six_frames", "cost_over_limit", below, c.clip, c.len, "-");
    /* Two groups: the clip's frames, then another clip's. */
    wic1gen_clip d = wic1gen_make_clip(&b, 3, M, SH, SW, CF, &g_rng, &wai_kernels_ref);
    uint8_t *both = malloc(frame * 9);
    if (!both) gen_die("memory");
    memcpy(both, c.rgb, frame * 6);
    memcpy(both + frame * 6, d.rgb, frame * 3);
    static char hs2[9 * 66 + 1];
    hashes(both, 9, frame, hs2, sizeof hs2);
    for (uint32_t i = 0; i < 3; i++) fr[6 + i] = &d.frames[i];
    put_set("neural/cond/valid/two_groups", wcb.b, wcb.len);
    group_line("neural/cond/valid/two_groups", "ok", fr, 9, hs2);
    /* A lost frame: the group with frame 3 left out, then the next group.
     * Frame 4 decodes from frame 2's feature, as a sink that never saw
     * frame 3 must (frame-stream §5): no refusal, a picture that drifts
     * until the next intra frame. The frame loop's own decode says what it
     * gives (its full group checked against the clip first). */
    uint32_t got;
    if (wic1gen_decode_group(&b, fr, 6, &wai_kernels_ref, both, &got) != WAI_ok || got != 6 ||
        memcmp(both, c.rgb, frame * 6) != 0)
        gen_die("wic1gen_decode_group is not the clip's frame loop");
    const wim1gen_buf *lost[8] = {fr[0], fr[1], fr[2], fr[4], fr[5], fr[6], fr[7], fr[8]};
    wai_status lst = wic1gen_decode_group(&b, lost, 8, &wai_kernels_ref, both, &got);
    hashes(both, got, frame, hs2, sizeof hs2);
    put_set("neural/cond/valid/lost_frame", wcb.b, wcb.len);
    group_line("neural/cond/valid/lost_frame", wai_status_name(lst), lost, lst == WAI_ok ? 8 : got + 1,
               hs2);
    free(both);
    /* One frame. */
    wic1gen_clip one = wic1gen_make_clip(&b, 1, M, SH, SW, CF, &g_rng, &wai_kernels_ref);
    hashes(one.rgb, 1, frame, hs, sizeof hs);
    put_set("neural/cond/valid/one_frame", wcb.b, wcb.len);
    clip_line("neural/cond/valid/one_frame", "ok", "-", one.clip, one.len, hs);
    wic1gen_clip_free(&one);
    /* Another picture size: a 2x3 latent, 8x12 frames. */
    wic1gen_clip odd = wic1gen_make_clip(&b, 2, M, 2, 3, CF, &g_rng, &wai_kernels_ref);
    hashes(odd.rgb, 2, (size_t)odd.h * odd.w * 3, hs, sizeof hs);
    put_set("neural/cond/valid/size_8x12", wcb.b, wcb.len);
    clip_line("neural/cond/valid/size_8x12", "ok", "-", odd.clip, odd.len, hs);
    wic1gen_clip_free(&odd);
    /* The smallest picture: a 1x1 latent, 4x4 frames. */
    uint64_t own = 0x31783120; /* its own stream: the cases after keep theirs */
    wic1gen_clip tiny = wic1gen_make_clip(&b, 3, M, 1, 1, CF, &own, &wai_kernels_ref);
    hashes(tiny.rgb, 3, (size_t)tiny.h * tiny.w * 3, hs, sizeof hs);
    put_set("neural/cond/valid/latent_1x1", wcb.b, wcb.len);
    clip_line("neural/cond/valid/latent_1x1", "ok", "-", tiny.clip, tiny.len, hs);
    wic1gen_clip_free(&tiny);
    wic1gen_clip_free(&d);
    wic1gen_clip_free(&c);
    free(wcb.b);
    wic1gen_bundle_free(&b);
}

/* A clip of the given frames' bytes (each a WCF1). */
static wim1gen_buf clip_of(const wim1gen_buf *const *frames, uint32_t n) {
    wim1gen_buf x = {NULL, 0, 0};
    const uint8_t head[8] = {'W', 'I', 'C', '1', 1, 0, 0, 0};
    wim1gen_add(&x, head, 8);
    wim1gen_add_u32(&x, n);
    for (uint32_t i = 0; i < n; i++) {
        wim1gen_add_u32(&x, (uint32_t)frames[i]->len);
        wim1gen_add(&x, frames[i]->b, frames[i]->len);
    }
    return x;
}

static wim1gen_buf copy(const wim1gen_buf *a) {
    wim1gen_buf x = {NULL, 0, 0};
    wim1gen_add(&x, a->b, a->len);
    return x;
}

static void bad_cases(void) {
    wic1gen_bundle b;
    wic1gen_make_bundle(&b, 700, &g_rng, CF, CC, M, MID);
    wim1gen_buf wcb = wic1gen_bundle_bytes(&b);
    wic1gen_clip c = wic1gen_make_clip(&b, 3, M, SH, SW, CF, &g_rng, &wai_kernels_ref);
    const size_t frame = (size_t)c.h * c.w * 3;
    char dir[160], hs[3 * 66 + 1];
#define DIR(name) (snprintf(dir, sizeof dir, "neural/cond/bad/%s", name), dir)
    /* The bundle (model_mismatch). */
    {
        wim1gen_buf x = copy(&wcb);
        x.b[3] = '2';
        put_set(DIR("bundle_magic"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        put_set(DIR("bundle_cut"), wcb.b, wcb.len - 1);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        wim1gen_add(&x, "\0", 1);
        x.b[3] = '1';
        put_set(DIR("bundle_trailing"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        free(x.b);
        wic1gen_bundle t = b;
        t.tables_afrac = b.afrac + 1;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("tables_afrac"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        free(x.b);
        t.tables_afrac = b.afrac;
        t.net[3].afrac = b.afrac + 1;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("networks_afrac"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        free(x.b);
        t.net[3].afrac = b.afrac;
        /* §2's table rule (not WMB1's t2): two entries are refused. */
        t.lat[1].n = 2, t.lat[1].cdf[1] = 65536;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("table_of_two"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        free(x.b);
        t.lat[1] = b.lat[1];
        t.n_edges = 0;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("no_edges"), x.b, x.len);
        clip_line(dir, "model_mismatch", "-", c.clip, c.len, "-");
        free(x.b);
    }
    /* The plan (S19): all four planned before any shape is compared. */
    {
        /* m 3: prior gives 4 channels, not 6, but dec (planned first) takes
         * 6 inputs, not 3 + 4: planning refuses (model_mismatch). */
        wic1gen_clip m3 = wic1gen_make_clip(&b, 1, M, SH, SW, CF, &g_rng, &wai_kernels_ref);
        wim1gen_buf f = copy(&m3.frames[0]);
        wai_store_u32le(f.b + 16, 3);
        const wim1gen_buf *one[1] = {&f};
        wim1gen_buf x = clip_of(one, 1);
        put_set(DIR("m_not_the_bundles"), wcb.b, wcb.len);
        clip_line(dir, "model_mismatch", "-", x.b, x.len, "-");
        free(x.b);
        /* h 20: recon gives 16 (geometry_mismatch, the last comparison). */
        memcpy(f.b, m3.frames[0].b, f.len);
        wai_store_u32le(f.b + 8, 20);
        x = clip_of(one, 1);
        put_set(DIR("h_not_recons"), wcb.b, wcb.len);
        clip_line(dir, "geometry_mismatch", "-", x.b, x.len, "-");
        free(x.b);
        /* A plane past 2^26: recon on a 2048x2048 feature forms 8 x 4096^2. */
        memcpy(f.b, m3.frames[0].b, f.len);
        wai_store_u32le(f.b + 8, 4096), wai_store_u32le(f.b + 12, 4096);
        wai_store_u32le(f.b + 20, 2048), wai_store_u32le(f.b + 24, 2048);
        x = clip_of(one, 1);
        put_set(DIR("plan_past_cap"), wcb.b, wcb.len);
        clip_line(dir, "too_large", "-", x.b, x.len, "-");
        free(x.b);
        free(f.b);
        /* ctx that halves the side (stride 2): geometry_mismatch, after
         * the four plans; recon with four channels: model_mismatch. */
        wic1gen_bundle t = b;
        wai_layer *l0 = &t.net[0].layers[0];
        uint32_t keep = l0->stride;
        l0->stride = 2;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("ctx_halves_the_side"), x.b, x.len);
        clip_line(dir, "geometry_mismatch", "-", m3.clip, m3.len, "-");
        free(x.b);
        l0->stride = keep;
        wic1gen_clip_free(&m3);
    }
    /* The streams and values of a frame: each edit made to frame 1 of the
     * three-frame clip, so frame 0 decodes and the clip is still refused. */
    {
        const size_t wcf_head = 36;
        /* Frame 1's stream cut to 8 bytes: it runs out. */
        wim1gen_buf f = {NULL, 0, 0};
        wim1gen_add(&f, c.frames[1].b, wcf_head);
        wim1gen_add(&f, c.frames[1].b + wcf_head, 8);
        wai_store_u32le(f.b + 32, 8);
        const wim1gen_buf *three[3] = {&c.frames[0], &f, &c.frames[2]};
        wim1gen_buf x = clip_of(three, 3);
        put_set(DIR("stream_exhausted"), wcb.b, wcb.len);
        clip_line(dir, "stream_exhausted", "-", x.b, x.len, "-");
        /* The frame form keeps frame 0. */
        hashes(c.rgb, 1, frame, hs, sizeof hs);
        group_line(dir, "stream_exhausted", three, 2, hs);
        free(x.b), free(f.b);
        /* A word appended to frame 1's stream: unread, not canonical. */
        f = copy(&c.frames[1]);
        wim1gen_add_u32(&f, 0x01020304u);
        wai_store_u32le(f.b + 32, wai_load_u32le(f.b + 32) + 4);
        three[1] = &f;
        x = clip_of(three, 3);
        put_set(DIR("stream_noncanonical"), wcb.b, wcb.len);
        clip_line(dir, "stream_noncanonical", "-", x.b, x.len, "-");
        free(x.b), free(f.b);
        /* A prior whose bias makes mu past what dec's exactness bound
         * takes: field_range. */
        wic1gen_bundle t = b;
        wai_layer *last = &t.net[1].layers[t.net[1].n_layers - 1];
        int64_t keep = last->bias[M]; /* channel m: the first mean */
        last->bias[M] = (int64_t)1 << 61;
        x = wic1gen_bundle_bytes(&t);
        put_set(DIR("field_range"), x.b, x.len);
        clip_line(dir, "field_range", "-", c.clip, c.len, "-");
        free(x.b);
        last->bias[M] = keep;
    }
    /* set_incomplete: no model.wcb (the clip is parsed first). */
    gen_mkdir(g_root, DIR("set_incomplete"));
    {
        char rel[200];
        snprintf(rel, sizeof rel, "%s/other.json", dir);
        put_file(rel, (const uint8_t *)"{}\n", 3);
    }
    clip_line(dir, "set_incomplete", "-", c.clip, c.len, "-");
    /* The frame form's groups (R7, S21). */
    {
        put_set(DIR("group_starts_inter"), wcb.b, wcb.len);
        const wim1gen_buf *g1[2] = {&c.frames[1], &c.frames[2]};
        group_line(dir, "field_range", g1, 2, "-");
        /* An inter frame of another header: geometry_mismatch; the intra
         * frame before it stands. */
        wim1gen_buf f = copy(&c.frames[1]);
        wai_store_u32le(f.b + 8, 20);
        const wim1gen_buf *g2[2] = {&c.frames[0], &f};
        hashes(c.rgb, 1, frame, hs, sizeof hs);
        put_set(DIR("group_other_header"), wcb.b, wcb.len);
        group_line(dir, "geometry_mismatch", g2, 2, hs);
        free(f.b);
    }
#undef DIR
    wic1gen_clip_free(&c);
    free(wcb.b);
    wic1gen_bundle_free(&b);
}

/* Every parse code: WCF1 (§17.1) and WIC1 (§17.2, S14-S16), each a fault of
 * a valid header with an 8-byte stream. */
static void parse_cases(void) {
    uint8_t f[44];
    memset(f, 0, sizeof f);
    memcpy(f, "WCF1\x01\x00", 6);
    const uint32_t fields[6] = {16, 16, 2, 4, 4, 3};
    for (int i = 0; i < 6; i++) wai_store_u32le(f + 8 + 4 * i, fields[i]);
    wai_store_u32le(f + 32, 8);
    static const struct { const char *name, *status; } wcf[] = {
        {"ok", "ok"}, {"3_bytes", "bad_magic"}, {"magic_wiv1", "format_capability_mismatch"},
        {"header_cut", "stream_length"}, {"version_2", "version"}, {"reserved", "reserved_nonzero"},
        {"kind_2", "field_range"}, {"h_0", "field_range"}, {"cf_0", "field_range"},
        {"frame_past_cap", "too_large"}, {"feature_past_cap", "too_large"},
        {"stream_past_end", "stream_length"}, {"trailing", "trailing"},
        /* Each cap at its largest accepted value and one past: the frame
         * h·w·3 (2^26 is no multiple of 3), the scales 2·m·sh·sw, the
         * reference feature cf·sh·sw. */
        {"frame_at_cap", "ok"}, {"frame_one_past_cap", "too_large"},
        {"scales_at_cap", "ok"}, {"scales_one_past_cap", "too_large"},
        {"feature_at_cap", "ok"}};
    for (size_t i = 0; i < sizeof wcf / sizeof *wcf; i++) {
        uint8_t b[48];
        memcpy(b, f, sizeof f);
        size_t n = sizeof f;
        switch (i) {
        case 1: n = 3; break;
        case 2: memcpy(b, "WIV1", 4); break;
        case 3: n = 20; break;
        case 4: b[4] = 2; break;
        case 5: b[6] = 1; break;
        case 6: b[5] = 2; break;
        case 7: wai_store_u32le(b + 8, 0); break;
        case 8: wai_store_u32le(b + 28, 0); break;
        case 9: wai_store_u32le(b + 8, 8192), wai_store_u32le(b + 12, 8192); break;
        case 10: wai_store_u32le(b + 28, 65), wai_store_u32le(b + 20, 1024), wai_store_u32le(b + 24, 1024); break;
        case 11: wai_store_u32le(b + 32, 12); break;
        case 12: b[n++] = 0; break;
        case 13: wai_store_u32le(b + 8, 1), wai_store_u32le(b + 12, 22369621); break;
        case 14: wai_store_u32le(b + 8, 1), wai_store_u32le(b + 12, 22369622); break;
        case 15:
        case 16:
            wai_store_u32le(b + 16, i == 15 ? 32 : 33);
            wai_store_u32le(b + 20, 1024), wai_store_u32le(b + 24, 1024);
            break;
        case 17: wai_store_u32le(b + 28, 64), wai_store_u32le(b + 20, 1024), wai_store_u32le(b + 24, 1024); break;
        default: break;
        }
        char rel[96];
        snprintf(rel, sizeof rel, "parse/wcf1_%s.wcf1", wcf[i].name);
        put_file(rel, b, n);
        fprintf(g_idx, "parse " FRAME " %s - %s -\n", wcf[i].status, rel);
    }
    /* WIC1: two frames, intra then inter. */
    uint8_t inter[44];
    memcpy(inter, f, sizeof f);
    inter[5] = 1;
    static const struct { const char *name, *status; } wic[] = {
        {"ok", "ok"}, {"3_bytes", "bad_magic"}, {"magic_wif1", "format_capability_mismatch"},
        {"header_cut", "stream_length"}, {"version_2", "version"}, {"reserved", "reserved_nonzero"},
        {"no_frames", "field_range"}, {"frames_past_cap", "too_large"},
        {"frame_past_end", "stream_length"}, {"frame_magic_wcf2", "bad_magic"},
        {"frame_magic_wih1", "format_capability_mismatch"}, {"frame_trailing", "trailing"},
        {"frame0_inter", "field_range"}, {"frame1_intra", "field_range"},
        {"clip_past_cap", "too_large"}, {"frame1_other_header", "geometry_mismatch"},
        {"trailing", "trailing"},
        /* n_frames·h·w·3 at its largest under 2^30: 21 frames of 4096 x
         * 4096 (clip_past_cap is 22, refused at frame 0). */
        {"clip_at_cap", "ok"}};
    for (size_t i = 0; i < sizeof wic / sizeof *wic; i++) {
        wim1gen_buf x = {NULL, 0, 0};
        uint8_t f0[48], f1[48];
        size_t n0 = sizeof f, n1 = sizeof f;
        memcpy(f0, f, sizeof f);
        memcpy(f1, inter, sizeof f);
        uint32_t count = 2;
        switch (i) {
        case 6: count = 0; break;
        case 7: count = (1u << 20) + 1; break;
        case 9: f0[3] = '2'; break;
        case 10: memcpy(f0, "WIH1", 4); break;
        case 11: f0[n0++] = 0; break;
        case 12: f0[5] = 1; break;
        case 13: f1[5] = 0; break;
        case 14: wai_store_u32le(f0 + 8, 4096), wai_store_u32le(f0 + 12, 4096), count = 22; break;
        case 15: wai_store_u32le(f1 + 12, 17); break;
        case 17:
            wai_store_u32le(f0 + 8, 4096), wai_store_u32le(f0 + 12, 4096);
            wai_store_u32le(f1 + 8, 4096), wai_store_u32le(f1 + 12, 4096);
            count = 21;
            break;
        default: break;
        }
        const uint8_t head[8] = {'W', 'I', 'C', '1', (uint8_t)(i == 4 ? 2 : 1), (uint8_t)(i == 5), 0, 0};
        wim1gen_add(&x, head, 8);
        if (i == 2) memcpy(x.b, "WIF1", 4);
        wim1gen_add_u32(&x, count);
        if (i == 17) {
            for (uint32_t k = 0; k < count; k++) {
                wim1gen_add_u32(&x, (uint32_t)n0);
                wim1gen_add(&x, k ? f1 : f0, n0);
            }
        } else if (count == 2 || i == 14) {
            wim1gen_add_u32(&x, (uint32_t)n0);
            wim1gen_add(&x, f0, n0);
            if (i != 14) {
                wim1gen_add_u32(&x, (uint32_t)n1 + (i == 8 ? 100 : 0));
                wim1gen_add(&x, f1, n1);
            }
        }
        if (i == 16) wim1gen_add(&x, "\0", 1);
        size_t len = x.len;
        if (i == 1) len = 3;
        if (i == 3) len = 10;
        char rel[96];
        snprintf(rel, sizeof rel, "parse/wic1_%s.wic1", wic[i].name);
        put_file(rel, x.b, len);
        fprintf(g_idx, "parse " CLIP " %s - %s -\n", wic[i].status, rel);
        free(x.b);
    }
}

void gen_wic1(const char *outdir, FILE *index) {
    g_root = outdir;
    g_idx = index;
    gen_mkdir(g_root, "neural/cond");
    gen_mkdir(g_root, "neural/cond/valid");
    gen_mkdir(g_root, "neural/cond/bad");
    valid_cases();
    bad_cases();
    parse_cases();
}
