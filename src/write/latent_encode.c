/* SPDX-License-Identifier: BSD-2-Clause */
/* What the learned image encoders share (latent_encode.h). */
#include "write/latent_encode.h"

#include <string.h>

#include "common/checked.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

#define STRIDE 64                        /* g_a's and h_a's four and two stride-2 levels */
#define CAP_ELEMENTS ((uint64_t)1 << 26) /* §7: a tensor's elements */
#define DIFF_LIMIT ((int64_t)1 << 62)

enum { STAGE_ANALYSIS, STAGE_HYPER, STAGE_LATENT, STAGE_CHECK };

/* ---- symbols and tables ---------------------------------------------------- */

int wai_enc_symbol_of(int64_t v, int64_t base, uint32_t afrac, int32_t *s, int64_t *rebuilt) {
    if ((base > 0 && v < INT64_MIN + base) || (base < 0 && v > INT64_MAX + base)) return -1;
    int64_t d = v - base;
    if (d >= DIFF_LIMIT || d <= -DIFF_LIMIT) return -1;
    int64_t one = (int64_t)1 << afrac, half = one >> 1;
    /* floor division by 2^afrac without shifting a negative */
    int64_t q = d >= 0 ? d / one : -((-d + one - 1) / one);
    int64_t rem = d - q * one;
    if (rem > half || (rem == half && (q & 1))) q++;
    if (q < INT32_MIN || q > INT32_MAX) return -1;
    *s = (int32_t)q;
    /* |q·2^afrac| < 2^61 (afrac <= 30): only the base's sum can overflow */
    const int64_t m = q * one;
    if ((base > 0 && m > INT64_MAX - base) || (base < 0 && m < INT64_MIN - base)) return -1;
    *rebuilt = m + base;
    return 0;
}

wai_status wai_enc_tables_of(const wai_allocator *a, const wai_set_tables *tables,
                             wai_table_kind kind, size_t n, wai_enc_tables *t) {
    memset(t, 0, sizeof *t);
    t->n = wai_set_tables_count(tables, kind);
    t->cdfs = wai_alloc_array(a, t->n, sizeof *t->cdfs);
    t->lens = wai_alloc_array(a, t->n, sizeof *t->lens);
    t->offsets = wai_alloc_array(a, t->n, sizeof *t->offsets);
    t->medians = wai_alloc_array(a, t->n, sizeof *t->medians);
    t->table_of = wai_alloc_array(a, n, sizeof *t->table_of);
    if (!t->cdfs || !t->lens || !t->offsets || !t->medians || !t->table_of)
        return WAI_out_of_memory;
    for (size_t k = 0; k < t->n; k++) {
        wai_set_table one;
        wai_status st = wai_set_tables_at(tables, kind, k, &one);
        if (st != WAI_ok) return st;
        t->cdfs[k] = one.cdf;
        t->lens[k] = one.len;
        t->offsets[k] = one.offset;
        t->medians[k] = one.median;
    }
    return WAI_ok;
}

wai_status wai_enc_tables_code(const wai_allocator *a, wai_status st, wai_enc_tables *t,
                               const int32_t *sym, size_t n, uint8_t **stream, size_t *len) {
    if (st == WAI_ok)
        st = wai_rans_encode_symbols_tables(a, t->n, t->cdfs, t->lens, t->offsets, t->table_of,
                                            sym, n, stream, len);
    wai_free(a, t->cdfs);
    wai_free(a, t->lens);
    wai_free(a, t->offsets);
    wai_free(a, t->medians);
    wai_free(a, t->table_of);
    memset(t, 0, sizeof *t);
    return st;
}

wai_status wai_enc_symbol(wai_enc_tables *t, size_t i, size_t k, int64_t v, int64_t base,
                          uint32_t afrac, int32_t *sym, int64_t *rebuilt, uint64_t *escapes) {
    if (wai_enc_symbol_of(v, base, afrac, &sym[i], rebuilt) != 0) return WAI_field_range;
    t->table_of[i] = (uint32_t)k;
    const int64_t d = (int64_t)sym[i] - t->offsets[k];
    *escapes += d < 0 || d >= (int64_t)t->lens[k] - 2;
    return WAI_ok;
}

/* ---- one picture's encode ----------------------------------------------------- */

static void stage(wai_enc_frame *f, int s) {
    if (f->steps->stage) f->steps->stage(f, s);
}

/* The picture with its last row and column repeated out to H x W. */
static uint8_t *padded(const wai_enc_frame *f, uint32_t H, uint32_t W) {
    uint8_t *p = wai_alloc_array(f->a, (size_t)H * W, 3);
    for (uint32_t y = 0; p && y < H; y++) {
        const uint8_t *src = f->rgb + (size_t)(y < f->h ? y : f->h - 1) * f->w * 3;
        uint8_t *dst = p + (size_t)y * W * 3;
        memcpy(dst, src, (size_t)f->w * 3);
        for (uint32_t x = f->w; x < W; x++)
            memcpy(dst + (size_t)x * 3, src + (size_t)(f->w - 1) * 3, 3);
    }
    return p;
}

