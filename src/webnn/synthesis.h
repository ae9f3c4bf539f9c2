/* A learned image codec's synthesis on the native WebNN (the float half of
 * wai.neural.bmshj2018's decode, docs/bmshj2018.md): the latent rebuilt from
 * the entropy stage's symbols, the set's program run on it, the picture as
 * RGB8. The one interface the decoder (decode/bmshj2018.c) has into the
 * float folder; integers in, bytes out. */
#ifndef WAI_WEBNN_SYNTHESIS_H
#define WAI_WEBNN_SYNTHESIS_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

typedef struct wai_ml_synthesis_args {
    const uint8_t *program;  /* decoder.webnn.json: a graph description, one input, one output */
    size_t program_len;
    const uint8_t *weights;  /* decoder.f32 */
    size_t weights_len;
    const int32_t *symbols;  /* [m][lh][lw] */
    const uint32_t *median_bits; /* [m]: channel c's median, a binary32 pattern */
    uint32_t m, lh, lw;
    uint32_t height, width;  /* the picture: the top-left of the program's output */
} wai_ml_synthesis_args;

/* The latent (symbol + its channel's median, one float32 addition each)
 * as the program's input [1, m, lh, lw]; the program's output [1, 3,
 * 16 lh, 16 lw] on a context of ctx (its allocator and threads); the
 * picture's RGB8 (docs/bmshj2018.md, B4) into rgb (height * width * 3).
 * dispatch_backend_failed when the program does not build or run (the
 * dispatch then tries the next path); out_of_memory passes up. */
wai_status wai_ml_synthesis_rgb8(wai_context *ctx, const wai_ml_synthesis_args *args, uint8_t *rgb);

/* The channels the program's one input takes ([1, channels, h, w]):
 * WAI_ok and *m, or dispatch_shape_mismatch for a description that has no
 * such input (not read as a graph: no weights, no context). */
wai_status wai_ml_synthesis_channels(const wai_allocator *a, const uint8_t *program, size_t len,
                                     uint32_t *m);

#endif
