/* The tools' JSON forms (integer-payloads §10, docs/json-forms.md): forms
 * written here by their own printer (not the library's export), each with
 * what converting it must give, in json/index.txt:
 *
 *   CAPABILITY STATUS FORM PAYLOAD AUDIO MODEL
 *
 * (PAYLOAD: the bytes an ok form gives, under json/; AUDIO and MODEL: the
 * audio.json and set network a WIA1 or WIS1 form is converted with, under
 * the corpus root, or -).
 *
 * A clip of wai.video.int_motion (the library's motion encoder on seeded
 * frames), one of wai.video.int_hyper (a WIH1 keyframe) and a WIH1, then one
 * form per §10 rule and per code: the defaults and overrides (absent
 * mv_precision, a one-frame clip's fields, a short vector list padded, rmax
 * and unknown members ignored), every refusal (not JSON, no object, a
 * member absent or mistyped, base64 not canonical, a value outside its
 * field, mv_precision 3, a list too long, a vector outside i16, frame 0's
 * vectors, the keyframe member against the capability) and the payload's
 * own parse codes. The main index gets a form given as a payload:
 * bad_magic. */
#include "gen_io.h"
#include "gen_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "wai/wai.h"
#include "wai/wai_write.h"
#include "write/payloads.h"

static const char *g_root;
static FILE *g_idx;

typedef struct text {
    char *b;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->b ? t->b + t->len : NULL, t->b ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) gen_die("format");
        if (t->b && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = 2 * (t->cap + (size_t)n + 64);
        if (!(t->b = realloc(t->b, t->cap))) gen_die("memory");
    }
}

static void put_b64(text *t, const uint8_t *b, size_t n) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    put(t, "\"");
    for (size_t i = 0; i < n; i += 3) {
        uint32_t x = (uint32_t)b[i] << 16;
        if (i + 1 < n) x |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < n) x |= b[i + 2];
        put(t, "%c%c%c%c", a[x >> 18], a[(x >> 12) & 63], i + 1 < n ? a[(x >> 6) & 63] : '=',
            i + 2 < n ? a[x & 63] : '=');
    }
    put(t, "\"");
}

/* ---- the forms, as fields a case edits ---------------------------------------- */

typedef struct wih1_form {
    long long dims[6];      /* m sh sw n_z zh zw */
    const uint8_t *z, *y;
    size_t z_len, y_len;
} wih1_form;

static void print_wih1(text *t, const wih1_form *f) {
    static const char *const names[6] = {"m", "sh", "sw", "n_z", "zh", "zw"};
    put(t, "{");
    for (int i = 0; i < 6; i++) put(t, "\"%s\": %lld, ", names[i], f->dims[i]);
    put(t, "\"z_stream\": ");
    put_b64(t, f->z, f->z_len);
    put(t, ", \"y_stream\": ");
    put_b64(t, f->y, f->y_len);
    put(t, "}");
}

typedef struct wiv1_form {
    long long n_frames, h, w, mv_precision, block, q, offset;
    int no_mv_precision;
    const uint32_t *cdf;
    uint32_t cdf_len;
    uint64_t nb;              /* vectors per listed frame (each list this long) */
    const int16_t *vectors;   /* (n_frames - 1) * nb pairs */
    long long edit_vector;    /* when edit_at != 0: vector component edit_at - 1 set to this */
    uint64_t edit_at;
    int first_list_nonempty, extra_list, extra_vector;
    const uint8_t *stream;
    size_t stream_len;
    const char *extra_member;  /* text put before the closing brace */
    const wih1_form *key;
} wiv1_form;

