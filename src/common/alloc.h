/* SPDX-License-Identifier: BSD-2-Clause */
/* The one allocation path of the library (architecture: "every allocation
 * through one wrapper"), so tests can fail each allocation in turn. */
#ifndef WAI_COMMON_ALLOC_H
#define WAI_COMMON_ALLOC_H

#include <stddef.h>
#include "wai/wai.h"

/* Resolves NULL members to libc. */
void wai_allocator_resolve(const wai_allocator *in, wai_allocator *out);

/* size 0 returns NULL without calling the allocator; callers that need a
 * non-NULL pointer for an empty object must not ask for 0 bytes. */
void *wai_alloc(const wai_allocator *a, size_t size);
/* n * size with overflow checked; NULL on overflow. */
void *wai_alloc_array(const wai_allocator *a, size_t n, size_t size);
/* Zero-filled. */
void *wai_alloc_zeroed(const wai_allocator *a, size_t n, size_t size);
void wai_free(const wai_allocator *a, void *p);

#endif
