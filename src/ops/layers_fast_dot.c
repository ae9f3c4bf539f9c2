/* SPDX-License-Identifier: BSD-2-Clause */
/* Transposed convolution by i16 pair dot products (see layers_fast_dot.h).
 *
 * Method. The output is computed by gathering, phase by phase: output
 * (oy, ox) with uy = oy + pad, ux = ox + pad, qy = uy mod s, qx = ux mod s,
 * takes the taps ky = qy + r*s (r < nky), kx = qx + c*s (c < nkx) from input
 * row uy/s - r and column ux/s - c, so for a fixed output row and column
 * phase the columns t = ux/s form a plain correlation, contiguous in t.
 * Input channels are taken in pairs (2p, 2p+1) and stored interleaved as
 * i16, so one 32-bit lane of a vector holds one column of both channels, and
 * one pair dot product (vpdpwssd, or vpmaddwd + vpaddd) adds both channels'
 * products for 8 or 16 columns at once against a broadcast weight pair.
 * A register tile of NO output channels times the kernel's columns stays in
 * registers across a chunk of channel pairs and every tap of the phase.
 *
 * Limbs. x does not fit i16 in general: with A = max |x| <= 32767 it is
 * used as is (one limb), unless the weights are so large that one limb of
 * A leaves no chunk (below); else x = hi * 2^b + lo with lo = x mod 2^b in
 * [0, 2^b) and hi = floor(x / 2^b), both in i16 for the b chosen
 * (choose_limbs; none past A = 32767 * 2^15), and the two limbs run as two
 * passes whose sums are combined as lo_sum + hi_sum * 2^b. Integer addition is associative, so
 * any order of the products gives the same sum.
 *
 * Exactness. Let L be a limb's largest magnitude (A; 2^b - 1; or
 * ceil(A / 2^b)) and, for a phase, tp the largest sum of |W| over the
 * phase's taps and one channel pair for one output channel. Any partial
 * sum of a chunk of n pairs of one output is then at most n * L * tp in
 * magnitude, and chunks are cut so that n * L * tp <= 2^31 - 1. The 32-bit
 * lanes (and the portable kernel's u32) compute modulo 2^32, whatever
 * they do with an intermediate value (vpmaddwd's (-2^15)^2 * 2 = 2^31, the
 * wrap of a running sum): the chunk's true sum lies in [-(2^31-1), 2^31-1],
 * so its residue names it, and it is sign-extended exactly. The chunk sums
 * are added (times 2^b for hi) into 64-bit lanes, again modulo 2^64; the
 * true total is the layer's sum, which the bound keeps within
 * A * S_o <= 2^63 - 1, so the residue names it too. */
#include "ops/layers_fast_dot.h"

#include <stddef.h>
#include <string.h>

#include "common/alloc.h"
#include "common/int128.h"
#include "ops/cores.h"
#include "ops/layers_fast.h"

#define NO WAI_DOT_NO
#define DKMAX 8      /* largest k and stride taken */
#define NTMAX (DKMAX * DKMAX)
#define BAND 16      /* output rows per band of converted input, at most */
#define COLS_MAX WAI_DOT_COLS_MAX
#define CHUNK_LIM ((uint64_t)INT32_MAX)

/* ---- the plan of one call ---------------------------------------------------------- */

enum { DOT_CONV_T2D, DOT_CONV2D, DOT_CONV_T1D }; /* what a call computes */

typedef struct dot_plan {
    int conv;       /* a convolution of stride 1, run as the transposed one */
    size_t k, s, pad, cin, cout, h, w, oh, ow;
    size_t kh, sy, pady; /* rows: k, s, pad in 2-D; 1, 1, 0 in 1-D (one row) */
    size_t dmax;    /* (k - 1) / s: the most taps a phase reaches back */
    size_t dmaxy;   /* (kh - 1) / sy: the same in rows */
    size_t npairs;  /* ceil(cin / 2) */
    size_t nblk;    /* ceil(cout / NO) */
    size_t cl, rl;  /* band row: cl zero columns, then input columns; rl in all */
    size_t band;    /* output rows per band */
    int narrow;     /* rows run together: a phase's row is narrower than a tile (run_rows) */
    size_t brmax;   /* input rows per band, at most */
    size_t pstride; /* i16 between pairs in the band */
    int limbs;      /* 1: x itself; 2: lo and hi */
    unsigned b;     /* lo's bits (limbs == 2) */
    uint64_t lmax[2];
    size_t wofs[NTMAX];         /* phase (qy*s + qx)'s packed weights (qy < sy) */
    size_t chunk[2][NTMAX];     /* pairs per 32-bit chunk, per limb and phase */
    wai_dot_fn dot;             /* the exec's loops (ops/cores.h) */
    wai_requant_fn requant;
    wai_max_abs_fn max_abs;
    size_t cols;                /* its columns per call */
} dot_plan;

