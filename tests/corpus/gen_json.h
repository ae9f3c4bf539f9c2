/* The tools' JSON forms' fixtures (gen_json.c): tests/corpus/json/ and its
 * own index, and the main index's bad_magic cases for a form. */
#ifndef WAI_TESTS_CORPUS_GEN_JSON_H
#define WAI_TESTS_CORPUS_GEN_JSON_H

#include <stdio.h>

void gen_json(const char *outdir, FILE *main_index);

#endif
