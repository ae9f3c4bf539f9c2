/* Parse-refusal fixtures of WIH1, WIA1 and WIS1 (gen_neural_parse.c). */
#ifndef WAI_TESTS_CORPUS_GEN_NEURAL_PARSE_H
#define WAI_TESTS_CORPUS_GEN_NEURAL_PARSE_H

#include <stdio.h>

/* Writes OUTDIR/neural/refuse/parse/ and appends a `parse` case per fixture
 * to index. */
void gen_neural_parse(const char *outdir, FILE *index);

#endif
