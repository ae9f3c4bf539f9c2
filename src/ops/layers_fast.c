/* SPDX-License-Identifier: BSD-2-Clause */
/* Fast (transposed) convolution; see layers_fast.h (the inverse GDN is
 * layers_fast_igdn.c).
 *
 * Both convolutions run as tiles of TW output columns times up to OB output
 * channels. For one output row and tile, each input channel contributes a
 * few "terms": a weight per output channel times a contiguous run of TW
 * input values (copied, zero-padded, into a small row buffer), so the inner
 * loop is a broadcast multiply-add over contiguous memory, which the
 * level's tap loop (ops/cores.h) vectorises. A transposed
 * convolution is computed by gathering: for output phase q (column = t*s+q)
 * the taps kx = q, q+s, ... read input column t - kx/s, contiguous in t, and
 * the rows ky with ky = uy mod s read input row (uy-ky)/s. Nothing goes
 * through the uncropped plane: only the cropped outputs are summed, and each
 * is requantised as soon as its sum is complete.
 *
 * Exactness. Every accumulator, in the tile's valid columns and its spare
 * ones alike, is a sum of products W*x over distinct taps of one output
 * channel, each |x| <= A, so a partial sum over any set of input channels C
 * is at most A * sum over C of that channel's |W|. The bound gives
 * A * S_o <= 2^63 - 1 (i64 holds every partial sum); where A * max S_o
 * < 2^31, i32 holds them too; where only A * T < 2^31, T the largest
 * per-(input, output channel) |W| sum, chunks of floor((2^31-1) / (A*T))
 * input channels are summed in i32 and then added in i64. Integer addition
 * is associative, so the order does not change the result. In i64, the
 * AVX-512 loop multiplies 64-bit lanes (vpmullq); where every x fits i32,
 * AVX2 and AVX-512 use the cheaper 32x32->64 vpmuldq (weights are i16).
 * Which of these runs is chosen per call from A and the sums
 * (choose_mode); the loops are the exec's table (filled once, when the
 * context was created, for the CPU's level: ops/cores.h). */
#include "ops/layers_fast.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/layers_fast_dot.h"

#define TW WAI_TAP_TW
#define G WAI_TAP_G
#define OB WAI_TAP_OB
#define KMAX 8  /* largest k and stride the tiled path takes */
#define NTMAX (KMAX * KMAX) /* terms per input channel (conv_t: rows x taps) */
_Static_assert(NTMAX == WAI_TAP_NTMAX, "a tile's terms are the tap loops' rows");
#define ROWLEN (TW + KMAX)  /* a row buffer: the tile plus (k-1)/s columns */

/* ---- shared checks (as the reference's) ------------------------------------ */

/* ---- the accumulation mode ------------------------------------------------- */

typedef struct acc_mode {
    int narrow;   /* 1: i32 accumulation */
    size_t chunk; /* input channels per i32 chunk (narrow only) */
    const wai_cores *cores; /* the inner loops (ops/cores.h) */
    int x32;      /* A < 2^31: every x fits i32 */
} acc_mode;

/* The fewest input channels per i32 chunk worth the flushes; below it the
 * i64 loop (whose SIMD form multiplies 64-bit lanes) is as fast. Measured:
 * bench/bench_layers.c. */
#define CHUNK_MIN 4

/* Chooses i32 or i64 from A, the S_o and the largest per-(input, output)
 * channel |W| sum (conv2d: weights [cout][cin][taps]; conv_t: [cin][cout]
 * [taps]; either way consecutive blocks of `taps`). */
static acc_mode choose_mode(uint64_t a, const uint64_t *sums, uint32_t cout, const int16_t *wt,
                            size_t blocks, size_t taps, size_t cin, const wai_cores *cores) {
    const uint64_t lim = (uint64_t)INT32_MAX;
    acc_mode m = {0, 0, cores, a <= lim};
    if (a > lim) return m;
    uint64_t smax = 0;
    for (uint32_t o = 0; o < cout; o++)
        if (sums[o] > smax) smax = sums[o];
    /* The bound held, so a * smax <= 2^63 - 1. */
    if (a * smax <= lim) {
        m.narrow = 1;
        m.chunk = cin;
        return m;
    }
    uint64_t tmax = 0;
    for (size_t b = 0; b < blocks; b++) {
        uint64_t t = 0;
        for (size_t j = 0; j < taps; j++) t += wai_abs_i64(wt[b * taps + j]);
        if (t > tmax) tmax = t;
    }
    /* tmax <= smax, and tmax > 0 here (else smax would be 0). */
    uint64_t per = a * tmax;
    if (per <= lim && lim / per >= CHUNK_MIN) {
        m.narrow = 1;
        m.chunk = (size_t)(lim / per);
    }
    return m;
}

