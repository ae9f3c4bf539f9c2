/* SPDX-License-Identifier: BSD-2-Clause */
/* Synthetic networks (see netgen.h). */
#include "gen/netgen.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "formats/whm1.h"
#include "ops/bounds.h"
#include "gen/set_write.h"
#include "write/payloads.h"

/* ---- random numbers ------------------------------------------------------- */

uint64_t netgen_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t netgen_below(uint64_t *state, uint64_t n) { return n ? netgen_next(state) % n : 0; }

/* Uniform in [-r, r], r <= 2^62. */
static int64_t sym(uint64_t *st, uint64_t r) {
    return (int64_t)netgen_below(st, 2 * r + 1) - (int64_t)r;
}

/* A random value of random bit width 0..64, with its sign: small values and
 * the full range are both common. */
static uint64_t rnd_width(uint64_t *st) {
    unsigned bits = (unsigned)netgen_below(st, 65);
    uint64_t v = netgen_next(st);
    return bits == 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

/* INT64_MIN, INT64_MAX or -INT64_MAX one time in eight each (the edges of
 * every bound), else a signed value of random width. */
static int64_t rnd_i64_extreme(uint64_t *st) {
    switch (netgen_below(st, 8)) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    case 2: return -INT64_MAX;
    default: break;
    }
    uint64_t v = rnd_width(st) >> 1; /* < 2^63 */
    return (netgen_next(st) & 1) ? -(int64_t)v : (int64_t)v;
}

static int16_t rnd_i16_extreme(uint64_t *st) {
    switch (netgen_below(st, 8)) {
    case 0: return INT16_MIN;
    case 1: return INT16_MAX;
    default: return (int16_t)((int64_t)netgen_below(st, 65536) - 32768);
    }
}

static int32_t rnd_i32_extreme(uint64_t *st) {
    switch (netgen_below(st, 8)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    default: break;
    }
    unsigned bits = (unsigned)netgen_below(st, 32);
    int64_t v = (int64_t)(netgen_next(st) & (((uint64_t)1 << bits) - 1));
    return (int32_t)((netgen_next(st) & 1) ? -v : v);
}

/* ---- models laid out as the parser lays them out ------------------------- */

static uint64_t round8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* The block's bytes for one layer's arrays. */
static uint64_t layer_bytes(const wai_layer *l, int dims) {
    if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV)
        return round8(2 * wai_layer_weight_count(l, dims)) + 16 * (uint64_t)l->cout;
    if (l->kind == WAI_LAYER_IGDN)
        return round8(4 * (uint64_t)l->c * l->c) + 8 * (uint64_t)l->c;
    return 0;
}

/* Allocates out's block for the layer heads in `heads` (kind and geometry
 * set) and points every array into it; the arrays are zero. */
static wai_status alloc_model(const wai_allocator *a, int dims, const wai_layer *heads,
                              uint32_t n, wai_model *out) {
    memset(out, 0, sizeof *out);
    uint64_t total = round8(sizeof(wai_layer)) * n;
    for (uint32_t i = 0; i < n; i++) total += layer_bytes(&heads[i], dims);
    if (!wai_fits_size(total)) return WAI_out_of_memory;
    uint8_t *block = total ? wai_alloc_zeroed(a, 1, (size_t)total) : NULL;
    if (total && !block) return WAI_out_of_memory;
    out->dims = dims;
    out->n_layers = n;
    out->storage = block;
    out->layers = n ? (wai_layer *)(void *)block : NULL;
    uint8_t *at = block ? block + (size_t)round8(sizeof(wai_layer)) * n : NULL;
    for (uint32_t i = 0; i < n; i++) {
        wai_layer *l = &out->layers[i];
        *l = heads[i];
        l->weights = NULL;
        l->mult = l->bias = l->beta = NULL;
        l->gamma = NULL;
        if (l->kind == WAI_LAYER_CONV_T || l->kind == WAI_LAYER_CONV) {
            l->n_weights = wai_layer_weight_count(l, dims);
            l->weights = (int16_t *)(void *)at;
            at += round8(2 * l->n_weights);
            l->mult = (int64_t *)(void *)at;
            at += 8 * (size_t)l->cout;
            l->bias = (int64_t *)(void *)at;
            at += 8 * (size_t)l->cout;
        } else if (l->kind == WAI_LAYER_IGDN) {
            l->gamma = (int32_t *)(void *)at;
            at += round8(4 * (uint64_t)l->c * l->c);
            l->beta = (int64_t *)(void *)at;
            at += 8 * (size_t)l->c;
        }
    }
    return WAI_ok;
}

