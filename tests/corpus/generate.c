/* Writes the conformance corpus of integer motion video (WIV1, WIF1):
 * valid clips and frame streams with the SHA-256 of every decoded frame, and
 * a malformed fixture for every code a parse or a keyframe-0 decode gives,
 * each named in index.txt with what a decoder must answer.
 *
 * usage: wai_gen_corpus OUTDIR   (the committed corpus is tests/corpus)
 *
 * Expected frames come from a model decode written here, apart from the
 * library's: the generator picks every residual symbol, so it knows each
 * sample without decoding a stream. The library's encoder and writers make
 * the bytes (they refuse what a parser would refuse).
 *
 * index.txt, one line per case:  MODE CAPABILITY STATUS MAXCOST FILES HASHES
 *                                 [SET [OFFER]]
 *   MODE     decode (decode FILES in order as one stream) or parse (parse
 *            FILE alone, for codes only a capability without a decoder here
 *            reaches)
 *   MAXCOST  a cost limit, or -
 *   FILES    comma-separated, relative to the index
 *   HASHES   SHA-256 of each output decoded before STATUS, comma-separated,
 *            or -
 *   SET      a neural capability's parameter set (a directory), or -
 *   OFFER    the dispatch offer (neural-dispatch §4; `wai decode --offer`'s
 *            list), or absent: the default offer */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/reader.h"
#include "entropy/rans.h"
#include "formats/wif1.h"
#include "formats/wih1.h"
#include "formats/wiv1.h"
#include "gen_io.h"
#include "gen_models.h"
#include "gen_neural.h"
#include "gen_neural_parse.h"
#include "gen_parse_codes.h"
#include "gen_synth.h"
#include "gen_wim1.h"
#include "gen_wic1.h"
#include "gen_json.h"
#include "gen_receipts.h"
#include "wai/wai_hash.h"
#include "wai/wai_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

static uint64_t g_rng = 20261129;
static const char *g_out;
static FILE *g_index;

