/* SPDX-License-Identifier: BSD-2-Clause */
/* What the targets of the tool's file readers share (fuzz_y4m,
 * fuzz_tool_inputs): the input written to a file of this process's, as the
 * tool reads a path; and a clip a reader returned, held to the caps and
 * read through (ASan sees every byte). */
#ifndef WAI_FUZZ_TOOL_FILE_H
#define WAI_FUZZ_TOOL_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "input.h"

static inline void fuzz_require(int ok) {
    if (!ok) __builtin_trap();
}

/* A path, one per process and tag, holding data; NULL when the file cannot
 * be written (the input is then skipped, not failed). Under /dev/shm where
 * there is one: on a disk's file system, a file cut to nothing and written
 * again is flushed to the disk at each close (ext4's auto_da_alloc), which
 * held these targets to a few hundred runs a second. */
static char fuzz_file_path[96];
static inline void fuzz_file_remove(void) { remove(fuzz_file_path); }

static inline const char *fuzz_file_of(const char *tag, const uint8_t *data, size_t size) {
    char *path = fuzz_file_path;
    if (!path[0]) atexit(fuzz_file_remove);
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, sizeof fuzz_file_path, "%s/%s.%ld", dir, tag, (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fuzz_require(fwrite(data, 1, size, f) == size);
    fclose(f);
    return path;
}

/* A reader's answer: refused (-1, INPUT_TOO_LARGE) with nothing, or a clip
 * of at least one h x w frame within INPUT_MAX_BYTES, every byte read. The
 * clip's bytes (0 when refused); the clip is freed. */
static inline uint64_t fuzz_clip_checked(int rc, input_clip *clip) {
    if (rc != 0) {
        fuzz_require(rc == -1 || rc == INPUT_TOO_LARGE);
        return 0;
    }
    uint64_t bytes = (uint64_t)clip->n_frames * clip->h * clip->w * 3;
    fuzz_require(clip->n_frames >= 1 && clip->h >= 1 && clip->w >= 1 && clip->rgb);
    fuzz_require(bytes <= INPUT_MAX_BYTES);
    unsigned sum = 0;
    for (uint64_t i = 0; i < bytes; i++) sum += clip->rgb[i];
    __asm__ volatile("" : : "r"(sum)); /* the reads stay */
    free(clip->rgb);
    clip->rgb = NULL;
    return bytes;
}

#endif
