/* SPDX-License-Identifier: BSD-2-Clause */
/* How kernels run, held once by the context (src/lib.c) and passed down:
 * what they allocate their temporaries through, the worker pool they split
 * their work over, and the inner loops of the instruction set level
 * detected when the context was created (ops/cores.h). Threads and the level never change a result
 * (docs/integer-operators.md, Fast kernels). */
#ifndef WAI_COMMON_EXEC_H
#define WAI_COMMON_EXEC_H

#include "common/pool.h"
#include "wai/wai.h"

struct wai_cores;
struct wai_kernels;
struct wai_network_ws;
struct wai_amax_notes;
struct wai_backend_binding;

typedef struct wai_exec {
    const wai_allocator *alloc; /* NULL: the default allocator */
    wai_pool *pool;             /* NULL: the calling thread only */
    const struct wai_cores *cores; /* NULL: the portable loops */
    const struct wai_kernels *kernels; /* the layer table (ops/network.h); NULL: the
                                        * reference kernels */
    struct wai_network_ws *ws;  /* a decoder's network arena, kept across its decodes
                                 * (ops/network.h); NULL: each run makes its own */
    struct wai_amax_notes *notes; /* a network run's notes of A (ops/cores.h); NULL
                                   * outside one */
    const struct wai_backend_binding *backend; /* the plug-in the decoder bound the exec
                                                * to (backend/network_job.h), whose network
                                                * callback runs whole networks; NULL: libwai's
                                                * interpreter, the kernels themselves */
} wai_exec;

/* The threads a call may use: at least 1. */
static inline unsigned wai_exec_threads(const wai_exec *ex) {
    return ex ? wai_pool_threads(ex->pool) : 1;
}

/* Runs n shares of a kernel's work on ex's pool (see wai_pool_run). */
static inline void wai_exec_run(const wai_exec *ex, unsigned n, void (*fn)(void *, unsigned),
                                void *arg) {
    wai_pool_run(ex ? ex->pool : NULL, n, fn, arg);
}

#endif