static void print_wiv1(text *t, const wiv1_form *f) {
    put(t, "{\"n_frames\": %lld, \"h\": %lld, \"w\": %lld, ", f->n_frames, f->h, f->w);
    if (!f->no_mv_precision) put(t, "\"mv_precision\": %lld, ", f->mv_precision);
    put(t, "\"block\": %lld, \"q\": %lld, \"offset\": %lld,\n \"cdf\": [", f->block, f->q,
        f->offset);
    for (uint32_t i = 0; i < f->cdf_len; i++) put(t, "%s%u", i ? ", " : "", f->cdf[i]);
    put(t, "],\n \"mvs\": [[%s]", f->first_list_nonempty ? "[0, 0]" : "");
    const long long lists = f->n_frames - 1 + f->extra_list;
    for (long long l = 0; l < lists; l++) {
        put(t, ", [");
        for (uint64_t i = 0; i < f->nb + (uint64_t)f->extra_vector; i++) {
            const uint64_t at = 2 * ((uint64_t)l * f->nb + i);
            long long dy = 0, dx = 0;
            if (i < f->nb && l < f->n_frames - 1) dy = f->vectors[at], dx = f->vectors[at + 1];
            if (f->edit_at && f->edit_at - 1 == at) dy = f->edit_vector;
            if (f->edit_at && f->edit_at - 1 == at + 1) dx = f->edit_vector;
            put(t, "%s[%lld, %lld]", i ? ", " : "", dy, dx);
        }
        put(t, "]");
    }
    put(t, "],\n \"stream\": ");
    put_b64(t, f->stream, f->stream_len);
    if (f->key) {
        put(t, ",\n \"keyframe\": ");
        print_wih1(t, f->key);
    }
    put(t, "%s}\n", f->extra_member ? f->extra_member : "");
}

/* ---- output ---------------------------------------------------------------------- */

static void payload_file(const char *name, const uint8_t *b, size_t len) {
    char rel[128];
    snprintf(rel, sizeof rel, "json/%s", name);
    gen_put(g_root, rel, b, len);
}

/* What a WIA1 or WIS1 form does not carry: audio.json and the set's
 * network (paths under the corpus root), for the cases that follow. */
static const char *g_audio = "-", *g_model = "-";

static void form(const char *cap, const char *status, const char *name, const text *t,
                 const char *payload) {
    char rel[128];
    snprintf(rel, sizeof rel, "json/%s.json", name);
    gen_put(g_root, rel, t->b, t->len);
    fprintf(g_idx, "%s %s %s.json %s %s %s\n", cap, status, name, payload ? payload : "-", g_audio,
            g_model);
}

#define MOTION "wai.video.int_motion"
#define HYPER_VIDEO "wai.video.int_hyper"
#define HYPER "wai.neural.int_hyper"

static text print_v(const wiv1_form *f) {
    text t = {NULL, 0, 0};
    print_wiv1(&t, f);
    return t;
}

/* A case: the base form with one edit, printed and listed. */
#define CASE(cap, status, name, edit, payload)  \
    do {                                        \
        wiv1_form e = base;                     \
        edit;                                   \
        text ct = print_v(&e);                  \
        form(cap, status, name, &ct, payload);  \
        free(ct.b);                             \
    } while (0)

