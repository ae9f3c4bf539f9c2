/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIH1 image encoder (include/wai/wai_write.h): the analysis in
 * floating point (libwai_webnn's wai_webnn_analysis, the one step outside
 * integers), then the decoder's own arithmetic for the rest, so the scales
 * the encoder codes y against are the ones every decoder forms. The steps
 * it shares with the WIM1 encoder are latent_encode.c's frame; here, the
 * set's members and the latent's one stream against h_s's scales. */
#include <string.h>

#include "common/alloc.h"
#include "wai/wai_backend.h"
#include "wai/wai_network.h"
#include "wai/wai_write.h"
#include "write/latent_encode.h"
#include "write/payloads.h"

#define CAPABILITY "wai.neural.int_hyper"

void wai_hyper_encode_params_default(wai_hyper_encode_params *p) { memset(p, 0, sizeof *p); }

/* The frame (first: the steps are given it) and the encoder's own. */
typedef struct encoder {
    wai_enc_frame f;
    const wai_hyper_encode_params *p;
} encoder;

static void stage(wai_enc_frame *f, int s) {
    const encoder *e = (const encoder *)f;
    if (e->p && e->p->progress) e->p->progress(e->p->progress_opaque, (wai_hyper_encode_stage)s);
}

/* The decoder's members, opened as its decode opens them (so a set it
 * would refuse is refused here with its code). */
static wai_status open_set(wai_enc_frame *f) {
    wai_status st = wai_set_network_create(f->ctx, CAPABILITY, f->set, "h_s.whm", &f->h_s);
    return st == WAI_ok ? wai_set_tables_create(f->ctx, CAPABILITY, f->set, "entropy.json", &f->tables)
                        : st;
}

static void close_set(wai_enc_frame *f) {
    wai_set_network_destroy(f->h_s);
    wai_set_tables_destroy(f->tables);
}

/* y's symbols, element i about mu[i] against the table of sigma[i]'s
 * ceil bucket (E3), h_s's output being sigma || mu. */
static wai_status symbols(wai_enc_frame *f, const wai_enc_latents *l, wai_enc_tables *t,
                          int32_t *sym) {
    const size_t ny = (size_t)l->y->c * l->y->h * l->y->w;
    const int64_t *sigma = l->hs, *mu = l->hs + ny;
    wai_status st = WAI_ok;
    for (size_t i = 0; st == WAI_ok && i < ny; i++) {
        int64_t rebuilt;
        st = wai_enc_symbol(t, i, wai_set_tables_bucket(f->tables, sigma[i]), l->y->data[i], mu[i],
                            f->afrac, sym, &rebuilt, f->out.y_escapes);
    }
    return st;
}

static wai_status write(wai_enc_frame *f, const wai_enc_latents *l) {
    const wai_webnn_analysis_latent *y = l->y, *z = l->z;
    const wai_wih1_parts parts = {y->c, y->h, y->w, z->c, z->h, z->w,
                                  l->z_stream, l->z_len, l->y_stream, l->y_len};
    return wai_wih1_write(f->a, &parts, f->out.payload, f->out.payload_len);
}

static const wai_enc_steps steps = {stage, open_set, NULL, symbols, write, close_set};

wai_status wai_hyper_encode(wai_context *ctx, const wai_set *set, const uint8_t *rgb, uint32_t h,
                            uint32_t w, const wai_hyper_encode_params *p, wai_hyper_encode_result *r) {
    if (!wai_enc_begin(r, sizeof *r, p ? p->reserved : NULL, sizeof p->reserved))
        return WAI_invalid_argument;
    encoder e = {.f = WAI_ENC_FRAME(CAPABILITY, &steps, ctx, set, rgb, h, w, p, r), .p = p};
    return wai_enc_run(&e.f);
}

void wai_hyper_encode_result_free(const wai_context *ctx, wai_hyper_encode_result *r) {
    if (!r) return;
    wai_enc_release(ctx, r->payload, r->decoded);
    memset(r, 0, sizeof *r);
}