static size_t taps_of(size_t q, size_t k, size_t s) { return q < k ? (k - 1 - q) / s + 1 : 0; }

/* The limbs for A < 2^31: one when A fits i16 (and two are not asked
 * for); else the b that makes the larger limb bound, max(2^b - 1,
 * ceil(A / 2^b)), smallest, with hi in i16 (hi lies in [-ceil(A/2^b),
 * floor(A/2^b)]). 0 when none does. Two limbs of about sqrt(A) each let
 * large weights have chunks where one limb of A would leave none. */
static int choose_limbs(dot_plan *pl, uint64_t a, int two) {
    if (a <= INT16_MAX && !two) {
        pl->limbs = 1, pl->b = 0, pl->lmax[0] = a, pl->lmax[1] = 0;
        return 1;
    }
    uint64_t best = UINT64_MAX;
    for (unsigned b = 1; b <= 15; b++) {
        uint64_t lo = ((uint64_t)1 << b) - 1, hi = (a + lo) >> b; /* ceil(a / 2^b) */
        uint64_t m = lo > hi ? lo : hi;
        if (hi <= (uint64_t)INT16_MAX && m < best) {
            best = m;
            pl->b = b, pl->lmax[0] = lo, pl->lmax[1] = hi;
        }
    }
    pl->limbs = 2;
    return best != UINT64_MAX;
}

/* Where tap (ky, kx) of the transposed convolution lies in one (input,
 * output) block of k*k weights: the layer's weights are [cin][cout][k][k];
 * a convolution's are [cout][cin][k][k], its tap (ky, kx) the transposed
 * one's (k-1-ky, k-1-kx): y[o][oy][ox] = sum W[o][i][ky][kx] x[i][oy - pad
 * + ky][ox - pad + kx] is the transposed convolution of stride 1 and
 * padding k - 1 - pad with that kernel. */
static size_t tap_index(const dot_plan *pl, size_t ky, size_t kx) {
    const size_t k = pl->k;
    return pl->conv ? (k - 1 - ky) * k + (k - 1 - kx) : ky * k + kx; /* ky = 0 in 1-D */
}

/* The k*k weights of input i and output o; NULL past cin or cout. */
static const int16_t *block_of(const wai_layer *l, const dot_plan *pl, size_t i, size_t o) {
    if (i >= pl->cin || o >= pl->cout) return NULL;
    const size_t kk = pl->kh * pl->k;
    return l->weights + (pl->conv ? o * pl->cin + i : i * pl->cout + o) * kk;
}

/* Packs blocks blk0 .. blk1 - 1 of phase (qy, qx)'s weights at wp (the
 * phase's start) as [blk][pair][tap][NO][2] (zero past cin and cout) and
 * returns tp over them: the largest sum of |W| over the phase's taps and one
 * pair for one output channel. */
static uint64_t pack_phase(const wai_layer *l, const dot_plan *pl, size_t qy, size_t qx,
                           int16_t *wp, size_t blk0, size_t blk1) {
    const size_t nky = taps_of(qy, pl->kh, pl->sy), nkx = taps_of(qx, pl->k, pl->s);
    const size_t nt = nky * nkx;
    size_t tk[NTMAX];
    for (size_t j = 0; j < nt; j++)
        tk[j] = tap_index(pl, qy + (j / nkx) * pl->sy, qx + (j % nkx) * pl->s);
    uint64_t tp = 0;
    for (size_t blk = blk0; blk < blk1; blk++)
        for (size_t p = 0; p < pl->npairs; p++)
            for (size_t o = 0; o < NO; o++) {
                uint64_t t = 0;
                for (size_t e = 0; e < 2; e++) {
                    const int16_t *wv = block_of(l, pl, 2 * p + e, blk * NO + o);
                    int16_t *d = wp + ((blk * pl->npairs + p) * nt * NO + o) * 2 + e;
                    for (size_t j = 0; j < nt; j++) {
                        int16_t v = wv ? wv[tk[j]] : 0;
                        d[j * NO * 2] = v;
                        t += wai_abs_i64(v);
                    }
                }
                if (t > tp) tp = t;
            }
    return tp;
}

