/* SPDX-License-Identifier: BSD-2-Clause */
/* Y4M for `wai decode -o` (output_internal.h).
 *
 * Decoded frames are RGB8 and YUV4MPEG2 carries only Y'CbCr, so the
 * conversion picks the one layout ffmpeg turns back into the same RGB bytes:
 * C444p16 (4:4:4, 16-bit little-endian samples), BT.601, limited range (Y
 * 4096..60160, Cb and Cr centred on 32768), each sample the exact rational
 * value rounded half up. An 8-bit C444 can't round-trip (8-bit Y'CbCr has
 * fewer codes than RGB has colours, so ffmpeg gets some samples back off by 1
 * or 2); the 16-bit samples give ffmpeg 5.1's default conversion to rgb24
 * every one of the 2^24 colours back exactly (checked over a 4096x4096 frame
 * of them). The header says XCOLORRANGE=LIMITED, and ffmpeg assumes BT.601
 * when a Y4M names no matrix. --format y4m420 writes the 8-bit 4:2:0 that
 * players take, from the same samples (lossy). */
#include <stdlib.h>

#include "cli.h"
#include "output_internal.h"

/* Y4M samples (see the header comment): s = 1000·Y' for BT.601's weights,
 * and each 16-bit sample is a rational function of s and of 1000·B − s or
 * 1000·R − s. They are tabulated once, so a frame costs three lookups a
 * pixel and no division. */
#define S_MAX 255000
static uint16_t *g_y_of_s;     /* [0, S_MAX] */
static uint16_t *g_cb_of_d;    /* d = 1000·B − s + S_MAX, [0, 2·S_MAX] */
static uint16_t *g_cr_of_d;    /* d = 1000·R − s + S_MAX */

static uint16_t clamp_u16(int64_t v) { return (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v); }

/* t[v - lo] = base + mul·v/den rounded half up, i.e. floor((2·mul·v + den)
 * / (2·den)), for v = lo .. hi (mul < den): one division for the first,
 * then the quotient and remainder stepped (each step adds 2·mul < 2·den,
 * so the quotient grows by 0 or 1). The tables are built before the first
 * frame is written: a division an entry was some 10 ms of a 720p clip's
 * first frame. */
static void fill_rounded(uint16_t *t, int64_t lo, int64_t hi, int64_t base, int64_t mul,
                         int64_t den) {
    const int64_t b = 2 * den, step = 2 * mul, a = step * lo + den;
    int64_t q = a >= 0 ? a / b : -((-a + b - 1) / b); /* floor */
    int64_t r = a - q * b;                             /* 0 <= r < b */
    for (int64_t v = lo; v <= hi; v++) {
        t[v - lo] = clamp_u16(base + q);
        if ((r += step) >= b) r -= b, q++;
    }
}

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
    fill_rounded(y, 0, S_MAX, 4096, 56064, 255000);
    fill_rounded(cb, -S_MAX, S_MAX, 32768, 57344, 451860);
    fill_rounded(cr, -S_MAX, S_MAX, 32768, 57344, 357510);
    g_y_of_s = y;
    g_cb_of_d = cb;
    g_cr_of_d = cr;
    return 0;
}

/* 8-bit 4:2:0 (--format y4m420, lossy): Y is the 16-bit sample rounded to
 * 8 bits; Cb and Cr are the mean of the 16-bit samples of each 2x2 block
 * (the last row or column repeated at an odd edge), rounded to 8 bits:
 * C420jpeg, chroma sited between the four pixels as ffmpeg's yuv420p. */
static int write_y4m420(out_writer *w, const wai_output *o) {
    uint32_t W = o->width, H = o->height, cw = (W + 1) / 2, ch = (H + 1) / 2;
    size_t n = (size_t)W * H, nc = (size_t)cw * ch;
    uint8_t *yp = (uint8_t *)w->planes, *up = yp + n, *vp = up + nc;
    const uint8_t *px = o->data;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = px + 3 * i;
        int32_t s = 299 * p[0] + 587 * p[1] + 114 * p[2];
        yp[i] = (uint8_t)((g_y_of_s[s] + 128) >> 8);
    }
    for (uint32_t cy = 0; cy < ch; cy++)
        for (uint32_t cx = 0; cx < cw; cx++) {
            uint32_t cb = 0, cr = 0;
            for (uint32_t dy = 0; dy < 2; dy++)
                for (uint32_t dx = 0; dx < 2; dx++) {
                    uint32_t y = 2 * cy + dy < H ? 2 * cy + dy : H - 1;
                    uint32_t x = 2 * cx + dx < W ? 2 * cx + dx : W - 1;
                    const uint8_t *p = px + 3 * ((size_t)y * W + x);
                    int32_t s = 299 * p[0] + 587 * p[1] + 114 * p[2];
                    cb += g_cb_of_d[1000 * p[2] - s + S_MAX];
                    cr += g_cr_of_d[1000 * p[0] - s + S_MAX];
                }
            up[(size_t)cy * cw + cx] = (uint8_t)((cb + 512) >> 10);
            vp[(size_t)cy * cw + cx] = (uint8_t)((cr + 512) >> 10);
        }
    size_t bytes = n + 2 * nc;
    if (fputs("FRAME\n", w->f) == EOF || fwrite(w->planes, 1, bytes, w->f) != bytes)
        return out_write_failed(w->path);
    return 0;
}

static void put_le16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

int out_write_y4m(out_writer *w, const wai_output *o) {
    int is420 = w->choice.fmt == OUT_FORMAT_Y4M420;
    if (w->width == 0) {
        if (y4m_tables() != 0) return out_io_error(w->path, "out of memory");
        if (fprintf(w->f, "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 %s XCOLORRANGE=LIMITED\n",
                    (unsigned)o->width, (unsigned)o->height, (unsigned)w->fps_num,
                    (unsigned)w->fps_den, is420 ? "C420jpeg" : "C444p16") < 0)
            return out_write_failed(w->path);
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
        if (!w->planes) return out_io_error(w->path, "out of memory");
    }
    if (is420) return write_y4m420(w, o);
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
        return out_write_failed(w->path);
    return 0;
}
