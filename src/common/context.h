#ifndef WAI_COMMON_CONTEXT_H
#define WAI_COMMON_CONTEXT_H

#include "wai/wai.h"

struct wai_set_cache;

struct wai_context {
    wai_allocator alloc;       /* resolved: never NULL members */
    unsigned n_threads;
    uint64_t set_cache_budget;
    struct wai_set_cache *sets;   /* the loaded-set cache (sets/cache.h) */
};

#endif