/* ---- the tile driver -------------------------------------------------------- */

/* One tile's working set, about 40 KB, on the stack. The unions hold the
 * i32 or the i64 form, whichever the call's mode uses. */
typedef struct tile {
    int64_t acc64[OB * TW];
    int32_t acc32[OB * TW];
    union {
        int64_t w64[OB * NTMAX];
        int32_t w32[OB * NTMAX];
    } w;
    union {
        int64_t r64[KMAX * ROWLEN];
        int32_t r32[KMAX * ROWLEN];
    } rows;
    const int64_t *xp64[NTMAX];
    const int32_t *xp32[NTMAX];
} tile;

/* The tile width for n columns left: up to TW, in whole strips. */
static size_t tile_width(size_t n) { return n >= TW ? TW : (n + G - 1) / G * G; }

static void tile_clear(tile *tl, const acc_mode *md, size_t nob, size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        memset(tl->acc64 + ob * TW, 0, sizeof(int64_t) * tw);
        if (md->narrow) memset(tl->acc32 + ob * TW, 0, sizeof(int32_t) * tw);
    }
}

/* Adds the i32 sums into the i64 ones and clears them. */
static void flush32(tile *tl, size_t nob, size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        int64_t *d = tl->acc64 + ob * TW;
        int32_t *a = tl->acc32 + ob * TW;
        for (size_t t = 0; t < tw; t++) d[t] += a[t];
        memset(a, 0, sizeof(int32_t) * tw);
    }
}

/* Row buffer r, entry m (m < len), gets column (base + m)*step + phase - pad
 * of the input row xr (w values), zero outside [0, w); base may be below 0,
 * so the column is formed in signed 64 bits. */
static void fill_row(tile *tl, size_t r, int narrow, const int64_t *xr, size_t w, int64_t base,
                     size_t step, size_t phase, size_t pad, size_t len) {
    int64_t *d64 = tl->rows.r64 + r * ROWLEN;
    int32_t *d32 = tl->rows.r32 + r * ROWLEN;
    if (step == 1) {
        /* Columns base' + m, base' = base + phase - pad: a copy between two
         * runs of zeros. */
        int64_t b = base + (int64_t)phase - (int64_t)pad;
        size_t lo = b >= 0 ? 0 : (size_t)(-b) < len ? (size_t)(-b) : len;
        size_t hi = b >= (int64_t)w                       ? lo
                    : (size_t)((int64_t)w - b) < len ? (size_t)((int64_t)w - b)
                                                     : len;
        if (hi < lo) hi = lo;
        if (narrow) {
            for (size_t m = 0; m < lo; m++) d32[m] = 0;
            /* |x| <= A < 2^31: the conversion is exact. */
            for (size_t m = lo; m < hi; m++) d32[m] = (int32_t)xr[b + (int64_t)m];
            for (size_t m = hi; m < len; m++) d32[m] = 0;
        } else {
            for (size_t m = 0; m < lo; m++) d64[m] = 0;
            if (hi > lo) memcpy(d64 + lo, xr + (b + (int64_t)lo), sizeof(int64_t) * (hi - lo));
            for (size_t m = hi; m < len; m++) d64[m] = 0;
        }
        return;
    }
    for (size_t m = 0; m < len; m++) {
        int64_t col = (base + (int64_t)m) * (int64_t)step + (int64_t)phase - (int64_t)pad;
        int64_t v = (col >= 0 && (uint64_t)col < w) ? xr[col] : 0;
        if (narrow)
            d32[m] = (int32_t)v; /* exact, as above */
        else
            d64[m] = v;
    }
}

