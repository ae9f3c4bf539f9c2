/* SPDX-License-Identifier: BSD-2-Clause */
/* The backends a context computes with (include/wai/wai_backend.h), every
 * one a registered wai_backend_ops: libwai's integer interpreter on the CPU
 * (backend/interpreter.h), always first, and those a program adds. A path
 * can run a codec's networks only where a backend of the context serves
 * that path for the codec's kind of networks; else the unit, or the
 * backend, is absent (neural-dispatch §4 step 2). Here too a backend's
 * answers to the dispatch's questions for one job, and what its run needs:
 * the exec a codec's integer networks run on, or the latent program's run.
 * Nothing here calls a codec: the decoder does, with what this gives. */
#ifndef WAI_BACKEND_REGISTRY_H
#define WAI_BACKEND_REGISTRY_H

#include "backend/network_job.h"
#include "common/exec.h"
#include "common/lock.h"
#include "sets/cache.h"
#include "wai/wai_backend.h"
#include "wai/wai_dispatch.h"

/* The most backends one context holds: one per path. */
#define WAI_BACKENDS_MAX 16

/* What a codec's networks are, and so which backends can run them. */
typedef enum wai_networks {
    WAI_NETWORKS_INTEGER = 0, /* integer networks (the operator set's, int_synth's chain): a
                               * backend on an integer path, network by network */
    WAI_NETWORKS_LATENT = 1   /* a floating-point program from a latent to a picture
                               * (include/wai/wai_backend.h) */
} wai_networks;

/* How one run of integer networks reaches a backend: the exec the codec's
 * run takes, and the plug-in it is bound to (backend/network_job.h). */
typedef struct wai_backend_exec {
    wai_exec ex;
    wai_backend_binding binding;
} wai_backend_exec;

typedef struct wai_backend_entry wai_backend_entry;
struct wai_backend_entry {
    const wai_backend_ops *desc; /* its path is desc->path */
    void *self;              /* desc's instance in this context */
    /* An integer path's claim of decode-equivalence (backend/claim.h):
     * 0 not yet checked, 1 held, -1 refused for the context's life. The
     * interpreter's holds from the start: it is what the check compares
     * with. */
    int claim;
    /* An integer path's: fills b so that a codec's networks run on this
     * backend with program (ex: the decoder's). The interpreter's runs them
     * on ex's kernels and kept arena; a plug-in's, on its network callback
     * (backend/network_job.h). NULL on a latent path. */
    void (*bind)(const wai_backend_entry *e, void *program, const wai_exec *ex,
                 wai_backend_exec *b);
};

typedef struct wai_backends {
    size_t n;
    wai_backend_entry entries[WAI_BACKENDS_MAX];
    /* Held through a claim's check: decoders of one context on several
     * threads check a backend once, and none runs it before. */
    wai_lock lock;
    int has_lock;
} wai_backends;

/* The registry of a new context, ctx's: the integer interpreter alone.
 * out_of_memory when its lock cannot be made (destroy it all the same). */
wai_status wai_backends_init(wai_backends *b, wai_context *ctx);

/* Destroys every registered backend's instance. */
void wai_backends_destroy(wai_backends *b);

/* The integer interpreter (cpu/wai-ops/integer), every context's first:
 * what runs a job that reads no set, with no dispatch. */
wai_backend_entry *wai_backends_integer(wai_backends *b);

/* The backend serving networks of kind `networks` on path, or NULL. */
wai_backend_entry *wai_backends_find(wai_backends *b, wai_networks networks, const wai_path *path);

/* The i-th name among the members the programs of b's backends for
 * networks of kind `networks` read (each once), or NULL past the last
 * (wai_context_program_member). */
const char *wai_backends_program_member(const wai_backends *b, wai_networks networks, size_t i);

/* 1 when e runs a latent's program (not an integer path): the decode then runs
 * its entropy stage and wai_backend_run_latent; else the codec's run on
 * wai_backend_bind's exec. */
int wai_backend_takes_latent(const wai_backend_entry *e);

/* What one decode's networks need of its backends while the dispatch asks
 * about one path: the context, the loaded set held (the program's slot
 * lives with it) and the backend's program, once opened. */
typedef struct wai_backend_turn {
    wai_context *ctx;
    wai_set_ref *held;
    wai_backend_entry *entry;       /* the path's backend, or NULL */
    wai_set_slot *slot;             /* its program, held from PROGRAM to the end of the path */
} wai_backend_turn;

/* The backend's own answer to q for a job of capability cap on set members
 * (the caller's probe is asked after it); latent: the job's latent (a
 * latent path's SHAPE and PLAN read it); PLAN fills *plan. RUN is not a
 * question here. */
wai_status wai_backend_answer(wai_backend_turn *t, const wai_set *members,
                              const wai_capability *cap, const wai_latent_job *latent,
                              wai_dispatch_question q, wai_placement *plan);

/* The exec a codec's integer networks run on for the turn's backend
 * (b borrowed by the run; ex, the decoder's). */
void wai_backend_bind(const wai_backend_turn *t, const wai_exec *ex, wai_backend_exec *b);

/* A latent path's run: the backend's program on the job (its symbols
 * decoded, rgb the output). */
wai_status wai_backend_run_latent(const wai_backend_turn *t, wai_latent_job *job);

/* Ends the turn: lets the program's slot go. */
void wai_backend_turn_end(wai_backend_turn *t);

#endif