/* The capability's encoder members (the analysis program and its
 * weights) into g; set_incomplete without them. */
static wai_status analysis_members(const wai_enc_frame *f, wai_webnn_analysis_args *g) {
    const char *const *names = wai_capability_encoder_members(wai_capability_find(f->capability));
    if (!names || !names[0] || !names[1]) return WAI_set_incomplete;
    wai_status st = wai_set_find(f->set, names[0], &g->program, &g->program_len);
    return st == WAI_ok ? wai_set_find(f->set, names[1], &g->weights, &g->weights_len) : st;
}

/* The latents against the set, as §7 steps 2 to 4 check a payload's
 * header against it: the grid the picture gives, no more hyper-latent
 * channels than the tables, h_s planned on z and giving [2·Cy, Yh, Yw];
 * then the encoder's own. */
static wai_status fit(wai_enc_frame *f, const wai_webnn_analysis_args *g,
                      const wai_webnn_analysis_latent *y, const wai_webnn_analysis_latent *z,
                      uint32_t *lead) {
    if (y->h != g->height / 16 || y->w != g->width / 16 || z->h != g->height / 64 ||
        z->w != g->width / 64 || z->c > wai_set_tables_count(f->tables, WAI_TABLE_HYPER))
        return WAI_model_mismatch;
    const uint32_t in[3] = {z->c, z->h, z->w};
    uint32_t out[3];
    wai_status st = wai_set_network_plan(f->h_s, in, out);
    if (st == WAI_ok && (out[0] != wai_sat_mul(2, y->c) || out[1] != y->h || out[2] != y->w))
        st = WAI_geometry_mismatch;
    *lead = 0;
    return st == WAI_ok && f->steps->fit ? f->steps->fit(f, y, z, lead) : st;
}

/* z's symbols, channel k = i / per about its median against its table,
 * into its stream, and their values rebuilt (E2) into zq. */
static wai_status code_z(wai_enc_frame *f, const wai_webnn_analysis_latent *z, int32_t *sym,
                         int64_t *zq, uint8_t **stream, size_t *len) {
    const size_t per = (size_t)z->h * z->w, n = z->c * per;
    wai_enc_tables t;
    wai_status st = wai_enc_tables_of(f->a, f->tables, WAI_TABLE_HYPER, n, &t);
    for (size_t i = 0; st == WAI_ok && i < n; i++)
        st = wai_enc_symbol(&t, i, i / per, z->data[i], t.medians[i / per], f->afrac, sym, &zq[i],
                            f->out.z_escapes);
    return wai_enc_tables_code(f->a, st, &t, sym, n, stream, len);
}

/* y's symbols (the encoder's step) and stream, then the payload. */
static wai_status code_y(wai_enc_frame *f, wai_enc_latents *l) {
    const size_t ny = (size_t)l->y->c * l->y->h * l->y->w;
    uint8_t *ys = NULL;
    int32_t *sym = wai_alloc_array(f->a, ny, sizeof *sym);
    wai_enc_tables t;
    wai_status st = wai_enc_tables_of(f->a, f->tables, WAI_TABLE_LATENT, ny, &t);
    if (!sym) st = WAI_out_of_memory;
    if (st == WAI_ok) st = f->steps->symbols(f, l, &t, sym);
    st = wai_enc_tables_code(f->a, st, &t, sym, ny, &ys, &l->y_len);
    *f->out.m = l->y->c;
    *f->out.y_bytes = l->y_len;
    l->y_stream = ys;
    if (st == WAI_ok) st = f->steps->write(f, l);
    wai_free(f->a, ys);
    wai_free(f->a, sym);
    return st;
}

/* The analysis, z and h_s, then y; the caller has opened the set and
 * padded the picture. */
static wai_status latents(wai_enc_frame *f, const wai_webnn_analysis_args *g) {
    wai_webnn_analysis_latent y, z;
    wai_enc_latents l = {&y, &z, NULL, NULL, NULL, 0, 0};
    int32_t *zsym = NULL;
    int64_t *zq = NULL;
    uint8_t *zs = NULL;
    uint32_t lead = 0;
    stage(f, STAGE_ANALYSIS);
    wai_status st = wai_webnn_analysis(f->ctx, g, &y, &z);
    if (st != WAI_ok) return st;
    if ((st = fit(f, g, &y, &z, &lead)) == WAI_ok) {
        /* Each within §7's cap: h_s planned on them. */
        const size_t nz = (size_t)z.c * z.h * z.w, plane = (size_t)y.h * y.w;
        *f->out.n_z = z.c;
        stage(f, STAGE_HYPER);
        zsym = wai_alloc_array(f->a, nz, sizeof *zsym);
        zq = wai_alloc_array(f->a, nz, sizeof *zq);
        l.hs = wai_alloc_array(f->a, (lead + 2 * (size_t)y.c) * plane, sizeof *l.hs);
        st = zsym && zq && l.hs ? code_z(f, &z, zsym, zq, &zs, &l.z_len) : WAI_out_of_memory;
        if (st == WAI_ok) memset(l.hs, 0, lead * plane * sizeof *l.hs);
        if (st == WAI_ok) st = wai_set_network_run(f->h_s, zq, l.hs + lead * plane);
        *f->out.z_bytes = l.z_len;
    }
    if (st == WAI_ok) {
        stage(f, STAGE_LATENT);
        l.z_stream = zs;
        st = code_y(f, &l);
    }
    wai_free(f->a, zs);
    wai_free(f->a, zsym);
    wai_free(f->a, zq);
    wai_free(f->a, l.hs);
    wai_free(f->a, y.data);
    wai_free(f->a, z.data);
    return st;
}

