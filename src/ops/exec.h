/* How a kernel may run: what it allocates its temporaries through, and
 * how many threads it may split its work over (1: the calling thread
 * only). Threads never change a result (docs/integer-operators.md, Fast
 * kernels). */
#ifndef WAI_OPS_EXEC_H
#define WAI_OPS_EXEC_H

#include "wai/wai.h"

typedef struct wai_exec {
    const wai_allocator *alloc; /* NULL: the default allocator */
    unsigned n_threads;         /* 0 or 1: single-threaded; capped at WAI_THREADS_MAX */
} wai_exec;

/* The threads a call may use: at least 1. */
static inline unsigned wai_exec_threads(const wai_exec *ex) {
    return ex && ex->n_threads > 1 ? ex->n_threads : 1;
}

#endif
