/* SPDX-License-Identifier: BSD-2-Clause */
/* The one allocation path of the library (architecture: "every allocation
 * through one wrapper"), so tests can fail each allocation in turn. */
#ifndef WAI_COMMON_ALLOC_H
#define WAI_COMMON_ALLOC_H

#include <stddef.h>
#include "common/sibling.h"
#include "wai/wai.h"

/* Resolves NULL members to libc. */
WAI_SIBLING void wai_allocator_resolve(const wai_allocator *in, wai_allocator *out);

/* size 0 returns NULL without calling the allocator; callers that need a
 * non-NULL pointer for an empty object must not ask for 0 bytes. */
WAI_SIBLING void *wai_alloc(const wai_allocator *a, size_t size);
/* n * size with overflow checked; NULL on overflow. */
WAI_SIBLING void *wai_alloc_array(const wai_allocator *a, size_t n, size_t size);
/* Zero-filled. */
WAI_SIBLING void *wai_alloc_zeroed(const wai_allocator *a, size_t n, size_t size);
WAI_SIBLING void wai_free(const wai_allocator *a, void *p);

#endif
