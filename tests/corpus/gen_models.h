/* The network fixtures of the conformance corpus (tests/corpus/models/):
 * WHM1/WAM1 files with an input shape, an input tensor and what parsing,
 * planning and running them must give. Written by gen_models.c, called from
 * generate.c's main. */
#ifndef WAI_TESTS_CORPUS_GEN_MODELS_H
#define WAI_TESTS_CORPUS_GEN_MODELS_H

/* Writes OUTDIR/models/ and its index.txt; exits with a message on failure. */
void gen_models(const char *outdir);

#endif
