/* SPDX-License-Identifier: BSD-2-Clause */
/* A codec's integer networks, run on the backend the decoder bound its
 * exec to (backend/registry.h, wai_backend_bind): the one way a codec runs
 * a network. On libwai's own interpreter (ex->backend NULL) the network
 * runs on the kernels (ops/network.h); on a plug-in, each network becomes
 * a public wai_network_job (include/wai/wai_backend.h) for its network
 * callback, and the exactness rule stays here: layer 0's bound before the
 * run, every later one's after it, in order, from the A the backend
 * reports; on a refusal the backend's output is discarded. */
#ifndef WAI_BACKEND_NETWORK_JOB_H
#define WAI_BACKEND_NETWORK_JOB_H

#include "common/exec.h"
#include "ops/network.h"
#include "ops/synth_convt.h"
#include "wai/wai_backend.h"

/* A plug-in an exec is bound to: the backend, its instance and its program
 * (NULL: a one-off run, the known-answer check's, whose network the
 * backend keeps nothing of), and the allocator for the layers' views. */
typedef struct wai_backend_binding {
    const wai_backend_ops *desc;
    void *self;
    void *program;
    const wai_allocator *alloc;
} wai_backend_binding;

/* wai_network_run_ex's contract (k: the kernels, on the interpreter), on
 * ex's backend. */
wai_status wai_backend_network(const wai_exec *ex, const wai_kernels *k, const wai_model *m,
                               const wai_sums *s, const wai_plan *p, const int64_t *input,
                               int64_t *output);

/* The same with a caller's kept arena (wai_network_run_ws), on ws->ex's
 * backend. */
wai_status wai_backend_network_ws(wai_network_ws *ws, const wai_kernels *k, const wai_model *m,
                                  const wai_sums *s, const wai_plan *p, const int64_t *input,
                                  int64_t *output);

/* int_synth's chain (ops/synth_convt.h) on ex's backend: buf holds the
 * input, c channels of side n, and room for `room` values (each layer's
 * input and output side by side, planned by the codec); the last layer's
 * output is left at buf's start, its side in *side. */
wai_status wai_backend_synth(const wai_exec *ex, const wai_synth_model *m, uint64_t c,
                             uint64_t n, int64_t *buf, uint64_t room, uint64_t *side);

#endif
