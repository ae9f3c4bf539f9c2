/* SPDX-License-Identifier: BSD-2-Clause */
/* See capped_heap.h. */
#include "capped_heap.h"

#include <stdint.h>
#include <stdlib.h>

static void *h_alloc(void *o, size_t n) {
    fuzz_heap *h = o;
    if (n > h->limit - h->live || n > SIZE_MAX - 16) return NULL;
    size_t *p = malloc(n + 16);
    if (!p) return NULL;
    p[0] = n;
    h->live += n;
    return (uint8_t *)p + 16;
}

static void h_free(void *o, void *q) {
    fuzz_heap *h = o;
    if (!q) return;
    size_t *p = (size_t *)((uint8_t *)q - 16);
    h->live -= p[0];
    free(p);
}

wai_allocator fuzz_heap_allocator(fuzz_heap *h) {
    wai_allocator a = {h_alloc, h_free, h};
    return a;
}

wai_context *fuzz_heap_held_context(size_t limit, fuzz_heap **heap) {
    static fuzz_heap h;
    static wai_context *ctx;
    if (!ctx) {
        h.limit = SIZE_MAX;
        wai_settings s;
        wai_settings_default(&s);
        s.allocator = fuzz_heap_allocator(&h);
        s.n_threads = 1;
        if (wai_context_create(&s, &ctx) != WAI_ok) __builtin_trap();
    }
    h.limit = limit > SIZE_MAX - h.live ? SIZE_MAX : h.live + limit;
    *heap = &h;
    return ctx;
}
