/* wai.neural.int_synth's corpus (gen_synth.c). */
#ifndef WAI_TESTS_CORPUS_GEN_SYNTH_H
#define WAI_TESTS_CORPUS_GEN_SYNTH_H

#include <stdio.h>

void gen_synth(const char *outdir, FILE *index);

#endif
