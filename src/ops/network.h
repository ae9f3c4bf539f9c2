/* SPDX-License-Identifier: BSD-2-Clause */
/* Running a parsed network on an input tensor, layer by layer.
 *
 * The layers are reached through a table of kernel functions with the
 * reference signatures of ops/layers.h, so a faster kernel set can replace
 * the reference one without touching the runner; every set must give the
 * reference's bits and refusals (docs/integer-operators.md, "Exactness"). */
#ifndef WAI_OPS_NETWORK_H
#define WAI_OPS_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "common/exec.h"
#include "ops/layers.h"
#include "ops/model.h"
#include "ops/plan.h"
#include "wai/wai.h"

/* One function per layer kind; each has the signature, contract and
 * refusals of its *_ref counterpart in ops/layers.h (bound first, then
 * compute; field_range writes nothing). */
typedef struct wai_kernels {
    /* ex (the convolutions, the inverse GDN): what a fast kernel allocates its temporaries
     * through, and the threads it may use (NULL: the default allocator,
     * one thread). */
    wai_status (*conv2d)(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                         uint32_t shift, const int64_t *x, uint32_t h, uint32_t w, int64_t *y,
                         uint32_t oh, uint32_t ow);
    wai_status (*conv_t2d)(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t shift,
                           const int64_t *x, uint32_t h, uint32_t w, int64_t *scratch,
                           int64_t *y, uint32_t oh, uint32_t ow);
    wai_status (*conv_t1d)(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t shift, const int64_t *x, uint32_t len, int64_t *scratch,
                           int64_t *y, uint32_t olen);
    wai_status (*igdn)(const wai_exec *ex, const wai_layer *l, const uint64_t *sums, uint32_t gf,
                       uint32_t afrac, const int64_t *x, size_t positions, int64_t *y);
    wai_status (*relu)(const int64_t *x, size_t n, int64_t *y);
    wai_status (*leaky)(const wai_layer *l, const int64_t *x, size_t n, int64_t *y);
    int in_place_igdn;  /* 1: an inverse GDN past layer 0 runs in place (fast set) */
} wai_kernels;

/* The reference level: wai_kernels_init gives the reference kernels. */
#define WAI_KERNELS_REFERENCE (-1)

/* The layer table for level isa, chosen once, when a context is created:
 * the reference kernels for WAI_KERNELS_REFERENCE, else the fast ones,
 * whose inner loops are the exec's (ops/cores.h, filled for the same
 * level). */
const wai_kernels *wai_kernels_init(int isa);

/* The reference kernels (ops/layers.h). Const: the library keeps no mutable
 * global state. */
extern const wai_kernels wai_kernels_ref;
/* Fast kernels (ops/layers_fast.h) where they exist, the reference
 * elsewhere: bit-identical to wai_kernels_ref. */
extern const wai_kernels wai_kernels_fast;

/* The layer table a network running on ex uses: ex's, or the reference
 * kernels when ex (or its table) is NULL. */
static inline const wai_kernels *wai_exec_kernels(const wai_exec *ex) {
    return ex && ex->kernels ? ex->kernels : &wai_kernels_ref;
}

/* Runs m on `input` (the plan's input shape, [c][h][w]; a 1-D model's
 * [c][1][len]) and writes the plan's output shape to `output`. p is
 * wai_plan_model's plan of m and s is wai_sums_compute's sums of m; k NULL
 * means wai_kernels_ref.
 *
 * Allocates its working memory once through `a`: one arena of the largest
 * layer's input + output + uncropped plane (the plan's work_bytes, so a
 * decode's peak memory is what it declares), each layer's output at the
 * end opposite to its input and its plane between; with wai_kernels_fast
 * each inverse GDN past the first layer runs in place
 * (wai_igdn_fast_inplace). A fast kernel's small temporaries (packed
 * weights, a band of i16 rows) also come from `a`. Returns the first
 * layer's refusal (field_range), leaving
 * `output` untouched: the result is copied out only once every layer has
 * run, whatever a kernel set leaves in its buffers when it refuses.
 * out_of_memory when a buffer cannot be had; invalid_argument when m, s and
 * p disagree (a caller's bug). `output` must not overlap `input`.
 * Single-threaded, with the portable inner loops (wai_network_run_ex runs
 * on an exec's threads and loops). */
wai_status wai_network_run(const wai_allocator *a, const wai_kernels *k, const wai_model *m,
                           const wai_sums *s, const wai_plan *p, const int64_t *input,
                           int64_t *output);

/* wai_network_run with ex's allocator, pool and inner loops in the kernels
 * that split their work (the same bits and refusals whatever
 * the count), and with ex's kept arena when it has one (ex->ws, whose own
 * ex must be one with the same allocator, pool and loops). */
wai_status wai_network_run_ex(const wai_exec *ex, const wai_kernels *k,
                              const wai_model *m, const wai_sums *s, const wai_plan *p,
                              const int64_t *input, int64_t *output);

/* Working memory kept across runs, so that a caller running networks
 * again and again (frames, tiles) allocates and first-touches it once:
 * the arena, grown to the largest run so far. Zero it with
 * wai_network_ws_init; release it with wai_network_ws_free (which leaves it
 * ready for reuse). ex (borrowed; NULL: the default allocator, one
 * thread) is how the kernels run. */
typedef struct wai_network_ws {
    const wai_exec *ex;
    int64_t *arena;
    uint64_t cap;   /* elements */
} wai_network_ws;


void wai_network_ws_init(wai_network_ws *ws, const wai_exec *ex);
void wai_network_ws_free(wai_network_ws *ws);

/* wai_network_run, with its working memory from ws (allocated through
 * ws->ex's allocator when too small, and kept there). The same results, refusals and
 * output rules; on a refusal ws stays valid. (A plug-in backend's networks
 * run through backend/network_job.h, never here.) */
wai_status wai_network_run_ws(wai_network_ws *ws, const wai_kernels *k, const wai_model *m,
                              const wai_sums *s, const wai_plan *p, const int64_t *input,
                              int64_t *output);

#endif