/* The largest tp over every phase (pack_phase's), in one pass over the
 * layer's weights in their own order: per output and channel pair, each
 * tap's |W| added to its phase's sum. */
static uint64_t largest_tp(const wai_layer *l, const dot_plan *pl, size_t p0, size_t p1) {
    const size_t k = pl->k, s = pl->s, kk = pl->kh * k;
    uint64_t tp = 0, ph[DKMAX * DKMAX];
    unsigned char phase_of[DKMAX * DKMAX]; /* by index in the kh*k block */
    for (size_t ky = 0; ky < pl->kh; ky++)
        for (size_t kx = 0; kx < k; kx++)
            phase_of[tap_index(pl, ky, kx)] = (unsigned char)((ky % pl->sy) * s + kx % s);
    for (size_t p = p0; p < p1; p++)
        for (size_t o = 0; o < pl->cout; o++) {
            memset(ph, 0, sizeof ph);
            for (size_t i = 2 * p; i < 2 * p + 2 && i < pl->cin; i++) {
                const int16_t *wv = block_of(l, pl, i, o);
                for (size_t t = 0; t < kk; t++) ph[phase_of[t]] += wai_abs_i64(wv[t]);
            }
            for (size_t q = 0; q < pl->sy * s; q++)
                if (ph[q] > tp) tp = ph[q];
        }
    return tp;
}

/* Both passes over the weights split over threads (packing was a twelfth
 * of a one-thread WIH1 decode and all of it on one thread): share t takes
 * a run of output blocks of every phase (pack) or a run of channel pairs
 * (largest_tp), and keeps its own maxima; the caller takes theirs. */
#define PACK_SHARES 8

typedef struct pack_job {
    const wai_layer *l;
    const dot_plan *pl;
    int16_t *wp; /* NULL: largest_tp's pass */
    unsigned n;
    uint64_t tp[PACK_SHARES][NTMAX];
} pack_job;

static void pack_share(void *arg, unsigned t) {
    pack_job *j = arg;
    const dot_plan *pl = j->pl;
    if (!j->wp) {
        j->tp[t][0] = largest_tp(j->l, pl, pl->npairs * t / j->n, pl->npairs * (t + 1) / j->n);
        return;
    }
    const size_t b0 = pl->nblk * t / j->n, b1 = pl->nblk * (t + 1) / j->n;
    for (size_t qy = 0; qy < pl->sy; qy++)
        for (size_t qx = 0; qx < pl->s; qx++) {
            size_t ph = qy * pl->s + qx;
            j->tp[t][ph] = pack_phase(j->l, pl, qy, qx, j->wp + pl->wofs[ph], b0, b1);
        }
}

/* The largest tp over every phase, or (wp not NULL) every phase packed into
 * wp (kh*k*npairs*nblk*NO*2 i16 in all, phase ph at pl->wofs[ph]) with each
 * phase's tp in tp[ph]. */
static uint64_t pack_run(const wai_exec *ex, const wai_layer *l, const dot_plan *pl, int16_t *wp,
                         uint64_t *tp) {
    pack_job j;
    j.l = l, j.pl = pl, j.wp = wp;
    size_t n = wai_exec_threads(ex), units = wp ? pl->nblk : pl->npairs;
    if (n > PACK_SHARES) n = PACK_SHARES;
    if (n > units) n = units;
    j.n = n ? (unsigned)n : 1;
    const size_t nph = pl->sy * pl->s;
    wai_exec_run(ex, j.n, pack_share, &j);
    uint64_t top = 0;
    for (size_t ph = 0; ph < (wp ? nph : 1); ph++) {
        uint64_t m = 0;
        for (unsigned t = 0; t < j.n; t++)
            if (j.tp[t][ph] > m) m = j.tp[t][ph];
        if (tp) tp[ph] = m;
        if (m > top) top = m;
    }
    return top;
}

