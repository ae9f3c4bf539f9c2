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

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

wai_status wai_pin_parse(const char *text, uint8_t sha256[32], char *tier, size_t tier_size) {
    static const char suffix[] = ":tier=";
    if (!text || !sha256 || (tier && tier_size == 0)) return WAI_invalid_argument;
    uint8_t d[32];
    for (int i = 0; i < 32; i++) {
        int hi = hex_digit(text[2 * i]), lo = hi < 0 ? -1 : hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return WAI_invalid_argument;
        d[i] = (uint8_t)(hi << 4 | lo);
    }
    const char *rest = text + 64, *token = "";
    if (*rest) {
        if (strncmp(rest, suffix, sizeof suffix - 1) != 0) return WAI_invalid_argument;
        token = rest + sizeof suffix - 1;
        if (!*token) return WAI_invalid_argument;
        for (const char *p = token; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
                return WAI_invalid_argument;
    }
    size_t n = strlen(token);
    if (tier && n >= tier_size) return WAI_invalid_argument;
    memcpy(sha256, d, 32);
    if (tier) memcpy(tier, token, n + 1);
    return WAI_ok;
}
