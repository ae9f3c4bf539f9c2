/* Backends: what computes a capability's networks on a path of
 * neural-dispatch §1, as objects a program registers with its context.
 *
 * Every context has libwai's own: the integer interpreter on the CPU
 * (cpu/wai-ops/integer), with the kernel table of the context's
 * instruction set level. Others plug in:
 *
 *     wai_context_add_backend(ctx, wai_webnn_backend());   (libwai_webnn)
 *
 * A decode's dispatch asks, for each path it offers, the backend
 * registered for that path first (none: dispatch_unit_absent), then the
 * caller's probe (include/wai/wai_dispatch.h); the chosen path's backend
 * runs the networks.
 *
 * This revision's plug-in backends compute a latent capability's networks
 * (wai.neural.bmshj2018: the entropy stage's symbols and offsets in, the
 * picture out; docs/backends.md), in floating point. A backend's program
 * is members of the decode's parameter set; libwai opens it once per
 * loaded set and context and keeps it with the set in the context's
 * loaded-set cache, so a run of decodes pays for it once. */
#ifndef WAI_WAI_BACKEND_H
#define WAI_WAI_BACKEND_H

#include "wai/wai.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what a context lends its backends ----------------------------------- */

/* The allocator every allocation for ctx goes through (never NULL members). */
WAI_API const wai_allocator *wai_context_allocator(const wai_context *ctx);

/* The threads ctx's work may use: at least 1. */
WAI_API unsigned wai_context_threads(const wai_context *ctx);

/* Runs fn(arg, i) for every i < n on ctx's worker threads (the caller's
 * among them) and returns once all have run. The shares must write
 * disjoint memory; which thread runs a share never changes its result. */
WAI_API void wai_context_parallel(const wai_context *ctx, unsigned n,
                                  void (*fn)(void *arg, unsigned i), void *arg);

/* ---- the job of a latent capability's networks ---------------------------- */

/* The entropy stage's output and the picture wanted of the networks. The
 * program's one input is the latent [1, channels, height, width]: each
 * symbol plus its channel's offset, one float32 addition each. Its one
 * output is [1, 3, H, W] with H >= picture_height and W >= picture_width;
 * the picture is its top-left corner as RGB8 (docs/bmshj2018.md, B4). */
typedef struct wai_latent_job {
    const wai_capability *capability;
    const wai_set *set;             /* the decode's set: the program's members */
    const int32_t *symbols;         /* [channels][height][width]; NULL before the run */
    const uint32_t *offsets;        /* [channels]: IEEE 754 binary32 bit patterns */
    uint32_t channels, height, width;
    uint32_t picture_width, picture_height;
    uint8_t *rgb;                   /* picture_height * picture_width * 3; NULL before the run */
    uint8_t reserved[32];           /* written zero: room to grow */
} wai_latent_job;

/* ---- a backend ----------------------------------------------------------- */

/* A backend's description: a const object its library gives. Every
 * callback returns WAI_ok or the code the dispatch reads (the question's
 * refusal, dispatch_backend_failed for an error, out_of_memory). A NULL
 * callback answers yes (plan: states none). */
typedef struct wai_backend_ops {
    const char *name;                   /* for logs and tests: "webnn" */
    wai_path path;                      /* the path it computes (a float one) */
    /* The set members its program reads, NULL-terminated: a set lacking
     * one is dispatch_program_absent, and their digests key its program's
     * state with the loaded set. */
    const char *const *program_members;
    /* One instance per context it is added to (self); destroy at the
     * context's end. */
    wai_status (*create)(wai_context *ctx, void **self);
    void (*destroy)(void *self);
    /* Its program in the set (whose program_members are all there), for a
     * capability: opened once per loaded set and context, closed when the
     * set leaves the cache. dispatch_program_absent when the members do
     * not hold one it can read for cap. */
    wai_status (*program_open)(void *self, const wai_set *set, const wai_capability *cap,
                               void **program);
    void (*program_close)(void *self, void *program);
    /* Whether the program takes the job's latent (dispatch_shape_mismatch);
     * symbols and rgb are NULL. */
    wai_status (*shape)(void *self, void *program, const wai_latent_job *job);
    /* The plan it states for the job (out zeroed first; leave stated 0
     * for none). */
    wai_status (*plan)(void *self, void *program, const wai_latent_job *job, wai_placement *out);
    /* Computes job->rgb. A program's state is used by one run at a time. */
    wai_status (*run)(void *self, void *program, wai_latent_job *job);
    void *reserved[8];                  /* NULL: room to grow */
} wai_backend_ops;

/* Registers b (borrowed: it must outlive ctx) with ctx, creating its
 * instance. WAI_invalid_argument for a description that is not a float
 * path's, lacks run, or whose reserved room is not NULL, or for a path a
 * backend of ctx already serves; create's status passes up. */
WAI_API wai_status wai_context_add_backend(wai_context *ctx, const wai_backend_ops *b);

/* The instance of b in ctx (what its create made), or NULL when b is not
 * registered there: for a backend's own library to reach its state. */
WAI_API void *wai_context_backend(const wai_context *ctx, const wai_backend_ops *b);

/* The i-th name among the members the programs of ctx's backends read for
 * cap (each once, beside cap's set_members), or NULL past the last: what a
 * program that fills a set from a folder reads besides the set's own. */
WAI_API const char *wai_context_program_member(const wai_context *ctx,
                                               const wai_capability *cap, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_BACKEND_H */
