/* SPDX-License-Identifier: BSD-2-Clause */
/* A transposed convolution of few output channels on oneDNN's sgemm and a
 * scatter (dnnl_deconv_gemm.c), for dnnl_conv.c. */
#ifndef WAI_WEBNN_DNNL_DECONV_GEMM_H
#define WAI_WEBNN_DNNL_DECONV_GEMM_H

#include "webnn/ml.h"

/* Whether k (a transposed convolution, NCHW input, IOHW filter) runs here:
 * one group, and fewer output channels than half of oneDNN's block. */
int wai_ml_deconv_gemm_takes(const wai_ml_kernel_args *k, uint32_t block);

/* Computes k into k->out (NCHW; the input NCHW or nChw{src_block}c), a
 * band's columns and transposed input in the graph's scratch. */
wai_status wai_ml_deconv_gemm(const wai_ml_kernel_args *k);

#endif
