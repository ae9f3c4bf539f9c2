/* Where `wai decode -o OUT` writes decoded frames: a Y4M file, raw rgb24
 * (a file or standard output), or one PNG per frame. The writer is opened
 * before decoding (so a bad OUT is a usage error before any work) and takes
 * each output as the decoder hands it over, so a refusal part-way through a
 * frame stream leaves the frames decoded before it written. */
#ifndef WAI_TOOLS_OUTPUT_H
#define WAI_TOOLS_OUTPUT_H

#include <stdint.h>

#include "wai/wai_decode.h"

typedef enum out_format {
    OUT_FORMAT_NONE = 0,
    OUT_FORMAT_Y4M,   /* YUV4MPEG2, C444p16, BT.601 limited range */
    OUT_FORMAT_RGB,   /* raw rgb24 frames, concatenated */
    OUT_FORMAT_PNG    /* one PNG per frame, OUT a pattern with one %d */
} out_format;

typedef struct out_writer out_writer;

/* Picks the format of OUT: `format` ("y4m", "rgb", "png") when not NULL,
 * else OUT's extension; "-" is rgb unless `format` says y4m. Checks a PNG
 * pattern and that this build writes PNG. Returns 0, or prints a usage
 * error and returns EXIT_USAGE. */
int out_select(const char *path, const char *format, out_format *fmt);

/* Parses --fps: N or N/D, both in 1..2^31-1. Returns 1 on success. */
int out_parse_fps(const char *s, uint32_t *num, uint32_t *den);

/* Opens the writer (creates the file for y4m and rgb; PNG files are created
 * per frame). Returns 0, or prints an I/O error and returns EXIT_USAGE. */
int out_open(const char *path, out_format fmt, uint32_t fps_num, uint32_t fps_den,
             out_writer **w);

/* Writes one decoded output. Returns 0, or prints why (an I/O error, an
 * output that is not RGB8, a frame whose size breaks a Y4M) and returns
 * EXIT_USAGE; nothing of that output is then written. */
int out_write(out_writer *w, const wai_output *o);

/* Flushes and closes; w may be NULL. Returns 0, or prints an I/O error and
 * returns EXIT_USAGE. */
int out_close(out_writer *w);

#endif
