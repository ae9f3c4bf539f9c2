/* Fork-join over threads created per call (pthreads where the build has
 * them, WAI_HAVE_PTHREAD; elsewhere everything runs on the calling
 * thread). No pool and no global state: each call starts its threads and
 * joins them before it returns. */
#ifndef WAI_COMMON_THREADS_H
#define WAI_COMMON_THREADS_H

/* The most threads one call uses (a context's n_threads is capped to it). */
#define WAI_THREADS_MAX 64u

/* A settings' n_threads made concrete: 0 is one per online core
 * (sysconf where the platform has it, else 1); the result is in
 * [1, WAI_THREADS_MAX], and 1 where the build has no threads. */
unsigned wai_threads_resolve(unsigned n_threads);

/* Runs fn(arg, i) for every i < n (n <= WAI_THREADS_MAX): share 0 on the
 * calling thread, the others each on a thread of their own, and returns
 * once all have finished. A share whose thread cannot be started runs on
 * the calling thread, so a call never fails for want of threads. The
 * shares must touch disjoint memory (or only read shared memory). */
void wai_threads_run(unsigned n, void (*fn)(void *arg, unsigned i), void *arg);

#endif
