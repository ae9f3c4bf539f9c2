/* SPDX-License-Identifier: BSD-2-Clause */
/* What the learned image encoders share (hyper_encode.c's WIH1,
 * mlic_encode.c's WIM1), through the public headers alone, as any client
 * of the decoder: one frame of steps, wai_enc_run, that pads the picture to
 * the model's stride, opens the set, runs the analysis (floating point, on
 * libwai_webnn), codes the hyper-latent z and runs h_s on it with the
 * decoder's integer arithmetic, hands the latent to the encoder's own step,
 * then decodes the payload with the public decoder and measures it; and
 * the parts those steps use: a latent's symbols as the decoder rebuilds
 * them, the set's tables as the rANS coder takes them. */
#ifndef WAI_WRITE_LATENT_ENCODE_H
#define WAI_WRITE_LATENT_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "common/alloc.h"
#include "wai/wai.h"
#include "wai/wai_ml.h"
#include "wai/wai_network.h"
#include "wai/wai_set.h"

/* ---- symbols and tables ---------------------------------------------------- */

/* round(d / 2^afrac), ties to even: the symbol whose rebuilt value
 * s·2^afrac + base is nearest v = base + d; and that value (E2), as the
 * decoder rebuilds it. -1 when either leaves its type. */
int wai_enc_symbol_of(int64_t v, int64_t base, uint32_t afrac, int32_t *s, int64_t *rebuilt);

/* The tables of a kind as wai_rans_encode_symbols_tables takes them, and a
 * stream's choice of table for each of its symbols. */
typedef struct wai_enc_tables {
    size_t n;
    const uint32_t **cdfs;
    size_t *lens;
    int32_t *offsets;
    int64_t *medians;
    uint32_t *table_of;
} wai_enc_tables;

/* The tables of kind, and room for n symbols' choices; out_of_memory. */
wai_status wai_enc_tables_of(const wai_allocator *a, const wai_set_tables *tables,
                             wai_table_kind kind, size_t n, wai_enc_tables *t);

/* Symbol i of sym (n of them) coded against t's table table_of[i] into
 * one stream, when st is WAI_ok; then t freed. Returns st, or the coder's
 * refusal. */
wai_status wai_enc_tables_code(const wai_allocator *a, wai_status st, wai_enc_tables *t,
                               const int32_t *sym, size_t n, uint8_t **stream, size_t *len);

/* Symbol i: v's symbol about base against table k of t (wai_enc_symbol_of)
 * into sym[i], k into t's choices, the value rebuilt into *rebuilt;
 * *escapes counts a symbol past the table's direct values. field_range
 * when either leaves its type. */
wai_status wai_enc_symbol(wai_enc_tables *t, size_t i, size_t k, int64_t v, int64_t base,
                          uint32_t afrac, int32_t *sym, int64_t *rebuilt, uint64_t *escapes);

/* ---- one picture's encode ----------------------------------------------------- */

/* The result's fields the frame fills (pointers into the encoder's result). */
typedef struct wai_enc_out {
    uint8_t **payload;          /* the encoder's write step writes it */
    size_t *payload_len;
    uint32_t *h, *w, *coded_h, *coded_w;
    uint64_t *samples, *sse;
    uint8_t **decoded;
    uint32_t *m, *n_z;
    size_t *z_bytes, *y_bytes;
    uint64_t *z_escapes, *y_escapes;
} wai_enc_out;

/* The out of a result r of either encoder (their fields of these names). */
#define WAI_ENC_OUT(r)                                                                         \
    {&(r)->payload, &(r)->payload_len, &(r)->h,       &(r)->w,         &(r)->coded_h,         \
     &(r)->coded_w, &(r)->samples,     &(r)->sse,     &(r)->decoded,   &(r)->m,               \
     &(r)->n_z,     &(r)->z_bytes,     &(r)->y_bytes, &(r)->z_escapes, &(r)->y_escapes}

typedef struct wai_enc_frame wai_enc_frame;

/* The latents the frame hands the encoder's steps: y and z; hs, lead
 * planes (zero) then h_s's output, 2·Cy planes of y's grid; the z stream,
 * and for the payload the y stream. */
