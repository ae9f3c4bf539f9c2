/* SPDX-License-Identifier: BSD-2-Clause */
/* What the WebNN fuzz targets share: the capped heap (capped_heap.h), the
 * statuses a WebNN call may give, and a run of a built graph when it is
 * small enough to compute within libFuzzer's time limit. */
#ifndef WAI_FUZZ_WEBNN_FUZZ_H
#define WAI_FUZZ_WEBNN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "capped_heap.h"
#include "wai/wai.h"
#include "wai/wai_ml.h"

/* Traps unless st is ok, out_of_memory or one of WebNN's statuses. */
void fuzz_expect_webnn(wai_status st);

/* Traps unless d is a valid descriptor (rank <= 8, every dimension >= 1). */
void fuzz_expect_descriptor(const wai_ml_operand_descriptor *d);

/* Computes g on c with its inputs filled from seed when its work (output
 * elements, times the filter or input each reads) is at most 2^13; the
 * outputs must come back with the graph's descriptors. For one seed in
 * four it first runs g within a memory limit near what it holds. */
void fuzz_run_small(wai_ml_context *c, wai_ml_graph *g, uint32_t seed);

#endif
