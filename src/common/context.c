#include "common/context.h"

#include <string.h>

#include "common/alloc.h"
#include "common/threads.h"
#include "sets/cache.h"

#define DEFAULT_SET_CACHE_BUDGET ((uint64_t)256 << 20)

void wai_default_settings(wai_settings *s) {
    if (!s) return;
    memset(s, 0, sizeof *s);
    s->n_threads = 0;
    s->set_cache_budget = DEFAULT_SET_CACHE_BUDGET;
}

wai_status wai_context_create(const wai_settings *s, wai_context **out) {
    if (!out) return WAI_invalid_argument;
    *out = NULL;
    wai_settings defaults;
    if (!s) {
        wai_default_settings(&defaults);
        s = &defaults;
    }
    for (size_t i = 0; i < sizeof s->reserved; i++)
        if (s->reserved[i] != 0) return WAI_invalid_argument;
    if ((s->allocator.alloc == NULL) != (s->allocator.free == NULL))
        return WAI_invalid_argument;
    wai_allocator a;
    wai_allocator_resolve(&s->allocator, &a);
    wai_context *c = wai_alloc(&a, sizeof *c);
    if (!c) return WAI_out_of_memory;
    c->alloc = a;
    c->n_threads = wai_threads_resolve(s->n_threads);
    c->set_cache_budget = s->set_cache_budget;
    if (wai_set_cache_create(&c->alloc, c->set_cache_budget, &c->sets) != WAI_ok) {
        wai_free(&a, c);
        return WAI_out_of_memory;
    }
    *out = c;
    return WAI_ok;
}

void wai_context_destroy(wai_context *ctx) {
    if (!ctx) return;
    wai_set_cache_destroy(ctx->sets);
    wai_allocator a = ctx->alloc;
    wai_free(&a, ctx);
}
