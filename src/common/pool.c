/* SPDX-License-Identifier: BSD-2-Clause */
/* See pool.h. One run at a time: the run lock is tried, never waited on, so
 * two decoders sharing a context never wait on each other's shares. Within
 * a run, shares are claimed from a counter under the pool's mutex; the
 * caller claims too, so a run finishes even when no worker wakes. */
#include "common/pool.h"

#include "common/alloc.h"

/* Both builds' (pool.h): outside the wasm32 guard below. */
void *wai_pool_alloc(const wai_allocator *a, size_t size) {
    wai_allocator r;
    wai_allocator_resolve(a, &r);
    wai_allocator *p = wai_alloc_zeroed(&r, 1, size);
    if (p) *p = r;
    return p;
}

void wai_pool_free(void *p) {
    wai_allocator a = *(const wai_allocator *)p;
    wai_free(&a, p);
}

#if !defined(__wasm__) /* wasm32: pool_wasm.c */
#if defined(WAI_HAVE_PTHREAD)
#include <pthread.h>
#include <unistd.h>
#endif

unsigned wai_threads_resolve(unsigned n_threads) {
#if defined(WAI_HAVE_PTHREAD)
    if (n_threads == 0) {
        long c = -1;
#if defined(_SC_NPROCESSORS_ONLN)
        c = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        n_threads = c < 1 ? 1u : c > (long)WAI_THREADS_MAX ? WAI_THREADS_MAX : (unsigned)c;
    }
    return n_threads > WAI_THREADS_MAX ? WAI_THREADS_MAX : n_threads;
#else
    (void)n_threads;
    return 1;
#endif
}

struct wai_pool {
    wai_allocator alloc;
    unsigned n_workers;
#if defined(WAI_HAVE_PTHREAD)
    pthread_t workers[WAI_THREADS_MAX];
    pthread_mutex_t run_lock; /* held by the one run in progress */
    pthread_mutex_t m;        /* guards everything below */
    pthread_cond_t wake;      /* shares to claim, or quit */
    pthread_cond_t done;      /* the last share of a run finished */
    void (*fn)(void *, unsigned);
    void *arg;
    unsigned next, n;         /* the next share to claim, and the run's share count */
    unsigned unfinished;      /* shares claimed or not, not yet finished */
    int quit;
#endif
};
_Static_assert(offsetof(struct wai_pool, alloc) == 0, "wai_pool_alloc sets the first member");

#if defined(WAI_HAVE_PTHREAD)
/* Claims and runs shares until none is left; called with p->m held, and
 * returns with it held. */
static void run_shares(wai_pool *p) {
    while (p->next < p->n) {
        unsigned i = p->next++;
        void (*fn)(void *, unsigned) = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->m);
        fn(arg, i);
        pthread_mutex_lock(&p->m);
        if (--p->unfinished == 0) pthread_cond_signal(&p->done);
    }
}

static void *worker_main(void *arg) {
    wai_pool *p = arg;
    pthread_mutex_lock(&p->m);
    for (;;) {
        while (!p->quit && p->next >= p->n) pthread_cond_wait(&p->wake, &p->m);
        if (p->quit) break;
        run_shares(p);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}
#endif

wai_status wai_pool_create(const wai_allocator *a, unsigned n_threads, wai_pool **out) {
    wai_pool *p = wai_pool_alloc(a, sizeof *p);
    *out = NULL;
    if (!p) return WAI_out_of_memory;
#if defined(WAI_HAVE_PTHREAD)
    int ok_run = pthread_mutex_init(&p->run_lock, NULL) == 0;
    int ok_m = pthread_mutex_init(&p->m, NULL) == 0;
    int ok_wake = pthread_cond_init(&p->wake, NULL) == 0;
    int ok_done = pthread_cond_init(&p->done, NULL) == 0;
    if (!(ok_run && ok_m && ok_wake && ok_done)) {
        if (ok_run) pthread_mutex_destroy(&p->run_lock);
        if (ok_m) pthread_mutex_destroy(&p->m);
        if (ok_wake) pthread_cond_destroy(&p->wake);
        if (ok_done) pthread_cond_destroy(&p->done);
        wai_pool_free(p);
        return WAI_out_of_memory;
    }
    unsigned want = wai_threads_resolve(n_threads) - 1;
    while (p->n_workers < want &&
           pthread_create(&p->workers[p->n_workers], NULL, worker_main, p) == 0)
        p->n_workers++;
#else
    (void)n_threads;
#endif
    *out = p;
    return WAI_ok;
}

void wai_pool_destroy(wai_pool *p) {
    if (!p) return;
#if defined(WAI_HAVE_PTHREAD)
    pthread_mutex_lock(&p->m);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->m);
    for (unsigned i = 0; i < p->n_workers; i++) pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->m);
    pthread_mutex_destroy(&p->run_lock);
#endif
    wai_pool_free(p);
}

unsigned wai_pool_threads(const wai_pool *p) { return p ? p->n_workers + 1 : 1; }

void wai_pool_run(wai_pool *p, unsigned n, void (*fn)(void *arg, unsigned i), void *arg) {
#if defined(WAI_HAVE_PTHREAD)
    if (p && n > 1 && p->n_workers && pthread_mutex_trylock(&p->run_lock) == 0) {
        pthread_mutex_lock(&p->m);
        p->fn = fn;
        p->arg = arg;
        p->next = 1;
        p->n = n;
        p->unfinished = n - 1;
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->m);
        fn(arg, 0);
        pthread_mutex_lock(&p->m);
        run_shares(p);
        while (p->unfinished) pthread_cond_wait(&p->done, &p->m);
        p->n = p->next = 0;
        pthread_mutex_unlock(&p->m);
        pthread_mutex_unlock(&p->run_lock);
        return;
    }
#else
    (void)p;
#endif
    for (unsigned i = 0; i < n; i++) fn(arg, i);
}

wai_status wai_pool_serve(wai_pool *p) {
    (void)p;
    return WAI_invalid_argument; /* this pool starts its own threads */
}
#endif
