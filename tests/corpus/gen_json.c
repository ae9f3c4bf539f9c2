/* The tools' JSON forms (integer-payloads §10, docs/json-forms.md): forms
 * written here by their own printer (not the library's export), each with
 * what converting it must give, in json/index.txt:
 *
 *   CAPABILITY STATUS FORM PAYLOAD     (PAYLOAD: the bytes an ok form gives)
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

static void form(const char *cap, const char *status, const char *name, const text *t,
                 const char *payload) {
    char rel[128];
    snprintf(rel, sizeof rel, "json/%s.json", name);
    gen_put(g_root, rel, t->b, t->len);
    fprintf(g_idx, "%s %s %s.json %s\n", cap, status, name, payload ? payload : "-");
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

void gen_json(const char *outdir, FILE *main_index) {
    g_root = outdir;
    gen_mkdir(g_root, "json");
    char path[1024];
    snprintf(path, sizeof path, "%s/json/index.txt", outdir);
    if (!(g_idx = fopen(path, "w"))) gen_die(path);
    fprintf(g_idx, "# Written by tests/corpus/gen_json.c: CAPABILITY STATUS FORM PAYLOAD\n");
    motion_cases();
    hyper_cases();
    if (fclose(g_idx) != 0) gen_die("json index");
    /* A form given to a decoder as a payload: bad_magic (§10). */
    fprintf(main_index, "parse " MOTION " bad_magic - json/clip.json -\n");
    fprintf(main_index, "parse " HYPER " bad_magic - json/image.json -\n");
}