/* The seeded frames: a gradient moving right by one pixel a frame. */
static uint8_t *frames_of(uint32_t n, uint32_t h, uint32_t w) {
    uint8_t *rgb = malloc((size_t)n * h * w * 3);
    if (!rgb) gen_die("memory");
    for (uint32_t f = 0; f < n; f++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                for (uint32_t c = 0; c < 3; c++)
                    rgb[(((size_t)f * h + y) * w + x) * 3 + c] =
                        (uint8_t)((x + w - f) * 9 + y * 5 + c * 40);
    return rgb;
}

static void motion_cases(void) {
    enum { N = 3, H = 16, W = 24 };
    uint8_t *rgb = frames_of(N, H, W);
    const uint8_t *fr[N] = {rgb, rgb + H * W * 3, rgb + 2 * H * W * 3};
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.block = 8;
    p.search = 2;
    p.q = 3;
    /* The search the committed files were made with (before the rate term):
     * their vectors are fixtures, not the encoder's best. */
    p.sad_search = 1;
    wai_motion_encode_result r;
    if (wai_motion_encode(NULL, fr, N, H, W, &p, &r) != WAI_ok) gen_die("motion encode");
    payload_file("clip.wiv1", r.payload, r.payload_len);
    wai_wiv1 v;
    if (wai_wiv1_parse(r.payload, r.payload_len, 0, &v) != WAI_ok) gen_die("clip parse");
    uint32_t *cdf = malloc(4 * (size_t)v.cdf_len);
    int16_t *vec = malloc(4 * (size_t)v.nb * (N - 1));
    if (!cdf || !vec) gen_die("memory");
    wai_cdf_from_bytes(cdf, v.cdf, v.cdf_len);
    for (uint64_t i = 0; i < v.nb * (N - 1); i++) wai_wiv1_vector(&v, i, &vec[2 * i], &vec[2 * i + 1]);
    const wiv1_form base = {N,       H,    W,    v.mv_precision, v.block, v.q, v.offset, 0,
                            cdf,     v.cdf_len, v.nb, vec,        0,       0,   0,        0,
                            0,       v.residual.bytes, v.residual.len, NULL, NULL};
    /* The form, and what §10 makes explicit. */
    CASE(MOTION, "ok", "clip", (void)0, "clip.wiv1");
    CASE(MOTION, "ok", "clip_no_mv_precision", e.no_mv_precision = 1, "clip.wiv1");
    CASE(MOTION, "ok", "clip_rmax_ignored", e.extra_member = ",\n \"rmax\": 17, \"note\": [1, {}]",
         "clip.wiv1");
    CASE(MOTION, "field_range", "clip_mv_precision_3", e.mv_precision = 3, NULL);
    CASE(MOTION, "field_range", "clip_mv_precision_0", e.mv_precision = 0, NULL);
    CASE(MOTION, "field_range", "clip_list_too_long", e.extra_vector = 1, NULL);
    CASE(MOTION, "field_range", "clip_lists_past_frames", e.extra_list = 1, NULL);
    CASE(MOTION, "field_range", "clip_frame0_vectors", e.first_list_nonempty = 1, NULL);
    CASE(MOTION, "field_range", "clip_vector_32768", (e.edit_at = 1, e.edit_vector = 32768), NULL);
    CASE(MOTION, "field_range", "clip_vector_minus_32769", (e.edit_at = 2, e.edit_vector = -32769),
         NULL);
    CASE(MOTION, "field_range", "clip_offset_2_31", e.offset = 2147483648LL, NULL);
    CASE(MOTION, "field_range", "clip_h_2_32", e.h = 4294967296LL, NULL);
    CASE(MOTION, "field_range", "clip_q_0", e.q = 0, NULL);                  /* the parse's */
    CASE(MOTION, "field_range", "clip_block_0", e.block = 0, NULL);          /* the parse's */
    CASE(MOTION, "keyframe_capability_mismatch", "clip_keyframe_member",
         e.extra_member = ",\n \"keyframe\": {}", NULL);
    {
        /* The stream cut to 6 bytes: the parse's stream_length. */
        wiv1_form e = base;
        e.stream_len = 6;
        text t = print_v(&e);
        form(MOTION, "stream_length", "clip_stream_6_bytes", &t, NULL);
        free(t.b);
    }
    {
        /* A short list padded with (0, 0): frame 2's last vector dropped
         * from the form, written as (0, 0) in the payload. */
        int16_t *v2 = malloc(4 * (size_t)v.nb * (N - 1));
        if (!v2) gen_die("memory");
        memcpy(v2, vec, 4 * (size_t)v.nb * (N - 1));
        v2[2 * (2 * v.nb - 1)] = 0, v2[2 * (2 * v.nb - 1) + 1] = 0;
        wai_wiv1_parts pp = {v.mv_precision, 0, N, H, W, v.block, v.q, v.offset, cdf, v.cdf_len,
                             v2, v.residual.bytes, v.residual.len, NULL, 0};
        uint8_t *b;
        size_t len;
        if (wai_wiv1_write(NULL, &pp, &b, &len) != WAI_ok) gen_die("padded clip");
        payload_file("clip_padded.wiv1", b, len);
        free(b);
        text t = {NULL, 0, 0};
        print_wiv1(&t, &base);
        /* Cut the last pair of the last list out of the printed text. */
        char *last = strstr(t.b, "]],\n \"stream\"");
        char *pair = last;
        while (pair > t.b && *pair != '[') pair--;
        memmove(pair - 2, last, strlen(last) + 1);   /* drop ", [dy, dx" */
        t.len = strlen(t.b);
        form(MOTION, "ok", "clip_short_list_padded", &t, "clip_padded.wiv1");
        free(t.b);
        free(v2);
    }
    /* One frame: written with mv_precision 1 and block 1 whatever it says. */
    {
        wai_motion_encode_result one;
        if (wai_motion_encode(NULL, fr, 1, H, W, &p, &one) != WAI_ok) gen_die("one frame");
        payload_file("one_frame.wiv1", one.payload, one.payload_len);
        wai_wiv1 o;
        if (wai_wiv1_parse(one.payload, one.payload_len, 0, &o) != WAI_ok) gen_die("one parse");
        uint32_t *c1 = malloc(4 * (size_t)o.cdf_len);
        if (!c1) gen_die("memory");
        wai_cdf_from_bytes(c1, o.cdf, o.cdf_len);
        wiv1_form f = {1,  H, W, 2, 16, o.q, o.offset, 0, c1, o.cdf_len, 0, NULL, 0, 0, 0, 0,
                       0, o.residual.bytes, o.residual.len, NULL, NULL};
        text t = print_v(&f);
        form(MOTION, "ok", "one_frame_fields_fixed", &t, "one_frame.wiv1");
        free(t.b);
        free(c1);
        wai_motion_encode_result_free(NULL, &one);
    }
    /* The text itself. */
    static const struct {
        const char *name, *body;
    } texts[] = {
        {"not_json", "{\"n_frames\": 3,"},
        {"array_root", "[1, 2, 3]"},
        {"q_absent", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, \"offset\": 0, "
                     "\"cdf\": [0, 1, 65536], \"mvs\": [[]], \"stream\": \"AAAAgAAAAAA=\"}"},
        {"q_string", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, \"q\": \"1\", "
                     "\"offset\": 0, \"cdf\": [0, 1, 65536], \"mvs\": [[]], "
                     "\"stream\": \"AAAAgAAAAAA=\"}"},
        {"q_fraction", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, \"q\": 1.0, "
                       "\"offset\": 0, \"cdf\": [0, 1, 65536], \"mvs\": [[]], "
                       "\"stream\": \"AAAAgAAAAAA=\"}"},
        {"stream_not_base64", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, \"q\": 1, "
                              "\"offset\": 0, \"cdf\": [0, 1, 65536], \"mvs\": [[]], "
                              "\"stream\": \"AAAAgAAAAA*=\"}"},
        {"stream_base64_loose_bits", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, "
                                     "\"q\": 1, \"offset\": 0, \"cdf\": [0, 1, 65536], "
                                     "\"mvs\": [[]], \"stream\": \"AAAAgAAAAAB=\"}"},
        {"stream_base64_unpadded", "{\"n_frames\": 1, \"h\": 1, \"w\": 1, \"block\": 1, "
                                   "\"q\": 1, \"offset\": 0, \"cdf\": [0, 1, 65536], "
                                   "\"mvs\": [[]], \"stream\": \"AAAAgAAAAAA\"}"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        text t = {NULL, 0, 0};
        put(&t, "%s\n", texts[i].body);
        form(MOTION, "payload_malformed", texts[i].name, &t, NULL);
        free(t.b);
    }
    free(cdf), free(vec), free(rgb);
    wai_motion_encode_result_free(NULL, &r);
}

static void hyper_cases(void) {
    static const uint8_t zs[8] = {0, 0, 0, 0x80, 0, 0, 0, 0}, ys[12] = {1, 2, 3, 0x80, 4, 5, 6, 7, 8};
    const wih1_form key = {{2, 2, 2, 1, 1, 1}, zs, ys, sizeof zs, sizeof ys};
    wai_wih1_parts kp = {2, 2, 2, 1, 1, 1, zs, sizeof zs, ys, sizeof ys};
    uint8_t *wih1;
    size_t wih1_len;
    if (wai_wih1_write(NULL, &kp, &wih1, &wih1_len) != WAI_ok) gen_die("wih1");
    payload_file("image.wih1", wih1, wih1_len);
    text t = {NULL, 0, 0};
    print_wih1(&t, &key);
    put(&t, "\n");
    form(HYPER, "ok", "image", &t, "image.wih1");
    free(t.b);
    static const struct {
        const char *name, *status;
        int dim;
        long long value;
    } edits[] = {{"image_m_0", "field_range", 0, 0},
                 {"image_zw_2_32", "field_range", 5, 4294967296LL},
                 {"image_sh_negative", "field_range", 1, -1}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        wih1_form f = key;
        f.dims[edits[i].dim] = edits[i].value;
        text u = {NULL, 0, 0};
        print_wih1(&u, &f);
        form(HYPER, edits[i].status, edits[i].name, &u, NULL);
        free(u.b);
    }
    {
        wih1_form f = key;
        f.z_len = 6;   /* a stream of 6 bytes: the parse's stream_length */
        text u = {NULL, 0, 0};
        print_wih1(&u, &f);
        form(HYPER, "stream_length", "image_z_stream_6_bytes", &u, NULL);
        free(u.b);
    }
    {
        text u = {NULL, 0, 0};
        put(&u, "{\"m\": 2, \"sh\": 2, \"sw\": 2, \"n_z\": 1, \"zh\": 1, \"zw\": 1, "
                "\"z_stream\": \"AAAAgAAAAAA=\"}\n");
        form(HYPER, "payload_malformed", "image_y_stream_absent", &u, NULL);
        free(u.b);
    }
    /* wai.video.int_hyper: one frame, its keyframe the WIH1's form. */
    static const uint32_t cdf[3] = {0, 32768, 65536};
    wai_wiv1_parts vp = {1, 1, 1, 8, 8, 1, 1, 0, cdf, 3, NULL, zs, sizeof zs, wih1, wih1_len};
    uint8_t *clip;
    size_t clip_len;
    if (wai_wiv1_write(NULL, &vp, &clip, &clip_len) != WAI_ok) gen_die("hyper clip");
    payload_file("hyper_clip.wiv1", clip, clip_len);
    const wiv1_form base = {1, 8, 8, 1, 1, 1, 0, 0, cdf, 3, 0, NULL, 0, 0, 0, 0, 0,
                            zs, sizeof zs, NULL, &key};
    CASE(HYPER_VIDEO, "ok", "hyper_clip", (void)0, "hyper_clip.wiv1");
    CASE(HYPER_VIDEO, "keyframe_capability_mismatch", "hyper_clip_no_keyframe", e.key = NULL, NULL);
    const wih1_form bad_key = {{0, 2, 2, 1, 1, 1}, zs, ys, sizeof zs, sizeof ys};
    CASE(HYPER_VIDEO, "field_range", "hyper_clip_keyframe_m_0", e.key = &bad_key, NULL);
    free(clip), free(wih1);
}

/* ---- WIA1 and WIS1 ----------------------------------------------------------------- */

static uint8_t *read_root(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_root, rel);
    FILE *f = fopen(path, "rb");
    if (!f) gen_die(path);
    uint8_t *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap && !(b = realloc(b, cap = 2 * cap + 4096))) gen_die("memory");
        const size_t got = fread(b + n, 1, cap - n, f);
        if (!got) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return b;
}