/* Packs every phase into wp and sets the chunks: n pairs with n * lmax *
 * tp <= 2^31 - 1 (tp = 0: all pairs). 0 when some chunk would be empty. */
static int pack_weights(const wai_exec *ex, const wai_layer *l, dot_plan *pl, int16_t *wp) {
    uint64_t tp[NTMAX];
    pack_run(ex, l, pl, wp, tp);
    for (size_t ph = 0; ph < pl->sy * pl->s; ph++)
        /* tp <= 2 * 64 * 2^15 and lmax < 2^15: the product fits. */
        for (int m = 0; m < pl->limbs; m++) {
            uint64_t per = tp[ph] * pl->lmax[m];
            uint64_t n = per == 0 ? pl->npairs : CHUNK_LIM / per;
            if (n == 0) return 0;
            pl->chunk[m][ph] = n < pl->npairs ? (size_t)n : pl->npairs;
        }
    return 1;
}

/* ---- the band of converted input --------------------------------------------------- */

/* Writes row xr (n values) as its limbs d0 (and d1), every second entry:
 * x itself (one limb), or lo = x mod 2^b and hi = floor(x / 2^b), formed
 * in u64 as floor((x + 2^31) / 2^b) - 2^(31-b): x + 2^31 >= 0 as |x| < 2^31,
 * and 2^b divides 2^31. In i16 by choose_limbs. */
static void limbs_row(const dot_plan *pl, const int64_t *xr, size_t n, int16_t *d0,
                      int16_t *d1) {
    if (pl->limbs == 1) {
        for (size_t c = 0; c < n; c++) d0[2 * c] = (int16_t)xr[c];
        return;
    }
    const unsigned b = pl->b;
    const uint64_t mask = ((uint64_t)1 << b) - 1, off = (uint64_t)1 << 31;
    for (size_t c = 0; c < n; c++) {
        uint64_t u = (uint64_t)xr[c] + off;
        d0[2 * c] = (int16_t)(u & mask);
        d1[2 * c] = (int16_t)((int64_t)(u >> b) - (int64_t)(off >> b));
    }
}

/* Zeroes what fill_band does not write in pair p, band row j of every limb:
 * a row outside the input whole, else its pad columns and, for a missing
 * odd channel (cin odd), that channel's entries. */
static void zero_pads(const dot_plan *pl, int16_t *row, int inside, int odd_missing) {
    const size_t lstride = pl->npairs * pl->pstride, rl2 = pl->rl * 2;
    const size_t left = pl->cl * 2, right = (pl->cl + pl->w) * 2;
    for (int m = 0; m < pl->limbs; m++) {
        int16_t *r = row + (size_t)m * lstride;
        if (!inside) {
            memset(r, 0, sizeof(int16_t) * rl2);
            continue;
        }
        memset(r, 0, sizeof(int16_t) * left);
        memset(r + right, 0, sizeof(int16_t) * (rl2 - right));
        if (odd_missing)
            for (size_t e = left + 1; e < right; e += 2) r[e] = 0;
    }
}

/* Fills the band: limb m, pair p, band row j (input row ib0 + j), entry
 * (cl + col) * 2 + (channel & 1) for input column col; zero outside the
 * input. Rows j >= br are never read for an output, but narrow rows'
 * tiles run on over them (and over the tile of slack after the band) into
 * lanes they drop: those are zeroed, so nothing unwritten is read. */
static void fill_band(const dot_plan *pl, const int64_t *x, ptrdiff_t ib0, size_t br,
                      int16_t *band) {
    const size_t lstride = pl->npairs * pl->pstride, rows = pl->narrow ? pl->brmax : br;
    if (pl->narrow) memset(band + (size_t)pl->limbs * lstride, 0, sizeof(int16_t) * 2 * pl->cols);
    for (size_t p = 0; p < pl->npairs; p++)
        for (size_t j = 0; j < rows; j++) {
            ptrdiff_t iy = ib0 + (ptrdiff_t)j;
            int inside = j < br && iy >= 0 && (size_t)iy < pl->h;
            int16_t *row = band + p * pl->pstride + j * pl->rl * 2;
            zero_pads(pl, row, inside, 2 * p + 1 >= pl->cin);
            for (size_t i = 2 * p; inside && i < 2 * p + 2 && i < pl->cin; i++)
                limbs_row(pl, x + (i * pl->h + (size_t)iy) * pl->w, pl->w,
                          row + pl->cl * 2 + (i & 1), row + lstride + pl->cl * 2 + (i & 1));
        }
}

