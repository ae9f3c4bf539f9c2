/* SPDX-License-Identifier: BSD-2-Clause */
/* See claim.h. The networks are built here, not read from a file: their
 * parameters come from one linear congruential sequence, scaled per layer
 * so that every bound holds with the widths above exercised (the test
 * tests/unit/test_claim.c checks both run on the reference). */
#include "backend/claim.h"

#include <string.h>

#include "common/alloc.h"
#include "backend/network_job.h"
#include "ops/network.h"
#include "ops/plan.h"
#include "ops/synth_convt.h"

#define MAX_W 1024 /* weights of the largest layer */
#define MAX_C 8
#define MAX_OUT 2048

typedef struct kat_layer {
    wai_layer_kind kind;
    uint32_t cin, cout, k, stride, pad, opad;
    int wmax;            /* |weight| or |gamma| below this */
    int mlo, mbits;      /* |mult| in [2^mlo, 2^mlo + 2^mbits) */
    int bbits;           /* |bias| or |beta| below 2^bbits */
    int64_t slope;
    uint32_t lshift;
} kat_layer;

typedef struct kat_net {
    int dims;
    uint32_t afrac, gf, shift;
    uint32_t c, h, w;    /* the input */
    int xbits;           /* |x| below 2^xbits, a third of them small */
    uint32_t n_layers;
    kat_layer layers[7];
} kat_net;