static uint64_t next64(void) {
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rnd(uint32_t bound) { return (uint32_t)(next64() % bound); }

static void make_dir(const char *rel) { gen_mkdir(g_out, rel); }

static void write_file(const char *rel, const uint8_t *data, size_t len) {
    gen_put(g_out, rel, data, len);
}

/* ---- the model: frames from symbols, apart from src/decode ---------------- */

typedef struct clip {
    wai_wiv1_parts p;
    uint32_t cdf[4097];
    int16_t *vectors;
    int32_t *symbols;      /* n_frames*h*w*3 residuals */
    uint8_t *frames;       /* the model's decode */
    uint8_t *bytes;
    size_t len;
} clip;

static int clampi(int64_t v, int64_t lo, int64_t hi) { return (int)(v < lo ? lo : v > hi ? hi : v); }

static int floor_half(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

static int sample_at(const uint8_t *f, const clip *c, int64_t y, int64_t x, int ch) {
    int yy = clampi(y, 0, c->p.h - 1), xx = clampi(x, 0, c->p.w - 1);
    return f[((size_t)yy * c->p.w + (size_t)xx) * 3 + ch];
}

static int model_pred(const clip *c, const uint8_t *prev, uint32_t fi, uint32_t y, uint32_t x,
                      int ch) {
    if (fi == 0) return 128;
    uint32_t nbx = (c->p.w + c->p.block - 1) / c->p.block;
    uint32_t nby = (c->p.h + c->p.block - 1) / c->p.block;
    size_t b = (size_t)(fi - 1) * nbx * nby + (size_t)(y / c->p.block) * nbx + x / c->p.block;
    int dy = c->vectors[2 * b], dx = c->vectors[2 * b + 1];
    if (c->p.mv_precision == 1) return sample_at(prev, c, (int64_t)y + dy, (int64_t)x + dx, ch);
    int64_t iy = (int64_t)y + floor_half(dy), ix = (int64_t)x + floor_half(dx);
    int fy = dy & 1 ? 1 : 0, fx = dx & 1 ? 1 : 0;
    int a = sample_at(prev, c, iy, ix, ch);
    if (!fy && !fx) return a;
    if (!fy) return (a + sample_at(prev, c, iy, ix + 1, ch) + 1) >> 1;
    if (!fx) return (a + sample_at(prev, c, iy + 1, ix, ch) + 1) >> 1;
    return (a + sample_at(prev, c, iy, ix + 1, ch) + sample_at(prev, c, iy + 1, ix, ch) +
            sample_at(prev, c, iy + 1, ix + 1, ch) + 2) >> 2;
}

static void model_decode(clip *c) {
    size_t fb = (size_t)c->p.h * c->p.w * 3;
    for (uint32_t fi = 0; fi < c->p.n_frames; fi++) {
        uint8_t *cur = c->frames + fi * fb, *prev = fi ? cur - fb : NULL;
        for (uint32_t y = 0; y < c->p.h; y++)
            for (uint32_t x = 0; x < c->p.w; x++)
                for (int ch = 0; ch < 3; ch++) {
                    size_t i = ((size_t)y * c->p.w + x) * 3 + (size_t)ch;
                    int64_t v = model_pred(c, prev, fi, y, x, ch) +
                                (int64_t)c->symbols[fi * fb + i] * c->p.q;
                    cur[i] = (uint8_t)clampi(v, 0, 255);
                }
    }
}

/* ---- random valid clips ---------------------------------------------------- */

static void random_cdf(uint32_t *cdf, uint32_t n) {
    /* n - 1 strictly increasing cut points: spread, then jittered. */
    cdf[0] = 0;
    for (uint32_t i = 1; i < n - 1; i++) {
        uint32_t lo = cdf[i - 1] + 1, hi = 65536 - (n - 1 - i);
        uint32_t even = (uint32_t)((uint64_t)65536 * i / (n - 1));
        uint32_t v = even + rnd(9) - 4;
        cdf[i] = v < lo ? lo : v > hi ? hi : v;
    }
    cdf[n - 1] = 65536;
}

static int16_t random_vector_part(int far) {
    if (far && rnd(4) == 0) return (int16_t)(rnd(2) ? 32767 - (int)rnd(3) : -32768 + (int)rnd(3));
    return (int16_t)((int)rnd(9) - 4);
}

static int32_t random_symbol(uint32_t n, int32_t offset, int escapes) {
    uint32_t k = rnd(100);
    int64_t v;
    if (escapes && k < 2) v = rnd(2) ? INT32_MAX : INT32_MIN;
    else if (escapes && k < 8) v = (int64_t)offset + (int64_t)n - 2 + rnd(1000);
    else if (escapes && k < 14) v = (int64_t)offset - 1 - rnd(1000);
    else v = (int64_t)offset + rnd(n - 2);
    if (!wai_rans_encodable((int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v), offset))
        v = offset;
    return (int32_t)v;
}

typedef struct clip_shape {
    uint32_t n_frames, h, w, block, q, cdf_len;
    uint8_t mv_precision;
    int far_vectors, escapes;
} clip_shape;

static void make_clip(clip *c, const clip_shape *s) {
    memset(c, 0, sizeof *c);
    c->p.mv_precision = s->n_frames == 1 ? 1 : s->mv_precision;
    c->p.n_frames = s->n_frames;
    c->p.h = s->h;
    c->p.w = s->w;
    c->p.block = s->n_frames == 1 ? 1 : s->block;
    c->p.q = s->q;
    c->p.offset = -(int32_t)(s->cdf_len / 2) + (int32_t)rnd(3) - 1;
    c->p.cdf_len = s->cdf_len;
    random_cdf(c->cdf, s->cdf_len);
    c->p.cdf = c->cdf;
    uint64_t nb = wai_blocks_per_frame(c->p.h, c->p.w, c->p.block);
    size_t n_vec = (size_t)(nb * (c->p.n_frames - 1));
    c->vectors = calloc(2 * n_vec + 2, sizeof *c->vectors);
    for (size_t i = 0; i < 2 * n_vec; i++) c->vectors[i] = random_vector_part(s->far_vectors);
    c->p.vectors = c->vectors;
    size_t n_sym = (size_t)c->p.n_frames * c->p.h * c->p.w * 3;
    c->symbols = malloc(n_sym * sizeof *c->symbols);
    c->frames = malloc(n_sym);
    for (size_t i = 0; i < n_sym; i++)
        c->symbols[i] = random_symbol(c->p.cdf_len, c->p.offset, s->escapes);
    model_decode(c);
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, c->cdf, c->p.cdf_len, 12) != WAI_ok) gen_die("table");
    uint8_t *stream;
    size_t stream_len;
    if (wai_rans_encode(NULL, &t, NULL, NULL, c->p.offset, c->symbols, n_sym, &stream,
                        &stream_len) != WAI_ok)
        gen_die("encode");
    wai_cdf_table_free(&t, NULL);
    c->p.stream = stream;
    c->p.stream_len = stream_len;
    if (wai_wiv1_write(NULL, &c->p, &c->bytes, &c->len) != WAI_ok) gen_die("write clip");
    free(stream);
    c->p.stream = NULL;
}