/* ---- the driver ---------------------------------------------------------------------- */

/* Column phase qx for the NO outputs of block blk, over the R output rows
 * oyf, oyf + sy, ... of one row phase (input rows iyb, iyb + 1, ...: each
 * rl further on in the band): every tile of cols positions f = k * rl + t
 * for t in [t_lo, t_end), through the kernel, requantised at columns
 * t * s + qx - pad of output row oy of output ob, rows + (ob * nrows + oy -
 * oy0) * ow. Every tap is the same offset from f in every row, so with
 * narrow rows (R > 1) a tile takes several rows at once and the lanes
 * between them are dropped; a wide row (R = 1) is tiled alone. */
static void run_group(const wai_layer *l, const dot_plan *pl, uint32_t shift,
                      const int16_t *band, ptrdiff_t ib0, const int16_t *wpk, size_t oyf, size_t R,
                      size_t qx, size_t blk, int64_t *rows, size_t oy0, size_t nrows) {
    const size_t s = pl->s, uy = oyf + pl->pady, qy = uy % pl->sy, iyb = uy / pl->sy;
    const size_t nky = taps_of(qy, pl->kh, pl->sy), nkx = taps_of(qx, pl->k, s), nt = nky * nkx;
    const size_t ph = qy * s + qx, cols = pl->cols, rl = pl->rl;
    const size_t t_lo = pl->pad > qx ? (pl->pad - qx + s - 1) / s : 0;
    const size_t t_end = pl->pad + pl->ow - 1 >= qx ? (pl->pad + pl->ow - 1 - qx) / s + 1 : 0;
    if (t_end <= t_lo) return;
    const size_t lstride = pl->npairs * pl->pstride, f_end = (R - 1) * rl + t_end;
    ptrdiff_t toff[NTMAX];
    /* Tap (r, c) of the first row reads band row iyb - r - ib0 (>= 0: ib0
     * is the lowest row the band's outputs reach) and column t - c, entry
     * cl + t - c (>= 0: c <= dmax = cl); row k's, k * rl further on. */
    for (size_t j = 0; j < nt; j++)
        toff[j] = (((ptrdiff_t)iyb - (ptrdiff_t)(j / nkx) - ib0) * (ptrdiff_t)rl +
                   (ptrdiff_t)pl->cl - (ptrdiff_t)(j % nkx)) * 2;
    uint64_t acc[NO * COLS_MAX];
    const int16_t *wb = wpk + pl->wofs[ph] + blk * pl->npairs * nt * NO * 2;
    for (size_t f0 = t_lo; f0 < f_end; f0 += cols) {
        memset(acc, 0, sizeof(uint64_t) * NO * cols);
        for (int m = 0; nt && m < pl->limbs; m++) {
            const size_t ch = pl->chunk[m][ph];
            for (size_t p0 = 0; p0 < pl->npairs; p0 += ch)
                pl->dot(acc, band + (size_t)m * lstride + p0 * pl->pstride + f0 * 2, pl->pstride,
                        toff, nt, wb + p0 * nt * NO * 2,
                        pl->npairs - p0 < ch ? pl->npairs - p0 : ch, m ? pl->b : 0);
        }
        for (size_t k = (f0 - t_lo) / rl; k < R && k * rl + t_lo < f0 + cols; k++) {
            size_t lo = k * rl + t_lo > f0 ? k * rl + t_lo : f0;
            size_t hi = k * rl + t_end < f0 + cols ? k * rl + t_end : f0 + cols;
            if (lo >= hi) continue;
            size_t t = lo - k * rl, oy = oyf + k * pl->sy;
            for (size_t ob = 0; ob < NO && blk * NO + ob < pl->cout; ob++) {
                size_t o = blk * NO + ob;
                pl->requant(rows + (ob * nrows + oy - oy0) * pl->ow + t * s + qx - pl->pad, s,
                            acc + ob * cols + (lo - f0), hi - lo, l->mult[o], shift, l->bias[o]);
            }
        }
    }
}

