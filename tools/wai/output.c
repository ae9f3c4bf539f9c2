/* Writers for `wai decode -o OUT` (output.h).
 *
 * Y4M. Decoded frames are RGB8 and YUV4MPEG2 carries only Y'CbCr, so the
 * conversion picks the one layout ffmpeg turns back into the same RGB bytes:
 * C444p16 (4:4:4, 16-bit little-endian samples), BT.601, limited range (Y
 * 4096..60160, Cb and Cr centred on 32768), each sample the exact rational
 * value rounded half up. An 8-bit C444 can't round-trip (8-bit Y'CbCr has
 * fewer codes than RGB has colours, so ffmpeg gets some samples back off by 1
 * or 2); the 16-bit samples give ffmpeg 5.1's default conversion to rgb24
 * every one of the 2^24 colours back exactly (checked over a 4096x4096 frame
 * of them). The header says XCOLORRANGE=LIMITED, and ffmpeg assumes BT.601
 * when a Y4M names no matrix. */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef WAI_HAVE_PNG
#include <png.h>
#endif

/* ---- choosing the format ------------------------------------------------ */

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static int ends_with_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++)
        if (lower((unsigned char)s[n - m + i]) != suffix[i]) return 0;
    return 1;
}

/* A PNG pattern has exactly one '%', the start of %d or %0Nd (N one or two
 * digits). The name is built here rather than by printf, so a pattern can
 * never act as a format string. */
typedef struct png_pattern {
    size_t prefix_len;        /* bytes before the % */
    const char *suffix;       /* after the conversion */
    int width;                /* zero-padded digits, 0 for none */
} png_pattern;

static int parse_pattern(const char *path, png_pattern *p) {
    const char *pct = strchr(path, '%');
    if (!pct || strchr(pct + 1, '%')) return 0;
    const char *c = pct + 1;
    int width = 0;
    if (*c == '0') {
        c++;
        int digits = 0;
        while (*c >= '0' && *c <= '9' && digits < 3) width = width * 10 + (*c++ - '0'), digits++;
        if (digits == 0 || digits > 2 || width == 0) return 0;
    }
    if (*c != 'd') return 0;
    p->prefix_len = (size_t)(pct - path);
    p->suffix = c + 1;
    p->width = width;
    return 1;
}

static const char *const format_names[] = {"", "y4m", "rgb", "png"};

int out_select(const char *path, const char *format, out_format *fmt) {
    *fmt = OUT_FORMAT_NONE;
    if (format) {
        for (int i = OUT_FORMAT_Y4M; i <= OUT_FORMAT_PNG; i++)
            if (strcmp(format, format_names[i]) == 0) *fmt = (out_format)i;
        if (*fmt == OUT_FORMAT_NONE)
            return cli_usage_error("decode", "--format is y4m, rgb or png, not '%s'", format);
    }
    if (!path) {
        if (format) return cli_usage_error("decode", "--format needs -o OUT");
        return 0;
    }
    int is_stdout = strcmp(path, "-") == 0;
    if (*fmt == OUT_FORMAT_NONE) {
        if (is_stdout) *fmt = OUT_FORMAT_RGB;
        else if (ends_with_ci(path, ".y4m")) *fmt = OUT_FORMAT_Y4M;
        else if (ends_with_ci(path, ".rgb")) *fmt = OUT_FORMAT_RGB;
        else if (ends_with_ci(path, ".png")) *fmt = OUT_FORMAT_PNG;
        else
            return cli_usage_error("decode",
                                   "can't tell the format of '%s': name it .y4m, .rgb or "
                                   "frame_%%04d.png, or give --format",
                                   path);
    }
    if (*fmt == OUT_FORMAT_PNG) {
        png_pattern p;
        if (is_stdout)
            return cli_usage_error("decode", "PNG frames go to files, not to standard output");
        if (!parse_pattern(path, &p))
            return cli_usage_error("decode",
                                   "a PNG OUT is a pattern with exactly one %%d or %%0Nd (N 1..99) "
                                   "and no other %%, such as frame_%%04d.png; got '%s'",
                                   path);
#ifndef WAI_HAVE_PNG
        return cli_usage_error("decode", "this wai was built without libpng: no PNG output");
#endif
    }
    return 0;
}

