/* SPDX-License-Identifier: BSD-2-Clause */
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
 * A plug-in backend on a float path computes a latent capability's
 * networks (wai.neural.bmshj2018: the entropy stage's symbols and offsets
 * in, the picture out; docs/backends.md). One on an integer path
 * (gpu/wgsl/integer) computes the integer networks of every capability
 * whose networks are the integer operator set's, one whole network at a
 * time (wai_network_job), bit for bit as libwai's CPU does; libwai keeps
 * the entropy stage, the checks and the exactness rule. A backend's program
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
    /* What the backend may hold for this job, in bytes: the decode's
     * max_memory less the symbols (4 bytes each) and the picture, which
     * the decode holds while the program runs; UINT64_MAX for no limit.
     * Past it a backend refuses with cost_over_limit before allocating
     * what would pass it (the native WebNN: its graph's constants and
     * activations, and the run's tensors). */
    uint64_t max_memory;
    uint8_t reserved[24];           /* written zero: room to grow */
} wai_latent_job;

/* ---- the job of an integer network ------------------------------------------ */

/* One layer of an integer network as its file states it
 * (docs/integer-operators.md, "The network files"), with the shapes
 * planning gave it ([c, 1, len] in one dimension). Arrays are libwai's,
 * valid during the run. */
typedef struct wai_network_layer {
    uint32_t kind;          /* the file's tag: 0 transposed convolution, 1 convolution,
                             * 2 inverse GDN, 3 ReLU, 4 leaky ReLU; or 5, int_synth's
                             * transposed convolution (docs/int_synth.md) */
    uint32_t cin, cout, k, stride, pad, opad;  /* (transposed) convolutions */
    uint32_t c;             /* inverse GDN: channels */
    uint32_t lshift;        /* leaky ReLU */
    int64_t slope;          /* leaky ReLU */
    const int16_t *weights; /* in the file's order: [cin][cout][k][k] transposed
                             * ([cin][cout][k] in one dimension), [cout][cin][k][k] */
    const int64_t *mult;    /* [cout] */
    const int64_t *bias;    /* [cout] */
    const int32_t *gamma;   /* [c][c]: row i feeds output channel i */
    const int64_t *beta;    /* [c] */
    uint32_t in_c, in_h, in_w, out_c, out_h, out_w;
    /* Kind 5: int_synth's layer, cin, cout, k, stride, pad and opad above:
     * Y = floor((acc + bias) / 2^synth_shift), then max(Y, 0) where relu;
     * acc + bias within i64 (the set's certificate). */
    const int32_t *weights32; /* [cin][cout][k][k] */
    const int32_t *bias32;    /* [cout] */
    uint32_t synth_shift;     /* 0..127 */
    uint32_t relu;
} wai_network_layer;

/* One run of a whole network. The backend computes every layer in the
 * arithmetic of docs/integer-operators.md and writes, for each layer
 * i >= 1, amax[i] = the largest |x| of layer i's input (|-2^63| = 2^63).
 * libwai has checked layer 0's bound; it checks each later layer's bound
 * against amax[i] after the run, in order, and refuses the decode
 * field_range at the first that fails, discarding the output: past a
 * failing layer the backend's values (wrapped, say) are never used.
 * int_synth's chain (every layer of kind 5) has no such bounds: its set's
 * certificate holds every sum within i64, and amax is not read. */
typedef struct wai_network_job {
    const void *network;    /* the same for the same network while the program is open:
                             * a key for what the backend keeps of its parameters */
    uint32_t dims;          /* 2: WHM1, 1: WAM1 */
    uint32_t afrac, gf, shift;
    uint32_t n_layers;
    const wai_network_layer *layers;
    const int64_t *input;   /* layers[0]'s input, [in_c][in_h][in_w] */
    int64_t *output;        /* the last layer's output; it may overlap input (int_synth's
                             * chain): read the whole input before writing it */
    uint64_t *amax;         /* [n_layers]; amax[0], the input's, is given */
    uint8_t reserved[32];   /* zero: room to grow */
} wai_network_job;

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
    /* A float path's: computes job->rgb. A program's state is used by one
     * run at a time. */
    wai_status (*run)(void *self, void *program, wai_latent_job *job);
    /* An integer path's: runs one network (wai_network_job), exactly.
     * dispatch_backend_failed (a lost device, a buffer it cannot have)
     * refuses the path for this decode, and the next path offered runs it
     * whole; nothing this run wrote reaches the caller. */
    wai_status (*network)(void *self, void *program, wai_network_job *job);
    /* Whether its unit is there for this decode (the dispatch's unit
     * question, asked of the backend before the caller's probe): WAI_ok,
     * or dispatch_unit_absent (a browser's WebNN with no NPU, a device
     * gone). NULL: it is there. An integer path's claim is checked after
     * it. */
    wai_status (*unit)(void *self, const wai_path *path);
    void *reserved[6];                  /* NULL: room to grow */
} wai_backend_ops;

/* Registers b (borrowed: it must outlive ctx) with ctx, creating its
 * instance. WAI_invalid_argument for a float path's description that
 * lacks run, an integer path's that lacks network (or has run), a
 * description whose reserved room is not NULL, or a path a backend of ctx
 * already serves; create's status passes up.
 *
 * An integer path's backend claims decode-equivalence before its first
 * decode (docs/backends.md, "Claiming the tier"): libwai runs a small
 * known-answer network through it and compares the output with its own
 * CPU's; a backend that differs is refused dispatch_backend_failed for
 * the context's life, and the next path offered runs. The check runs
 * once, under the context's lock, before any decode runs the backend;
 * after it, network may be called from several of the context's threads
 * at once, each with its own program. */
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