/* Output rows oy0 .. oy1 - 1, block by block: each row phase's rows run
 * together (run_group) into rows (NO times oy1 - oy0 rows of ow, a buffer
 * in L1 or L2), which is then copied out whole, so y takes full cache
 * lines once instead of every s-th value s times. Their largest |y| is
 * taken there too, while they are in cache (*amax: the output's A, so the
 * next layer need not read it all again). Wide rows cannot share a tile:
 * run_band passes them one at a time. */
static void run_rows(const dot_plan *pl, const wai_layer *l, uint32_t shift, const int16_t *band,
                     ptrdiff_t ib0, const int16_t *wpk, size_t oy0, size_t oy1, int64_t *y,
                     int64_t *rows, uint64_t *amax) {
    const size_t nrows = oy1 - oy0, sy = pl->sy;
    for (size_t blk = 0; blk < pl->nblk; blk++) {
        for (size_t qy = 0; qy < sy; qy++) {
            /* The first of these rows in row phase qy, and how many it has. */
            size_t oyf = oy0 + (qy + sy - (oy0 + pl->pady) % sy) % sy;
            if (oyf >= oy1) continue;
            size_t R = (oy1 - oyf + sy - 1) / sy;
            for (size_t qx = 0; qx < pl->s; qx++)
                run_group(l, pl, shift, band, ib0, wpk, oyf, R, qx, blk, rows, oy0, nrows);
        }
        size_t nob = pl->cout - blk * NO < NO ? pl->cout - blk * NO : NO;
        uint64_t m = pl->max_abs(rows, nob * nrows * pl->ow);
        if (m > *amax) *amax = m;
        for (size_t ob = 0; ob < nob; ob++)
            for (size_t r = 0; r < nrows; r++)
                memcpy(y + ((blk * NO + ob) * pl->oh + oy0 + r) * pl->ow,
                       rows + (ob * nrows + r) * pl->ow, sizeof(int64_t) * pl->ow);
    }
}

/* Sets the geometry; 0 when this path does not take the shape or A. */
static int plan_call(const wai_layer *l, int mode, dot_plan *pl, uint32_t h, uint32_t w,
                     uint32_t oh, uint32_t ow, uint64_t a, const wai_cores *cores, size_t band,
                     int two) {
    memset(pl, 0, sizeof *pl);
    const int conv = mode == DOT_CONV2D;
    /* A < 2^31 also keeps limbs_row's x + 2^31 >= 0. */
    if (l->k > DKMAX || l->stride > DKMAX || a > (uint64_t)INT32_MAX) return 0;
    /* A convolution runs as the transposed one of stride 1 with the kernel
     * flipped and padding k - 1 - pad (tap_index). */
    if (conv && (l->stride != 1 || l->pad > l->k - 1)) return 0;
    if (!choose_limbs(pl, a, two)) return 0;
    pl->conv = conv;
    pl->k = l->k, pl->s = l->stride, pl->pad = conv ? l->k - 1 - l->pad : l->pad;
    /* In 1-D the kernel, stride and padding are the columns' alone. */
    pl->kh = mode == DOT_CONV_T1D ? 1 : pl->k;
    pl->sy = mode == DOT_CONV_T1D ? 1 : pl->s;
    pl->pady = mode == DOT_CONV_T1D ? 0 : pl->pad;
    pl->cin = l->cin, pl->cout = l->cout;
    pl->h = h, pl->w = w, pl->oh = oh, pl->ow = ow;
    pl->dmax = (pl->k - 1) / pl->s, pl->dmaxy = (pl->kh - 1) / pl->sy;
    pl->npairs = (pl->cin + 1) / 2, pl->nblk = (pl->cout + NO - 1) / NO;
    pl->dot = cores->dot, pl->cols = cores->dot_cols, pl->requant = cores->requant;
    pl->max_abs = cores->max_abs;
    /* Where each phase's packed weights start: the phases in order, each
     * nblk * npairs * its taps * NO pairs. */
    size_t ofs = 0;
    for (size_t qy = 0; qy < pl->sy; qy++)
        for (size_t qx = 0; qx < pl->s; qx++) {
            pl->wofs[qy * pl->s + qx] = ofs;
            ofs += pl->nblk * pl->npairs * taps_of(qy, pl->kh, pl->sy) * taps_of(qx, pl->k, pl->s) *
                   NO * 2;
        }
    /* The tiles read columns t - c with t < t_end + cols - 1 and t_end <=
     * (pad + ow - 1) / s + 1. */
    pl->cl = pl->dmax;
    size_t tend = (pl->pad + pl->ow - 1) / pl->s + 1, span = pl->cl + (tend > pl->w ? tend : pl->w);
    /* Narrow rows lie back to back (a tile runs on into the rows after
     * its own, whose lanes are dropped; the band ends in a tile of zero
     * slack); wide ones keep a tile of slack each. */
    pl->narrow = span <= pl->cols;
    pl->rl = pl->narrow ? span : span + pl->cols;
    /* A band's outputs oy0 .. oy0 + band - 1 reach input rows
     * (oy0 + pady)/sy - dmaxy .. (oy0 + band - 1 + pady)/sy: the two
     * quotients differ by band - 1 when sy is 1, else by at most
     * (band - 1)/sy + 1. */
    pl->band = band;
    pl->brmax = (pl->sy == 1 ? band - 1 : (band - 1) / pl->sy + 1) + 1 + pl->dmaxy;
    pl->pstride = pl->brmax * pl->rl * 2;
    return 1;
}

