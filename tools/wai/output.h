/* SPDX-License-Identifier: BSD-2-Clause */
/* Where `wai decode -o OUT` writes decoded outputs. RGB8 frames and images:
 * a Y4M file, raw rgb24 (a file or standard output), PPM (every build: one
 * P6 image per output, concatenated as netpbm allows), one PNG per output (a
 * pattern), or, for an image, one PNG file. PCM: a WAV file or raw s16le.
 * Planes: a directory of one grey file per plane and attributes.json. The
 * writer is opened before decoding (so a bad OUT is a usage error before any
 * work) and takes each output as the decoder hands it over, so a refusal
 * part-way through a frame stream leaves the frames decoded before it
 * written. */
#ifndef WAI_TOOLS_OUTPUT_H
#define WAI_TOOLS_OUTPUT_H

#include <stdint.h>

#include "cli.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

typedef enum out_format {
    OUT_FORMAT_NONE = 0,
    OUT_FORMAT_Y4M,      /* YUV4MPEG2, C444p16, BT.601 limited range */
    OUT_FORMAT_Y4M420,   /* YUV4MPEG2, 8-bit 4:2:0 (C420jpeg): lossy, for players */
    OUT_FORMAT_RGB,      /* raw rgb24 frames, concatenated */
    OUT_FORMAT_PPM,      /* binary PPM (P6) images, one per output, concatenated */
    OUT_FORMAT_PNG,      /* one PNG per frame, OUT a pattern with one %d */
    OUT_FORMAT_PNG_ONE,  /* an image: one PNG, OUT its name */
    OUT_FORMAT_WAV,      /* pcm: RIFF/WAVE, 16-bit PCM, mono, at its sample rate */
    OUT_FORMAT_S16LE,    /* pcm: the raw samples, signed 16-bit little-endian */
    OUT_FORMAT_PLANES    /* planes: OUT a directory (plane files PNG or PGM) */
} out_format;

/* How the plane files of OUT_FORMAT_PLANES are written. */
typedef enum out_plane_file { OUT_PLANE_PNG = 0, OUT_PLANE_PGM } out_plane_file;

typedef struct out_choice {
    out_format fmt;
    out_plane_file plane_file;
} out_choice;


/* Picks the format of OUT for outputs of kind `kind`: `format` (y4m, rgb,
 * ppm, png; wav, s16le; png, pgm for planes) when not NULL, else OUT's
 * extension; "-" is raw (rgb24 or s16le). Checks a PNG pattern and that
 * this build writes PNG. Returns 0, or prints a usage error and returns
 * EXIT_USAGE. path NULL: no -o (then format must be NULL too). */
int out_select(const char *path, const char *format, wai_output_kind kind, out_choice *c);

/* Parses --fps: N or N/D, both in 1..2^31-1. Returns 1 on success. */
int out_parse_fps(const char *s, uint32_t *num, uint32_t *den);

typedef struct out_writer out_writer;

/* Opens the writer (the temporary of y4m, rgb, wav and s16le, the
 * directory for planes; PNG files are written whole per output), after
 * cli_out_check (no input overwritten, an existing file only with -y).
 * Returns 0, or prints an I/O error and returns EXIT_USAGE. */
int out_open(const char *path, const out_choice *c, uint32_t fps_num, uint32_t fps_den,
             const cli_inputs *inputs, out_writer **w);

/* Writes one decoded output; payload is the payload it decoded from (the
 * planes' attributes.json reads its presentation data). Returns 0, or
 * prints why (an I/O error, an output of a kind the format does not hold, a
 * frame whose size breaks a Y4M) and returns EXIT_USAGE; nothing of that
 * output is then written. */
int out_write(out_writer *w, const wai_output *o, const uint8_t *payload, size_t payload_len);

/* Flushes and closes; w may be NULL. OUT is renamed into place when it
 * holds at least one output and no write failed (a refusal part-way keeps
 * the frames before it, in a complete file), else removed. Returns 0, or
 * prints an I/O error and returns EXIT_USAGE. */
int out_close(out_writer *w);

#endif
