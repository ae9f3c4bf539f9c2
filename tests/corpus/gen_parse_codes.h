/* Parse-refusal fixtures of the keyframe-1 video forms and of the
 * capabilities this build checks by framing only (gen_parse_codes.c). */
#ifndef WAI_TESTS_CORPUS_GEN_PARSE_CODES_H
#define WAI_TESTS_CORPUS_GEN_PARSE_CODES_H

#include <stdio.h>

/* Writes OUTDIR/parse/ and appends a `parse` case per fixture to index. */
void gen_parse_codes(const char *outdir, FILE *index);

#endif
