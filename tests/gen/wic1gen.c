/* SPDX-License-Identifier: BSD-2-Clause */
/* WCB1 bundles and WIC1 clips (wic1gen.h). */
#include "gen/wic1gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/reader.h"
#include "entropy/cdf.h"
#include "formats/whm1.h"
#include "gen/netgen.h"
#include "ops/layers.h"
#include "write/rans_encode.h"

static void die(const char *what) {
    fprintf(stderr, "wic1gen: %s\n", what);
    exit(1);
}

static void adds(wim1gen_buf *x, const char *s) { wim1gen_add(x, s, strlen(s)); }

static void addf(wim1gen_buf *x, const char *fmt, long long a) {
    char t[64];
    int n = snprintf(t, sizeof t, fmt, a);
    wim1gen_add(x, t, (size_t)n);
}

void wic1gen_make_bundle(wic1gen_bundle *b, uint64_t seed, uint64_t *rng, uint32_t cf, uint32_t cc,
                         uint32_t m, uint32_t mid) {
    memset(b, 0, sizeof *b);
    b->afrac = 10;
    const uint32_t in[3] = {cf, cc, m + cc}, out[3] = {cc, 2 * m, cf};
    for (int i = 0; i < 3; i++) {
        netgen_spec s[3] = {{WAI_LAYER_CONV, in[i], mid, 3, 1, 1, 0, 0},
                            {WAI_LAYER_RELU, 0, 0, 0, 0, 0, 0, 0},
                            {WAI_LAYER_CONV, mid, out[i], 3, 1, 1, 0, 0}};
        if (netgen_build(NULL, seed + (uint64_t)i, 2, b->afrac, s, 3, &b->net[i]) != WAI_ok)
            die("network");
    }
    if (netgen_bmshj(NULL, seed + 3, b->afrac, cf, mid, 3, 2, &b->net[3]) != WAI_ok) die("recon");
    b->n_edges = 5;
    for (uint32_t i = 0; i < b->n_edges; i++) {
        b->edges[i] = ((int64_t)i - 2) * ((int64_t)1 << (b->afrac + 2));
        wim1gen_random_table(rng, &b->lat[i], 3 + (uint32_t)netgen_below(rng, 30));
    }
    b->tables_afrac = b->afrac;
}

void wic1gen_bundle_free(wic1gen_bundle *b) {
    for (int i = 0; i < 4; i++) wai_model_free(NULL, &b->net[i]);
}

wim1gen_buf wic1gen_bundle_bytes(const wic1gen_bundle *b) {
    wim1gen_buf x = {NULL, 0, 0}, j = {NULL, 0, 0};
    wim1gen_add(&x, "WCB1", 4);
    for (int i = 0; i < 4; i++) {
        uint8_t *bytes;
        size_t len;
        if (netgen_bytes(NULL, &b->net[i], &bytes, &len) != WAI_ok) die("model bytes");
        wim1gen_add_u32(&x, (uint32_t)len);
        wim1gen_add(&x, bytes, len);
        free(bytes);
    }
    addf(&j, "{\"afrac\": %lld, \"scale_edges\": [", b->tables_afrac);
    for (uint32_t i = 0; i < b->n_edges; i++) addf(&j, i ? ", %lld" : "%lld", b->edges[i]);
    adds(&j, "], \"cdfs\": [");
    for (uint32_t i = 0; i < b->n_edges; i++) {
        adds(&j, i ? ", [" : "[");
        for (uint32_t k = 0; k < b->lat[i].n; k++) addf(&j, k ? ", %lld" : "%lld", b->lat[i].cdf[k]);
        adds(&j, "]");
    }
    adds(&j, "], \"cdf_lengths\": [");
    for (uint32_t i = 0; i < b->n_edges; i++) addf(&j, i ? ", %lld" : "%lld", b->lat[i].n);
    adds(&j, "], \"offsets\": [");
    for (uint32_t i = 0; i < b->n_edges; i++) addf(&j, i ? ", %lld" : "%lld", b->lat[i].offset);
    adds(&j, "], \"note\": \"other members are ignored\"}");
    wim1gen_add_u32(&x, (uint32_t)j.len);
    wim1gen_add(&x, j.b, j.len);
    free(j.b);
    return x;
}

static void run_net(const wai_kernels *k, const wai_model *m, uint32_t c, uint32_t h, uint32_t w,
                    const int64_t *in, int64_t *out) {
    wai_plan p;
    wai_sums s;
    if (wai_plan_model(NULL, m, c, h, w, &p) != WAI_ok || wai_sums_compute(NULL, m, &s) != WAI_ok)
        die("plan");
    if (wai_network_run(NULL, k, m, &s, &p, in, out) != WAI_ok) die("network");
    wai_sums_free(NULL, &s);
    wai_plan_free(NULL, &p);
}

