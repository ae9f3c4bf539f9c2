/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIH1 image encoder (include/wai/wai_write.h): the analysis in
 * floating point (libwai_webnn's wai_webnn_analysis, the one step outside
 * integers), then the decoder's own arithmetic for the rest, so the scales
 * the encoder codes y against are the ones every decoder forms. */
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/context.h"
#include "decode/codec.h"
#include "decode/int_hyper.h"
#include "ops/layers.h"
#include "sets/loaded.h"
#include "wai/wai_ml.h"
#include "wai/wai_write.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

#define STRIDE 64                       /* g_a's and h_a's four and two stride-2 levels */
#define CAP_ELEMENTS ((uint64_t)1 << 26) /* §7: a tensor's elements */
#define DIFF_LIMIT ((int64_t)1 << 62)

void wai_hyper_encode_params_default(wai_hyper_encode_params *p) { memset(p, 0, sizeof *p); }

/* round(d / 2^afrac), ties to even: the symbol whose rebuilt value
 * s·2^afrac + base is nearest v = base + d. -1 when it leaves i32. */
static int symbol_of(int64_t v, int64_t base, uint32_t afrac, int32_t *s) {
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
    return 0;
}

/* The picture with its last row and column repeated out to H x W. */
static void pad_picture(const uint8_t *rgb, uint32_t h, uint32_t w, uint32_t H, uint32_t W,
                        uint8_t *out) {
    for (uint32_t y = 0; y < H; y++) {
        const uint8_t *src = rgb + (size_t)(y < h ? y : h - 1) * w * 3;
        uint8_t *dst = out + (size_t)y * W * 3;
        memcpy(dst, src, (size_t)w * 3);
        for (uint32_t x = w; x < W; x++) memcpy(dst + (size_t)x * 3, src + (size_t)(w - 1) * 3, 3);
    }
}

typedef struct encoder {
    wai_context *ctx;
    const wai_allocator *a;
    const wai_loaded_set *l;
    const wai_hyper_encode_params *p;
    wai_hyper_encode_result *r;
} encoder;

static void stage(const encoder *e, wai_hyper_encode_stage s) {
    if (e->p && e->p->progress) e->p->progress(e->p->progress_opaque, s);
}

/* One stream of n symbols. The hyper-latent (per > 0): element i of
 * channel k = i / per about the channel's median, against its table. The
 * latent (per 0): element i about mu[i], against the table of sigma[i]'s
 * ceil bucket (E3). Each symbol round((v - base) / 2^afrac), its value
 * rebuilt as the decoder rebuilds it (E2) into rebuilt (or checked, when
 * NULL); escapes counts those past the table's direct values. */
static wai_status code_stream(encoder *e, const int64_t *v, size_t n, size_t per,
                              const int64_t *sigma, const int64_t *mu, int32_t *sym,
                              int64_t *rebuilt, uint64_t *escapes, uint8_t **stream, size_t *len) {
    const wai_loaded_tables *lt = &WAI_LOADED(e->l, wai_hyper_set)->t;
    const wai_entropy_set *t = lt->set;
    const wai_cdf_table **tabs = wai_alloc_array(e->a, n, sizeof *tabs);
    int32_t *offs = wai_alloc_array(e->a, n, sizeof *offs);
    wai_status st = tabs && offs ? WAI_ok : WAI_out_of_memory;
    for (size_t i = 0; st == WAI_ok && i < n; i++) {
        size_t k = per ? i / per : wai_bucket(sigma[i], t->scale_edges, t->n_edges);
        const wai_entropy_table *meta = per ? &t->hyper[k] : &t->latent[k];
        const int64_t base = per ? t->z_median_q[k] : mu[i];
        int64_t r;
        if (symbol_of(v[i], base, e->l->afrac, &sym[i]) != 0 ||
            wai_dequantize(sym[i], e->l->afrac, base, rebuilt ? &rebuilt[i] : &r) != WAI_ok)
            st = WAI_field_range;
        tabs[i] = per ? &lt->hyper[k] : &lt->latent[k];
        offs[i] = meta->offset;
        int64_t d = (int64_t)sym[i] - offs[i];
        *escapes += d < 0 || d >= (int64_t)meta->n - 2;
    }
    if (st == WAI_ok) st = wai_rans_encode(e->a, NULL, tabs, offs, 0, sym, n, stream, len);
    wai_free(e->a, tabs);
    wai_free(e->a, offs);
    return st;
}