/* One call's bands, shared read-only by its threads; share t converts
 * into its own band buffer, bands + t * nb, and uses its own row buffer
 * after it. */
typedef struct dot_job {
    const wai_layer *l;
    const dot_plan *pl;
    uint32_t shift;
    const int64_t *x;
    int64_t *y;
    const int16_t *wp;
    int16_t *bands;
    size_t nb, nbands;
    size_t nrow; /* where a thread's row buffer starts in its nb i16 */
    unsigned nthr;
    uint64_t amax[WAI_THREADS_MAX]; /* share t's largest |y|, written once */
} dot_job;

/* Band bi: its input rows converted, then its output rows computed. */
static void run_band(const dot_job *j, size_t bi, int16_t *band, int64_t *row, uint64_t *amax) {
    const dot_plan *pl = j->pl;
    size_t oy0 = bi * pl->band, oy1 = pl->oh - oy0 < pl->band ? pl->oh : oy0 + pl->band;
    ptrdiff_t ib0 = (ptrdiff_t)((oy0 + pl->pady) / pl->sy) - (ptrdiff_t)pl->dmaxy;
    size_t br = (size_t)((ptrdiff_t)((oy1 - 1 + pl->pady) / pl->sy) - ib0 + 1);
    fill_band(pl, j->x, ib0, br, band);
    if (pl->narrow) {
        run_rows(pl, j->l, j->shift, band, ib0, j->wp, oy0, oy1, j->y, row, amax);
        return;
    }
    for (size_t oy = oy0; oy < oy1; oy++)
        run_rows(pl, j->l, j->shift, band, ib0, j->wp, oy, oy + 1, j->y, row, amax);
}

/* Share t: a contiguous run of bands. Each output row is one band's, and
 * its sums do not depend on which band or thread forms them. */
static void dot_share(void *arg, unsigned t) {
    dot_job *j = arg;
    size_t b0 = j->nbands * t / j->nthr, b1 = j->nbands * (t + 1) / j->nthr;
    int16_t *band = j->bands + t * j->nb;
    int64_t *row = (int64_t *)(void *)(band + j->nrow);
    uint64_t amax = 0;
    for (size_t b = b0; b < b1; b++) run_band(j, b, band, row, &amax);
    j->amax[t] = amax;
}

/* Rows per band for n threads: BAND, or fewer when there are fewer bands
 * of BAND than threads, so that every thread has rows. */
static size_t band_rows(uint32_t oh, unsigned n) {
    size_t full = ((size_t)oh + BAND - 1) / BAND;
    if (n <= 1 || full >= n) return BAND;
    size_t r = ((size_t)oh + n - 1) / n;
    return r ? r : 1;
}

