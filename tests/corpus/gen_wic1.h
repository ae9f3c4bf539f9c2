/* wai.video.int_cond and .frame's corpus (gen_wic1.c). */
#ifndef WAI_TESTS_CORPUS_GEN_WIC1_H
#define WAI_TESTS_CORPUS_GEN_WIC1_H

#include <stdio.h>

void gen_wic1(const char *outdir, FILE *index);

#endif
