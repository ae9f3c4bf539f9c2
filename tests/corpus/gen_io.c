/* See gen_io.h. */
#include "gen_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

_Noreturn void gen_die(const char *what) {
    fprintf(stderr, "wai_gen_corpus: %s\n", what);
    exit(1);
}

void gen_mkdir(const char *root, const char *rel) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) gen_die(path);
}

void gen_put(const char *root, const char *rel, const void *data, size_t len) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) gen_die(path);
}
