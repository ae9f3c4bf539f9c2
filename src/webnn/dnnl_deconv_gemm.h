/* A transposed convolution of few output channels on oneDNN's sgemm and a
 * scatter (dnnl_deconv_gemm.c), for dnnl_conv.c. */
#ifndef WAI_WEBNN_DNNL_DECONV_GEMM_H
#define WAI_WEBNN_DNNL_DECONV_GEMM_H

#include "webnn/ml.h"

/* The columns and transposed input of one band, kept by the op between
 * runs. */
typedef struct wai_ml_gemm_scratch {
    float *col, *xb;
    size_t col_floats, xb_floats;
} wai_ml_gemm_scratch;

/* Whether k (a transposed convolution, NCHW input, IOHW filter) runs here:
 * one group, and fewer output channels than half of oneDNN's block. */
int wai_ml_deconv_gemm_takes(const wai_ml_kernel_args *k, uint32_t block);

/* Computes k into k->out (NCHW; the input NCHW or nChw{src_block}c). */
wai_status wai_ml_deconv_gemm(const wai_ml_kernel_args *k, wai_ml_gemm_scratch *s);

void wai_ml_gemm_scratch_free(const wai_allocator *alloc, wai_ml_gemm_scratch *s);

#endif
