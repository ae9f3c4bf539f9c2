/* SPDX-License-Identifier: BSD-2-Clause */
/* What the dispatch and the backends' registry share of a path. */
#ifndef WAI_DISPATCH_PATH_H
#define WAI_DISPATCH_PATH_H

#include "wai/wai_dispatch.h"

/* 1 when a and b are the same unit, backend and arithmetic. */
static inline int wai_path_same(const wai_path *a, const wai_path *b) {
    return a->unit == b->unit && a->backend == b->backend && a->arithmetic == b->arithmetic;
}

#endif
