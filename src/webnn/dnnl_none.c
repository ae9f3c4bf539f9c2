/* SPDX-License-Identifier: BSD-2-Clause */
/* A build without oneDNN: the convolutions run on the reference. */
#include "webnn/ml.h"

int wai_ml_dnnl_available(void) { return 0; }

uint32_t wai_ml_dnnl_block(wai_ml_context *c) {
    (void)c;
    return 0;
}

wai_status wai_ml_dnnl_conv2d(const wai_ml_kernel_args *k) {
    (void)k;
    return WAI_NotSupportedError;
}

wai_status wai_ml_dnnl_conv_transpose2d(const wai_ml_kernel_args *k) {
    (void)k;
    return WAI_NotSupportedError;
}

void wai_ml_dnnl_op_free(const wai_allocator *alloc, void *backend) {
    (void)alloc;
    (void)backend;
}

void wai_ml_dnnl_context_free(wai_ml_context *c) { (void)c; }

int wai_ml_dnnl_op_runs(const void *backend) {
    (void)backend;
    return 0;
}

int wai_ml_dnnl_op_fused(const void *backend) {
    (void)backend;
    return 0;
}
