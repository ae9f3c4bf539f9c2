/* SPDX-License-Identifier: BSD-2-Clause */
/* The steps every entry into a payload shares, in §7's order: the codec
 * the caller names or the bytes' magic names, the parse, the set (§7 step
 * 1, through the context's loaded-set cache), the codec's prepare (steps 2
 * to 4, the cost and the outputs' shape). The decoder (decode/decoder.c),
 * the queries (decode/queries.c) and the latent stage
 * (decode/latent_stage.c) take them top to bottom. */
#ifndef WAI_DECODE_STEPS_H
#define WAI_DECODE_STEPS_H

#include "decode/codec.h"
#include "sets/cache.h"

/* The codec of a capability named, or of the one the bytes' magic names:
 * bad_magic when neither names one, unsupported_capability when this build
 * has no decoder for it. */
wai_status wai_steps_codec(const char *name, const uint8_t *data, size_t len,
                           const wai_codec **out);

/* §7 step 1 for a job that reads its set: the members and pin, then the
 * loaded set from the context's cache (*held is the caller's to release,
 * also on failure). ctx NULL (a query that reads no set): set_incomplete
 * for a job that reads one. */
wai_status wai_steps_resolve_set(wai_context *ctx, const wai_set *set, wai_job *j,
                                 wai_set_ref **held);

/* The parse, §7 steps 1 to 4 and the cost (*held and ctx as above). */
wai_status wai_steps_prepare(wai_context *ctx, const wai_set *set, wai_job *j,
                             const uint8_t *data, size_t len, wai_set_ref **held);

/* The caller's limits on a prepared job, after §7 step 4 and before any
 * symbol or output buffer (reading N7): the work and the memory the header
 * declares (cost_over_limit). *cost (when not NULL) gets the job's cost.
 * A latent's backend gets what max_memory leaves it (its job's max_memory). */
wai_status wai_steps_limits(wai_job *j, uint64_t max_cost, uint64_t max_memory,
                            wai_cost *cost);

/* A job's end: what its steps hold released, its loaded set given back. */
void wai_steps_end(wai_context *ctx, wai_job *j, wai_set_ref *held);

#endif