static uint32_t model_afrac(const char *rel) {
    size_t len;
    uint8_t *b = read_root(rel, &len);
    if (len < 8) gen_die("model");
    const uint32_t afrac = wai_load_u32le(b + 4);   /* WHM1/WAM1: magic, then afrac */
    free(b);
    return afrac;
}

static void put_ints(text *t, const int64_t *v, size_t n) {
    put(t, "[");
    for (size_t i = 0; i < n; i++) put(t, "%s%lld", i ? ", " : "", (long long)v[i]);
    put(t, "]");
}

static void put_tables(text *t, const uint32_t *flat, const uint32_t *lengths, size_t n) {
    put(t, "[");
    for (size_t k = 0, at = 0; k < n; k++) {
        put(t, "%s[", k ? ", " : "");
        for (uint32_t i = 0; i < lengths[k]; i++, at++) put(t, "%s%u", i ? ", " : "", flat[at]);
        put(t, "]");
    }
    put(t, "]");
}

typedef struct wia1_form {
    long long afrac, n_ch, lat_len, t_out, lo;
    const int64_t *medians;
    size_t n_medians;
    const uint32_t *cdfs, *lengths;
    size_t n_tables;
} wia1_form;

static const uint8_t g_stream8[8] = {0, 0, 0, 0x80, 0, 0, 0, 0};

