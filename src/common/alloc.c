#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

static void *libc_alloc(void *opaque, size_t size) {
    (void)opaque;
    return malloc(size);
}

static void libc_free(void *opaque, void *p) {
    (void)opaque;
    free(p);
}

void wai_allocator_resolve(const wai_allocator *in, wai_allocator *out) {
    if (in && in->alloc && in->free) {
        *out = *in;
    } else {
        out->alloc = libc_alloc;
        out->free = libc_free;
        out->opaque = NULL;
    }
}

void *wai_alloc(const wai_allocator *a, size_t size) {
    if (size == 0) return NULL;
    if (a && a->alloc) return a->alloc(a->opaque, size);
    return malloc(size);
}

void *wai_alloc_array(const wai_allocator *a, size_t n, size_t size) {
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return wai_alloc(a, n * size);
}

void *wai_alloc_zeroed(const wai_allocator *a, size_t n, size_t size) {
    void *p = wai_alloc_array(a, n, size);
    if (p) memset(p, 0, n * size);
    return p;
}

void wai_free(const wai_allocator *a, void *p) {
    if (!p) return;
    if (a && a->free) a->free(a->opaque, p);
    else free(p);
}
