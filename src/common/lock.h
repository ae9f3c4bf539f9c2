/* SPDX-License-Identifier: BSD-2-Clause */
/* A mutex where the platform has threads (pthreads), nothing where it has
 * none (wasm32-wasi): there a context cannot be shared across threads. */
#ifndef WAI_COMMON_LOCK_H
#define WAI_COMMON_LOCK_H

#if defined(WAI_HAVE_PTHREAD)
#include <pthread.h>
typedef pthread_mutex_t wai_lock;
static inline int wai_lock_init(wai_lock *l) { return pthread_mutex_init(l, NULL) == 0; }
static inline void wai_lock_destroy(wai_lock *l) { pthread_mutex_destroy(l); }
static inline void wai_lock_take(wai_lock *l) { pthread_mutex_lock(l); }
static inline void wai_lock_give(wai_lock *l) { pthread_mutex_unlock(l); }
#else
typedef int wai_lock;
static inline int wai_lock_init(wai_lock *l) {
    *l = 0;
    return 1;
}
static inline void wai_lock_destroy(wai_lock *l) { (void)l; }
static inline void wai_lock_take(wai_lock *l) { (void)l; }
static inline void wai_lock_give(wai_lock *l) { (void)l; }
#endif

#endif