int out_parse_fps(const char *s, uint32_t *num, uint32_t *den) {
    char buf[48];
    size_t n = strlen(s);
    if (n >= sizeof buf) return 0;
    memcpy(buf, s, n + 1);
    char *slash = strchr(buf, '/');
    if (slash) *slash = '\0';
    uint64_t a, b = 1;
    if (!cli_parse_u64(buf, &a) || (slash && !cli_parse_u64(slash + 1, &b))) return 0;
    if (a == 0 || b == 0 || a > INT32_MAX || b > INT32_MAX) return 0;
    *num = (uint32_t)a;
    *den = (uint32_t)b;
    return 1;
}

/* ---- the writer ---------------------------------------------------------- */

struct out_writer {
    out_format fmt;
    const char *path;
    FILE *f;                   /* y4m, rgb */
    int is_stdout;
    uint32_t fps_num, fps_den;
    uint32_t width, height;    /* y4m: the size its header fixed; 0 before */
    uint16_t *planes;          /* y4m: one frame's Y, Cb, Cr */
    size_t planes_cap;
    png_pattern pattern;
    char *name;                /* png: the current file's name */
    size_t name_cap;
};

static int io_error(const char *path, const char *what) {
    fprintf(stderr, "wai decode: %s: %s\n", path, what);
    return EXIT_USAGE;
}

int out_open(const char *path, out_format fmt, uint32_t fps_num, uint32_t fps_den,
             out_writer **w) {
    *w = NULL;
    out_writer *o = calloc(1, sizeof *o);
    if (!o) return io_error(path, "out of memory");
    o->fmt = fmt;
    o->path = path;
    o->fps_num = fps_num;
    o->fps_den = fps_den;
    if (fmt == OUT_FORMAT_PNG) {
        parse_pattern(path, &o->pattern);  /* checked by out_select */
    } else if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
    } else if (!(o->f = fopen(path, "wb"))) {
        int e = errno;
        free(o);
        return io_error(path, strerror(e));
    }
    *w = o;
    return 0;
}

/* Y4M samples (see the header comment): s = 1000·Y' for BT.601's weights,
 * and each 16-bit sample is a rational function of s and of 1000·B − s or
 * 1000·R − s. They are tabulated once, so a frame costs three lookups a
 * pixel and no division. */
#define S_MAX 255000
static uint16_t *g_y_of_s;     /* [0, S_MAX] */
static uint16_t *g_cb_of_d;    /* d = 1000·B − s + S_MAX, [0, 2·S_MAX] */
static uint16_t *g_cr_of_d;    /* d = 1000·R − s + S_MAX */

