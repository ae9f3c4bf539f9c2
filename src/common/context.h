/* SPDX-License-Identifier: BSD-2-Clause */
/* What a context holds (assembled in src/lib.c, the one file that knows
 * every part). The parts above common are named, not included, so this
 * header sits below all of them. */
#ifndef WAI_COMMON_CONTEXT_H
#define WAI_COMMON_CONTEXT_H

#include "common/exec.h"
#include "wai/wai.h"

struct wai_set_cache;
struct wai_backends;

struct wai_context {
    wai_allocator alloc;                /* resolved: never NULL members */
    wai_exec exec;                      /* how kernels run: &alloc, the pool, the inner
                                         * loops and the layer table (filled once for the
                                         * CPU's level, src/lib.c) */
    uint64_t set_cache_budget;
    struct wai_set_cache *sets;         /* the loaded-set cache (sets/cache.h) */
    struct wai_backends *backends;      /* what computes networks (backend/registry.h) */
};

#endif
