/* The receipts' fixtures (gen_receipts.c): tests/corpus/receipts/ and its
 * own index. Written only where libwai_ed25519 was built (the signatures
 * are Ed25519's); elsewhere the generator writes none and
 * tests/tool/test_corpus.sh leaves the folder out of its comparison. */
#ifndef WAI_TESTS_CORPUS_GEN_RECEIPTS_H
#define WAI_TESTS_CORPUS_GEN_RECEIPTS_H

void gen_receipts(const char *outdir);

#endif