static wai_layer head_of(const netgen_spec *sp) {
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = sp->kind;
    l.cin = sp->cin;
    l.cout = sp->cout;
    l.k = sp->k;
    l.stride = sp->stride;
    l.pad = sp->pad;
    l.opad = sp->opad;
    l.c = sp->c;
    return l;
}

/* ---- realistic networks ---------------------------------------------------- */

static uint64_t isqrt_u64(uint64_t n) {
    uint64_t r = 0;
    for (int b = 31; b >= 0; b--) {
        uint64_t t = r | ((uint64_t)1 << b);
        if (t * t <= n) r = t;
    }
    return r;
}

static unsigned bit_length(uint64_t v) {
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* Q_o = isqrt(sum of W² over output o's taps), over stride^dims for a
 * transposed convolution, whose each output position meets only about
 * that share of the taps. Small models only: the sum of at most 2^30 per
 * weight over cin·k·k taps stays far below 2^64. */
static uint64_t q_of(const wai_layer *l, int dims, uint32_t o) {
    uint64_t taps = dims == 1 ? l->k : (uint64_t)l->k * l->k, sq = 0;
    for (uint32_t i = 0; i < l->cin; i++)
        for (uint64_t t = 0; t < taps; t++) {
            uint64_t idx = l->kind == WAI_LAYER_CONV ? ((uint64_t)o * l->cin + i) * taps + t
                                                     : ((uint64_t)i * l->cout + o) * taps + t;
            int64_t w = l->weights[idx];
            sq += (uint64_t)(w * w);
        }
    if (l->kind == WAI_LAYER_CONV_T) sq /= dims == 1 ? l->stride : (uint64_t)l->stride * l->stride;
    return isqrt_u64(sq);
}

wai_status netgen_build(const wai_allocator *a, uint64_t seed, int dims, uint32_t afrac,
                        const netgen_spec *specs, uint32_t n_specs, wai_model *out) {
    memset(out, 0, sizeof *out);
    if ((dims != 1 && dims != 2) || afrac < 8 || afrac > 16 || n_specs > 64)
        return WAI_invalid_argument;
    wai_layer heads[64];
    for (uint32_t i = 0; i < n_specs; i++) {
        wai_layer_kind kd = specs[i].kind;
        if (dims == 1 && kd != WAI_LAYER_CONV_T && kd != WAI_LAYER_IGDN)
            return WAI_invalid_argument;
        heads[i] = head_of(&specs[i]);
    }
    wai_status st = alloc_model(a, dims, heads, n_specs, out);
    if (st != WAI_ok) return st;
    out->afrac = afrac;
    out->gf = 16;
    uint64_t rs = seed;

    /* Weights first: the shift depends on every layer's Q_o. */
    uint64_t qmax = 1;
    uint32_t last_conv = n_specs;
    for (uint32_t i = 0; i < n_specs; i++) {
        wai_layer *l = &out->layers[i];
        if (l->kind != WAI_LAYER_CONV_T && l->kind != WAI_LAYER_CONV) continue;
        last_conv = i;
        for (uint64_t j = 0; j < l->n_weights; j++)
            l->weights[j] = (int16_t)((int64_t)netgen_below(&rs, 65536) - 32768);
        for (uint32_t o = 0; o < l->cout; o++) {
            uint64_t q = q_of(l, dims, o);
            if (q > qmax) qmax = q;
        }
    }
    out->shift = 16 + bit_length(qmax);

    for (uint32_t i = 0; i < n_specs; i++) {
        wai_layer *l = &out->layers[i];
        switch (l->kind) {
        case WAI_LAYER_CONV_T:
        case WAI_LAYER_CONV: {
            int last = i == last_conv && i + 1 == n_specs;
            for (uint32_t o = 0; o < l->cout; o++) {
                uint64_t q = q_of(l, dims, o);
                /* round(2^shift / Q_o), a sixteenth of it on the last
                 * layer; 2^shift <= 2^(16+33) keeps everything in 64 bits. */
                uint64_t den = q ? q : 1;
                if (last) den *= 16;
                l->mult[o] = (int64_t)((((uint64_t)1 << out->shift) + den / 2) / den);
                int64_t b = sym(&rs, (uint64_t)1 << (afrac - 2));
                l->bias[o] = last ? b / 2 + ((int64_t)1 << (afrac - 1)) : b;
            }
            break;
        }
        case WAI_LAYER_IGDN: {
            uint64_t gmax = ((uint64_t)1 << out->gf) / (64 * (uint64_t)l->c);
            for (uint64_t j = 0; j < (uint64_t)l->c * l->c; j++)
                l->gamma[j] = (int32_t)netgen_below(&rs, gmax + 1);
            for (uint32_t j = 0; j < l->c; j++) l->beta[j] = (int64_t)1 << (2 * afrac);
            break;
        }
        case WAI_LAYER_LEAKY:
            l->lshift = 8;
            l->slope = (int64_t)16 + (int64_t)netgen_below(&rs, 49);
            break;
        case WAI_LAYER_RELU:
            break;
        }
    }
    return WAI_ok;
}

static netgen_spec spec_convt(uint32_t cin, uint32_t cout, uint32_t k, uint32_t s, uint32_t p,
                              uint32_t op) {
    netgen_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = WAI_LAYER_CONV_T;
    sp.cin = cin;
    sp.cout = cout;
    sp.k = k;
    sp.stride = s;
    sp.pad = p;
    sp.opad = op;
    return sp;
}

static netgen_spec spec_conv(uint32_t cin, uint32_t cout, uint32_t k, uint32_t s, uint32_t p) {
    netgen_spec sp = spec_convt(cin, cout, k, s, p, 0);
    sp.kind = WAI_LAYER_CONV;
    return sp;
}

static netgen_spec spec_simple(wai_layer_kind kind, uint32_t c) {
    netgen_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.kind = kind;
    sp.c = c;
    return sp;
}

/* convT, IGDN, convT, ..., convT: the bmshj and WAM1 synthesis pattern. */
static wai_status convt_igdn_chain(const wai_allocator *a, uint64_t seed, int dims,
                                   uint32_t afrac, uint32_t cin, uint32_t cmid, uint32_t cout,
                                   uint32_t n_convt, wai_model *out) {
    memset(out, 0, sizeof *out);
    if (n_convt < 1 || n_convt > 32) return WAI_invalid_argument;
    netgen_spec sp[64];
    uint32_t n = 0, c = cin;
    for (uint32_t i = 0; i < n_convt; i++) {
        uint32_t co = i + 1 == n_convt ? cout : cmid;
        sp[n++] = dims == 2 ? spec_convt(c, co, 5, 2, 2, 1) : spec_convt(c, co, 8, 2, 3, 0);
        if (i + 1 < n_convt) sp[n++] = spec_simple(WAI_LAYER_IGDN, co);
        c = co;
    }
    return netgen_build(a, seed, dims, afrac, sp, n, out);
}

wai_status netgen_bmshj(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                        uint32_t cmid, uint32_t cout, uint32_t n_convt, wai_model *out) {
    return convt_igdn_chain(a, seed, 2, afrac, cin, cmid, cout, n_convt, out);
}

wai_status netgen_wam1(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                       uint32_t cmid, uint32_t cout, uint32_t n_convt, wai_model *out) {
    return convt_igdn_chain(a, seed, 1, afrac, cin, cmid, cout, n_convt, out);
}

wai_status netgen_mbt_hyper(const wai_allocator *a, uint64_t seed, uint32_t afrac, uint32_t cin,
                            uint32_t cmid, uint32_t cout, wai_model *out) {
    netgen_spec sp[7] = {
        spec_convt(cin, cmid, 5, 2, 2, 1), spec_simple(WAI_LAYER_RELU, 0),
        spec_conv(cmid, cmid, 3, 1, 1),    spec_simple(WAI_LAYER_LEAKY, 0),
        spec_convt(cmid, cmid, 5, 2, 2, 1), spec_simple(WAI_LAYER_RELU, 0),
        spec_conv(cmid, cout, 3, 1, 1),
    };
    return netgen_build(a, seed, 2, afrac, sp, 7, out);
}

wai_status netgen_bytes(const wai_allocator *a, const wai_model *m, uint8_t **out,
                        size_t *out_len) {
    return wai_model_write(a, m, out, out_len);
}

static int same_arr(const void *x, const void *y, uint64_t bytes) {
    if (bytes == 0) return 1;
    return x && y && memcmp(x, y, (size_t)bytes) == 0;
}

int netgen_model_equal(const wai_model *x, const wai_model *y) {
    if (x->dims != y->dims || x->afrac != y->afrac || x->gf != y->gf || x->shift != y->shift ||
        x->n_layers != y->n_layers)
        return 0;
    for (uint32_t i = 0; i < x->n_layers; i++) {
        const wai_layer *p = &x->layers[i], *q = &y->layers[i];
        if (p->kind != q->kind) return 0;
        switch (p->kind) {
        case WAI_LAYER_CONV_T:
        case WAI_LAYER_CONV:
            if (p->cin != q->cin || p->cout != q->cout || p->k != q->k ||
                p->stride != q->stride || p->pad != q->pad || p->n_weights != q->n_weights ||
                (p->kind == WAI_LAYER_CONV_T && p->opad != q->opad) ||
                !same_arr(p->weights, q->weights, 2 * p->n_weights) ||
                !same_arr(p->mult, q->mult, 8 * (uint64_t)p->cout) ||
                !same_arr(p->bias, q->bias, 8 * (uint64_t)p->cout))
                return 0;
            break;
        case WAI_LAYER_IGDN:
            if (p->c != q->c || !same_arr(p->gamma, q->gamma, 4 * (uint64_t)p->c * p->c) ||
                !same_arr(p->beta, q->beta, 8 * (uint64_t)p->c))
                return 0;
            break;
        case WAI_LAYER_LEAKY:
            if (p->slope != q->slope || p->lshift != q->lshift) return 0;
            break;
        case WAI_LAYER_RELU:
            break;
        }
    }
    return 1;
}

void netgen_input(uint64_t *state, uint32_t afrac, int64_t *x, size_t n) {
    uint64_t r = (uint64_t)8 << afrac;
    for (size_t i = 0; i < n; i++) x[i] = sym(state, r);
}

/* ---- random layers ------------------------------------------------------------ */

static uint32_t in_range(uint64_t *st, uint32_t lo, uint32_t hi) {
    return lo + (uint32_t)netgen_below(st, (uint64_t)hi - lo + 1);
}

wai_status netgen_random_layer(const wai_allocator *a, uint64_t *state, int dims, int kind,
                               wai_model *out, uint32_t *c, uint32_t *h, uint32_t *w) {
    memset(out, 0, sizeof *out);
    if (dims != 1 && dims != 2) return WAI_invalid_argument;
    if (kind < 0) {
        kind = dims == 1 ? (netgen_below(state, 2) ? WAI_LAYER_IGDN : WAI_LAYER_CONV_T)
                         : (int)netgen_below(state, 5);
    }
    if (kind > WAI_LAYER_LEAKY ||
        (dims == 1 && kind != WAI_LAYER_CONV_T && kind != WAI_LAYER_IGDN))
        return WAI_invalid_argument;

    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = (wai_layer_kind)kind;
    uint32_t ch = in_range(state, 1, 16);
    *h = dims == 1 ? 1 : in_range(state, 1, 8);
    *w = in_range(state, 1, dims == 1 ? 16 : 8);
    *c = ch;
    if (kind == WAI_LAYER_CONV || kind == WAI_LAYER_CONV_T) {
        l.cin = ch;
        l.cout = in_range(state, 1, 16);
        l.k = in_range(state, 1, 7);
        l.stride = in_range(state, 1, 3);
        /* A 1-D layer transforms only the length. */
        uint32_t nmin = dims == 1 ? *w : *h < *w ? *h : *w;
        if (kind == WAI_LAYER_CONV) {
            /* k <= n + 2·pad on both sides; pad up to k - 1 as usual. */
            uint32_t need = l.k > nmin ? (l.k - nmin + 1) / 2 : 0;
            l.pad = in_range(state, need, need > l.k - 1 ? need : l.k - 1);
        } else {
            /* The crop 2·pad must stay below the smaller uncropped side. */
            l.opad = in_range(state, 0, l.stride - 1);
            uint32_t un = (nmin - 1) * l.stride + l.k + l.opad;
            uint32_t pmax = (un - 1) / 2;
            l.pad = in_range(state, 0, pmax < l.k - 1 ? pmax : l.k - 1);
        }
    } else if (kind == WAI_LAYER_IGDN) {
        l.c = ch;
    } else if (kind == WAI_LAYER_LEAKY) {
        l.lshift = in_range(state, 0, 63);
        l.slope = rnd_i64_extreme(state);
    }
    wai_status st = alloc_model(a, dims, &l, 1, out);
    if (st != WAI_ok) return st;
    out->afrac = in_range(state, 1, 30);
    out->gf = in_range(state, 0, 127);
    out->shift = in_range(state, 0, 127);
    wai_layer *m = &out->layers[0];
    if (kind == WAI_LAYER_CONV || kind == WAI_LAYER_CONV_T) {
        for (uint64_t j = 0; j < m->n_weights; j++) m->weights[j] = rnd_i16_extreme(state);
        for (uint32_t o = 0; o < m->cout; o++) {
            m->mult[o] = rnd_i64_extreme(state);
            m->bias[o] = rnd_i64_extreme(state);
        }
    } else if (kind == WAI_LAYER_IGDN) {
        for (uint64_t j = 0; j < (uint64_t)m->c * m->c; j++) m->gamma[j] = rnd_i32_extreme(state);
        for (uint32_t j = 0; j < m->c; j++) m->beta[j] = rnd_i64_extreme(state);
    }
    return WAI_ok;
}

/* ---- the exactness bound's edge ---------------------------------------------- */

static int passes(const wai_model *m, const wai_sums *s, uint32_t li, uint64_t a) {
    return wai_bound_layer(&m->layers[li], s->layers[li].sums, m->gf, m->shift, m->afrac, a) ==
           WAI_ok;
}

int netgen_bound_max(const wai_model *m, const wai_sums *s, uint32_t li, uint64_t *amax) {
    const uint64_t top = (uint64_t)1 << 63; /* the largest |x| an i64 has */
    if (!passes(m, s, li, 0)) return 0;
    if (passes(m, s, li, top)) {
        *amax = top;
        return 1;
    }
    /* Every bound grows with A: passes(lo) and !passes(hi) throughout. */
    uint64_t lo = 0, hi = top;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (passes(m, s, li, mid)) lo = mid;
        else hi = mid;
    }
    *amax = lo;
    return 1;
}

/* The value of magnitude v (<= 2^63) with a random sign; 2^63 is only
 * INT64_MIN. */
static int64_t signed_mag(uint64_t *st, uint64_t v) {
    if (v == (uint64_t)1 << 63) return INT64_MIN;
    return (netgen_next(st) & 1) ? -(int64_t)v : (int64_t)v;
}

void netgen_bound_input(uint64_t *state, uint64_t a, int64_t *x, size_t n) {
    if (n == 0) return;
    for (size_t i = 0; i < n; i++) {
        /* Half the values anywhere up to a, half small: both the edge and
         * the common case reach the kernel. */
        uint64_t v = netgen_below(state, a + 1);
        if (netgen_next(state) & 1) v >>= netgen_below(state, 64);
        x[i] = signed_mag(state, v);
    }
    /* Two draws, sequenced: the same values whatever the compiler. */
    size_t at = (size_t)netgen_below(state, n);
    x[at] = signed_mag(state, a);
}

/* ---- layers and models by hand ------------------------------------------- */

wai_layer netgen_layer_plain(wai_layer_kind kind) {
    wai_layer l;
    memset(&l, 0, sizeof l);
    l.kind = kind;
    return l;
}

wai_layer netgen_layer_convt(uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride,
                             uint32_t pad, uint32_t opad, int dims) {
    wai_layer l = netgen_layer_plain(WAI_LAYER_CONV_T);
    l.cin = cin;
    l.cout = cout;
    l.k = k;
    l.stride = stride;
    l.pad = pad;
    l.opad = opad;
    l.n_weights = wai_layer_weight_count(&l, dims);
    return l;
}

wai_layer netgen_layer_conv(uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride,
                            uint32_t pad) {
    wai_layer l = netgen_layer_convt(cin, cout, k, stride, pad, 0, 2);
    l.kind = WAI_LAYER_CONV;
    return l;
}

wai_layer netgen_layer_igdn(uint32_t c) {
    wai_layer l = netgen_layer_plain(WAI_LAYER_IGDN);
    l.c = c;
    return l;
}

wai_layer netgen_layer_leaky(int64_t slope, uint32_t lshift) {
    wai_layer l = netgen_layer_plain(WAI_LAYER_LEAKY);
    l.slope = slope;
    l.lshift = lshift;
    return l;
}

wai_model netgen_model_of(int dims, wai_layer *layers, uint32_t n, uint32_t afrac, uint32_t gf,
                          uint32_t shift) {
    wai_model m;
    memset(&m, 0, sizeof m);
    m.dims = dims;
    m.afrac = afrac;
    m.gf = gf;
    m.shift = shift;
    m.n_layers = n;
    m.layers = layers;
    return m;
}
