/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIM1 image encoder (include/wai/wai_write.h, integer-payloads §14):
 * the analysis in floating point (libwai_webnn's wai_webnn_analysis, the
 * one step outside integers), then the decoder's own arithmetic for the
 * rest. z's symbols and h_s are the frame's it shares with the WIH1 encoder
 * (latent_encode.c); here, model.wmb's sections and the latent over K
 * slices of two checkerboard passes, the entropy network run before each
 * pass on what is coded so far exactly as the decoder runs it (int_mlicpp.c's
 * decode_y), so each element is coded against the scale and mean every
 * decoder forms. The y stream's symbols are in the decode's order: slice,
 * pass, channel, then the pass's positions in raster order. */
#include <string.h>

#include "common/alloc.h"
#include "wai/wai_backend.h"
#include "wai/wai_network.h"
#include "wai/wai_write.h"
#include "write/latent_encode.h"
#include "write/payloads.h"

#define CAPABILITY "wai.neural.int_mlicpp"

void wai_mlic_encode_params_default(wai_mlic_encode_params *p) { memset(p, 0, sizeof *p); }

/* The frame (first: the steps are given it) and the encoder's own. */
typedef struct encoder {
    wai_enc_frame f;
    const wai_mlic_encode_params *p;
    wai_mlic_encode_result *r;
    wai_set_network *entropy;
    uint32_t k;
} encoder;

static void stage(wai_enc_frame *f, int s) {
    const encoder *e = (const encoder *)f;
    if (e->p && e->p->progress) e->p->progress(e->p->progress_opaque, (wai_mlic_encode_stage)s);
}

/* The bundle's sections, opened as the decode opens model.wmb (so a set it
 * would refuse is refused here with its code). */
static wai_status open_set(wai_enc_frame *f) {
    encoder *e = (encoder *)f;
    wai_status st = wai_set_network_create(f->ctx, CAPABILITY, f->set, "model.wmb#h_s", &f->h_s);
    if (st == WAI_ok)
        st = wai_set_network_create(f->ctx, CAPABILITY, f->set, "model.wmb#entropy", &e->entropy);
    if (st == WAI_ok)
        st = wai_set_tables_create(f->ctx, CAPABILITY, f->set, "model.wmb#tables", &f->tables);
    return st;
}

static void close_set(wai_enc_frame *f) {
    wai_set_network_destroy(f->h_s);
    wai_set_network_destroy(((encoder *)f)->entropy);
    wai_set_tables_destroy(f->tables);
}

/* §14's step 1 beyond the frame's checks: K dividing the latent's
 * channels (the caller's K: invalid_argument), the entropy network taking
 * [3·Cy, Yh, Yw] to [2·Cy, Yh, Yw]; its input holds y's Cy planes before
 * h_s's output. */
static wai_status fit(wai_enc_frame *f, const wai_webnn_analysis_latent *y,
                      const wai_webnn_analysis_latent *z, uint32_t *lead) {
    (void)z;
    const encoder *e = (const encoder *)f;
    if (y->c % e->k != 0) return WAI_invalid_argument;
    const uint32_t in[3] = {3 * y->c, y->h, y->w}; /* Cy·Yh·Yw within 2^26: 3·Cy fits */
    uint32_t out[3];
    wai_status st = wai_set_network_plan(e->entropy, in, out);
    if (st == WAI_ok && (out[0] != 2 * y->c || out[1] != y->h || out[2] != y->w))
        st = WAI_model_mismatch;
    *lead = y->c;
    return st;
}

/* y's symbols into sym in the decode's order, t's choices with them. The
 * entropy network's input is hs, concat(y, hyper): y's Cy planes 0 to
 * start, each element's rebuilt value (E2) in place as it is coded, as the
 * decoder's; its output sigma || mu, before each pass. */
static wai_status symbols(wai_enc_frame *f, const wai_enc_latents *l, wai_enc_tables *t,
                          int32_t *sym) {
    const encoder *e = (const encoder *)f;
    const wai_webnn_analysis_latent *y = l->y;
    int64_t *x = l->hs;
    const size_t plane = (size_t)y->h * y->w, ny = (size_t)y->c * plane;
    const size_t per_slice = y->c / e->k;
    int64_t *sm = wai_alloc_array(f->a, 2 * ny, sizeof *sm);
    wai_status st = sm ? WAI_ok : WAI_out_of_memory;
    size_t n = 0;
    for (uint32_t j = 0; st == WAI_ok && j < e->k; j++)
        for (uint32_t pass = 0; st == WAI_ok && pass < 2; pass++) {
            st = wai_set_network_run(e->entropy, x, sm);
            for (size_t c = j * per_slice; st == WAI_ok && c < (j + 1) * per_slice; c++)
                for (uint32_t row = 0; st == WAI_ok && row < y->h; row++)
                    /* The anchors, (row + col) even, then the rest. */
                    for (uint32_t col = (row + pass) & 1; st == WAI_ok && col < y->w; col += 2) {
                        const size_t i = c * plane + (size_t)row * y->w + col;
                        st = wai_enc_symbol(t, n++, wai_set_tables_bucket(f->tables, sm[i]),
                                            y->data[i], sm[ny + i], f->afrac, sym, &x[i],
                                            f->out.y_escapes);
                    }
        }
    wai_free(f->a, sm);
    return st;
}

static wai_status write(wai_enc_frame *f, const wai_enc_latents *l) {
    const encoder *e = (const encoder *)f;
    const wai_webnn_analysis_latent *y = l->y, *z = l->z;
    e->r->k = e->k;
    const wai_wim1_parts parts = {*f->out.coded_h, *f->out.coded_w, e->k,
                                  {y->c, y->h, y->w, z->c, z->h, z->w, l->z_stream, l->z_len,
                                   l->y_stream, l->y_len}};
    return wai_wim1_write(f->a, &parts, f->out.payload, f->out.payload_len);
}

static const wai_enc_steps steps = {stage, open_set, fit, symbols, write, close_set};

wai_status wai_mlic_encode(wai_context *ctx, const wai_set *set, const uint8_t *rgb, uint32_t h,
                           uint32_t w, const wai_mlic_encode_params *p, wai_mlic_encode_result *r) {
    const uint32_t k = p && p->k ? p->k : WAI_MLIC_DEFAULT_SLICES;
    if (!wai_enc_begin(r, sizeof *r, p ? p->reserved : NULL, sizeof p->reserved) || k > UINT16_MAX)
        return WAI_invalid_argument;
    encoder e = {.f = WAI_ENC_FRAME(CAPABILITY, &steps, ctx, set, rgb, h, w, p, r), .p = p,
                 .r = r, .k = k};
    return wai_enc_run(&e.f);
}

void wai_mlic_encode_result_free(const wai_context *ctx, wai_mlic_encode_result *r) {
    if (!r) return;
    wai_enc_release(ctx, r->payload, r->decoded);
    memset(r, 0, sizeof *r);
}