static void free_clip(clip *c) {
    free(c->vectors);
    free(c->symbols);
    free(c->frames);
    free(c->bytes);
}

/* ---- the index ----------------------------------------------------------- */

static void hashes_of(char *out, size_t cap, const uint8_t *frames, size_t frame_bytes,
                      uint32_t n) {
    out[0] = '\0';
    if (n == 0) {
        snprintf(out, cap, "-");
        return;
    }
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t d[32];
        char hex[65];
        wai_sha256_oneshot(frames + (size_t)i * frame_bytes, frame_bytes, d);
        wai_hex(d, 32, hex);
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? "," : "", hex);
        if (at >= cap) gen_die("hash list too long");
    }
}

static void index_line(const char *mode, const char *cap, const char *status, const char *maxcost,
                       const char *files, const char *hashes) {
    fprintf(g_index, "%s %s %s %s %s %s\n", mode, cap, status, maxcost, files, hashes);
}

#define CAP_CLIP "wai.video.int_motion"
#define CAP_FRAME "wai.video.int_motion.frame"
#define CAP_HYPER "wai.video.int_hyper"
#define CAP_HYPER_FRAME "wai.video.int_hyper.frame"

/* A fixture: bytes written under `name`, with the code a decode must give. */
static void fixture(const char *mode, const char *cap, const char *name, const uint8_t *b,
                    size_t len, const char *status) {
    write_file(name, b, len);
    index_line(mode, cap, status, "-", name, "-");
}

static char g_hashes[1 << 20];

/* ---- valid clips and streams --------------------------------------------- */

static void write_valid_clip(const char *name, const clip_shape *s) {
    clip c;
    make_clip(&c, s);
    write_file(name, c.bytes, c.len);
    hashes_of(g_hashes, sizeof g_hashes, c.frames, (size_t)c.p.h * c.p.w * 3, c.p.n_frames);
    index_line("decode", CAP_CLIP, "ok", "-", name, g_hashes);

    /* The same video as a frame stream: split, one file a frame. */
    wai_payload *frames;
    uint32_t n;
    if (wai_wiv1_split(NULL, c.bytes, c.len, &frames, &n) != WAI_ok) gen_die("split");
    char dir[256], list[8192] = "";
    snprintf(dir, sizeof dir, "%.*s", (int)(strlen(name) - 5), name);
    make_dir(dir);
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        char f[300];
        snprintf(f, sizeof f, "%s/f%03u.wif1", dir, i);
        write_file(f, frames[i].data, frames[i].len);
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? "," : "", f);
    }
    index_line("decode", CAP_FRAME, "ok", "-", list, g_hashes);
    wai_payloads_free(NULL, frames, n);
    free_clip(&c);
}

static void valid_corpus(void) {
    make_dir("motion");
    make_dir("motion/valid");
    char name[128];
    for (int i = 0; i < 24; i++) {
        clip_shape s;
        s.n_frames = 1 + rnd(5);
        s.h = 1 + rnd(i < 4 ? 3 : 40);
        s.w = 1 + rnd(i < 4 ? 3 : 40);
        s.block = 1 + rnd(i % 3 == 0 ? 3 : 17);
        s.q = rnd(3) == 0 ? 1 : 1 + rnd(300);
        s.cdf_len = i == 5 ? 3 : i == 6 ? 4097 : 3 + rnd(60);
        s.mv_precision = (uint8_t)(1 + (i & 1));
        s.far_vectors = i % 4 == 3;
        s.escapes = i % 2 == 0;
        snprintf(name, sizeof name, "motion/valid/clip%02d.wiv1", i);
        write_valid_clip(name, &s);
    }
}