typedef struct wai_enc_latents {
    const wai_webnn_analysis_latent *y, *z;
    int64_t *hs;
    const uint8_t *z_stream, *y_stream;
    size_t z_len, y_len;
} wai_enc_latents;

/* The encoder's own steps, each given the frame (the first member of its
 * own object). stage: as each of the four stages (analysis, hyper, latent,
 * check) starts. open: the set's decoder members as its decode opens them,
 * the frame's h_s and tables at least. fit (or NULL): its own checks of the
 * latents, once the frame's passed (the grid, the z tables, h_s's plan);
 * *lead, the planes before h_s's output in hs. symbols: y's symbols in
 * the y stream's order into sym, each one's table among t's latent tables
 * (wai_enc_symbol, counting escapes in *out.y_escapes). write: the payload
 * of the two streams into *out.payload. close: what open opened. */
typedef struct wai_enc_steps {
    void (*stage)(wai_enc_frame *f, int stage);
    wai_status (*open)(wai_enc_frame *f);
    wai_status (*fit)(wai_enc_frame *f, const wai_webnn_analysis_latent *y,
                      const wai_webnn_analysis_latent *z, uint32_t *lead);
    wai_status (*symbols)(wai_enc_frame *f, const wai_enc_latents *l, wai_enc_tables *t,
                          int32_t *sym);
    wai_status (*write)(wai_enc_frame *f, const wai_enc_latents *l);
    void (*close)(wai_enc_frame *f);
} wai_enc_steps;

struct wai_enc_frame {
    /* The encode (the caller's). */
    wai_context *ctx;
    const wai_set *set;
    const char *capability;
    const uint8_t *rgb;          /* h x w x 3 */
    uint32_t h, w;
    int keep_decoded;
    const wai_enc_steps *steps;
    void *result;                /* the encoder's result, result_size bytes */
    size_t result_size;
    wai_enc_out out;
    /* What open sets. */
    wai_set_network *h_s;
    wai_set_tables *tables;
    /* The frame's: the context's allocator, the latents' afrac. */
    const wai_allocator *a;
    uint32_t afrac;
};

/* The frame of an encode of capability cap by steps, from an entry
 * point's arguments: ctx, set, rgb, h, w, its parameters p (their
 * keep_decoded; NULL: none) and its result r (of WAI_ENC_OUT's fields). */
#define WAI_ENC_FRAME(cap, steps_, ctx_, set_, rgb_, h_, w_, p_, r_)                             \
    {.ctx = (ctx_), .set = (set_), .capability = (cap), .rgb = (rgb_), .h = (h_), .w = (w_),     \
     .keep_decoded = (p_) && (p_)->keep_decoded, .steps = (steps_), .result = (r_),              \
     .result_size = sizeof *(r_), .out = WAI_ENC_OUT(r_)}

/* An encoder's result (size bytes) zeroed; 1 when it is not NULL and
 * reserved[0..n) (NULL: no parameters) are zero, as its parameters must
 * be. */
int wai_enc_begin(void *result, size_t size, const uint8_t *reserved, size_t n);

/* The picture's encode: its arguments (invalid_argument for no context,
 * set or picture, or a zero side); its coded size (each side rounded up to
 * a multiple of 64; too_large when 3·H·W passes §7's cap, before anything
 * is allocated); the set (open, then the encoder's members: set_incomplete);
 * the picture padded (its last row and column repeated) and analysed; the
 * latents' grid and the z tables (model_mismatch); h_s planned on z giving
 * [2·Cy, Yh, Yw] (geometry_mismatch); fit; z's symbols and stream; h_s;
 * y's symbols and stream; write; close; the payload decoded by the public decoder of the capability
 * (its decode must be the coded size) and measured over its top-left h x w
 * against the picture. On failure, what it made of the result is freed
 * and the result zeroed. */
wai_status wai_enc_run(wai_enc_frame *f);

/* A result's payload and decode freed (ctx NULL: libc's). */
void wai_enc_release(const wai_context *ctx, uint8_t *payload, uint8_t *decoded);

#endif