/* The payload decoded as a decoder decodes it, against the picture. */
static wai_status check(encoder *e, const wai_hyper_plan *plan, const uint8_t *rgb) {
    wai_wih1 v;
    wai_status st = wai_wih1_parse(e->r->payload, e->r->payload_len, 0, &v);
    if (st != WAI_ok) return st;
    const uint32_t H = e->r->coded_h, W = e->r->coded_w;
    uint8_t *out = wai_alloc_array(e->a, (size_t)H * W, 3);
    if (!out) return WAI_out_of_memory;
    st = wai_wih1_decode(&e->ctx->exec, e->ctx->exec.kernels, e->l, &v, plan, out);
    uint64_t sse = 0;
    for (uint32_t yy = 0; st == WAI_ok && yy < e->r->h; yy++)
        for (size_t i = 0; i < (size_t)e->r->w * 3; i++) {
            int32_t d = (int32_t)out[(size_t)yy * W * 3 + i] - rgb[(size_t)yy * e->r->w * 3 + i];
            sse += (uint64_t)(d * d);
        }
    e->r->sse = sse;
    if (st == WAI_ok && e->p && e->p->keep_decoded) e->r->decoded = out;
    else wai_free(e->a, out);
    return st;
}

/* The analysis, the hyper-latent, h_s, the latent and the payload; the
 * caller has loaded the set and padded the picture. */
static wai_status encode(encoder *e, const wai_webnn_analysis_args *g, wai_hyper_plan *plan) {
    wai_webnn_analysis_latent y, z;
    int32_t *zsym = NULL, *ysym = NULL;
    int64_t *zq = NULL, *hs = NULL;
    uint8_t *zs = NULL, *ys = NULL;
    size_t zl = 0, yl = 0;
    stage(e, WAI_HYPER_STAGE_ANALYSIS);
    wai_status st = wai_webnn_analysis(e->ctx, g, &y, &z);
    if (st != WAI_ok) return st;
    /* The latents against the set, as §7 step 4 checks a payload's
     * header: the same plans the decode makes. */
    wai_wih1 v;
    memset(&v, 0, sizeof v);
    v.m = y.c, v.sh = y.h, v.sw = y.w, v.n_z = z.c, v.zh = z.h, v.zw = z.w;
    if (y.h != g->height / 16 || y.w != g->width / 16 || z.h != g->height / 64 ||
        z.w != g->width / 64)
        st = WAI_model_mismatch;
    if (st == WAI_ok) st = wai_wih1_prepare(e->a, e->l, &v, plan);
    if (st != WAI_ok) goto done;
    e->r->m = y.c;
    e->r->n_z = z.c;
    const size_t nz = (size_t)z.c * z.h * z.w, ny = (size_t)y.c * y.h * y.w;
    stage(e, WAI_HYPER_STAGE_HYPER);
    st = WAI_out_of_memory;
    if (!(zsym = wai_alloc_array(e->a, nz, sizeof *zsym)) ||
        !(zq = wai_alloc_array(e->a, nz, sizeof *zq)) ||
        !(hs = wai_alloc_array(e->a, (size_t)plan->h_s.out_elems, sizeof *hs)))
        goto done;
    if ((st = code_stream(e, z.data, nz, (size_t)z.h * z.w, NULL, NULL, zsym, zq, &e->r->z_escapes,
                          &zs, &zl)) != WAI_ok)
        goto done;
    const wai_net *h_s = &WAI_LOADED(e->l, wai_hyper_set)->h_s;
    if ((st = wai_network_run_ex(&e->ctx->exec, e->ctx->exec.kernels, &h_s->model, &h_s->sums,
                                 &plan->h_s, zq, hs)) != WAI_ok)
        goto done;
    stage(e, WAI_HYPER_STAGE_LATENT);
    st = WAI_out_of_memory;
    if (!(ysym = wai_alloc_array(e->a, ny, sizeof *ysym))) goto done;
    if ((st = code_stream(e, y.data, ny, 0, hs, hs + ny, ysym, NULL, &e->r->y_escapes, &ys,
                          &yl)) != WAI_ok)
        goto done;
    const wai_wih1_parts parts = {y.c, y.h, y.w, z.c, z.h, z.w, zs, zl, ys, yl};
    st = wai_wih1_write(e->a, &parts, &e->r->payload, &e->r->payload_len);
    e->r->z_bytes = zl;
    e->r->y_bytes = yl;
done:
    wai_free(e->a, zs);
    wai_free(e->a, ys);
    wai_free(e->a, zsym);
    wai_free(e->a, ysym);
    wai_free(e->a, zq);
    wai_free(e->a, hs);
    wai_free(e->a, y.data);
    wai_free(e->a, z.data);
    return st;
}