/* ---- malformed payloads -------------------------------------------------- */

typedef struct buf {
    uint8_t *b;
    size_t len;
} buf;

static buf copy_of(const uint8_t *b, size_t len, size_t extra) {
    buf o = {malloc(len + extra + 1), len};
    memcpy(o.b, b, len);
    return o;
}

static void put32(uint8_t *p, uint32_t v) { wai_store_u32le(p, v); }

/* Fixtures derived from one small valid clip, one per rule of §2, §3, §7. */
static void clip_fixtures(void) {
    make_dir("motion/refuse");
    clip c;
    clip_shape s = {3, 5, 7, 4, 2, 9, 2, 0, 1};
    make_clip(&c, &s);
    const uint8_t *b = c.bytes;
    size_t len = c.len, table_at = 36, vec_at = 36 + 4 * 9, stream_at = vec_at + 4 * 4 * 2;
    buf x;
#define MUT(name, code, edit)                                                   \
    do {                                                                        \
        x = copy_of(b, len, 8);                                                 \
        edit;                                                                   \
        fixture("decode", CAP_CLIP, "motion/refuse/" name, x.b, x.len, code);   \
        free(x.b);                                                              \
    } while (0)
    fixture("decode", CAP_CLIP, "motion/refuse/empty.wiv1", b, 0, "bad_magic");
    fixture("decode", CAP_CLIP, "motion/refuse/three_bytes.wiv1", b, 3, "bad_magic");
    static const char json_form[] = "{\"frames\": 3, \"mvs\": [[]]}";
    fixture("decode", CAP_CLIP, "motion/refuse/json_form.wiv1", (const uint8_t *)json_form,
            sizeof json_form - 1, "bad_magic");
    MUT("magic_wim1.wiv1", "bad_magic", x.b[2] = 'M');
    MUT("magic_wih1.wiv1", "format_capability_mismatch", x.b[2] = 'H');
    MUT("magic_wif1.wiv1", "format_capability_mismatch", x.b[2] = 'F');
    fixture("decode", CAP_CLIP, "motion/refuse/magic_only.wiv1", b, 4, "stream_length");
    MUT("version0.wiv1", "version", x.b[4] = 0);
    MUT("version2.wiv1", "version", x.b[4] = 2);
    fixture("decode", CAP_CLIP, "motion/refuse/header_cut.wiv1", b, 35, "stream_length");
    MUT("reserved7.wiv1", "reserved_nonzero", x.b[7] = 1);
    MUT("reserved34.wiv1", "reserved_nonzero", x.b[35] = 0x80);
    /* Reserved before field rules: both broken, reserved_nonzero wins. */
    MUT("reserved_and_q0.wiv1", "reserved_nonzero", (x.b[7] = 1, put32(x.b + 24, 0)));
    MUT("mv_precision0.wiv1", "field_range", x.b[5] = 0);
    MUT("mv_precision3.wiv1", "field_range", x.b[5] = 3);
    MUT("keyframe2.wiv1", "field_range", x.b[6] = 2);
    MUT("n_frames0.wiv1", "field_range", put32(x.b + 8, 0));
    MUT("h0.wiv1", "field_range", put32(x.b + 12, 0));
    MUT("w0.wiv1", "field_range", put32(x.b + 16, 0));
    MUT("block0.wiv1", "field_range", put32(x.b + 20, 0));
    MUT("q0.wiv1", "field_range", put32(x.b + 24, 0));
    MUT("q65536.wiv1", "field_range", put32(x.b + 24, 65536));
    MUT("cdf_len2.wiv1", "field_range", wai_store_u16le(x.b + 32, 2));    /* R5 */
    MUT("cdf_len4098.wiv1", "field_range", wai_store_u16le(x.b + 32, 4098));
    MUT("one_frame_halfpel.wiv1", "field_range", (put32(x.b + 8, 1), put32(x.b + 20, 1)));
    MUT("one_frame_block2.wiv1", "field_range", (put32(x.b + 8, 1), x.b[5] = 1));
    /* Field rules in order: mv_precision is checked before q. */
    MUT("mv_precision0_q0.wiv1", "field_range", (x.b[5] = 0, put32(x.b + 24, 0)));
    MUT("keyframe1.wiv1", "keyframe_capability_mismatch", x.b[6] = 1);
    /* A field range beats the keyframe kind. */
    MUT("keyframe1_q0.wiv1", "field_range", (x.b[6] = 1, put32(x.b + 24, 0)));
    /* Caps (§7), in §3's order; the payload need not hold the sections. */
    MUT("cap_frame.wiv1", "too_large", (put32(x.b + 12, 4096), put32(x.b + 16, 5462)));
    MUT("cap_clip.wiv1", "too_large",
        (put32(x.b + 8, 22), put32(x.b + 12, 4096), put32(x.b + 16, 4096)));
    MUT("cap_frames.wiv1", "too_large",
        (put32(x.b + 8, (1u << 20) + 1), put32(x.b + 12, 1), put32(x.b + 16, 1)));
    MUT("cap_vectors.wiv1", "too_large",
        (put32(x.b + 8, 1u << 20), put32(x.b + 12, 1), put32(x.b + 16, 64), put32(x.b + 20, 1)));
    /* A cap beats a missing section. */
    MUT("cap_frame_no_sections.wiv1", "too_large",
        (put32(x.b + 12, 65535), put32(x.b + 16, 65535), x.len = 36));
    /* Sections: the table present, then its rules. */
    MUT("table_cut.wiv1", "stream_length", x.len = table_at + 4 * 9 - 1);
    MUT("table_cut_and_bad.wiv1", "stream_length", (put32(x.b + table_at, 7), x.len = table_at + 8));
    MUT("table_first_nonzero.wiv1", "cdf_malformed", put32(x.b + table_at, 1));
    MUT("table_last_65535.wiv1", "cdf_malformed", put32(x.b + table_at + 32, 65535));
    MUT("table_flat.wiv1", "cdf_malformed",
        put32(x.b + table_at + 12, wai_load_u32le(x.b + table_at + 8)));
    MUT("table_decreasing.wiv1", "cdf_malformed",
        put32(x.b + table_at + 12, wai_load_u32le(x.b + table_at + 8) - 1));
    MUT("vectors_cut.wiv1", "stream_length", x.len = vec_at + 5);
    MUT("stream_length_absent.wiv1", "stream_length", x.len = stream_at + 3);
    MUT("stream_length_not4.wiv1", "stream_length", put32(x.b + stream_at, 10));
    MUT("stream_length_4.wiv1", "stream_length", (put32(x.b + stream_at, 4), x.len = stream_at + 8));
    MUT("stream_length_0.wiv1", "stream_length", (put32(x.b + stream_at, 0), x.len = stream_at + 4));
    MUT("stream_cut.wiv1", "stream_length", x.len -= 4);
    MUT("trailing.wiv1", "trailing", x.b[x.len++] = 0);
    /* The stream: one word fewer runs out; one word more is not canonical. */
    size_t l = wai_load_u32le(b + stream_at);
    MUT("stream_exhausted.wiv1", "stream_exhausted",
        (put32(x.b + stream_at, (uint32_t)l - 4), x.len -= 4));
    MUT("stream_extra_word.wiv1", "stream_noncanonical",
        (put32(x.b + stream_at, (uint32_t)l + 4), put32(x.b + x.len, 0), x.len += 4));
#undef MUT
    /* The cost limit (reading N7): the work is 3*5*7*3 = 315 symbols. */
    write_file("motion/refuse/cost.wiv1", b, len);
    index_line("decode", CAP_CLIP, "cost_over_limit", "314", "motion/refuse/cost.wiv1", "-");
    hashes_of(g_hashes, sizeof g_hashes, c.frames, 5 * 7 * 3, 3);
    index_line("decode", CAP_CLIP, "ok", "315", "motion/refuse/cost.wiv1", g_hashes);
    /* A keyframe-0 clip through the keyframe-1 capability, through another
     * format's capability, and through a capability libwai does not know. */
    index_line("decode", CAP_HYPER, "keyframe_capability_mismatch", "-", "motion/refuse/cost.wiv1",
               "-");
    index_line("decode", "wai.video.int_cond", "format_capability_mismatch", "-",
               "motion/refuse/cost.wiv1", "-");
    index_line("decode", "wai.video.unknown", "unsupported_capability", "-",
               "motion/refuse/cost.wiv1", "-");
    free_clip(&c);
}

