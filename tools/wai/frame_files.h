/* SPDX-License-Identifier: BSD-2-Clause */
/* A group's frames as numbered files: the names `wai encode --frames` and
 * `wai split` write (OUT with one %d or %0Nd, or a directory that gets
 * frame_000000.EXT, frame_000001.EXT, ...), and one file written whole. */
#ifndef WAI_TOOLS_FRAME_FILES_H
#define WAI_TOOLS_FRAME_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "wai/wai_write.h"

typedef struct frame_names {
    char *prefix, *suffix;
    int width;
} frame_names;

/* OUT as frame names with ext (".wif1") for a directory's files; 0, or -1
 * for an OUT that is neither a directory nor a name with one %d / %0Nd (N
 * 1..9; "%%" a literal %). frame_names_free either way. */
int frame_names_parse(const char *out, const char *ext, frame_names *p);
void frame_names_free(frame_names *p);

/* Frame i's name (malloc), or NULL. */
char *frame_names_at(const frame_names *p, uint32_t i);

/* PATH ("-": standard output) written whole through a temporary renamed
 * into place (cli_out_open); 0, or -1 with the reason printed. */
int frame_file_write(const char *command, const char *path, const uint8_t *data, size_t len,
                     const cli_inputs *inputs);

/* Every frame's name checked (cli_out_check) before the first is written,
 * then each written; *bytes their sum. A plain %d is zero-padded to the
 * digits of the last frame's number (60 frames: 00 .. 59), so the names
 * sort as text in frame order; %0Nd is N digits. EXIT_DONE, or EXIT_USAGE. */
int frame_files_write(const char *command, const frame_names *p, const wai_payload *frames,
                      uint32_t n, const cli_inputs *inputs, uint64_t *bytes);

#endif
