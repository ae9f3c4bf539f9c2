/* A learned image codec's analysis on the native WebNN (the float half of
 * the WIH1 encoder, src/write/hyper_encode.c; docs/hyperprior.md): the
 * picture as the program's input, its two latents out as integers at
 * 2^afrac. The one interface the encoder has into the float folder; bytes
 * in, integers out, so everything after it (the hyper-latent's symbols,
 * h_s, the latent's symbols, the streams) is integer arithmetic. */
#ifndef WAI_WEBNN_ANALYSIS_H
#define WAI_WEBNN_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

typedef struct wai_ml_analysis_args {
    const uint8_t *program;  /* analysis.webnn.json: input "x", outputs "y" and "z" */
    size_t program_len;
    const uint8_t *weights;  /* analysis.f32 */
    size_t weights_len;
    const uint8_t *rgb;      /* height x width x 3, rows top to bottom, R, G, B */
    uint32_t height, width;
    uint32_t afrac;          /* 1..30: the latents' scale */
} wai_ml_analysis_args;

/* One latent: [c][h][w] values round(v * 2^afrac), ties to even, from ctx's
 * allocator (the caller frees data). */
typedef struct wai_ml_latent {
    int64_t *data;
    uint32_t c, h, w;
} wai_ml_latent;

/* Runs the program on x = rgb / 255 ([1, 3, height, width], float32) on a
 * context of ctx (its allocator and threads) and gives y and z. Each
 * output must be [1, c, h, w] float32 (model_mismatch otherwise, and for a
 * program that does not build: a set's encoder members that do not fit
 * it). A value that is not finite or whose magnitude reaches 2^40 once
 * scaled is field_range (no latent of a trained codec comes near).
 * out_of_memory passes up; dispatch_backend_failed when the built graph
 * does not run. On failure y and z hold nothing. */
wai_status wai_ml_analysis_fixed(wai_context *ctx, const wai_ml_analysis_args *args,
                                 wai_ml_latent *y, wai_ml_latent *z);

#endif