/* A keyframe-1 clip's nested WIH1 (reading R3): checked by a parse. */
static void nested_fixtures(void) {
    make_dir("motion/nested");
    uint8_t stream[8];
    put32(stream, 0x80000000u);
    put32(stream + 4, 0);
    wai_wih1_parts kp = {2, 1, 1, 1, 1, 1, stream, 8, stream, 8};
    uint8_t *key;
    size_t key_len;
    if (wai_wih1_write(NULL, &kp, &key, &key_len) != WAI_ok) gen_die("wih1");
    /* One frame (a keyframe), so its residual stream codes no symbol. */
    uint32_t cdf[3] = {0, 30000, 65536};
    wai_wiv1_parts p = {1, 1, 1, 8, 8, 1, 1, 0, cdf, 3, NULL, stream, 8, key, key_len};
    uint8_t *b;
    size_t len;
    if (wai_wiv1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wiv1 k1");
    fixture("parse", CAP_HYPER, "motion/nested/keyframe1.wiv1", b, len, "ok");
    fixture("parse", CAP_CLIP, "motion/nested/keyframe1_as_motion.wiv1", b, len,
            "keyframe_capability_mismatch");
    size_t k_at = len - key_len - 4;
    buf x = copy_of(b, len, 8);
    put32(x.b + k_at, (uint32_t)key_len - 1);
    fixture("parse", CAP_HYPER, "motion/nested/k_smaller.wiv1", x.b, len, "nested_length");
    put32(x.b + k_at, (uint32_t)key_len + 1);
    fixture("parse", CAP_HYPER, "motion/nested/k_larger.wiv1", x.b, len, "stream_length");
    fixture("parse", CAP_HYPER, "motion/nested/k_absent.wiv1", b, k_at + 2, "stream_length");
    /* Bytes left inside K after the nested WIH1: nested_length, not trailing. */
    memcpy(x.b, b, len);
    put32(x.b + k_at, (uint32_t)key_len + 1);
    x.b[len] = 0;
    fixture("parse", CAP_HYPER, "motion/nested/leftover_in_k.wiv1", x.b, len + 1, "nested_length");
    /* The nested payload's own checks. */
    memcpy(x.b, b, len);
    x.b[k_at + 4 + 4] = 2;
    fixture("parse", CAP_HYPER, "motion/nested/nested_version.wiv1", x.b, len, "version");
    memcpy(x.b, b, len);
    x.b[k_at + 4 + 2] = 'V';
    fixture("parse", CAP_HYPER, "motion/nested/nested_magic.wiv1", x.b, len,
            "format_capability_mismatch");
    memcpy(x.b, b, len);
    put32(x.b + k_at + 4 + 8, 0);
    fixture("parse", CAP_HYPER, "motion/nested/nested_m0.wiv1", x.b, len, "field_range");
    free(x.b);
    free(b);
    free(key);
}

/* WIF1 frames and frame streams (§16, reading R7). */
static void frame_fixtures(void) {
    make_dir("motion/frames");
    clip c;
    clip_shape s = {3, 6, 5, 3, 3, 7, 1, 0, 1};
    make_clip(&c, &s);
    wai_payload *fr;
    uint32_t n;
    if (wai_wiv1_split(NULL, c.bytes, c.len, &fr, &n) != WAI_ok || n != 3) gen_die("split");
    write_file("motion/frames/intra.wif1", fr[0].data, fr[0].len);
    write_file("motion/frames/inter1.wif1", fr[1].data, fr[1].len);
    write_file("motion/frames/inter2.wif1", fr[2].data, fr[2].len);
    char h1[65 * 3 + 8];
    hashes_of(h1, sizeof h1, c.frames, 6 * 5 * 3, 3);
    index_line("decode", CAP_FRAME, "ok", "-",
               "motion/frames/intra.wif1,motion/frames/inter1.wif1,motion/frames/inter2.wif1", h1);
    /* Two groups: a second intra frame opens a new group. */
    char h2[65 * 2 + 8], two[2 * sizeof h2 + 2];
    hashes_of(h2, sizeof h2, c.frames, 6 * 5 * 3, 2);
    snprintf(two, sizeof two, "%s,%s", h2, h2);
    index_line("decode", CAP_FRAME, "ok", "-",
               "motion/frames/intra.wif1,motion/frames/inter1.wif1,"
               "motion/frames/intra.wif1,motion/frames/inter1.wif1",
               two);
    /* A stream whose first frame is inter: field_range, nothing decodes. */
    index_line("decode", CAP_FRAME, "field_range", "-", "motion/frames/inter1.wif1", "-");
    /* The cost limit applies frame by frame. */
    index_line("decode", CAP_FRAME, "cost_over_limit", "89",
               "motion/frames/intra.wif1,motion/frames/inter1.wif1", "-");
    index_line("decode", CAP_FRAME, "ok", "90",
               "motion/frames/intra.wif1,motion/frames/inter1.wif1", h2);

    const uint8_t *intra = fr[0].data, *inter = fr[1].data;
    size_t intra_len = fr[0].len, inter_len = fr[1].len;
    buf x;
    char hash0[65];
    hashes_of(hash0, sizeof hash0, c.frames, 6 * 5 * 3, 1);
#define FMUT(src, src_len, name, code, edit)                                     \
    do {                                                                         \
        x = copy_of(src, src_len, 8);                                            \
        edit;                                                                    \
        fixture("decode", CAP_FRAME, "motion/frames/" name, x.b, x.len, code);   \
        free(x.b);                                                               \
    } while (0)
    FMUT(intra, intra_len, "short.wif1", "bad_magic", x.len = 2);
    FMUT(intra, intra_len, "magic_wiv1.wif1", "format_capability_mismatch", x.b[2] = 'V');
    FMUT(intra, intra_len, "version3.wif1", "version", x.b[4] = 3);
    FMUT(intra, intra_len, "header_cut.wif1", "stream_length", x.len = 31);
    FMUT(intra, intra_len, "reserved.wif1", "reserved_nonzero", x.b[30] = 1);
    FMUT(intra, intra_len, "kind2.wif1", "field_range", x.b[5] = 2);
    FMUT(intra, intra_len, "keyframe2.wif1", "field_range", x.b[6] = 2);
    FMUT(intra, intra_len, "intra_mv1.wif1", "field_range", x.b[7] = 1);
    FMUT(inter, inter_len, "inter_mv0.wif1", "field_range", x.b[7] = 0);
    FMUT(inter, inter_len, "inter_mv3.wif1", "field_range", x.b[7] = 3);
    FMUT(intra, intra_len, "h0.wif1", "field_range", put32(x.b + 8, 0));
    FMUT(intra, intra_len, "intra_block1.wif1", "field_range", put32(x.b + 16, 1));
    FMUT(inter, inter_len, "inter_block0.wif1", "field_range", put32(x.b + 16, 0));
    FMUT(intra, intra_len, "intra_q0.wif1", "field_range", put32(x.b + 20, 0));
    FMUT(inter, inter_len, "inter_q1.wif1", "field_range", put32(x.b + 20, 1));
    FMUT(inter, inter_len, "inter_offset.wif1", "field_range", put32(x.b + 24, 1));
    FMUT(intra, intra_len, "intra_cdf_len0.wif1", "field_range", wai_store_u16le(x.b + 28, 0));
    FMUT(inter, inter_len, "inter_cdf_len3.wif1", "field_range", wai_store_u16le(x.b + 28, 3));
    FMUT(intra, intra_len, "keyframe1.wif1", "keyframe_capability_mismatch", x.b[6] = 1);
    FMUT(intra, intra_len, "cap_frame.wif1", "too_large",
         (put32(x.b + 8, 4096), put32(x.b + 12, 5462)));
    FMUT(intra, intra_len, "table_bad.wif1", "cdf_malformed", put32(x.b + 32, 5));
    FMUT(intra, intra_len, "table_cut.wif1", "stream_length", x.len = 40);
    FMUT(inter, inter_len, "vectors_cut.wif1", "stream_length", x.len = 34);
    FMUT(intra, intra_len, "trailing.wif1", "trailing", x.b[x.len++] = 7);
    size_t sl = intra_len - 32 - 4 * 7 - 4, sat = 32 + 4 * 7;
    FMUT(intra, intra_len, "exhausted.wif1", "stream_exhausted",
         (put32(x.b + sat, (uint32_t)sl - 4), x.len -= 4));
    FMUT(intra, intra_len, "extra_word.wif1", "stream_noncanonical",
         (put32(x.b + sat, (uint32_t)sl + 4), put32(x.b + x.len, 0), x.len += 4));
#undef FMUT
    /* Streams refused part-way: the frames before stand (R9). */
    size_t il = inter_len - 32 - 4 * 4 - 4, iat = 32 + 4 * 4;
    x = copy_of(inter, inter_len, 8);
    put32(x.b + iat, (uint32_t)il - 4);
    x.len -= 4;
    write_file("motion/frames/inter1_exhausted.wif1", x.b, x.len);
    free(x.b);
    index_line("decode", CAP_FRAME, "stream_exhausted", "-",
               "motion/frames/intra.wif1,motion/frames/inter1_exhausted.wif1", hash0);
    /* After a refusal the group is gone: the next inter frame is field_range. */
    index_line("decode", CAP_FRAME, "field_range", "-",
               "motion/frames/inter1_exhausted.wif1,motion/frames/inter2.wif1", "-");
    /* An inter frame of another size than its intra frame (R7). */
    x = copy_of(inter, inter_len, 8);
    put32(x.b + 8, 5); /* 5 rows: the same 2x2 block grid, so it parses */
    write_file("motion/frames/inter_other_size.wif1", x.b, x.len);
    free(x.b);
    index_line("decode", CAP_FRAME, "geometry_mismatch", "-",
               "motion/frames/intra.wif1,motion/frames/inter_other_size.wif1", hash0);
    /* A frame of a clip is another format under the frame capability. */
    index_line("decode", CAP_FRAME, "format_capability_mismatch", "-",
               "motion/valid/clip00.wiv1", "-");
    wai_payloads_free(NULL, fr, n);
    free_clip(&c);
}

/* A keyframe-1 intra frame with its nested WIH1, by parse. */
static void frame_nested_fixtures(void) {
    uint8_t stream[8];
    put32(stream, 0x80000000u);
    put32(stream + 4, 0);
    wai_wih1_parts kp = {2, 1, 1, 1, 1, 1, stream, 8, stream, 8};
    uint8_t *key, *b;
    size_t key_len, len;
    if (wai_wih1_write(NULL, &kp, &key, &key_len) != WAI_ok) gen_die("wih1");
    uint32_t cdf[3] = {0, 30000, 65536};
    wai_wif1_parts p = {0, 1, 0, 8, 8, 0, 1, 0, cdf, 3, NULL, NULL, 0, key, key_len};
    if (wai_wif1_write(NULL, &p, &b, &len) != WAI_ok) gen_die("wif1 k1");
    fixture("parse", CAP_HYPER_FRAME, "motion/nested/intra_keyframe1.wif1", b, len, "ok");
    buf x = copy_of(b, len, 8);
    put32(x.b + 32 + 12, (uint32_t)key_len - 4);
    fixture("parse", CAP_HYPER_FRAME, "motion/nested/intra_k_smaller.wif1", x.b, len,
            "nested_length");
    free(x.b);
    free(b);
    free(key);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: wai_gen_corpus OUTDIR\n");
        return 2;
    }
    g_out = argv[1];
    make_dir("");
    char path[1024];
    snprintf(path, sizeof path, "%s/index.txt", g_out);
    g_index = fopen(path, "w");
    if (!g_index) gen_die(path);
    fprintf(g_index, "# Written by tests/corpus/generate.c; see its header for the columns.\n");
    valid_corpus();
    clip_fixtures();
    nested_fixtures();
    frame_fixtures();
    frame_nested_fixtures();
    gen_neural(g_out, g_index);
    gen_neural_parse(g_out, g_index);
    gen_parse_codes(g_out, g_index);
    gen_synth(g_out, g_index);
    gen_wim1(g_out, g_index);
    gen_wic1(g_out, g_index);
    gen_json(g_out, g_index);
    gen_receipts(g_out);
    if (fclose(g_index) != 0) gen_die("index");
    gen_models(g_out);
    return 0;
}
