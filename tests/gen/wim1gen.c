/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1 payloads and WMB1 bundles made the way the spec's reference vectors
 * were (integer-payloads §14): seeded networks (netgen.h), tables, and every
 * symbol picked and encoded with the library's rANS encoder while the
 * decode's own procedure runs beside it: z, h_s, then for each slice and
 * checkerboard pass the entropy network on the partly decoded y, a bucket
 * and a table per element; g_s for the picture the payload decodes to.
 * Shared by the corpus generator (tests/corpus/gen_wim1.c) and the
 * benchmark (bench/bench_wim1.c). The networks run on `kernels` (the
 * reference loops for the corpus, the fast ones for large benchmarks). */
#include "gen/wim1gen.h"

#include <stdarg.h>
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
    fprintf(stderr, "wim1gen: %s\n", what);
    exit(1);
}

/* ---- a growing buffer -------------------------------------------------------------- */


void wim1gen_add(wim1gen_buf *x, const void *p, size_t n) {
    if (x->len + n > x->cap) {
        x->cap = (x->len + n) * 2 + 256;
        if (!(x->b = realloc(x->b, x->cap))) die("memory");
    }
    memcpy(x->b + x->len, p, n);
    x->len += n;
}

static void addf(wim1gen_buf *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(wim1gen_buf *x, const char *fmt, ...) {
    char t[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof t) die("format");
    wim1gen_add(x, t, (size_t)n);
}

void wim1gen_add_u32(wim1gen_buf *x, uint32_t v) {
    uint8_t b[4];
    wai_store_u32le(b, v);
    wim1gen_add(x, b, 4);
}

/* ---- a bundle ------------------------------------------------------------------------- */

void wim1gen_random_table(uint64_t *rng, wim1gen_table *t, uint32_t n) {
    t->n = n;
    t->offset = -(int32_t)(n / 2);
    t->cdf[0] = 0;
    t->cdf[n - 1] = WAI_CDF_TOTAL;
    for (uint32_t i = 1; i + 1 < n; i++) {
        uint32_t lo = t->cdf[i - 1] + 1, room = WAI_CDF_TOTAL - (n - 1 - i) - lo;
        t->cdf[i] = lo + (uint32_t)netgen_below(rng, room / 4 + 1);
    }
}

void wim1gen_make_bundle(wim1gen_bundle *b, uint64_t seed, uint64_t *rng, uint32_t cz, uint32_t cy,
                         uint32_t mid, uint32_t emid, uint32_t gs_convt, int same) {
    memset(b, 0, sizeof *b);
    b->afrac = 10;
    if (same) {
        netgen_spec s = {WAI_LAYER_CONV, cz, 2 * cy, 1, 1, 0, 0, 0};
        if (netgen_build(NULL, seed, 2, b->afrac, &s, 1, &b->hs) != WAI_ok) die("h_s");
    } else if (netgen_mbt_hyper(NULL, seed, b->afrac, cz, mid, 2 * cy, &b->hs) != WAI_ok) {
        die("h_s");
    }
    netgen_spec e[3] = {{WAI_LAYER_CONV, 3 * cy, emid, 3, 1, 1, 0, 0},
                        {WAI_LAYER_RELU, 0, 0, 0, 0, 0, 0, 0},
                        {WAI_LAYER_CONV, emid, 2 * cy, 3, 1, 1, 0, 0}};
    if (netgen_build(NULL, seed + 1, 2, b->afrac, e, 3, &b->ent) != WAI_ok) die("entropy");
    if (netgen_bmshj(NULL, seed + 2, b->afrac, cy, mid, 3, gs_convt, &b->gs) != WAI_ok) die("g_s");
    b->n_edges = 5;
    for (uint32_t i = 0; i < b->n_edges; i++) {
        b->edges[i] = ((int64_t)i - 2) * ((int64_t)1 << (b->afrac + 2));
        wim1gen_random_table(rng, &b->lat[i], 3 + (uint32_t)netgen_below(rng, 30));
    }
    b->n_z = cz + 1;
    if (b->n_z > WIM1GEN_MAX_TABLES) die("too many z tables");
    for (uint32_t i = 0; i < b->n_z; i++) {
        wim1gen_random_table(rng, &b->z[i], 3 + (uint32_t)netgen_below(rng, 20));
        b->zmed[i] = (int64_t)netgen_below(rng, 64) - 32;
    }
    b->tables_afrac = b->afrac;
}

void wim1gen_bundle_free(wim1gen_bundle *b) {
    wai_model_free(NULL, &b->hs), wai_model_free(NULL, &b->ent), wai_model_free(NULL, &b->gs);
}

static void add_tables(wim1gen_buf *j, const wim1gen_table *t, uint32_t n, const char *cdfs, const char *lens,
                       const char *offs) {
    addf(j, "\"%s\": [", cdfs);
    for (uint32_t i = 0; i < n; i++) {
        addf(j, "%s[", i ? ", " : "");
        for (uint32_t k = 0; k < t[i].n; k++) addf(j, "%s%u", k ? ", " : "", t[i].cdf[k]);
        addf(j, "]");
    }
    addf(j, "], \"%s\": [", lens);
    for (uint32_t i = 0; i < n; i++) addf(j, "%s%u", i ? ", " : "", t[i].n);
    addf(j, "], \"%s\": [", offs);
    for (uint32_t i = 0; i < n; i++) addf(j, "%s%d", i ? ", " : "", t[i].offset);
    addf(j, "], ");
}

/* The tables section: entropy.json's members and afrac. */
static wim1gen_buf tables_text(const wim1gen_bundle *b) {
    wim1gen_buf j = {NULL, 0, 0};
    addf(&j, "{\"afrac\": %lld, \"scale_edges\": [", (long long)b->tables_afrac);
    for (uint32_t i = 0; i < b->n_edges; i++) addf(&j, "%s%lld", i ? ", " : "", (long long)b->edges[i]);
    addf(&j, "], ");
    add_tables(&j, b->lat, b->n_edges, "cdfs", "cdf_lengths", "offsets");
    add_tables(&j, b->z, b->n_z, "z_cdfs", "z_cdf_lengths", "z_offsets");
    addf(&j, "\"z_median_q\": [");
    for (uint32_t i = 0; i < b->n_z; i++) addf(&j, "%s%lld", i ? ", " : "", (long long)b->zmed[i]);
    addf(&j, "]}");
    return j;
}

wim1gen_buf wim1gen_bundle_bytes(const wim1gen_bundle *b) {
    wim1gen_buf x = {NULL, 0, 0};
    wim1gen_add(&x, "WMB1", 4);
    const wai_model *nets[3] = {&b->hs, &b->ent, &b->gs};
    for (int i = 0; i < 3; i++) {
        uint8_t *m;
        size_t len;
        if (netgen_bytes(NULL, nets[i], &m, &len) != WAI_ok) die("model bytes");
        wim1gen_add_u32(&x, (uint32_t)len);
        wim1gen_add(&x, m, len);
        free(m);
    }
    wim1gen_buf t = tables_text(b);
    wim1gen_add_u32(&x, (uint32_t)t.len);
    wim1gen_add(&x, t.b, t.len);
    free(t.b);
    return x;
}

/* ---- a payload, and the picture it decodes to -------------------------------------------- */

/* Runs m on the plan the caller made of it (and frees). */
static void run_net(const wai_kernels *k, const wai_model *m, const int64_t *in, int64_t *out,
                    const wai_plan *p) {
    wai_sums s;
    if (wai_sums_compute(NULL, m, &s) != WAI_ok) die("sums");
    if (wai_network_run(NULL, k, m, &s, p, in, out) != WAI_ok) die("network");
    wai_sums_free(NULL, &s);
}

static int32_t pick(uint64_t *rng, const wim1gen_table *t) {
    /* Mostly direct values, sometimes an escape (a value outside 0..n-3). */
    if (t->n == 2 || netgen_below(rng, 16) == 0)
        return t->offset + (int32_t)(t->n - 2) + (int32_t)netgen_below(rng, 40);
    return t->offset + (int32_t)netgen_below(rng, t->n - 2);
}

static uint8_t *encode(const wai_cdf_table *const *t, const int32_t *off, const int32_t *sym,
                       size_t n, size_t *len) {
    uint8_t *out;
    if (wai_rans_encode(NULL, NULL, t, off, 0, sym, n, &out, len) != WAI_ok) die("encode");
    return out;
}

wim1gen_coded wim1gen_make_payload(const wim1gen_bundle *b, const wim1gen_shape *s, uint64_t *rng,
                                   const wai_kernels *kernels) {
    wim1gen_coded c;
    memset(&c, 0, sizeof c);
    wai_cdf_table lz[WIM1GEN_MAX_TABLES], ly[WIM1GEN_MAX_TABLES];
    for (uint32_t i = 0; i < b->n_z; i++)
        if (wai_cdf_table_init(&lz[i], NULL, b->z[i].cdf, b->z[i].n, 8) != WAI_ok) die("lookup");
    for (uint32_t i = 0; i < b->n_edges; i++)
        if (wai_cdf_table_init(&ly[i], NULL, b->lat[i].cdf, b->lat[i].n, 8) != WAI_ok) die("lookup");
    const size_t nz = (size_t)s->cz * s->zh * s->zw;
    int64_t *z = malloc(8 * nz);
    const wai_cdf_table **tab = malloc(sizeof *tab * nz);
    int32_t *sym = malloc(4 * nz), *off = malloc(4 * nz);
    if (!z || !tab || !sym || !off) die("memory");
    for (size_t i = 0; i < nz; i++) {
        uint32_t ch = (uint32_t)(i / ((size_t)s->zh * s->zw));
        tab[i] = &lz[ch], off[i] = b->z[ch].offset, sym[i] = pick(rng, &b->z[ch]);
        if (wai_dequantize(sym[i], b->afrac, b->zmed[ch], &z[i]) != WAI_ok) die("E2");
    }
    size_t zlen, ylen;
    uint8_t *zs = encode(tab, off, sym, nz, &zlen);
    free(tab), free(sym), free(off);
    /* h_s, then y pass by pass in x = concat(y, hyper). */
    wai_plan ph, pe, pg;
    if (wai_plan_model(NULL, &b->hs, s->cz, s->zh, s->zw, &ph) != WAI_ok) die("plan h_s");
    c.yh = ph.out_h, c.yw = ph.out_w;
    const size_t plane = (size_t)c.yh * c.yw, ny = (size_t)s->cy * plane;
    int64_t *x = calloc(3 * ny, 8), *sm = malloc(8 * 2 * ny);
    tab = malloc(sizeof *tab * ny), sym = malloc(4 * ny), off = malloc(4 * ny);
    if (!x || !sm || !tab || !sym || !off) die("memory");
    run_net(kernels, &b->hs, z, x + ny, &ph);
    size_t n = 0;
    const uint32_t per = s->cy / s->k;
    if (wai_plan_model(NULL, &b->ent, 3 * s->cy, c.yh, c.yw, &pe) != WAI_ok) die("plan entropy");
    for (uint32_t j = 0; j < s->k; j++)
        for (uint32_t pass = 0; pass < 2; pass++) {
            run_net(kernels, &b->ent, x, sm, &pe);
            for (uint32_t ch = j * per; ch < (j + 1) * per; ch++)
                for (uint32_t r = 0; r < c.yh; r++)
                    for (uint32_t col = (r + pass) & 1; col < c.yw; col += 2) {
                        size_t p = (size_t)r * c.yw + col;
                        uint32_t bk = wai_bucket(sm[ch * plane + p], b->edges, b->n_edges);
                        tab[n] = &ly[bk], off[n] = b->lat[bk].offset, sym[n] = pick(rng, &b->lat[bk]);
                        if (wai_dequantize(sym[n], b->afrac, sm[(s->cy + ch) * plane + p],
                                           &x[ch * plane + p]) != WAI_ok)
                            die("E2");
                        n++;
                    }
        }
    wai_plan_free(NULL, &pe);
    uint8_t *ys = encode(tab, off, sym, n, &ylen);
    if (wai_plan_model(NULL, &b->gs, s->cy, c.yh, c.yw, &pg) != WAI_ok) die("plan g_s");
    int64_t *g = malloc(8 * (size_t)pg.out_elems);
    if (!g) die("memory");
    run_net(kernels, &b->gs, x, g, &pg);
    c.h = pg.out_h, c.w = pg.out_w;
    const size_t hw = (size_t)c.h * c.w;
    if (!(c.rgb = malloc(3 * hw))) die("memory");
    for (size_t i = 0; i < hw; i++)
        for (size_t ch = 0; ch < 3; ch++) c.rgb[3 * i + ch] = wai_rgb8_step(g[ch * hw + i], b->afrac);
    /* The payload. */
    wim1gen_buf p = {NULL, 0, 0};
    wim1gen_add(&p, "WIM1", 4);
    wim1gen_add_u32(&p, c.h), wim1gen_add_u32(&p, c.w);
    const uint16_t f[8] = {(uint16_t)s->cz, (uint16_t)s->zh, (uint16_t)s->zw, (uint16_t)s->cy,
                           (uint16_t)c.yh, (uint16_t)c.yw, (uint16_t)s->k, 0};
    for (int i = 0; i < 8; i++) {
        uint8_t t2[2];
        wai_store_u16le(t2, f[i]);
        wim1gen_add(&p, t2, 2);
    }
    wim1gen_add_u32(&p, (uint32_t)zlen), wim1gen_add_u32(&p, (uint32_t)ylen);
    wim1gen_add(&p, zs, zlen), wim1gen_add(&p, ys, ylen);
    c.payload = p.b, c.len = p.len, c.lz = zlen;
    for (uint32_t i = 0; i < b->n_z; i++) wai_cdf_table_free(&lz[i], NULL);
    for (uint32_t i = 0; i < b->n_edges; i++) wai_cdf_table_free(&ly[i], NULL);
    wai_plan_free(NULL, &ph), wai_plan_free(NULL, &pg);
    free(z), free(x), free(sm), free(tab), free(sym), free(off), free(g), free(zs), free(ys);
    return c;
}

uint64_t wim1gen_work(const wim1gen_bundle *b, const wim1gen_shape *s, const wim1gen_coded *c) {
    wai_plan ph, pe, pg;
    if (wai_plan_model(NULL, &b->hs, s->cz, s->zh, s->zw, &ph) != WAI_ok ||
        wai_plan_model(NULL, &b->ent, 3 * s->cy, c->yh, c->yw, &pe) != WAI_ok ||
        wai_plan_model(NULL, &b->gs, s->cy, c->yh, c->yw, &pg) != WAI_ok)
        die("plan");
    uint64_t w = ph.macs + 2 * (uint64_t)s->k * pe.macs + pg.macs +
                 (uint64_t)s->cz * s->zh * s->zw + (uint64_t)s->cy * c->yh * c->yw;
    wai_plan_free(NULL, &ph), wai_plan_free(NULL, &pe), wai_plan_free(NULL, &pg);
    return w;
}