static int32_t pick(uint64_t *rng, const wim1gen_table *t) {
    if (netgen_below(rng, 16) == 0) return t->offset + (int32_t)(t->n - 2) + (int32_t)netgen_below(rng, 40);
    return t->offset + (int32_t)netgen_below(rng, t->n - 2);
}

wic1gen_clip wic1gen_make_clip(const wic1gen_bundle *b, uint32_t n, uint32_t m, uint32_t sh,
                               uint32_t sw, uint32_t cf, uint64_t *rng, const wai_kernels *kernels) {
    wic1gen_clip c;
    memset(&c, 0, sizeof c);
    wai_plan pc, pr;
    if (wai_plan_model(NULL, &b->net[0], cf, sh, sw, &pc) != WAI_ok ||
        wai_plan_model(NULL, &b->net[3], cf, sh, sw, &pr) != WAI_ok)
        die("plan");
    const uint32_t cc = pc.out_c;
    c.n = n, c.h = pr.out_h, c.w = pr.out_w;
    wai_plan_free(NULL, &pc), wai_plan_free(NULL, &pr);
    const size_t pos = (size_t)sh * sw, ny = (size_t)m * pos, nf = (size_t)cf * pos;
    const size_t frame = (size_t)c.h * c.w * 3;
    wai_cdf_table ly[WIM1GEN_MAX_TABLES];
    for (uint32_t i = 0; i < b->n_edges; i++)
        if (wai_cdf_table_init(&ly[i], NULL, b->lat[i].cdf, b->lat[i].n, 8) != WAI_ok) die("lookup");
    int64_t *F = calloc(nf, 8), *x = malloc(8 * (ny + (size_t)cc * pos)), *sm = malloc(16 * ny);
    int64_t *rec = malloc(8 * (size_t)c.h * c.w * 3);
    const wai_cdf_table **tab = malloc(sizeof *tab * ny);
    int32_t *sym = malloc(4 * ny), *off = malloc(4 * ny);
    c.rgb = malloc(frame * n);
    c.frames = calloc(n, sizeof *c.frames);
    if (!F || !x || !sm || !rec || !tab || !sym || !off || !c.rgb || !c.frames) die("memory");
    for (uint32_t f = 0; f < n; f++) {
        run_net(kernels, &b->net[0], cf, sh, sw, F, x + ny);           /* C = ctx(F) */
        run_net(kernels, &b->net[1], cc, sh, sw, x + ny, sm);          /* sigma || mu */
        for (size_t p = 0; p < ny; p++) {
            uint32_t bk = wai_bucket(sm[p], b->edges, b->n_edges);
            tab[p] = &ly[bk], off[p] = b->lat[bk].offset, sym[p] = pick(rng, &b->lat[bk]);
            if (wai_dequantize(sym[p], b->afrac, sm[ny + p], &x[p]) != WAI_ok) die("E2");
        }
        uint8_t *stream;
        size_t slen;
        if (wai_rans_encode(NULL, NULL, tab, off, 0, sym, ny, &stream, &slen) != WAI_ok) die("encode");
        run_net(kernels, &b->net[2], m + cc, sh, sw, x, F);            /* F' = dec(concat(y, C)) */
        run_net(kernels, &b->net[3], cf, sh, sw, F, rec);             /* the frame */
        for (size_t i = 0; i < (size_t)c.h * c.w; i++)
            for (size_t ch = 0; ch < 3; ch++)
                c.rgb[f * frame + 3 * i + ch] = wai_rgb8_step(rec[ch * (size_t)c.h * c.w + i], b->afrac);
        /* The WCF1 frame. */
        wim1gen_buf *w = &c.frames[f];
        const uint8_t head[8] = {'W', 'C', 'F', '1', 1, f ? 1 : 0, 0, 0};
        wim1gen_add(w, head, 8);
        const uint32_t fields[6] = {c.h, c.w, m, sh, sw, cf};
        for (int i = 0; i < 6; i++) wim1gen_add_u32(w, fields[i]);
        wim1gen_add_u32(w, (uint32_t)slen);
        wim1gen_add(w, stream, slen);
        free(stream);
    }
    wim1gen_buf clip = {NULL, 0, 0};
    const uint8_t head[8] = {'W', 'I', 'C', '1', 1, 0, 0, 0};
    wim1gen_add(&clip, head, 8);
    wim1gen_add_u32(&clip, n);
    for (uint32_t f = 0; f < n; f++) {
        wim1gen_add_u32(&clip, (uint32_t)c.frames[f].len);
        wim1gen_add(&clip, c.frames[f].b, c.frames[f].len);
    }
    c.clip = clip.b, c.len = clip.len;
    for (uint32_t i = 0; i < b->n_edges; i++) wai_cdf_table_free(&ly[i], NULL);
    free(F), free(x), free(sm), free(rec), free(tab), free(sym), free(off);
    return c;
}