static text print_wia1(const wia1_form *f) {
    text t = {NULL, 0, 0};
    put(&t, "{\"afrac\": %lld, \"n_ch\": %lld, \"lat_len\": %lld, \"t_out\": %lld, \"lo\": %lld,\n",
        f->afrac, f->n_ch, f->lat_len, f->t_out, f->lo);
    put(&t, " \"medians\": ");
    put_ints(&t, f->medians, f->n_medians);
    put(&t, ",\n \"cdfs\": ");
    put_tables(&t, f->cdfs, f->lengths, f->n_tables);
    put(&t, ",\n \"stream\": ");
    put_b64(&t, g_stream8, sizeof g_stream8);
    put(&t, "}\n");
    return t;
}

#define AUDIO "wai.audio.int_codec"
#define SPLAT "wai.splat.int_codec"

#define ACASE(status, name, edit, payload)     \
    do {                                       \
        wia1_form e = base;                    \
        edit;                                  \
        text ct = print_wia1(&e);              \
        form(AUDIO, status, name, &ct, payload); \
        free(ct.b);                            \
    } while (0)

static void audio_cases(void) {
    const char *model = "neural/audio/set0/model.wam";
    const uint32_t afrac = model_afrac(model);
    static const char *const sidecars[3][2] = {{"json/audio.json", "{\"sample_rate\": 8000}\n"},
                                               {"json/audio_no_rate.json", "{\"rate\": 8000}\n"},
                                               {"json/audio_rate_0.json", "{\"sample_rate\": 0}\n"}};
    for (int i = 0; i < 3; i++) gen_put(g_root, sidecars[i][0], sidecars[i][1], strlen(sidecars[i][1]));
    static const uint32_t cdfs[6] = {0, 30000, 65536, 0, 1000, 65536}, lengths[2] = {3, 3};
    static const int64_t medians[2] = {-7, INT64_MAX};
    const wai_wia1_parts pp = {(uint8_t)afrac, 8000, 2, 4, 16, -1, 3, medians, cdfs,
                               g_stream8, sizeof g_stream8};
    uint8_t *b;
    size_t len;
    if (wai_wia1_write(NULL, &pp, &b, &len) != WAI_ok) gen_die("wia1");
    payload_file("audio.wia1", b, len);
    free(b);
    const wia1_form base = {afrac, 2, 4, 16, -1, medians, 2, cdfs, lengths, 2};
    static const uint32_t uneven_lengths[2] = {2, 4};
    g_audio = "json/audio.json", g_model = model;
    ACASE("ok", "audio_clip", (void)0, "audio.wia1");
    ACASE("field_range", "audio_table_lengths_differ", e.lengths = uneven_lengths, NULL);
    ACASE("field_range", "audio_tables_not_n_ch", e.n_tables = 1, NULL);
    ACASE("field_range", "audio_medians_not_n_ch", e.n_medians = 1, NULL);
    ACASE("field_range", "audio_lo_2_31", e.lo = 2147483648LL, NULL);
    ACASE("model_mismatch", "audio_afrac_not_the_models", e.afrac = afrac + 1, NULL);
    ACASE("field_range", "audio_afrac_0", e.afrac = 0, NULL);   /* the parse's, first */
    g_model = "-";
    ACASE("set_incomplete", "audio_no_model", (void)0, NULL);
    g_model = "json/audio.json";   /* no network */
    ACASE("model_mismatch", "audio_model_no_network", (void)0, NULL);
    g_model = model, g_audio = "-";
    ACASE("invalid_argument", "audio_no_audio_json", (void)0, NULL);
    g_audio = "json/audio_no_rate.json";
    ACASE("payload_malformed", "audio_json_no_sample_rate", (void)0, NULL);
    g_audio = "json/audio_rate_0.json";
    ACASE("field_range", "audio_sample_rate_0", (void)0, NULL);   /* the parse's */
    {
        g_audio = "json/audio.json";
        text t = print_wia1(&base);
        char *at = strstr(t.b, "9223372036854775807");
        if (!at) gen_die("median");
        at[18] = '8';   /* 2^63: past i64 */
        form(AUDIO, "field_range", "audio_median_past_i64", &t, NULL);
        free(t.b);
    }
    g_audio = "-", g_model = "-";
}

