/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE /* madvise */
#include "common/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* A large block from malloc: the kernel is asked to back its 2 MiB-aligned
 * interior with huge pages (transparent huge pages on request, where the
 * system allows them), since a network's activations are otherwise first
 * touched 4 KiB page by page and those faults cost more than the kernels'
 * work on them. Advice only: refused or unsupported, nothing changes. */
static void *default_alloc(size_t size) {
    void *p = malloc(size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p && size >= 4 * huge) {
        uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        uintptr_t e = ((uintptr_t)p + size) & ~(huge - 1);
        if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}

static void *libc_alloc(void *opaque, size_t size) {
    (void)opaque;
    return default_alloc(size);
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
    return default_alloc(size);
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
