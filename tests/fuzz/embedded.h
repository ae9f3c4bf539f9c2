/* SPDX-License-Identifier: BSD-2-Clause */
/* Corpus files built into a fuzz target (embed.cmake writes the table), so
 * the target needs no path at run time. */
#ifndef WAI_FUZZ_EMBEDDED_H
#define WAI_FUZZ_EMBEDDED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct wai_embedded_file {
    const char *path;      /* relative to tests/corpus/neural */
    const uint8_t *data;
    size_t len;
} wai_embedded_file;

extern const wai_embedded_file wai_fuzz_neural_files[];
extern const size_t wai_fuzz_neural_files_count;

/* The file at path, or NULL. */
static inline const wai_embedded_file *wai_embedded_find(const char *path) {
    for (size_t i = 0; i < wai_fuzz_neural_files_count; i++)
        if (strcmp(wai_fuzz_neural_files[i].path, path) == 0) return &wai_fuzz_neural_files[i];
    return NULL;
}

#endif
