/* SPDX-License-Identifier: BSD-2-Clause */
/* Claiming the tier (docs/backends.md, "Claiming the tier"): before an
 * integer path's backend runs a decode, a small known-answer network, in
 * two and in one dimension, through every layer kind and every width of
 * the arithmetic (first layers' inputs below 2^31, later ones past 2^32,
 * requantisation past 2^64, inverse GDN sums past 2^64 and roots of n
 * past 2^64, negative n, rounding), on the backend and on libwai's
 * reference kernels, then an int_synth chain (shifts past 64, ReLU); the
 * outputs must be equal. */
#ifndef WAI_BACKEND_CLAIM_H
#define WAI_BACKEND_CLAIM_H

#include "common/exec.h"
#include "wai/wai_backend.h"

/* WAI_ok when desc (instance self) gives the reference's bits on both
 * networks; dispatch_backend_failed when it differs or fails; out_of_memory
 * when the check itself cannot allocate. ex: the allocator (and nothing
 * else) the check uses. */
wai_status wai_claim_check(const wai_exec *ex, const wai_backend_ops *desc, void *self);

/* The check's CPU side alone, for tests: runs network n (0: 2-D, 1: 1-D,
 * 2: int_synth's chain) on the reference kernels into out (at most 2048
 * values), *count set. */
wai_status wai_claim_reference(const wai_allocator *a, int n, int64_t *out, size_t *count);

#endif