/* Accumulates one input channel's terms (pointers and weights already set). */
static void tile_step(tile *tl, const acc_mode *md, size_t nob, size_t nt, size_t tw) {
    const wai_cores *c = md->cores;
    if (md->narrow)
        c->tap_i32(tl->acc32, nob, tl->xp32, tl->w.w32, nt, tw);
    else
        (md->x32 ? c->tap_i64x32 : c->tap_i64)(tl->acc64, nob, tl->xp64, tl->w.w64, nt, tw);
}

static void set_weight(tile *tl, int narrow, size_t idx, int16_t v) {
    if (narrow)
        tl->w.w32[idx] = v;
    else
        tl->w.w64[idx] = v;
}

/* ---- convolution -------------------------------------------------------------- */

/* One tiled convolution or transposed convolution, shared read-only by its
 * threads. */
typedef struct tiled_job {
    const wai_layer *l;
    uint32_t shift;
    const int64_t *x;
    int64_t *y;
    size_t h, w, oh, ow;
    acc_mode md;
    unsigned nthr;
} tiled_job;

/* A layer's A over its input, then its bound (the refusals come before any
 * thread starts): WAI_ok and *a, or the bound's refusal. */
static wai_status bounded(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                          uint32_t shift, const int64_t *x, size_t n_in, uint64_t *a) {
    *a = wai_exec_max_abs(ex, x, n_in);
    return wai_bound_conv(*a, sums, l->mult, l->bias, l->cout, shift);
}

/* A layer's pair dot path (wai_conv2d_dot, wai_conv_t2d_dot): 1 when it
 * took the layer and wrote y. */
typedef int (*dot_path)(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                        uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow, uint64_t a);

/* A layer's work once its arguments passed: A over its input, then its
 * bound (the refusals come before any thread starts), then the pair dot
 * path where it takes the layer, else the tiled path: the accumulator mode
 * from A and the weights, and share over ex's threads, each a run of output
 * rows (no more threads than rows). */
static wai_status compute(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                          uint32_t shift, const int64_t *x, size_t n_in, uint32_t h, uint32_t w,
                          int64_t *y, uint32_t oh, uint32_t ow, dot_path dot,
                          void (*share)(void *, unsigned)) {
    uint64_t a;
    wai_status st = bounded(ex, l, sums, shift, x, n_in, &a);
    if (st != WAI_ok || dot(ex, l, shift, x, h, w, y, oh, ow, a)) return st;
    tiled_job j = {l, shift, x, y, h, w, oh, ow,
                   choose_mode(a, sums, l->cout, l->weights, (size_t)l->cout * l->cin,
                               (size_t)l->k * l->k, l->cin, wai_exec_cores(ex)),
                   wai_exec_threads(ex)};
    if (j.nthr > oh) j.nthr = oh ? oh : 1;
    if (j.nthr > WAI_THREADS_MAX) j.nthr = WAI_THREADS_MAX;
    wai_exec_run(ex, j.nthr, share, &j);
    return WAI_ok;
}

/* A tile's end: its 32-bit lanes flushed, then channel o0 + ob's n sums
 * requantised into y0 + (o0 + ob) * oh * ow, ys apart. */
static void tile_out(const tiled_job *j, tile *tl, const acc_mode *md, size_t o0, size_t nob,
                     size_t tw, size_t n, int64_t *y0, size_t ys) {
    const wai_layer *l = j->l;
    if (md->narrow) flush32(tl, nob, tw);
    for (size_t ob = 0; ob < nob; ob++) {
        size_t o = o0 + ob;
        md->cores->requant(y0 + o * j->oh * j->ow, ys, (const uint64_t *)tl->acc64 + ob * TW, n,
                           l->mult[o], j->shift, l->bias[o]);
    }
}

/* Output row oy of output channels o0 .. o0 + nob - 1 through the tile tl
 * (its term pointers already set). */
