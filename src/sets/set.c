/* SPDX-License-Identifier: BSD-2-Clause */
/* A parameter set in memory: named members, copied or borrowed, and an
 * optional pin. */
#include "sets/set.h"

#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "wai/wai_hash.h"

#define NAME_MAX_BYTES 255

wai_status wai_set_create(const wai_context *ctx, wai_set **out) {
    if (!ctx || !out) return WAI_invalid_argument;
    wai_set *s = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *s);
    if (!s) return WAI_out_of_memory;
    s->alloc = ctx->alloc;
    *out = s;
    return WAI_ok;
}

void wai_set_destroy(wai_set *s) {
    if (!s) return;
    wai_allocator a = s->alloc;
    for (size_t i = 0; i < s->n; i++) {
        wai_free(&a, s->members[i].name);
        if (s->members[i].owned) wai_free(&a, (void *)(uintptr_t)s->members[i].data);
    }
    wai_free(&a, s->members);
    wai_free(&a, s);
}

static const wai_set_member *find(const wai_set *s, const char *name) {
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->members[i].name, name) == 0) return &s->members[i];
    return NULL;
}

/* Adds name with data, copied (copy) or borrowed. */
static wai_status add(wai_set *s, const char *name, const uint8_t *data, size_t len, int copy) {
    if (!s || !name || (!data && len)) return WAI_invalid_argument;
    size_t nl = strlen(name);
    if (nl == 0 || nl > NAME_MAX_BYTES || find(s, name)) return WAI_invalid_argument;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        wai_set_member *m = wai_alloc_array(&s->alloc, cap, sizeof *m);
        if (!m) return WAI_out_of_memory;
        if (s->n) memcpy(m, s->members, s->n * sizeof *m);
        wai_free(&s->alloc, s->members);
        s->members = m;
        s->cap = cap;
    }
    char *n = wai_alloc(&s->alloc, nl + 1);
    uint8_t *d = copy ? wai_alloc(&s->alloc, len ? len : 1) : NULL;
    if (!n || (copy && !d)) {
        wai_free(&s->alloc, n);
        wai_free(&s->alloc, d);
        return WAI_out_of_memory;
    }
    memcpy(n, name, nl + 1);
    if (copy && len) memcpy(d, data, len);
    s->members[s->n].name = n;
    s->members[s->n].data = copy ? d : data;
    s->members[s->n].len = len;
    s->members[s->n].owned = copy;
    wai_sha256_oneshot(s->members[s->n].data, len, s->members[s->n].sha256);
    s->n++;
    return WAI_ok;
}

wai_status wai_set_add(wai_set *s, const char *name, const uint8_t *data, size_t len) {
    return add(s, name, data, len, 1);
}

wai_status wai_set_add_borrowed(wai_set *s, const char *name, const uint8_t *data,
                                size_t len) {
    return add(s, name, data, len, 0);
}

wai_status wai_set_pin(wai_set *s, const uint8_t sha256[32]) {
    if (!s || !sha256) return WAI_invalid_argument;
    memcpy(s->pin, sha256, 32);
    s->pinned = 1;
    return WAI_ok;
}

size_t wai_set_count(const wai_set *s) { return s ? s->n : 0; }

wai_status wai_set_member_at(const wai_set *s, size_t i, const char **name,
                             const uint8_t **data, size_t *len) {
    if (!s || i >= s->n || !name || !data || !len) return WAI_invalid_argument;
    *name = s->members[i].name;
    *data = s->members[i].data;
    *len = s->members[i].len;
    return WAI_ok;
}

const uint8_t *wai_set_member_sha256(const wai_set *s, const char *name) {
    const wai_set_member *m = s && name ? find(s, name) : NULL;
    return m ? m->sha256 : NULL;
}

wai_status wai_set_find(const wai_set *s, const char *name, const uint8_t **data, size_t *len) {
    if (!s || !name || !data || !len) return WAI_invalid_argument;
    const wai_set_member *m = find(s, name);
    if (!m) return WAI_set_incomplete;
    *data = m->data;
    *len = m->len;
    return WAI_ok;
}
