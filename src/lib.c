/* SPDX-License-Identifier: BSD-2-Clause */
/* The context, assembled from every part in one place (dav1d's lib.c
 * habit): the allocator, the worker pool, the instruction set level and its
 * kernel table, the loaded-set cache; and the library's version. Created
 * once; nothing below reaches back up here. */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "common/pool.h"
#include "backend/registry.h"
#include "ops/cores.h"
#include "ops/cpu.h"
#include "ops/network.h"
#include "sets/cache.h"

#define DEFAULT_SET_CACHE_BUDGET ((uint64_t)256 << 20)

/* One allocation holds the context, the inner loops its exec points at and
 * its backends (the context first, so the two pointers are one). */
typedef struct context_block {
    wai_context ctx;
    wai_cores cores;
    wai_backends backends;
} context_block;

/* The version, from the one the build writes into wai_version.h. */
const char *wai_version(void) { return WAI_VERSION_STRING; }

unsigned wai_version_number(void) { return WAI_VERSION_NUMBER; }

void wai_settings_default(wai_settings *s) {
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
        wai_settings_default(&defaults);
        s = &defaults;
    }
    for (size_t i = 0; i < sizeof s->reserved; i++)
        if (s->reserved[i] != 0) return WAI_invalid_argument;
    if ((s->allocator.alloc == NULL) != (s->allocator.free == NULL))
        return WAI_invalid_argument;
    /* The CPU's level, detected once and held to the caller's cap: its
     * loops and the layer table. */
    int isa;
    if (!wai_cpu_isa_capped(s->cpu_level, &isa)) return WAI_invalid_argument;
    wai_allocator a;
    wai_allocator_resolve(&s->allocator, &a);
    context_block *b = wai_alloc_zeroed(&a, 1, sizeof *b);
    if (!b) return WAI_out_of_memory;
    wai_context *c = &b->ctx;
    c->alloc = a;
    c->set_cache_budget = s->set_cache_budget;
    wai_cores_init(&b->cores, isa);
    c->exec.alloc = &c->alloc;
    c->exec.cores = &b->cores;
    c->exec.kernels = wai_kernels_init(isa);
    c->backends = &b->backends;
    if (wai_backends_init(&b->backends, c) != WAI_ok ||
        wai_set_cache_create(&c->alloc, c->set_cache_budget, &c->sets) != WAI_ok ||
        wai_pool_create(&c->alloc, wai_threads_resolve(s->n_threads), &c->exec.pool) != WAI_ok) {
        wai_context_destroy(c);
        return WAI_out_of_memory;
    }
    *out = c;
    return WAI_ok;
}

void wai_context_destroy(wai_context *ctx) {
    if (!ctx) return;
    /* The cache first: the programs it keeps are the backends'. */
    wai_set_cache_destroy(ctx->sets);
    wai_backends_destroy(ctx->backends);
    wai_pool_destroy(ctx->exec.pool);
    wai_allocator a = ctx->alloc;
    wai_free(&a, (context_block *)(void *)ctx);
}

wai_status wai_context_serve(wai_context *ctx) {
    return ctx ? wai_pool_serve(ctx->exec.pool) : WAI_invalid_argument;
}

wai_cpu_level wai_context_cpu_level(const wai_context *ctx) {
    return ctx ? wai_cpu_level_of_isa(wai_exec_cores(&ctx->exec)->isa) : WAI_CPU_HOST;
}

/* ---- what a context lends its backends (include/wai/wai_backend.h) -------- */

const wai_allocator *wai_context_allocator(const wai_context *ctx) {
    return ctx ? &ctx->alloc : NULL;
}

unsigned wai_context_threads(const wai_context *ctx) {
    return ctx ? wai_exec_threads(&ctx->exec) : 1;
}

void wai_context_parallel(const wai_context *ctx, unsigned n, void (*fn)(void *arg, unsigned i),
                          void *arg) {
    if (fn) wai_exec_run(ctx ? &ctx->exec : NULL, n, fn, arg);
}