/* The encoder's members: WAI_ok, or set_incomplete. */
static wai_status analysis_members(const wai_set *set, wai_webnn_analysis_args *g) {
    const char *const *names = wai_capability_encoder_members(
        wai_capability_find("wai.neural.int_hyper"));
    wai_status st = wai_set_find(set, names[0], &g->program, &g->program_len);
    return st == WAI_ok ? wai_set_find(set, names[1], &g->weights, &g->weights_len) : st;
}

wai_status wai_hyper_encode(wai_context *ctx, const wai_set *set, const uint8_t *rgb, uint32_t h,
                            uint32_t w, const wai_hyper_encode_params *p, wai_hyper_encode_result *r) {
    static const uint8_t zero[sizeof p->reserved];
    if (!r) return WAI_invalid_argument;
    memset(r, 0, sizeof *r);
    if (!ctx || !set || !rgb || !h || !w || (p && memcmp(p->reserved, zero, sizeof p->reserved) != 0))
        return WAI_invalid_argument;
    /* The coded size, and §7's cap on its largest tensor, g_s's output,
     * before anything is allocated. */
    const uint64_t H = ((uint64_t)h + STRIDE - 1) / STRIDE * STRIDE;
    const uint64_t W = ((uint64_t)w + STRIDE - 1) / STRIDE * STRIDE;
    if (wai_sat_mul3(3, H, W) > CAP_ELEMENTS) return WAI_too_large;
    const wai_allocator *a = &ctx->alloc;
    wai_webnn_analysis_args g = {0};
    wai_status st = analysis_members(set, &g);
    if (st != WAI_ok) return st;
    const wai_codec *codec = wai_codec_of(wai_capability_find("wai.neural.int_hyper"));
    const wai_set_kind kind = wai_codec_set_kind(codec);
    wai_loaded_set *l = NULL;
    if ((st = wai_set_check_members(&kind, set)) != WAI_ok ||
        (st = wai_loaded_set_load(a, &kind, set, &l)) != WAI_ok)
        return st;
    uint8_t *padded = wai_alloc_array(a, (size_t)(H * W), 3);
    if (!padded) {
        wai_loaded_set_free(a, l);
        return WAI_out_of_memory;
    }
    pad_picture(rgb, h, w, (uint32_t)H, (uint32_t)W, padded);
    r->h = h;
    r->w = w;
    r->coded_h = (uint32_t)H;
    r->coded_w = (uint32_t)W;
    r->samples = (uint64_t)h * w * 3;
    g.rgb = padded;
    g.height = (uint32_t)H;
    g.width = (uint32_t)W;
    g.afrac = l->afrac;
    encoder e = {ctx, a, l, p, r};
    wai_hyper_plan plan;
    memset(&plan, 0, sizeof plan);
    st = encode(&e, &g, &plan);
    wai_free(a, padded);
    if (st == WAI_ok) {
        stage(&e, WAI_HYPER_STAGE_CHECK);
        st = check(&e, &plan, rgb);
    }
    wai_hyper_plan_free(a, &plan);
    wai_loaded_set_free(a, l);
    if (st != WAI_ok) wai_hyper_encode_result_free(ctx, r);
    return st;
}

void wai_hyper_encode_result_free(const wai_context *ctx, wai_hyper_encode_result *r) {
    if (!r) return;
    wai_free(ctx ? &ctx->alloc : NULL, r->payload);
    wai_free(ctx ? &ctx->alloc : NULL, r->decoded);
    memset(r, 0, sizeof *r);
}