wai_status wic1gen_decode_group(const wic1gen_bundle *b, const wim1gen_buf *const *frames,
                                uint32_t n, const wai_kernels *kernels, uint8_t *rgb,
                                uint32_t *n_out) {
    *n_out = 0;
    const uint8_t *h0 = frames[0]->b;
    const uint32_t H = wai_load_u32le(h0 + 8), W = wai_load_u32le(h0 + 12);
    const uint32_t m = wai_load_u32le(h0 + 16), sh = wai_load_u32le(h0 + 20);
    const uint32_t sw = wai_load_u32le(h0 + 24), cf = wai_load_u32le(h0 + 28);
    wai_plan pc;
    if (wai_plan_model(NULL, &b->net[0], cf, sh, sw, &pc) != WAI_ok) die("plan");
    const uint32_t cc = pc.out_c;
    wai_plan_free(NULL, &pc);
    const size_t pos = (size_t)sh * sw, ny = (size_t)m * pos, nf = (size_t)cf * pos;
    const size_t frame = (size_t)H * W * 3;
    wai_cdf_table ly[WIM1GEN_MAX_TABLES];
    for (uint32_t i = 0; i < b->n_edges; i++)
        if (wai_cdf_table_init(&ly[i], NULL, b->lat[i].cdf, b->lat[i].n, 8) != WAI_ok) die("lookup");
    int64_t *F = calloc(nf, 8), *x = malloc(8 * (ny + (size_t)cc * pos)), *sm = malloc(16 * ny);
    int64_t *rec = malloc(8 * frame);
    if (!F || !x || !sm || !rec) die("memory");
    wai_status st = WAI_ok;
    for (uint32_t f = 0; f < n && st == WAI_ok; f++) {
        const uint8_t *fb = frames[f]->b;
        if (fb[5] == 0) memset(F, 0, 8 * nf);                           /* intra: zero feature */
        run_net(kernels, &b->net[0], cf, sh, sw, F, x + ny);
        run_net(kernels, &b->net[1], cc, sh, sw, x + ny, sm);
        wai_rans_dec d;
        wai_rans_dec_init(&d, fb + 36, wai_load_u32le(fb + 32));
        for (size_t p = 0; p < ny && st == WAI_ok; p++) {
            uint32_t bk = wai_bucket(sm[p], b->edges, b->n_edges);
            int32_t v;
            if ((st = wai_rans_decode(&d, &ly[bk], b->lat[bk].offset, &v)) == WAI_ok)
                st = wai_dequantize(v, b->afrac, sm[ny + p], &x[p]);
        }
        if (st == WAI_ok) st = wai_rans_end_canonical(&d);
        if (st != WAI_ok) break;
        run_net(kernels, &b->net[2], m + cc, sh, sw, x, F);
        run_net(kernels, &b->net[3], cf, sh, sw, F, rec);
        for (size_t i = 0; i < (size_t)H * W; i++)
            for (size_t ch = 0; ch < 3; ch++)
                rgb[f * frame + 3 * i + ch] = wai_rgb8_step(rec[ch * (size_t)H * W + i], b->afrac);
        ++*n_out;
    }
    for (uint32_t i = 0; i < b->n_edges; i++) wai_cdf_table_free(&ly[i], NULL);
    free(F), free(x), free(sm), free(rec);
    return st;
}

void wic1gen_clip_free(wic1gen_clip *c) {
    for (uint32_t f = 0; c->frames && f < c->n; f++) free(c->frames[f].b);
    free(c->frames), free(c->clip), free(c->rgb);
    memset(c, 0, sizeof *c);
}

uint64_t wic1gen_work(const wic1gen_bundle *b, uint32_t n, uint32_t m, uint32_t sh, uint32_t sw,
                      uint32_t cf) {
    wai_plan p[4];
    if (wai_plan_model(NULL, &b->net[0], cf, sh, sw, &p[0]) != WAI_ok) die("plan");
    const uint32_t cc = p[0].out_c;
    if (wai_plan_model(NULL, &b->net[1], cc, sh, sw, &p[1]) != WAI_ok ||
        wai_plan_model(NULL, &b->net[2], m + cc, sh, sw, &p[2]) != WAI_ok ||
        wai_plan_model(NULL, &b->net[3], cf, sh, sw, &p[3]) != WAI_ok)
        die("plan");
    uint64_t w = 0;
    for (int i = 0; i < 4; i++) w += p[i].macs, wai_plan_free(NULL, &p[i]);
    return (uint64_t)n * (w + (uint64_t)m * sh * sw);
}
