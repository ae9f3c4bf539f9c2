/* SPDX-License-Identifier: BSD-2-Clause */
/* PNG files for `wai decode -o` (output_internal.h): an RGB8 output to a
 * pattern's numbered file or to one named file, and the grey plane files
 * of output_planes.c. Without libpng (WAI_HAVE_PNG unset) every PNG is an
 * error; out_select refuses such an OUT before decoding. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output_internal.h"

#ifdef WAI_HAVE_PNG
#include <png.h>

static void png_error_fn(png_structp png, png_const_charp msg) {
    fprintf(stderr, "wai decode: libpng: %s\n", msg);
    png_longjmp(png, 1);
}

static void png_warning_fn(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg;
}

/* One picture to an open file; the jump buffer is libpng's way to report
 * errors. */
static int png_to(FILE *f, const uint8_t *px, uint32_t width, uint32_t height, int channels) {
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
    png_set_IHDR(png, info, width, height, 8, channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++)
        png_write_row(png, px + (size_t)y * width * (size_t)channels);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int out_png_file(out_writer *w, const char *name, const uint8_t *px, uint32_t width,
                 uint32_t height, int channels) {
    cli_out_file f;
    int rc = cli_out_open("decode", name, w->inputs, &f);
    if (rc != 0) return rc;
    if (png_to(f.f, px, width, height, channels) != 0) {
        rc = out_write_failed(name); /* before the discard: errno is the write's */
        cli_out_discard(&f);
        return rc;
    }
    return cli_out_commit("decode", &f);
}

int out_write_png(out_writer *w, const wai_output *o) {
    if (w->choice.fmt == OUT_FORMAT_PNG_ONE)
        return out_png_file(w, w->path, o->data, o->width, o->height, 3);
    const png_pattern *p = &w->pattern;
    /* Up to 99 zero-padded digits (out_parse_pattern's limit) and a u64. */
    char digits[128];
    snprintf(digits, sizeof digits, "%0*llu", p->width, (unsigned long long)o->index);
    int rc = out_set_name(w, w->path, p->prefix_len, digits, p->suffix);
    return rc != 0 ? rc : out_png_file(w, w->name, o->data, o->width, o->height, 3);
}

#else

int out_png_file(out_writer *w, const char *name, const uint8_t *px, uint32_t width,
                 uint32_t height, int channels) {
    (void)w;
    (void)px;
    (void)width;
    (void)height;
    (void)channels;
    return out_io_error(name, "this wai was built without libpng");
}

int out_write_png(out_writer *w, const wai_output *o) {
    (void)o;
    return out_io_error(w->path, "this wai was built without libpng");
}

#endif