/* Rounds num/den half up (den > 0), in exact integers. */
static int64_t round_div(int64_t num, int64_t den) {
    int64_t a = 2 * num + den, b = 2 * den;
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static uint16_t clamp_u16(int64_t v) { return (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v); }

static int y4m_tables(void) {
    if (g_y_of_s) return 0;
    uint16_t *y = malloc((S_MAX + 1) * sizeof *y);
    uint16_t *cb = malloc((2 * S_MAX + 1) * sizeof *cb);
    uint16_t *cr = malloc((2 * S_MAX + 1) * sizeof *cr);
    if (!y || !cb || !cr) {
        free(y);
        free(cb);
        free(cr);
        return -1;
    }
    /* Y = 256·(16 + 219·Y'/255); Cb = 256·(128 + 224·(B − Y')/(255·1.772));
     * Cr likewise with R and 1.402 (1.772 = 2·(1 − 0.114), 1.402 = 2·(1 − 0.299)). */
    for (int64_t s = 0; s <= S_MAX; s++) y[s] = clamp_u16(4096 + round_div(56064 * s, 255000));
    for (int64_t d = -S_MAX; d <= S_MAX; d++) {
        cb[d + S_MAX] = clamp_u16(32768 + round_div(57344 * d, 451860));
        cr[d + S_MAX] = clamp_u16(32768 + round_div(57344 * d, 357510));
    }
    g_y_of_s = y;
    g_cb_of_d = cb;
    g_cr_of_d = cr;
    return 0;
}

static void put_le16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static int write_y4m(out_writer *w, const wai_output *o) {
    if (w->width == 0) {
        if (y4m_tables() != 0) return io_error(w->path, "out of memory");
        if (fprintf(w->f, "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 C444p16 XCOLORRANGE=LIMITED\n",
                    (unsigned)o->width, (unsigned)o->height, (unsigned)w->fps_num,
                    (unsigned)w->fps_den) < 0)
            return io_error(w->path, "write failed");
        w->width = o->width;
        w->height = o->height;
    } else if (o->width != w->width || o->height != w->height) {
        fprintf(stderr,
                "wai decode: %s: output %llu is %ux%u but the Y4M's frames are %ux%u (a Y4M "
                "holds one frame size); the frames before it are written, use .rgb or PNG "
                "for a stream whose size changes\n",
                w->path, (unsigned long long)o->index, (unsigned)o->width,
                (unsigned)o->height, (unsigned)w->width, (unsigned)w->height);
        return EXIT_USAGE;
    }
    size_t n = (size_t)o->width * o->height;
    if (w->planes_cap < 3 * n) {
        free(w->planes);
        w->planes = malloc(3 * n * sizeof *w->planes);
        w->planes_cap = w->planes ? 3 * n : 0;
        if (!w->planes) return io_error(w->path, "out of memory");
    }
    /* Samples in file byte order (little-endian) whatever the host's. */
    uint8_t *yp = (uint8_t *)w->planes, *up = yp + 2 * n, *vp = up + 2 * n;
    const uint8_t *px = o->data;
    for (size_t i = 0; i < n; i++, px += 3) {
        int32_t r = px[0], g = px[1], b = px[2];
        int32_t s = 299 * r + 587 * g + 114 * b;
        put_le16(yp + 2 * i, g_y_of_s[s]);
        put_le16(up + 2 * i, g_cb_of_d[1000 * b - s + S_MAX]);
        put_le16(vp + 2 * i, g_cr_of_d[1000 * r - s + S_MAX]);
    }
    if (fputs("FRAME\n", w->f) == EOF || fwrite(w->planes, 2, 3 * n, w->f) != 3 * n)
        return io_error(w->path, "write failed");
    return 0;
}

#ifdef WAI_HAVE_PNG
static void png_error_fn(png_structp png, png_const_charp msg) {
    fprintf(stderr, "wai decode: libpng: %s\n", msg);
    png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg;
}

/* One frame to one file; the jump buffer is libpng's way to report errors. */
static int png_write_file(FILE *f, const wai_output *o) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_fn,
                                              png_warning_fn);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, o->width, o->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < o->height; y++)
        png_write_row(png, o->data + (size_t)y * o->width * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

static int write_png(out_writer *w, const wai_output *o) {
    const png_pattern *p = &w->pattern;
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%0*llu", p->width, (unsigned long long)o->index);
    size_t need = p->prefix_len + (size_t)nd + strlen(p->suffix) + 1;
    if (w->name_cap < need) {
        free(w->name);
        w->name = malloc(need);
        w->name_cap = w->name ? need : 0;
        if (!w->name) return io_error(w->path, "out of memory");
    }
    memcpy(w->name, w->path, p->prefix_len);
    memcpy(w->name + p->prefix_len, digits, (size_t)nd);
    strcpy(w->name + p->prefix_len + (size_t)nd, p->suffix);
    FILE *f = fopen(w->name, "wb");
    if (!f) return io_error(w->name, strerror(errno));
    int bad = png_write_file(f, o) != 0;
    if (fclose(f) != 0) bad = 1;
    return bad ? io_error(w->name, "write failed") : 0;
}
#endif

int out_write(out_writer *w, const wai_output *o) {
    if ((o->kind != WAI_OUTPUT_FRAME && o->kind != WAI_OUTPUT_IMAGE) ||
        o->size != (size_t)o->width * o->height * 3) {
        fprintf(stderr, "wai decode: %s: output %llu is %s: -o writes RGB8 frames and images\n",
                w->path, (unsigned long long)o->index, wai_output_kind_name(o->kind));
        return EXIT_USAGE;
    }
    switch (w->fmt) {
    case OUT_FORMAT_Y4M:
        return write_y4m(w, o);
    case OUT_FORMAT_RGB:
        if (fwrite(o->data, 1, o->size, w->f) != o->size) return io_error(w->path, "write failed");
        return 0;
    case OUT_FORMAT_PNG:
#ifdef WAI_HAVE_PNG
        return write_png(w, o);
#endif
    case OUT_FORMAT_NONE:
        break;
    }
    return io_error(w->path, "no writer for this format");
}

int out_close(out_writer *w) {
    if (!w) return 0;
    int rc = 0;
    if (w->f) {
        int bad = fflush(w->f) != 0 || ferror(w->f);
        if (!w->is_stdout && fclose(w->f) != 0) bad = 1;
        if (bad) rc = io_error(w->path, "write failed");
    }
    free(w->planes);
    free(w->name);
    free(w);
    return rc;
}