static const kat_net nets[2] = {
    {2, 16, 16, 20, 3, 5, 6, 30, 7,
     {{WAI_LAYER_CONV, 3, 4, 3, 1, 1, 0, 200, 14, 2, 24, 0, 0},
      {WAI_LAYER_CONV_T, 4, 4, 5, 2, 2, 1, 100, 12, 1, 24, 0, 0},
      {WAI_LAYER_IGDN, 4, 4, 0, 0, 0, 0, 4096, 0, 0, 40, 0, 0},
      {WAI_LAYER_RELU, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {WAI_LAYER_CONV, 4, 3, 3, 2, 1, 0, 4, 0, 2, 30, 0, 0},
      {WAI_LAYER_LEAKY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -45875, 16},
      {WAI_LAYER_CONV_T, 3, 3, 3, 1, 1, 0, 100, 16, 2, 30, 0, 0}}},
    {1, 16, 20, 20, 2, 1, 9, 30, 3,
     {{WAI_LAYER_CONV_T, 2, 3, 4, 2, 1, 0, 300, 12, 2, 34, 0, 0},
      {WAI_LAYER_IGDN, 3, 3, 0, 0, 0, 0, 4096, 0, 0, 40, 0, 0},
      {WAI_LAYER_CONV_T, 3, 2, 3, 1, 1, 1, 8, 3, 2, 30, 0, 0}}},
};

/* int_synth's chain (kind 5): three layers on [3, 4, 4], the last two
 * shifts at 20 (with ReLU) and 64 (every value 0 or -1). */
#define SYNTH_LAYERS 3
#define SYNTH_C 3
#define SYNTH_N 4
static const struct {
    uint32_t in, out, k, stride, pad, opad, shift;
    int relu, wbits;
} synth_layers[SYNTH_LAYERS] = {
    {3, 4, 3, 2, 1, 1, 10, 0, 20},
    {4, 4, 4, 1, 2, 1, 20, 1, 8},
    {4, 3, 3, 2, 1, 0, 64, 0, 12},
};

/* The sequence: x' = x·6364136223846793005 + 1442695040888963407 (mod
 * 2^64), its top 31 bits taken. */
static uint32_t next(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

/* A value of magnitude below 2^bits (bits <= 62), either sign. */
static int64_t value(uint64_t *s, int bits) {
    uint64_t m = ((uint64_t)next(s) << 31 | next(s)) & ((UINT64_C(1) << bits) - 1);
    return next(s) & 1 ? -(int64_t)m : (int64_t)m;
}

/* The storage of one built network. */
typedef struct kat_model {
    wai_model m;
    wai_layer layers[7];
    int16_t w[7][MAX_W];
    int64_t mult[7][MAX_C], bias[7][MAX_C];
    int32_t gamma[7][MAX_C * MAX_C];
    int64_t beta[7][MAX_C];
    int64_t x[MAX_OUT];
    size_t nx;
} kat_model;

static void build(const kat_net *n, kat_model *k) {
    uint64_t s = 0x5741495f4b415431u + (uint64_t)n->dims; /* "WAI_KAT1" */
    memset(k, 0, sizeof *k);
    k->m.dims = n->dims, k->m.afrac = n->afrac, k->m.gf = n->gf, k->m.shift = n->shift;
    k->m.n_layers = n->n_layers, k->m.layers = k->layers;
    for (uint32_t i = 0; i < n->n_layers; i++) {
        const kat_layer *d = &n->layers[i];
        wai_layer *l = &k->layers[i];
        l->kind = d->kind, l->cin = d->cin, l->cout = d->cout, l->k = d->k;
        l->stride = d->stride, l->pad = d->pad, l->opad = d->opad;
        l->slope = d->slope, l->lshift = d->lshift;
        if (d->kind == WAI_LAYER_CONV || d->kind == WAI_LAYER_CONV_T) {
            l->n_weights = wai_layer_weight_count(l, n->dims);
            l->weights = k->w[i], l->mult = k->mult[i], l->bias = k->bias[i];
            for (uint64_t j = 0; j < l->n_weights; j++)
                k->w[i][j] = (int16_t)((int)(next(&s) % (2u * (unsigned)d->wmax - 1)) - d->wmax + 1);
            for (uint32_t o = 0; o < l->cout; o++) {
                int64_t mag = ((int64_t)1 << d->mlo) + (int64_t)(next(&s) & ((1u << d->mbits) - 1));
                k->mult[i][o] = o % 3 == 2 ? -mag : mag;
                k->bias[i][o] = value(&s, d->bbits);
            }
        } else if (d->kind == WAI_LAYER_IGDN) {
            l->c = d->cin, l->gamma = k->gamma[i], l->beta = k->beta[i];
            for (uint32_t r = 0; r < l->c; r++) {
                for (uint32_t c = 0; c < l->c; c++) {
                    int32_t g = (int32_t)(next(&s) % (uint32_t)d->wmax);
                    /* A positive diagonal, off-diagonal terms of either sign:
                     * most n positive, some negative (their root is 0). */
                    k->gamma[i][r * l->c + c] = r == c ? g + d->wmax : (next(&s) & 1 ? -g : g);
                }
                k->beta[i][r] = value(&s, d->bbits);
            }
        }
    }
    k->nx = (size_t)n->c * n->h * n->w;
    for (size_t j = 0; j < k->nx; j++)
        k->x[j] = value(&s, j % 3 == 0 ? 12 : n->xbits);
    k->x[1] = 0;
}

/* Plans and sums k's network; runs it on ex (the reference kernels, or the
 * backend it is bound to) into out. */
static wai_status run(const wai_exec *ex, const kat_net *n, kat_model *k, int64_t *out,
                      size_t *count) {
    const wai_allocator *a = ex->alloc;
    wai_plan p;
    wai_sums sums;
    memset(&sums, 0, sizeof sums);
    wai_status st = wai_plan_model(a, &k->m, n->c, n->h, n->w, &p);
    if (st == WAI_ok) st = wai_sums_compute(a, &k->m, &sums);
    if (st == WAI_ok && p.out_elems > MAX_OUT) st = WAI_invalid_argument;
    if (st == WAI_ok) {
        *count = (size_t)p.out_elems;
        st = wai_backend_network(ex, &wai_kernels_ref, &k->m, &sums, &p, k->x, out);
    }
    wai_sums_free(a, &sums);
    wai_plan_free(a, &p);
    return st;
}

/* The storage of the built chain and its input. */
typedef struct kat_synth {
    wai_synth_model m;
    wai_synth_layer layers[SYNTH_LAYERS];
    int32_t w[SYNTH_LAYERS][4 * 4 * 16];
    int32_t bias[SYNTH_LAYERS][4];
    int64_t x[SYNTH_C * SYNTH_N * SYNTH_N];
    int64_t buf[2][1024]; /* a layer's output: at most 4 channels of 15 x 15 */
} kat_synth;

static void build_synth(kat_synth *k) {
    uint64_t s = 0x5741495f53594e31u; /* "WAI_SYN1" */
    memset(k, 0, sizeof *k);
    k->m.n_layers = SYNTH_LAYERS, k->m.layers = k->layers;
    for (uint32_t i = 0; i < SYNTH_LAYERS; i++) {
        wai_synth_layer *l = &k->layers[i];
        l->in = synth_layers[i].in, l->out = synth_layers[i].out, l->k = synth_layers[i].k;
        l->stride = synth_layers[i].stride, l->pad = synth_layers[i].pad;
        l->out_pad = synth_layers[i].opad, l->shift = synth_layers[i].shift;
        l->relu = synth_layers[i].relu, l->weight = k->w[i], l->bias = k->bias[i];
        for (uint32_t j = 0; j < l->in * l->out * l->k * l->k; j++)
            k->w[i][j] = (int32_t)value(&s, synth_layers[i].wbits);
        for (uint32_t o = 0; o < l->out; o++) k->bias[i][o] = (int32_t)value(&s, 30);
    }
    for (size_t j = 0; j < SYNTH_C * SYNTH_N * SYNTH_N; j++) k->x[j] = value(&s, 30);
}

/* The chain on the reference (ops/synth_convt.c), layer by layer, or on the
 * backend ex is bound to; its output's count in *count. */
static wai_status run_synth(const wai_exec *ex, kat_synth *k, int64_t *out, size_t *count) {
    uint64_t n = SYNTH_N;
    for (uint32_t i = 0; i < SYNTH_LAYERS; i++) n = wai_synth_out_side(&k->layers[i], n);
    *count = (size_t)(3 * n * n);
    /* The two buffers as one room: each layer's input and output side by side. */
    int64_t *room = &k->buf[0][0];
    memcpy(room, k->x, sizeof k->x);
    wai_status st = wai_backend_synth(ex, &k->m, SYNTH_C, SYNTH_N, room, sizeof k->buf / 8, &n);
    if (st == WAI_ok) memcpy(out, room, *count * sizeof *out);
    return st;
}

wai_status wai_claim_reference(const wai_allocator *a, int n, int64_t *out, size_t *count) {
    if (n == 2) {
        kat_synth *k = wai_alloc(a, sizeof *k);
        if (!k) return WAI_out_of_memory;
        build_synth(k);
        const wai_exec ex = {.alloc = a};
        wai_status st = run_synth(&ex, k, out, count);
        wai_free(a, k);
        return st;
    }
    if (n < 0 || n > 2) return WAI_invalid_argument;
    kat_model *k = wai_alloc(a, sizeof *k);
    if (!k) return WAI_out_of_memory;
    build(&nets[n], k);
    const wai_exec ex = {.alloc = a};
    wai_status st = run(&ex, &nets[n], k, out, count);
    wai_free(a, k);
    return st;
}

wai_status wai_claim_check(const wai_exec *ex, const wai_backend_ops *desc, void *self) {
    const wai_allocator *a = ex->alloc;
    kat_model *k = wai_alloc(a, sizeof *k);
    int64_t *want = wai_alloc_array(a, 2 * MAX_OUT, sizeof *want);
    if (!k || !want) {
        wai_free(a, k);
        wai_free(a, want);
        return WAI_out_of_memory;
    }
    int64_t *got = want + MAX_OUT;
    const wai_backend_binding of = {desc, self, NULL, a};
    const wai_exec cpu = {.alloc = a};
    const wai_exec on = {.alloc = a, .backend = &of};
    wai_status st = WAI_ok;
    for (int i = 0; i < 2 && st == WAI_ok; i++) {
        size_t nw = 0, ng = 0;
        build(&nets[i], k);
        st = run(&cpu, &nets[i], k, want, &nw);
        if (st != WAI_ok) break;
        memset(got, 0, MAX_OUT * sizeof *got);
        st = run(&on, &nets[i], k, got, &ng);
        if (st == WAI_out_of_memory) break;
        if (st != WAI_ok || ng != nw || memcmp(got, want, nw * sizeof *got) != 0)
            st = WAI_dispatch_backend_failed;
    }
    /* int_synth's chain: its own layers, the same comparison. */
    kat_synth *ks = st == WAI_ok ? wai_alloc(a, sizeof *ks) : NULL;
    if (st == WAI_ok && !ks) st = WAI_out_of_memory;
    if (ks) {
        size_t nw = 0, ng = 0;
        build_synth(ks);
        st = run_synth(&cpu, ks, want, &nw);
        memset(got, 0, MAX_OUT * sizeof *got);
        if (st == WAI_ok) st = run_synth(&on, ks, got, &ng);
        if (st != WAI_ok && st != WAI_out_of_memory) st = WAI_dispatch_backend_failed;
        if (st == WAI_ok && (ng != nw || memcmp(got, want, nw * sizeof *got) != 0))
            st = WAI_dispatch_backend_failed;
        wai_free(a, ks);
    }
    wai_free(a, k);
    wai_free(a, want);
    return st;
}
