/* SPDX-License-Identifier: BSD-2-Clause */
/* The builder's own records (builder.c, graph.c). */
#ifndef WAI_WEBNN_BUILDER_H
#define WAI_WEBNN_BUILDER_H

#include "webnn/ml.h"

struct wai_ml_graph_builder {
    wai_ml_context *context;
    int built;
    wai_ml_operand **operands;  /* by id */
    uint32_t n_operands, cap_operands;
    wai_ml_op *ops;             /* in creation order: a topological order */
    uint32_t n_ops, cap_ops;
};

#endif