static void conv_row(const tiled_job *j, tile *tl, size_t o0, size_t nob, size_t oy) {
    const wai_layer *l = j->l;
    const acc_mode md = j->md;
    const size_t k = l->k, cin = l->cin, s = l->stride, pad = l->pad;
    const size_t kk = k * k, dk = (k - 1) / s, nph = s < k ? s : k;
    const size_t h = j->h, w = j->w, ow = j->ow;
    for (size_t t0 = 0; t0 < ow; t0 += TW) {
        size_t tw = tile_width(ow - t0);
        tile_clear(tl, &md, nob, tw);
        size_t done = 0;
        for (size_t i = 0; i < cin; i++) {
            for (size_t ky = 0; ky < k; ky++) {
                size_t py = oy * s + ky; /* row in the padded input */
                if (py < pad || py - pad >= h) continue;
                const int64_t *xr = j->x + (i * h + (py - pad)) * w;
                /* Phase buffer f holds padded columns (t0+m)*s + f. */
                for (size_t f = 0; f < nph; f++)
                    fill_row(tl, f, md.narrow, xr, w, (int64_t)t0, s, f, pad, tw + dk);
                for (size_t ob = 0; ob < nob; ob++) {
                    const int16_t *wk = l->weights + ((o0 + ob) * cin + i) * kk + ky * k;
                    for (size_t kx = 0; kx < k; kx++)
                        set_weight(tl, md.narrow, ob * NTMAX + kx, wk[kx]);
                }
                tile_step(tl, &md, nob, k, tw);
            }
            if (md.narrow && ++done == md.chunk) {
                flush32(tl, nob, tw);
                done = 0;
            }
        }
        tile_out(j, tl, &md, o0, nob, tw, ow - t0 < TW ? ow - t0 : TW, j->y + oy * ow + t0, 1);
    }
}

/* Share t of the rows: a contiguous run of output rows, every channel
 * block, in its own tile (each output computed whole by one share, by the
 * same steps whatever the split). */
static void conv_share(void *arg, unsigned t) {
    const tiled_job *j = arg;
    const size_t k = j->l->k, s = j->l->stride;
    const size_t y0 = j->oh * t / j->nthr, y1 = j->oh * (t + 1) / j->nthr;
    tile tl;
    /* Term kx reads phase buffer kx % s from entry kx / s: padded column
     * (ox + kx/s)*s + kx%s = ox*s + kx. */
    for (size_t kx = 0; kx < k; kx++) {
        size_t off = (kx % s) * ROWLEN + kx / s;
        tl.xp32[kx] = tl.rows.r32 + off;
        tl.xp64[kx] = tl.rows.r64 + off;
    }
    for (size_t o0 = 0; o0 < j->l->cout; o0 += OB) {
        size_t nob = j->l->cout - o0 < OB ? j->l->cout - o0 : OB;
        for (size_t oy = y0; oy < y1; oy++) conv_row(j, &tl, o0, nob, oy);
    }
}

wai_status wai_conv2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t shift, const int64_t *x, uint32_t h, uint32_t w, int64_t *y,
                           uint32_t oh, uint32_t ow) {
    size_t n_in, n_out;
    if (!wai_conv2d_args_ok(l, h, w, oh, ow, &n_in, &n_out)) return WAI_invalid_argument;
    if (l->k > KMAX || l->stride > KMAX)
        return wai_conv2d_ref(l, sums, shift, x, h, w, y, oh, ow);
    return compute(ex, l, sums, shift, x, n_in, h, w, y, oh, ow, wai_conv2d_dot, conv_share);
}

/* ---- transposed convolution ------------------------------------------------------ */

/* Output row oy, output channels o0 .. o0 + nob - 1, every column phase,
 * through the tile tl. */
