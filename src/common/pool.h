/* SPDX-License-Identifier: BSD-2-Clause */
/* A worker pool: the threads a context's kernels split their work over.
 * Created once (with the context), sized by its n_threads, joined when it
 * is destroyed; a run hands shares to the waiting workers and creates no
 * thread. pthreads where the build has them (WAI_HAVE_PTHREAD); elsewhere
 * a pool has no workers and every share runs on the calling thread. */
#ifndef WAI_COMMON_POOL_H
#define WAI_COMMON_POOL_H

#include <stddef.h>

#include "common/sibling.h"
#include "wai/wai.h"

/* The most threads one pool holds (a context's n_threads is capped to it). */
#define WAI_THREADS_MAX 64u

/* A settings' n_threads made concrete: 0 is one per online core
 * (sysconf where the platform has it, else 1); the result is in
 * [1, WAI_THREADS_MAX], and 1 where the build has no threads. */
WAI_SIBLING unsigned wai_threads_resolve(unsigned n_threads);

typedef struct wai_pool wai_pool;

/* A pool of n_threads - 1 workers (the caller of a run is the n-th), each
 * started now. A worker that cannot be started leaves the pool smaller; a
 * pool of no workers is still a pool. out_of_memory when the pool's own
 * memory cannot be had. */
WAI_SIBLING wai_status wai_pool_create(const wai_allocator *a, unsigned n_threads, wai_pool **out);

/* Stops and joins every worker, then frees the pool (NULL: nothing). */
WAI_SIBLING void wai_pool_destroy(wai_pool *p);

/* The threads a run may use: the workers started, plus the caller (1 for
 * a NULL pool). */
unsigned wai_pool_threads(const wai_pool *p);

/* Runs fn(arg, i) for every i < n and returns once all have finished:
 * share 0 on the calling thread, the others on whichever of the pool's
 * threads (the caller included) is free first. A pool already running
 * another call's shares (a second decoder of the context, on another
 * thread) leaves this call's shares to its caller. p NULL: all on the
 * caller. The shares must touch disjoint memory (or only read shared
 * memory); which thread runs a share never changes what it computes. */
WAI_SIBLING void wai_pool_run(wai_pool *p, unsigned n, void (*fn)(void *arg, unsigned i),
                              void *arg);

/* A thread the host started gives itself to p (builds whose platform
 * cannot start threads: wasm32, pool_wasm.c): it runs p's shares until p
 * is destroyed, then returns WAI_ok. invalid_argument at once where p
 * starts its own threads, or already has n_threads - 1 such workers. */
wai_status wai_pool_serve(wai_pool *p);

/* For the two pools (pool.c, pool_wasm.c), whose struct's first member is
 * its wai_allocator: size bytes zeroed from a (resolved) with that member
 * set, or NULL when they cannot be had; and the free of such memory by the
 * allocator it holds. */
void *wai_pool_alloc(const wai_allocator *a, size_t size);
void wai_pool_free(void *p);

#endif