/* The payload decoded by the public decoder, as any decoder decodes it,
 * and measured against the picture. */
static wai_status check(wai_enc_frame *f) {
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.capability = f->capability;
    c.set = f->set;
    wai_decoder *d = NULL;
    wai_output out = {0};
    wai_status st = wai_decoder_create(f->ctx, &c, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, *f->out.payload, *f->out.payload_len, NULL);
    if (st == WAI_ok) st = wai_decoder_receive(d, &out);
    const uint32_t H = *f->out.coded_h, W = *f->out.coded_w;
    if (st == WAI_ok && (out.kind != WAI_OUTPUT_IMAGE || out.width != W || out.height != H))
        st = WAI_model_mismatch;
    uint64_t sse = 0;
    for (uint32_t yy = 0; st == WAI_ok && yy < f->h; yy++)
        for (size_t i = 0; i < (size_t)f->w * 3; i++) {
            int32_t dv = (int32_t)out.data[(size_t)yy * W * 3 + i] - f->rgb[(size_t)yy * f->w * 3 + i];
            sse += (uint64_t)(dv * dv);
        }
    *f->out.sse = sse;
    if (st == WAI_ok && f->keep_decoded) {
        if ((*f->out.decoded = wai_alloc_array(f->a, (size_t)H * W, 3)) == NULL)
            st = WAI_out_of_memory;
        else
            memcpy(*f->out.decoded, out.data, (size_t)H * W * 3);
    }
    wai_decoder_destroy(d);
    return st;
}

wai_status wai_enc_run(wai_enc_frame *f) {
    if (!f->ctx || !f->set || !f->rgb || !f->h || !f->w) {
        memset(f->result, 0, f->result_size);
        return WAI_invalid_argument;
    }
    /* The coded size, and §7's cap on its largest tensor, g_s's output,
     * before anything is allocated. */
    const uint64_t H = ((uint64_t)f->h + STRIDE - 1) / STRIDE * STRIDE;
    const uint64_t W = ((uint64_t)f->w + STRIDE - 1) / STRIDE * STRIDE;
    if (wai_sat_mul3(3, H, W) > CAP_ELEMENTS) {
        memset(f->result, 0, f->result_size);
        return WAI_too_large;
    }
    *f->out.h = f->h;
    *f->out.w = f->w;
    *f->out.coded_h = (uint32_t)H;
    *f->out.coded_w = (uint32_t)W;
    *f->out.samples = (uint64_t)f->h * f->w * 3;
    f->a = wai_context_allocator(f->ctx);
    wai_webnn_analysis_args g = {0};
    uint8_t *pic = NULL;
    wai_status st = f->steps->open(f);
    if (st == WAI_ok) st = analysis_members(f, &g);
    f->afrac = wai_set_network_afrac(f->h_s);
    if (st == WAI_ok && !(pic = padded(f, (uint32_t)H, (uint32_t)W))) st = WAI_out_of_memory;
    if (st == WAI_ok) {
        g.rgb = pic;
        g.height = (uint32_t)H;
        g.width = (uint32_t)W;
        g.afrac = f->afrac;
        st = latents(f, &g);
    }
    wai_free(f->a, pic);
    f->steps->close(f);
    if (st == WAI_ok) {
        stage(f, STAGE_CHECK);
        st = check(f);
    }
    if (st != WAI_ok) {
        wai_enc_release(f->ctx, *f->out.payload, *f->out.decoded);
        memset(f->result, 0, f->result_size);
    }
    return st;
}

int wai_enc_begin(void *result, size_t size, const uint8_t *reserved, size_t n) {
    if (!result) return 0;
    memset(result, 0, size);
    for (size_t i = 0; reserved && i < n; i++)
        if (reserved[i]) return 0;
    return 1;
}

void wai_enc_release(const wai_context *ctx, uint8_t *payload, uint8_t *decoded) {
    const wai_allocator *a = ctx ? wai_context_allocator(ctx) : NULL;
    wai_free(a, payload);
    wai_free(a, decoded);
}
