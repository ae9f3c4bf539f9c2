/* SPDX-License-Identifier: BSD-2-Clause */
/* See corpus_util.h. */
#include "corpus_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_format.h"

wai_set *corpus_set(wai_context *ctx, const char *capability, const char *dir) {
    const wai_capability *c = wai_capability_find(capability);
    wai_set *s = NULL;
    if (strcmp(dir, "-") == 0 || !c || wai_set_create(ctx, &s) != WAI_ok) return NULL;
    for (size_t i = 0; c->set_members[i]; i++) {
        char rel[1100];
        snprintf(rel, sizeof rel, "corpus/%s/%s", dir, c->set_members[i]);
        size_t len = 0;
        uint8_t *d = harness_read_file(rel, &len);
        if (d) wai_set_add(s, c->set_members[i], d, len);
        free(d);
    }
    return s;
}

char *corpus_index(void) {
    size_t len;
    char *text = (char *)harness_read_file("corpus/index.txt", &len);
    char *grown = text ? realloc(text, len + 1) : NULL;
    if (!grown) {
        free(text);
        return NULL;
    }
    grown[len] = '\0';
    return grown;
}

static int next_neural(const char **at, corpus_line *c, int many_outputs) {
    const char *line = *at;
    if (!*line) return -1;
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    *at = line + n + (nl ? 1 : 0);
    char one[4096];
    if (n >= sizeof one) return 0;
    memcpy(one, line, n);
    one[n] = '\0';
    char offer[8]; /* an OFFER column: a case of the dispatch, not of the default offer */
    return sscanf(one, "%15s %63s %63s %31s %511s %1023s %255s %7s", c->mode, c->capability,
                  c->status, c->max_cost, c->file, c->hash, c->set, offer) == 7 &&
           strncmp(c->file, "neural/", 7) == 0 && !strchr(c->file, ',') &&
           (many_outputs || !strchr(c->hash, ','));
}

int corpus_next_neural(const char **at, corpus_line *c) {
    return next_neural(at, c, 0);
}

int corpus_next_neural_payload(const char **at, corpus_line *c) {
    return next_neural(at, c, 1);
}

uint8_t *corpus_file(const char *file, size_t *len) {
    char rel[1100];
    if ((size_t)snprintf(rel, sizeof rel, "corpus/%s", file) >= sizeof rel) return NULL;
    return harness_read_file(rel, len);
}
