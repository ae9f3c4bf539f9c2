/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIH1 image encoder (include/wai/wai_write.h): the analysis in
 * floating point (libwai_webnn's wai_webnn_analysis, the one step outside
 * integers), then the decoder's own arithmetic for the rest, so the scales
 * the encoder codes y against are the ones every decoder forms. */
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_ml.h"
#include "wai/wai_network.h"
#include "wai/wai_write.h"
#include "write/payloads.h"

#define STRIDE 64                       /* g_a's and h_a's four and two stride-2 levels */
#define CAP_ELEMENTS ((uint64_t)1 << 26) /* §7: a tensor's elements */
#define DIFF_LIMIT ((int64_t)1 << 62)
#define CAPABILITY "wai.neural.int_hyper"

void wai_hyper_encode_params_default(wai_hyper_encode_params *p) { memset(p, 0, sizeof *p); }

/* round(d / 2^afrac), ties to even: the symbol whose rebuilt value
 * s·2^afrac + base is nearest v = base + d; and that value (E2), as the
 * decoder rebuilds it. -1 when either leaves its type. */
static int symbol_of(int64_t v, int64_t base, uint32_t afrac, int32_t *s, int64_t *rebuilt) {
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

/* What the encoder reads of the set: through include/wai/wai_network.h
 * alone, as any client of the decoder would. */
typedef struct encoder {
    wai_context *ctx;
    const wai_set *set;
    const wai_allocator *a;
    wai_set_network *h_s;
    wai_set_tables *tables;
    uint32_t afrac;
    const wai_hyper_encode_params *p;
    wai_hyper_encode_result *r;
} encoder;

static void stage(const encoder *e, wai_hyper_encode_stage s) {
    if (e->p && e->p->progress) e->p->progress(e->p->progress_opaque, s);
}

/* The tables of a kind as wai_rans_encode_symbols_tables takes them. */
typedef struct table_list {
    size_t n;
    const uint32_t **cdfs;
    size_t *lens;
    int32_t *offsets;
    int64_t *medians;
} table_list;

static wai_status table_list_of(encoder *e, wai_table_kind kind, table_list *t) {
    t->n = wai_set_tables_count(e->tables, kind);
    t->cdfs = wai_alloc_array(e->a, t->n, sizeof *t->cdfs);
    t->lens = wai_alloc_array(e->a, t->n, sizeof *t->lens);
    t->offsets = wai_alloc_array(e->a, t->n, sizeof *t->offsets);
    t->medians = wai_alloc_array(e->a, t->n, sizeof *t->medians);
    if (!t->cdfs || !t->lens || !t->offsets || !t->medians) return WAI_out_of_memory;
    for (size_t k = 0; k < t->n; k++) {
        wai_set_table one;
        wai_status st = wai_set_tables_at(e->tables, kind, k, &one);
        if (st != WAI_ok) return st;
        t->cdfs[k] = one.cdf;
        t->lens[k] = one.len;
        t->offsets[k] = one.offset;
        t->medians[k] = one.median;
    }
    return WAI_ok;
}

static void table_list_free(encoder *e, table_list *t) {
    wai_free(e->a, t->cdfs);
    wai_free(e->a, t->lens);
    wai_free(e->a, t->offsets);
    wai_free(e->a, t->medians);
}

/* One stream of n symbols. The hyper-latent (per > 0): element i of
 * channel k = i / per about the channel's median, against its table. The
 * latent (per 0): element i about mu[i], against the table of sigma[i]'s
 * ceil bucket (E3). Each symbol round((v - base) / 2^afrac), its value
 * rebuilt as the decoder rebuilds it (E2) into rebuilt (or dropped, when
 * NULL); escapes counts those past the table's direct values. */
static wai_status code_stream(encoder *e, const int64_t *v, size_t n, size_t per,
                              const int64_t *sigma, const int64_t *mu, int32_t *sym,
                              int64_t *rebuilt, uint64_t *escapes, uint8_t **stream, size_t *len) {
    table_list t = {0};
    uint32_t *table_of = wai_alloc_array(e->a, n, sizeof *table_of);
    wai_status st = table_of ? table_list_of(e, per ? WAI_TABLE_HYPER : WAI_TABLE_LATENT, &t)
                             : WAI_out_of_memory;
    for (size_t i = 0; st == WAI_ok && i < n; i++) {
        size_t k = per ? i / per : wai_set_tables_bucket(e->tables, sigma[i]);
        const int64_t base = per ? t.medians[k] : mu[i];
        int64_t r;
        if (symbol_of(v[i], base, e->afrac, &sym[i], rebuilt ? &rebuilt[i] : &r) != 0)
            st = WAI_field_range;
        table_of[i] = (uint32_t)k;
        int64_t d = (int64_t)sym[i] - t.offsets[k];
        *escapes += d < 0 || d >= (int64_t)t.lens[k] - 2;
    }
    if (st == WAI_ok)
        st = wai_rans_encode_symbols_tables(e->a, t.n, t.cdfs, t.lens, t.offsets, table_of, sym,
                                            n, stream, len);
    table_list_free(e, &t);
    wai_free(e->a, table_of);
    return st;
}

/* The payload decoded by the public decoder, as any decoder decodes it,
 * and measured against the picture. */
static wai_status check(encoder *e, const uint8_t *rgb) {
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.capability = CAPABILITY;
    c.set = e->set;
    wai_decoder *d = NULL;
    wai_output out = {0};
    wai_status st = wai_decoder_create(e->ctx, &c, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, e->r->payload, e->r->payload_len, NULL);
    if (st == WAI_ok) st = wai_decoder_receive(d, &out);
    const uint32_t H = e->r->coded_h, W = e->r->coded_w;
    if (st == WAI_ok && (out.kind != WAI_OUTPUT_IMAGE || out.width != W || out.height != H))
        st = WAI_model_mismatch;
    uint64_t sse = 0;
    for (uint32_t yy = 0; st == WAI_ok && yy < e->r->h; yy++)
        for (size_t i = 0; i < (size_t)e->r->w * 3; i++) {
            int32_t dv = (int32_t)out.data[(size_t)yy * W * 3 + i] - rgb[(size_t)yy * e->r->w * 3 + i];
            sse += (uint64_t)(dv * dv);
        }
    e->r->sse = sse;
    if (st == WAI_ok && e->p && e->p->keep_decoded) {
        if ((e->r->decoded = wai_alloc_array(e->a, (size_t)H * W, 3)) == NULL)
            st = WAI_out_of_memory;
        else
            memcpy(e->r->decoded, out.data, (size_t)H * W * 3);
    }
    wai_decoder_destroy(d);
    return st;
}

/* The latents against the set, as §7 steps 2 to 4 check a payload's
 * header against it: the grid the picture gives, no more hyper-latent
 * channels than the tables, h_s planned on z and giving [2m, sh, sw]
 * (g_s's own checks are the decode's, in check()). hs_elems is h_s's
 * output's size. */
static wai_status fit(encoder *e, const wai_webnn_analysis_args *g,
                      const wai_webnn_analysis_latent *y, const wai_webnn_analysis_latent *z,
                      size_t *hs_elems) {
    if (y->h != g->height / 16 || y->w != g->width / 16 || z->h != g->height / 64 ||
        z->w != g->width / 64 || z->c > wai_set_tables_count(e->tables, WAI_TABLE_HYPER))
        return WAI_model_mismatch;
    const uint32_t in[3] = {z->c, z->h, z->w};
    uint32_t out[3];
    wai_status st = wai_set_network_plan(e->h_s, in, out);
    if (st == WAI_ok && (out[0] != wai_sat_mul(2, y->c) || out[1] != y->h || out[2] != y->w))
        st = WAI_geometry_mismatch;
    *hs_elems = (size_t)out[0] * out[1] * out[2];
    return st;
}

/* The analysis, the hyper-latent, h_s, the latent and the payload; the
 * caller has opened the set and padded the picture. */
static wai_status encode(encoder *e, const wai_webnn_analysis_args *g) {
    wai_webnn_analysis_latent y, z;
    int32_t *zsym = NULL, *ysym = NULL;
    int64_t *zq = NULL, *hs = NULL;
    uint8_t *zs = NULL, *ys = NULL;
    size_t zl = 0, yl = 0, hs_elems = 0;
    stage(e, WAI_HYPER_STAGE_ANALYSIS);
    wai_status st = wai_webnn_analysis(e->ctx, g, &y, &z);
    if (st != WAI_ok) return st;
    if ((st = fit(e, g, &y, &z, &hs_elems)) != WAI_ok) goto done;
    e->r->m = y.c;
    e->r->n_z = z.c;
    const size_t nz = (size_t)z.c * z.h * z.w, ny = (size_t)y.c * y.h * y.w;
    stage(e, WAI_HYPER_STAGE_HYPER);
    st = WAI_out_of_memory;
    if (!(zsym = wai_alloc_array(e->a, nz, sizeof *zsym)) ||
        !(zq = wai_alloc_array(e->a, nz, sizeof *zq)) ||
        !(hs = wai_alloc_array(e->a, hs_elems, sizeof *hs)))
        goto done;
    if ((st = code_stream(e, z.data, nz, (size_t)z.h * z.w, NULL, NULL, zsym, zq, &e->r->z_escapes,
                          &zs, &zl)) != WAI_ok ||
        (st = wai_set_network_run(e->h_s, zq, hs)) != WAI_ok)
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
    const char *const *names = wai_capability_encoder_members(wai_capability_find(CAPABILITY));
    wai_status st = wai_set_find(set, names[0], &g->program, &g->program_len);
    return st == WAI_ok ? wai_set_find(set, names[1], &g->weights, &g->weights_len) : st;
}

/* The decoder's members first, opened as its decode opens them (so a set
 * it would refuse is refused here with its code), then the encoder's. */
static wai_status open_set(encoder *e, wai_webnn_analysis_args *g) {
    wai_status st = wai_set_network_create(e->ctx, CAPABILITY, e->set, "h_s.whm", &e->h_s);
    if (st == WAI_ok) st = wai_set_tables_create(e->ctx, CAPABILITY, e->set, "entropy.json", &e->tables);
    if (st == WAI_ok) st = analysis_members(e->set, g);
    e->afrac = wai_set_network_afrac(e->h_s);
    return st;
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
    encoder e = {ctx, set, wai_context_allocator(ctx), NULL, NULL, 0, p, r};
    wai_webnn_analysis_args g = {0};
    uint8_t *padded = NULL;
    wai_status st = open_set(&e, &g);
    if (st == WAI_ok && !(padded = wai_alloc_array(e.a, (size_t)(H * W), 3))) st = WAI_out_of_memory;
    if (st == WAI_ok) {
        pad_picture(rgb, h, w, (uint32_t)H, (uint32_t)W, padded);
        r->h = h;
        r->w = w;
        r->coded_h = (uint32_t)H;
        r->coded_w = (uint32_t)W;
        r->samples = (uint64_t)h * w * 3;
        g.rgb = padded;
        g.height = (uint32_t)H;
        g.width = (uint32_t)W;
        g.afrac = e.afrac;
        st = encode(&e, &g);
    }
    wai_free(e.a, padded);
    wai_set_network_destroy(e.h_s);
    wai_set_tables_destroy(e.tables);
    if (st == WAI_ok) {
        stage(&e, WAI_HYPER_STAGE_CHECK);
        st = check(&e, rgb);
    }
    if (st != WAI_ok) wai_hyper_encode_result_free(ctx, r);
    return st;
}

void wai_hyper_encode_result_free(const wai_context *ctx, wai_hyper_encode_result *r) {
    if (!r) return;
    const wai_allocator *a = ctx ? wai_context_allocator(ctx) : NULL;
    wai_free(a, r->payload);
    wai_free(a, r->decoded);
    memset(r, 0, sizeof *r);
}
