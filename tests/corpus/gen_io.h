/* The corpus generators' file output (generate.c and its parts): every
 * failure ends the generator with a message, so a generator either writes
 * the whole corpus or stops. */
#ifndef WAI_TESTS_CORPUS_GEN_IO_H
#define WAI_TESTS_CORPUS_GEN_IO_H

#include <stddef.h>

/* Prints "wai_gen_corpus: WHAT" and exits with status 1. */
_Noreturn void gen_die(const char *what);

/* Makes ROOT/REL (its parent must exist); an existing directory is fine. */
void gen_mkdir(const char *root, const char *rel);

/* Writes ROOT/REL with the bytes given. */
void gen_put(const char *root, const char *rel, const void *data, size_t len);

#endif
