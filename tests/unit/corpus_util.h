/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the conformance corpus (tests/corpus/index.txt) in unit tests. */
#ifndef WAI_TESTS_UNIT_CORPUS_UTIL_H
#define WAI_TESTS_UNIT_CORPUS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_set.h"

/* The parameter set in corpus/DIR: every member the capability's set has
 * that the directory holds (a fixture may leave one out). NULL for "-", an
 * unknown capability or no memory. */
wai_set *corpus_set(wai_context *ctx, const char *capability, const char *dir);

/* corpus/index.txt as one NUL-terminated text (free() it), or NULL. */
char *corpus_index(void);

/* One line of a neural case with one payload and at most one output. */
typedef struct corpus_line {
    char mode[16], capability[64], status[64], max_cost[32], file[512], hash[1024], set[256];
} corpus_line;

/* Reads the line starting at *at and moves *at past it; 1 when it is such
 * a case (its file under neural/, a SET column and no OFFER: the default
 * offer, no comma in FILES or HASHES), 0 for any other line, -1 at the end
 * of the text. test_corpus.c runs the OFFER lines. */
int corpus_next_neural(const char **at, corpus_line *out);

/* The same with any number of HASHES: every one-payload case (a clip of
 * several frames included). */
int corpus_next_neural_payload(const char **at, corpus_line *out);

/* A corpus file's bytes (corpus/FILE, FILE as the index names it): NULL
 * when absent; the caller free()s it. */
uint8_t *corpus_file(const char *file, size_t *len);

#endif
