/* SPDX-License-Identifier: BSD-2-Clause */
/* PNG input for `wai encode`: one file per frame, through libpng when the
 * build found it (WAI_HAVE_PNG). A picture's buffer is made only for a size
 * the file could hold: deflate packs at most 1032 bytes into one, so a
 * header claiming more samples than that allows is refused before the
 * buffer (a 68-byte PNG claiming 4728 x 4728 asked for 64 MB). */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

#include <stdio.h>

#ifdef WAI_HAVE_PNG
#include <png.h>

/* What one read holds; it lives in the caller's frame, so its members keep
 * their values across libpng's longjmp. */
typedef struct png_job {
    const char *path;
    FILE *f;
    png_structp png;
    png_infop info;
    uint8_t *rgb;
    png_bytep *rows;
    uint32_t w, h;
    const char *why;   /* our own refusal, or NULL */
    int too_large;     /* why is a cap: INPUT_TOO_LARGE */
} png_job;

static int read_png(png_job *j) {
    if (setjmp(png_jmpbuf(j->png))) return -1; /* libpng has printed why */
    png_init_io(j->png, j->f);
    png_set_sig_bytes(j->png, 8);
    png_read_info(j->png, j->info);
    png_uint_32 w = png_get_image_width(j->png, j->info);
    png_uint_32 h = png_get_image_height(j->png, j->info);
    int depth = png_get_bit_depth(j->png, j->info);
    int type = png_get_color_type(j->png, j->info);
    if (depth == 16) {
        j->why = "16-bit PNG is not supported (8-bit gray, RGB, RGBA or palette)";
        return -1;
    }
    if ((uint64_t)w * h * 3 > ((uint64_t)1 << 26)) {
        j->why = "a frame of more than 2^26 samples: larger than a WIV1 frame may be";
        j->too_large = 1;
        return -1;
    }
    /* The filtered rows deflate must produce: a filter byte and the row's
     * packed samples each (an interlaced picture's passes need more). */
    int channels = png_get_channels(j->png, j->info);
    uint64_t packed = (uint64_t)h * (1 + ((uint64_t)w * (uint64_t)(depth * channels) + 7) / 8);
    struct stat st;
    if (fstat(fileno(j->f), &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size * 1032 < packed) {
        j->why = "the header's picture cannot be held in the file (deflate packs at most "
                 "1032:1)";
        return -1;
    }
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(j->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(j->png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(j->png);
    if (type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(j->png);
    png_set_interlace_handling(j->png);
    png_read_update_info(j->png, j->info);
    if (png_get_rowbytes(j->png, j->info) != (size_t)w * 3) {
        j->why = "unexpected PNG layout";
        return -1;
    }
    j->w = w;
    j->h = h;
    j->rgb = malloc((size_t)w * h * 3);
    j->rows = malloc((size_t)h * sizeof *j->rows);
    if (!j->rgb || !j->rows) {
        j->why = "out of memory";
        return -1;
    }
    for (png_uint_32 y = 0; y < h; y++) j->rows[y] = j->rgb + (size_t)y * w * 3;
    png_read_image(j->png, j->rows);
    png_read_end(j->png, NULL);
    return 0;
}

/* Reads one file into *rgb (malloc'd) of *w x *h. */
static int read_one(const char *path, uint32_t *w, uint32_t *h, uint8_t **rgb) {
    png_job j;
    memset(&j, 0, sizeof j);
    j.path = path;
    j.f = fopen(path, "rb");
    if (!j.f) {
        fprintf(stderr, "wai encode: %s: cannot open\n", path);
        return -1;
    }
    uint8_t sig[8];
    int rc = -1;
    if (fread(sig, 1, 8, j.f) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        fprintf(stderr, "wai encode: %s: not a PNG file\n", path);
        fclose(j.f);
        return -1;
    }
    j.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    j.info = j.png ? png_create_info_struct(j.png) : NULL;
    if (!j.info) j.why = "out of memory";
    else rc = read_png(&j);
    if (rc != 0) {
        fprintf(stderr, "wai encode: %s: %s\n", path, j.why ? j.why : "cannot read the PNG");
        free(j.rgb);
        if (j.too_large) rc = INPUT_TOO_LARGE;
    } else {
        *w = j.w;
        *h = j.h;
        *rgb = j.rgb;
    }
    free(j.rows);
    png_destroy_read_struct(&j.png, j.info ? &j.info : NULL, NULL);
    fclose(j.f);
    return rc;
}

int input_read_pngs(const char *const *paths, int n_paths, input_clip *clip) {
    memset(clip, 0, sizeof *clip);
    int rc = -1;
    for (int i = 0; i < n_paths; i++) {
        uint32_t w, h;
        uint8_t *rgb = NULL;
        if ((rc = read_one(paths[i], &w, &h, &rgb)) != 0) goto fail;
        rc = -1;
        if (i == 0) {
            clip->w = w;
            clip->h = h;
            if ((uint64_t)w * h * 3 * (uint64_t)n_paths > INPUT_MAX_BYTES) {
                free(rgb);
                fprintf(stderr, "wai encode: more than 2^30 bytes of RGB: larger than a WIV1 "
                                "clip may be\n");
                rc = INPUT_TOO_LARGE;
                goto fail;
            }
            clip->rgb = malloc((size_t)w * h * 3 * (size_t)n_paths);
            if (!clip->rgb) {
                free(rgb);
                fprintf(stderr, "wai encode: out of memory\n");
                goto fail;
            }
        } else if (w != clip->w || h != clip->h) {
            fprintf(stderr, "wai encode: %s: %ux%u, but %s is %ux%u: frames must share a size\n",
                    paths[i], w, h, paths[0], clip->w, clip->h);
            free(rgb);
            goto fail;
        }
        memcpy(clip->rgb + (size_t)w * h * 3 * (size_t)i, rgb, (size_t)w * h * 3);
        free(rgb);
        clip->n_frames++;
    }
    return 0;
fail:
    input_clip_free(clip);
    return rc;
}

#else

int input_read_pngs(const char *const *paths, int n_paths, input_clip *clip) {
    (void)n_paths;
    memset(clip, 0, sizeof *clip);
    fprintf(stderr,
            "wai encode: %s: this build of wai reads no PNG (libpng was not found when it "
            "was built); give a .y4m file instead\n",
            n_paths > 0 ? paths[0] : "PNG");
    return -1;
}

#endif