/* WIS1: the ranges are spelled by hand; each case swaps one spelling. */
static void splat_cases(void) {
    const char *model = "neural/splat/set0/g_s.whm";
    const uint32_t afrac = model_afrac(model);
    static const uint32_t ranges[6] = {0x00000000u, 0x3f800000u, 0xbf800000u, 0x3dcccccdu,
                                       0x5d800000u, 0x7f7fffffu};
    static const char *const spelled[6] = {"0", "1", "-1", "0.10000000149011612",
                                           "1152921504606846976", "3.4028234663852886e38"};
    static const uint32_t cdfs[7] = {0, 30000, 65536, 0, 10, 20, 65536}, lengths32[2] = {3, 4};
    static const uint16_t lengths[2] = {3, 4};
    static const int32_t offsets[2] = {-3, 5};
    static const int64_t medians[2] = {100, -100}, offsets64[2] = {-3, 5};
    const wai_wis1_parts pp = {(uint8_t)afrac, 2, 2, 2, 4, 3, 10, ranges, lengths, offsets, medians,
                               cdfs, g_stream8, sizeof g_stream8};
    uint8_t *b;
    size_t len;
    if (wai_wis1_write(NULL, &pp, &b, &len) != WAI_ok) gen_die("wis1");
    payload_file("splat.wis1", b, len);
    free(b);
    g_model = model;
    static const struct {
        const char *name, *status;
        int which;           /* the range spelling replaced, -1 none */
        const char *spelling;
        const char *payload;
    } cases[] = {
        {"splat", "ok", -1, NULL, "splat.wis1"},
        /* Other spellings of the same values. */
        {"splat_one_as_1e0", "ok", 1, "1e0", "splat.wis1"},
        {"splat_minus_one_as_fraction", "ok", 2, "-1.0", "splat.wis1"},
        {"splat_tenth_exact", "ok", 3, "0.100000001490116119384765625", "splat.wis1"},
        {"splat_2_60_as_fraction", "ok", 4, "1152921504606846976.0", "splat.wis1"},
        {"splat_2_60_plus_1_exponent", "ok", 4, "1152921504606846977e0", "splat.wis1"},
        {"splat_minus_0_integer", "ok", 0, "-0", "splat.wis1"},
        /* No binary32 value. */
        {"splat_tenth_binary64", "field_range", 3, "0.1", NULL},
        {"splat_2_60_plus_1_integer", "field_range", 4, "1152921504606846977", NULL},
        {"splat_past_binary32", "field_range", 5, "3.4028235677973366e38", NULL},
        {"splat_past_binary64", "field_range", 5, "1e400", NULL},
        {"splat_half_least_binary32", "field_range", 1, "7.006492321624085e-46", NULL},
        /* A binary32 value the parse refuses: lo past hi. */
        {"splat_lo_past_hi", "?", 0, "2", NULL},
        {"splat_range_string", "payload_malformed", 0, "\"0\"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        text t = {NULL, 0, 0};
        put(&t, "{\"afrac\": %u, \"c\": 2, \"sh\": 2, \"sw\": 2, \"s\": 4, \"attr\": 3, "
                "\"n_gaussians\": 10,\n \"ranges\": [",
            afrac);
        for (int r = 0; r < 3; r++)
            put(&t, "%s[%s, %s]", r ? ", " : "",
                cases[i].which == 2 * r ? cases[i].spelling : spelled[2 * r],
                cases[i].which == 2 * r + 1 ? cases[i].spelling : spelled[2 * r + 1]);
        put(&t, "],\n \"offsets\": ");
        put_ints(&t, offsets64, 2);
        put(&t, ", \"medians\": ");
        put_ints(&t, medians, 2);
        put(&t, ",\n \"cdfs\": ");
        put_tables(&t, cdfs, lengths32, 2);
        put(&t, ",\n \"stream\": ");
        put_b64(&t, g_stream8, sizeof g_stream8);
        put(&t, "}\n");
        const char *status = cases[i].status;
        if (!strcmp(status, "?")) {
            /* The parse's own code for lo 2 > hi 1: the writer's. */
            uint32_t r2[6];
            memcpy(r2, ranges, sizeof r2);
            r2[0] = 0x40000000u;
            wai_wis1_parts q = pp;
            q.ranges = r2;
            uint8_t *x = NULL;
            size_t xl;
            const wai_status st = wai_wis1_write(NULL, &q, &x, &xl);
            if (st == WAI_ok) gen_die("lo past hi accepted");
            status = wai_status_name(st);
        }
        form(SPLAT, status, cases[i].name, &t, cases[i].payload);
        free(t.b);
    }
    g_model = "-";
    {
        text t = {NULL, 0, 0};
        put(&t, "{\"afrac\": %u}\n", afrac);
        form(SPLAT, "payload_malformed", "splat_members_absent", &t, NULL);
        free(t.b);
    }
}

void gen_json(const char *outdir, FILE *main_index) {
    g_root = outdir;
    gen_mkdir(g_root, "json");
    char path[1024];
    snprintf(path, sizeof path, "%s/json/index.txt", outdir);
    if (!(g_idx = fopen(path, "w"))) gen_die(path);
    fprintf(g_idx, "# Written by tests/corpus/gen_json.c: CAPABILITY STATUS FORM PAYLOAD AUDIO MODEL\n");
    motion_cases();
    hyper_cases();
    audio_cases();
    splat_cases();
    if (fclose(g_idx) != 0) gen_die("json index");
    /* A form given to a decoder as a payload: bad_magic (§10). */
    fprintf(main_index, "parse " MOTION " bad_magic - json/clip.json -\n");
    fprintf(main_index, "parse " HYPER " bad_magic - json/image.json -\n");
}
