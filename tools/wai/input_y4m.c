/* SPDX-License-Identifier: BSD-2-Clause */
/* YUV4MPEG2 input for `wai encode`. The colour conversion follows ffmpeg's
 * default (`ffmpeg -i in.y4m -pix_fmt rgb24`, ffmpeg 5.1 on x86), measured:
 * identical bytes for 4:2:0 and 4:2:2 of even height (ffmpeg's unscaled
 * converter, repeated chroma) and for gray; for 4:4:4 its generic scaler
 * rounds at 2^16 (input_yuv_to_rgb_q16: within 1 on smooth content); for odd
 * heights ffmpeg filters chroma (bicubic) where this reader repeats it, so
 * the difference there follows the chroma's detail.
 *
 * Memory follows the file, not its header: a frame's buffer is made only
 * where the file holds a frame's bytes, and the clip's for the frames it
 * can hold (a regular file's size says how many; a pipe's grows by
 * doubling). A 30-byte header of 8192 x 8192 allocates nothing. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "input.h"

/* floor(v / 2^16) without right-shifting a negative value. */
static int32_t shr16(int32_t v) {
    return v >= 0 ? v >> 16 : -(int32_t)(((uint32_t)(-v) + 65535u) >> 16);
}

static uint8_t sat(int32_t v) {
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void input_yuv_to_rgb(int32_t y, int32_t u, int32_t v, uint8_t *rgb) {
    int32_t y8 = shr16((y - 16) * 8 * 9539);
    int32_t u8 = (u - 128) * 8, v8 = (v - 128) * 8;
    rgb[0] = sat(y8 + shr16(v8 * 13075));
    rgb[1] = sat(y8 + shr16(u8 * -3209) + shr16(v8 * -6660));
    rgb[2] = sat(y8 + shr16(u8 * 16525));
}

void input_yuv_to_rgb_q16(int32_t y, int32_t u, int32_t v, uint8_t *rgb) {
    int32_t c = (y - 16) * 76309 + 32768;
    u -= 128;
    v -= 128;
    rgb[0] = sat(shr16(c + 104597 * v));
    rgb[1] = sat(shr16(c - 25675 * u - 53279 * v));
    rgb[2] = sat(shr16(c + 132201 * u));
}

/* The bytes after the read position of a regular file; -1 for a pipe or a
 * terminal, whose length is not known. */
static int64_t bytes_left(FILE *in) {
    struct stat st;
    long at = ftell(in);
    if (at < 0 || fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < at)
        return -1;
    return (int64_t)st.st_size - at;
}

void input_clip_free(input_clip *clip) {
    free(clip->rgb);
    memset(clip, 0, sizeof *clip);
}

enum { SUB_420, SUB_422, SUB_444, SUB_MONO };

#define LINE_MAX_BYTES 4096

/* Reads one header line (without its '\n'); -1 on EOF before any byte,
 * -2 on a line too long or cut off. */
static int read_line(FILE *in, char *buf, size_t cap) {
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 >= cap) return -2;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (c == EOF) return n == 0 ? -1 : -2;
    return 0;
}

static int parse_dim(const char *s, uint32_t *out) {
    uint64_t v;
    if (!cli_parse_u64(s, &v) || v == 0 || v > 65535 * 4) return 0;
    *out = (uint32_t)v;
    return 1;
}

static int parse_colour(const char *c, int *sub) {
    if (!strcmp(c, "420jpeg") || !strcmp(c, "420paldv") || !strcmp(c, "420mpeg2") ||
        !strcmp(c, "420"))
        *sub = SUB_420;
    else if (!strcmp(c, "422")) *sub = SUB_422;
    else if (!strcmp(c, "444")) *sub = SUB_444;
    else if (!strcmp(c, "mono")) *sub = SUB_MONO;
    else return 0;
    return 1;
}

static int fail(const char *path, const char *why) {
    fprintf(stderr, "wai encode: %s: %s\n", path, why);
    return -1;
}

/* Converts one frame of planes to RGB8. */
static void convert(const uint8_t *yp, const uint8_t *up, const uint8_t *vp, uint32_t w,
                    uint32_t h, uint32_t cw, int sub, uint8_t *rgb) {
    /* ffmpeg converts 4:2:0 and 4:2:2 of even height without scaling. */
    int unscaled = (sub == SUB_420 || sub == SUB_422) && h % 2 == 0;
    for (uint32_t y = 0; y < h; y++) {
        uint32_t cy = sub == SUB_420 ? y / 2 : y;
        for (uint32_t x = 0; x < w; x++) {
            uint32_t cx = sub == SUB_420 || sub == SUB_422 ? x / 2 : x;
            uint8_t *px = rgb + ((size_t)y * w + x) * 3;
            uint8_t luma = yp[(size_t)y * w + x];
            if (sub == SUB_MONO) {
                px[0] = px[1] = px[2] = luma;
                continue;
            }
            int32_t u = up[(size_t)cy * cw + cx], v = vp[(size_t)cy * cw + cx];
            if (unscaled) input_yuv_to_rgb(luma, u, v, px);
            else input_yuv_to_rgb_q16(luma, u, v, px);
        }
    }
}