static void convt_row(const tiled_job *j, tile *tl, size_t o0, size_t nob, size_t oy) {
    const wai_layer *l = j->l;
    const acc_mode md = j->md;
    const size_t k = l->k, cin = l->cin, cout = l->cout, s = l->stride, pad = l->pad;
    const size_t kk = k * k, dmax = (k - 1) / s, h = j->h, w = j->w, ow = j->ow;
    size_t kys[KMAX], iys[KMAX];
    const size_t uy = oy + pad; /* row in the uncropped plane */
    /* Rows ky = uy mod s, uy mod s + s, ... with input row (uy-ky)/s. */
    size_t nky = 0;
    for (size_t ky = uy % s; ky < k && ky <= uy; ky += s)
        if ((uy - ky) / s < h) {
            kys[nky] = ky;
            iys[nky] = (uy - ky) / s;
            nky++;
        }
    for (size_t q = 0; q < s; q++) {
        /* Plane columns t*s + q inside the crop [pad, pad + ow). */
        size_t t_lo = pad > q ? (pad - q + s - 1) / s : 0;
        size_t t_end = pad + ow - 1 >= q ? (pad + ow - 1 - q) / s + 1 : 0;
        size_t nkx = q < k ? (k - 1 - q) / s + 1 : 0, nt = nky * nkx;
        /* Term (r, c): row kys[r], tap kx = q + c*s, input column
         * t - c; row buffer entry m is column t0 - dmax + m. */
        for (size_t r = 0; r < nky; r++)
            for (size_t c = 0; c < nkx; c++) {
                size_t off = r * ROWLEN + dmax - c;
                tl->xp32[r * nkx + c] = tl->rows.r32 + off;
                tl->xp64[r * nkx + c] = tl->rows.r64 + off;
            }
        for (size_t t0 = t_lo; t0 < t_end; t0 += TW) {
            size_t tw = tile_width(t_end - t0);
            tile_clear(tl, &md, nob, tw);
            size_t done = 0;
            for (size_t i = 0; nt && i < cin; i++) {
                for (size_t r = 0; r < nky; r++)
                    fill_row(tl, r, md.narrow, j->x + (i * h + iys[r]) * w, w,
                             (int64_t)t0 - (int64_t)dmax, 1, 0, 0, tw + dmax);
                for (size_t ob = 0; ob < nob; ob++) {
                    const int16_t *wk = l->weights + (i * cout + o0 + ob) * kk + q;
                    for (size_t r = 0; r < nky; r++)
                        for (size_t c = 0; c < nkx; c++)
                            set_weight(tl, md.narrow, ob * NTMAX + r * nkx + c,
                                       wk[kys[r] * k + c * s]);
                }
                tile_step(tl, &md, nob, nt, tw);
                if (md.narrow && ++done == md.chunk) {
                    flush32(tl, nob, tw);
                    done = 0;
                }
            }
            tile_out(j, tl, &md, o0, nob, tw, t_end - t0 < TW ? t_end - t0 : TW,
                     j->y + oy * ow + t0 * s + q - pad, s);
        }
    }
}

/* Share t of the rows: a contiguous run of output rows, every channel
 * block, in its own tile (each output is computed whole by one share, by
 * the same steps whatever the split). */
static void convt_share(void *arg, unsigned t) {
    const tiled_job *j = arg;
    const size_t y0 = j->oh * t / j->nthr, y1 = j->oh * (t + 1) / j->nthr;
    tile tl;
    for (size_t o0 = 0; o0 < j->l->cout; o0 += OB) {
        size_t nob = j->l->cout - o0 < OB ? j->l->cout - o0 : OB;
        for (size_t oy = y0; oy < y1; oy++) convt_row(j, &tl, o0, nob, oy);
    }
}

wai_status wai_conv_t2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                             int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow) {
    uint32_t uh, uw;
    size_t n_in, n_u, n_out;
    if (!wai_conv_t2d_args_ok(l, h, w, oh, ow, &uh, &uw, &n_in, &n_u, &n_out))
        return WAI_invalid_argument;
    if (l->k > KMAX || l->stride > KMAX)
        return wai_conv_t2d_ref(l, sums, shift, x, h, w, scratch, y, oh, ow);
    return compute(ex, l, sums, shift, x, n_in, h, w, y, oh, ow, wai_conv_t2d_dot, convt_share);
}

/* ---- one-dimensional transposed convolution ------------------------------------ */

wai_status wai_conv_t1d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t len, int64_t *scratch,
                             int64_t *y, uint32_t olen) {
    uint32_t ulen;
    size_t n_in, n_u, n_out;
    if (!wai_conv_t1d_args_ok(l, len, olen, &ulen, &n_in, &n_u, &n_out))
        return WAI_invalid_argument;
    uint64_t a;
    wai_status st = bounded(ex, l, sums, shift, x, n_in, &a);
    if (st != WAI_ok) return st;
    if (wai_conv_t1d_dot(ex, l, shift, x, len, y, olen, a)) return WAI_ok;
    return wai_conv_t1d_ref(l, sums, shift, x, len, scratch, y, olen);
}