static int dot_run(const wai_exec *ex, const wai_layer *l, int mode, uint32_t shift,
                   const int64_t *x, uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow,
                   uint64_t a) {
    const wai_allocator *alloc = ex ? ex->alloc : NULL;
    unsigned nthr = wai_exec_threads(ex);
    if (nthr > WAI_THREADS_MAX) nthr = WAI_THREADS_MAX;
    dot_plan pl;
    size_t band = band_rows(oh, nthr), nw, nrow, nb;
    /* The temporaries stay under a fixed size, whatever the thread count
     * (docs/neural-decodes.md): the weights once, then as many threads'
     * bands as fit. Bands are made shorter (halved, down to one row) until
     * every thread's fits; a layer whose weights and one band of one row do
     * not fit runs on the tiled path, which needs none. */
    const size_t cap = WAI_DOT_TEMP_MAX / sizeof(int16_t);
    /* One limb unless the weights' largest tp leaves it no chunk. */
    int two = 0;
    if (!plan_call(l, mode, &pl, h, w, oh, ow, a, wai_exec_cores(ex), band, 0)) return 0;
    if (pl.limbs == 1) {
        uint64_t tp = pack_run(ex, l, &pl, NULL, NULL);
        two = tp * pl.lmax[0] > CHUNK_LIM; /* tp <= 2 * 64 * 2^15, lmax < 2^15 */
    }
    for (;;) {
        if (!plan_call(l, mode, &pl, h, w, oh, ow, a, wai_exec_cores(ex), band, two)) return 0;
        /* Sizes: the planner's caps keep cin, cout, k, sides far below the
         * products' overflow (cin*cout*k*k and cin*rows*rl are tensor sizes). */
        nw = pl.kh * pl.k * pl.npairs * pl.nblk * NO * 2;
        /* A thread's band (narrow: and a tile of slack), then its row
         * buffer (NO rows of ow i64, narrow: NO times the band's rows;
         * 8-aligned). */
        nrow = ((size_t)pl.limbs * pl.npairs * pl.pstride + (pl.narrow ? 2 * pl.cols : 0) + 3) &
               ~(size_t)3;
        nb = nrow + (size_t)NO * (pl.narrow ? pl.band : 1) * pl.ow * 4;
        if (band == 1 || (nw < cap && (cap - nw) / nb >= nthr)) break;
        band /= 2;
    }
    size_t nbands = ((size_t)oh + pl.band - 1) / pl.band;
    if (nw + nb > cap) return 0;
    size_t fit = (cap - nw) / nb;
    if (nthr > fit) nthr = (unsigned)fit;
    if (nthr > nbands) nthr = (unsigned)nbands;
    if (nthr == 0) nthr = 1;
    int16_t *wp = wai_alloc_array(alloc, nw, sizeof(int16_t));
    int16_t *bands = wai_alloc_array(alloc, nb * nthr, sizeof(int16_t));
    if (!bands && nthr > 1) {
        /* One band before none. */
        nthr = 1;
        bands = wai_alloc_array(alloc, nb, sizeof(int16_t));
    }
    /* Packing (and its refusal, a chunk of no pair) precedes the threads. */
    int ok = wp && bands && pack_weights(ex, l, &pl, wp);
    if (ok) {
        dot_job j = {l, &pl, shift, x, y, wp, bands, nb, nbands, nrow, nthr, {0}};
        wai_exec_run(ex, nthr, dot_share, &j);
        /* Every output was written by one share: their largest is y's A. */
        uint64_t amax = 0;
        for (unsigned t = 0; t < nthr; t++)
            if (j.amax[t] > amax) amax = j.amax[t];
        wai_exec_note_max_abs(ex, y, pl.cout * pl.oh * pl.ow, amax);
    }
    wai_free(alloc, bands);
    wai_free(alloc, wp);
    return ok;
}

int wai_conv_t2d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                     uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow, uint64_t a) {
    return dot_run(ex, l, DOT_CONV_T2D, shift, x, h, w, y, oh, ow, a);
}

int wai_conv2d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                   uint32_t h, uint32_t w, int64_t *y, uint32_t oh, uint32_t ow, uint64_t a) {
    return dot_run(ex, l, DOT_CONV2D, shift, x, h, w, y, oh, ow, a);
}

int wai_conv_t1d_dot(const wai_exec *ex, const wai_layer *l, uint32_t shift, const int64_t *x,
                     uint32_t len, int64_t *y, uint32_t olen, uint64_t a) {
    return dot_run(ex, l, DOT_CONV_T1D, shift, x, 1, len, y, 1, olen, a);
}
