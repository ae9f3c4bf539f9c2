/* The neural decodes' part of the conformance corpus (gen_neural.c):
 * payloads, their parameter sets and index lines with a SET column. */
#ifndef WAI_TESTS_CORPUS_GEN_NEURAL_H
#define WAI_TESTS_CORPUS_GEN_NEURAL_H

#include <stdio.h>

/* Writes OUTDIR/neural/ and appends its cases to index. */
void gen_neural(const char *outdir, FILE *index);

#endif
