/* SPDX-License-Identifier: BSD-2-Clause */
/* See pool.h: the pool of a wasm32 build. WASI has no thread creation, so
 * a pool starts no worker: its workers are threads the host started (Web
 * Workers, node's worker_threads, each running the same module over the
 * same shared memory) that give themselves to it through wai_pool_serve
 * (wai_context_serve), up to n_threads - 1 of them. Until one has come,
 * and in a module whose memory is not shared, every share runs on the
 * caller, as on a build without threads.
 *
 * A worker sleeps in memory.atomic.wait32 on the run count and is woken by
 * memory.atomic.notify. The caller never sleeps: a page's main thread may
 * not block (the wait traps there), so it claims shares itself and then
 * spins until the workers' last share is done. Everything of a run is
 * guarded by a spin lock; the shares are few and long. Workers run only
 * shares, which are allocation-free (the kernels allocate before their
 * run), so wasi-libc, built single-threaded, is used by the caller alone.
 * Empty outside wasm32 (pool.c). */
#include "common/pool.h"

#if defined(__wasm__)
#include <stdatomic.h>

unsigned wai_threads_resolve(unsigned n_threads) {
    /* 0: one (the module knows no core count; the host asks for more). */
    if (n_threads == 0) return 1;
    return n_threads > WAI_THREADS_MAX ? WAI_THREADS_MAX : n_threads;
}

struct wai_pool {
    wai_allocator alloc;
    unsigned slots;         /* workers it takes: n_threads - 1 */
    atomic_uint joined;     /* workers serving now */
    atomic_int running;     /* the one run in progress (tried, never waited on) */
    atomic_int lock;        /* guards the fields below */
    atomic_int gen;         /* bumped at each run and at quit: the workers' wait word */
    void (*fn)(void *, unsigned);
    void *arg;
    unsigned next, n;       /* the next share to claim, and the run's share count */
    int quit;
    atomic_uint unfinished; /* shares not yet finished: the caller spins on it unlocked */
};
_Static_assert(offsetof(struct wai_pool, alloc) == 0, "wai_pool_alloc sets the first member");

static void lock(wai_pool *p) {
    while (atomic_exchange_explicit(&p->lock, 1, memory_order_acquire)) {
    }
}

static void unlock(wai_pool *p) { atomic_store_explicit(&p->lock, 0, memory_order_release); }

/* Claims and runs shares until none is left; called and returns locked. */
static void run_shares(wai_pool *p) {
    while (p->next < p->n) {
        unsigned i = p->next++;
        void (*fn)(void *, unsigned) = p->fn;
        void *arg = p->arg;
        unlock(p);
        fn(arg, i);
        atomic_fetch_sub_explicit(&p->unfinished, 1, memory_order_release);
        lock(p);
    }
}

static void wake_all(wai_pool *p) {
    atomic_fetch_add(&p->gen, 1);
    __builtin_wasm_memory_atomic_notify((int *)&p->gen, UINT32_MAX);
}

wai_status wai_pool_create(const wai_allocator *a, unsigned n_threads, wai_pool **out) {
    wai_pool *p = wai_pool_alloc(a, sizeof *p);
    *out = NULL;
    if (!p) return WAI_out_of_memory;
    p->slots = wai_threads_resolve(n_threads) - 1;
    *out = p;
    return WAI_ok;
}

wai_status wai_pool_serve(wai_pool *p) {
    if (!p) return WAI_invalid_argument;
    unsigned j = atomic_load(&p->joined);
    do {
        if (j >= p->slots) return WAI_invalid_argument;
    } while (!atomic_compare_exchange_weak(&p->joined, &j, j + 1));
    for (;;) {
        int seen = atomic_load(&p->gen);
        lock(p);
        if (p->quit) {
            unlock(p);
            break;
        }
        run_shares(p);
        unlock(p);
        /* Until the next run or quit (a bump since `seen` returns at once). */
        __builtin_wasm_memory_atomic_wait32((int *)&p->gen, seen, -1);
    }
    atomic_fetch_sub(&p->joined, 1);
    return WAI_ok;
}

void wai_pool_destroy(wai_pool *p) {
    if (!p) return;
    lock(p);
    p->quit = 1;
    unlock(p);
    wake_all(p);
    while (atomic_load(&p->joined)) {
    }
    wai_pool_free(p);
}

unsigned wai_pool_threads(const wai_pool *p) {
    return p ? atomic_load(&((wai_pool *)p)->joined) + 1 : 1;
}

void wai_pool_run(wai_pool *p, unsigned n, void (*fn)(void *arg, unsigned i), void *arg) {
    int idle = 0;
    if (p && n > 1 && atomic_load(&p->joined) &&
        atomic_compare_exchange_strong(&p->running, &idle, 1)) {
        lock(p);
        p->fn = fn;
        p->arg = arg;
        p->next = 1;
        p->n = n;
        atomic_store(&p->unfinished, n - 1);
        unlock(p);
        wake_all(p);
        fn(arg, 0);
        lock(p);
        run_shares(p);
        unlock(p);
        /* The workers' shares in flight (acquire: their writes are seen). */
        while (atomic_load_explicit(&p->unfinished, memory_order_acquire)) {
        }
        lock(p);
        p->n = p->next = 0;
        unlock(p);
        atomic_store(&p->running, 0);
        return;
    }
    for (unsigned i = 0; i < n; i++) fn(arg, i);
}
#endif
