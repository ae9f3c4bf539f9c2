/* See threads.h. */
#include "common/threads.h"

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

#if defined(WAI_HAVE_PTHREAD)
typedef struct share {
    void (*fn)(void *, unsigned);
    void *arg;
    unsigned i;
} share;

static void *share_main(void *p) {
    const share *s = p;
    s->fn(s->arg, s->i);
    return NULL;
}
#endif

void wai_threads_run(unsigned n, void (*fn)(void *arg, unsigned i), void *arg) {
#if defined(WAI_HAVE_PTHREAD)
    if (n > WAI_THREADS_MAX) n = WAI_THREADS_MAX;
    pthread_t th[WAI_THREADS_MAX];
    share sh[WAI_THREADS_MAX];
    unsigned char started[WAI_THREADS_MAX] = {0};
    for (unsigned i = 1; i < n; i++) {
        sh[i].fn = fn, sh[i].arg = arg, sh[i].i = i;
        started[i] = pthread_create(&th[i], NULL, share_main, &sh[i]) == 0;
    }
    fn(arg, 0);
    /* Shares that got no thread run here, after the caller's own. */
    for (unsigned i = 1; i < n; i++)
        if (!started[i]) fn(arg, i);
    for (unsigned i = 1; i < n; i++)
        if (started[i]) pthread_join(th[i], NULL);
#else
    for (unsigned i = 0; i < n; i++) fn(arg, i);
#endif
}
