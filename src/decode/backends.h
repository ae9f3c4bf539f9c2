/* SPDX-License-Identifier: BSD-2-Clause */
/* The backends a context computes with (include/wai/wai_backend.h): its
 * own integer interpreter on the CPU, and those a program registered. A
 * path can run a codec's networks only where a backend of the context
 * serves that path for the codec's kind of networks (decode/codec.h); else
 * the unit, or the backend, is absent (neural-dispatch §4 step 2). Here
 * too the backend's answers to the dispatch's questions for one job, and
 * its run. */
#ifndef WAI_DECODE_BACKENDS_H
#define WAI_DECODE_BACKENDS_H

#include "common/lock.h"
#include "decode/codec.h"
#include "sets/cache.h"
#include "wai/wai_backend.h"
#include "wai/wai_dispatch.h"

/* The most backends one context holds: one per path. */
#define WAI_BACKENDS_MAX 16

typedef struct wai_backend_entry {
    wai_path path;
    const wai_backend_ops *desc; /* NULL: libwai's integer interpreter */
    void *self;              /* desc's instance in this context */
    /* An integer path's claim of decode-equivalence (decode/claim.h):
     * 0 not yet checked, 1 held, -1 refused for the context's life. */
    int claim;
} wai_backend_entry;

typedef struct wai_backends {
    size_t n;
    wai_backend_entry entries[WAI_BACKENDS_MAX];
    /* Held through a claim's check: decoders of one context on several
     * threads check a backend once, and none runs it before. */
    wai_lock lock;
    int has_lock;
} wai_backends;

/* The registry of a new context: the integer interpreter alone.
 * out_of_memory when its lock cannot be made (destroy it all the same). */
wai_status wai_backends_init(wai_backends *b);

/* Destroys every registered backend's instance. */
void wai_backends_destroy(wai_backends *b);

/* The integer interpreter (cpu/wai-ops/integer), every context's first. */
wai_backend_entry *wai_backends_integer(wai_backends *b);

/* The backend serving codec c's networks on path, or NULL. */
wai_backend_entry *wai_backends_find(wai_backends *b, const wai_codec *c, const wai_path *path);

/* What one decode's networks need of its backends while the dispatch asks
 * about one path: the context, the loaded set held (the program's slot
 * lives with it) and the backend's program, once opened. */
typedef struct wai_backend_turn {
    wai_context *ctx;
    wai_set_ref *held;
    wai_backend_entry *entry;       /* the path's backend, or NULL */
    wai_set_slot *slot;             /* its program, held from PROGRAM to the end of the path */
} wai_backend_turn;

/* The backend's own answer to q for job j (the caller's probe is asked
 * after it); PLAN fills *plan. RUN is not a question here. */
wai_status wai_backend_answer(wai_backend_turn *t, wai_job *j, wai_dispatch_question q,
                              wai_placement *plan);

/* Runs the job's networks on the turn's backend into out (the entropy
 * stage first, for a latent capability). */
wai_status wai_backend_run(wai_backend_turn *t, wai_job *j, const wai_exec *ex, uint8_t *out);

/* Ends the turn: lets the program's slot go. */
void wai_backend_turn_end(wai_backend_turn *t);

#endif
