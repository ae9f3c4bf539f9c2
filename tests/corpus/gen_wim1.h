/* wai.neural.int_mlicpp's corpus (gen_wim1.c). */
#ifndef WAI_TESTS_CORPUS_GEN_WIM1_H
#define WAI_TESTS_CORPUS_GEN_WIM1_H

#include <stdio.h>

void gen_wim1(const char *outdir, FILE *index);

#endif