int input_read_y4m(const char *path, input_clip *clip) {
    memset(clip, 0, sizeof *clip);
    int is_stdin = strcmp(path, "-") == 0;
    FILE *in = is_stdin ? stdin : fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "wai encode: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[LINE_MAX_BYTES];
    uint8_t *planes = NULL;
    int rc = -1;
    if (read_line(in, line, sizeof line) != 0 || strncmp(line, "YUV4MPEG2", 9) != 0 ||
        (line[9] != ' ' && line[9] != '\0')) {
        fail(path, "not a YUV4MPEG2 file");
        goto done;
    }
    uint32_t w = 0, h = 0;
    int sub = SUB_420;
    for (char *tok = strtok(line + 9, " "); tok; tok = strtok(NULL, " ")) {
        if (tok[0] == 'W' && !parse_dim(tok + 1, &w)) {
            fail(path, "bad width (W)");
            goto done;
        }
        if (tok[0] == 'H' && !parse_dim(tok + 1, &h)) {
            fail(path, "bad height (H)");
            goto done;
        }
        if (tok[0] == 'C' && !parse_colour(tok + 1, &sub)) {
            fprintf(stderr,
                    "wai encode: %s: colour space C%s not supported (8-bit 420jpeg, "
                    "420paldv, 420mpeg2, 420, 422, 444 or mono)\n",
                    path, tok + 1);
            goto done;
        }
        /* F (rate), I (interlacing), A (aspect) and X (comments) do not
         * change the samples. */
    }
    if (!w || !h) {
        fail(path, "header has no W or H");
        goto done;
    }
    if ((uint64_t)w * h * 3 > ((uint64_t)1 << 26)) {
        fail(path, "a frame of more than 2^26 samples: larger than a WIV1 frame may be");
        rc = INPUT_TOO_LARGE;
        goto done;
    }
    uint32_t cw = sub == SUB_444 ? w : (w + 1) / 2, ch = sub == SUB_420 ? (h + 1) / 2 : h;
    if (sub == SUB_MONO) cw = ch = 0;
    size_t luma = (size_t)w * h, chroma = (size_t)cw * ch;
    size_t frame_in = luma + 2 * chroma, frame_rgb = luma * 3;
    /* A frame is its "FRAME\n" line and its samples: a file with bytes but
     * not a frame's is cut off before anything is allocated. */
    const int64_t left = bytes_left(in);
    const size_t per_frame = frame_in + 6;
    if (left > 0 && (uint64_t)left < per_frame) {
        fprintf(stderr, "wai encode: %s: frame 0 is cut off\n", path);
        goto done;
    }
    planes = left == 0 ? NULL : malloc(frame_in);
    if (!planes && left != 0) {
        fail(path, "out of memory");
        goto done;
    }
    clip->w = w;
    clip->h = h;
    size_t cap = 0;
    for (;;) {
        int r = read_line(in, line, sizeof line);
        if (r == -1) break;
        if (r != 0 || strncmp(line, "FRAME", 5) != 0 || (line[5] != ' ' && line[5] != '\0')) {
            fprintf(stderr, "wai encode: %s: frame %u: no FRAME header\n", path,
                    clip->n_frames);
            goto done;
        }
        if (fread(planes, 1, frame_in, in) != frame_in) {
            fprintf(stderr, "wai encode: %s: frame %u is cut off\n", path, clip->n_frames);
            goto done;
        }
        if ((uint64_t)frame_rgb * (clip->n_frames + 1) > INPUT_MAX_BYTES) {
            fail(path, "more than 2^30 bytes of RGB: larger than a WIV1 clip may be");
            rc = INPUT_TOO_LARGE;
            goto done;
        }
        if (clip->n_frames == cap) {
            /* The frames the file can hold (this one's already read), or
             * twice as many as now; never past the cap. */
            size_t most = (size_t)(INPUT_MAX_BYTES / frame_rgb);
            size_t fits = left > 0 ? (size_t)((uint64_t)left / per_frame) : 0;
            size_t grown_cap = cap == 0 && fits > 0 ? fits : cap ? 2 * cap : 1;
            if (grown_cap > most) grown_cap = most;
            uint8_t *grown = realloc(clip->rgb, grown_cap * frame_rgb);
            if (!grown) {
                fail(path, "out of memory");
                goto done;
            }
            clip->rgb = grown;
            cap = grown_cap;
        }
        convert(planes, planes + luma, planes + luma + chroma, w, h, cw, sub,
                clip->rgb + frame_rgb * clip->n_frames);
        clip->n_frames++;
    }
    if (ferror(in)) {
        fail(path, "read failed");
        goto done;
    }
    if (clip->n_frames == 0) {
        fail(path, "no frames");
        goto done;
    }
    rc = 0;
done:
    free(planes);
    if (!is_stdin) fclose(in);
    if (rc != 0) input_clip_free(clip);
    return rc;
}
