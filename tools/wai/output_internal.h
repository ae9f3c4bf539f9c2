/* SPDX-License-Identifier: BSD-2-Clause */
/* The writers behind output.h, shared by output*.c only. */
#ifndef WAI_TOOLS_OUTPUT_INTERNAL_H
#define WAI_TOOLS_OUTPUT_INTERNAL_H

#include <stdio.h>

#include "cli.h"
#include "output.h"

/* A PNG pattern has exactly one '%', the start of %d or %0Nd (N one or two
 * digits). The name is built by the writer rather than by printf, so a
 * pattern can never act as a format string. */
typedef struct png_pattern {
    size_t prefix_len;        /* bytes before the % */
    const char *suffix;       /* after the conversion */
    int width;                /* zero-padded digits, 0 for none */
} png_pattern;

/* 1 and *p when path is such a pattern, else 0. */
int out_parse_pattern(const char *path, png_pattern *p);

struct out_writer {
    out_choice choice;
    const char *path;
    const cli_inputs *inputs;  /* what no output may overwrite, and -y */
    cli_out_file file;         /* y4m, rgb, wav, s16le: OUT, or standard output */
    FILE *f;                   /* file.f */
    int failed;                /* a write failed: OUT is not committed */
    uint64_t n_written;        /* outputs written so far */
    uint32_t fps_num, fps_den;
    uint32_t width, height;    /* y4m: the size its header fixed; 0 before */
    uint16_t *planes;          /* y4m: one frame's Y, Cb, Cr */
    size_t planes_cap;
    png_pattern pattern;       /* png */
    char *name;                /* png, planes: the current file's name */
    size_t name_cap;
};

/* output_file.c: prints "wai decode: PATH: WHAT" and returns EXIT_USAGE. */
int out_io_error(const char *path, const char *what);
/* out_io_error with errno's reason (a closed pipe said as such). */
int out_write_failed(const char *path);

/* One whole file NAME holding n bytes at data (a plane's PGM header first
 * when header is not NULL), through cli_out_open/commit: 0, or EXIT_USAGE. */
int out_whole_file(out_writer *w, const char *name, const char *header, const uint8_t *data,
                   size_t n);

/* w->name = prefix + middle + suffix (grown as needed); 0, or an I/O error. */
int out_set_name(out_writer *w, const char *prefix, size_t prefix_len, const char *middle,
                 const char *suffix);

/* output_y4m.c: one RGB8 output as a Y4M frame (the header first). */
int out_write_y4m(out_writer *w, const wai_output *o);

/* output_png.c (WAI_HAVE_PNG only): one 8-bit PNG of `channels` (1 grey, 3
 * RGB) to the file `name`; 0, or prints why and returns EXIT_USAGE. */
int out_png_file(out_writer *w, const char *name, const uint8_t *px, uint32_t width,
                 uint32_t height, int channels);
/* The output to the pattern's file for its index, or to w->path. */
int out_write_png(out_writer *w, const wai_output *o);

/* output_wav.c: a pcm output as a WAV (RIFF header, then the samples) or
 * as raw s16le. */
int out_write_pcm(out_writer *w, const wai_output *o);

/* output_planes.c: the directory (made if missing), then each planes
 * output as plane files and attributes.json. */
int out_open_planes(out_writer *w);
int out_write_planes(out_writer *w, const wai_output *o, const uint8_t *payload, size_t len);

#endif
