/* SPDX-License-Identifier: BSD-2-Clause */
/* The inverse GDN's sums of squares as i16 pair dot products (see
 * layers_fast_igdn_dot.h), then its root and product in 64 bits.
 *
 * Method. sum_j gamma[i][j] * X[j]^2 is a 1x1 convolution of the squares,
 * so it runs on the transposed convolution's loop (ops/cores.h, wai_dot_fn,
 * one tap). For a block of `cols` positions each square is formed once and
 * cut into L unsigned limbs of 15 bits, sq = sum_k s_k * 2^(15k) with s_k in
 * [0, 2^15), stored as channel pairs interleaved in i16; gamma is one i16
 * limb when every |gamma| <= 32767, else two balanced ones, g = g1 * 2^16 +
 * g0 with g0 in [-2^15, 2^15). Each pair (k, m) of limbs is one pass whose
 * chunk sums are added times 2^(15k + 16m); a pass with 15k + 16m >= 64
 * would add multiples of 2^64 and is skipped.
 *
 * Exactness. A chunk of n channel pairs of one output sums at most
 * n * tp_m * l_k in magnitude (tp_m: the largest sum of |g_m| over one pair
 * of one output; l_k: the largest limb k), and chunks are cut so that this
 * is at most 2^31 - 1: the lanes' sum modulo 2^32 names the chunk's sum.
 * (tp_m <= 2^16, l_k <= 2^15 - 1: a chunk has at least one pair.) The
 * 64-bit sums are taken modulo 2^64; their true total, the reference's
 * sum, is at most A^2 * G_i <= 2^63 - 1 (the caller's condition), so the
 * residue names it. Integer addition is associative: any order gives the
 * reference's sum.
 *
 * The rest is the reference's value in 64 bits: with A < 2^31 and a root
 * below 2^32, |X * r| < 2^63. In place is safe: a block's rows are all
 * gathered (and its squares formed) before any of its outputs is written,
 * and each output overwrites only its own input. */
#include "ops/layers_fast_igdn_dot.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/int128.h"
#include "ops/cores.h"
#include "ops/layers_fast_dot.h"

#define NO WAI_DOT_NO
#define LSQ_MAX 5 /* 15-bit limbs of a square below 2^62 */
#define LG_MAX 2
#define CHUNK_LIM ((uint64_t)INT32_MAX)

typedef struct igdn_plan {
    const wai_layer *l;
    uint32_t gf, afrac;
    size_t c, positions, npairs, nblk, cols, pstride, lstride;
    int lsq, lg;
    size_t chunk[LSQ_MAX][LG_MAX]; /* pairs per chunk; 0: the pass is skipped */
    wai_dot_fn dot;
    wai_igdn_value_fn value;
    wai_igdn_limbs_fn limbs;
    wai_max_abs_fn max_abs;
    uint64_t *amax; /* [nthr]: each share's largest |y| (gathered blocks only) */
    const int64_t *x;
    int64_t *y;
    const int16_t *wp;             /* [m][blk][pair][NO][2] */
    size_t per_thread;             /* bytes of one thread's buffers */
    int gather;                    /* blocks gathered into a side buffer (run_block) */
    unsigned char *bufs;
    size_t nblocks;
    unsigned nthr;
} igdn_plan;

/* The balanced limb m of g (m = 0, 1) when lg == 2; g itself when lg == 1. */
static int16_t gamma_limb(int32_t g, int lg, int m) {
    if (lg == 1) return (int16_t)g;
    int64_t lo = (((int64_t)g + 32768) & 0xFFFF) - 32768;
    return (int16_t)(m == 0 ? lo : ((int64_t)g - lo) / 65536);
}

/* Packs gamma's limbs and sets the chunks; tp per limb as in the method. */
static void pack_gamma(igdn_plan *pl, int16_t *wp, uint64_t asq) {
    const wai_layer *l = pl->l;
    uint64_t tp[LG_MAX] = {0, 0};
    for (int m = 0; m < pl->lg; m++)
        for (size_t blk = 0; blk < pl->nblk; blk++)
            for (size_t p = 0; p < pl->npairs; p++)
                for (size_t o = 0; o < NO; o++) {
                    size_t i = blk * NO + o;
                    uint64_t t = 0;
                    for (size_t e = 0; e < 2; e++) {
                        size_t j = 2 * p + e;
                        int16_t v = i < pl->c && j < pl->c
                                        ? gamma_limb(l->gamma[i * pl->c + j], pl->lg, m)
                                        : 0;
                        wp[(((size_t)m * pl->nblk + blk) * pl->npairs + p) * NO * 2 + o * 2 + e] =
                            v;
                        t += wai_abs_i64(v);
                    }
                    if (t > tp[m]) tp[m] = t;
                }
    for (int k = 0; k < pl->lsq; k++) {
        /* The largest limb k of a square at most asq. */
        uint64_t lk = asq >> (15 * k);
        if (lk > 32767) lk = 32767;
        for (int m = 0; m < pl->lg; m++) {
            uint64_t per = tp[m] * lk; /* <= 2^16 * 2^15 */
            size_t n = per == 0 ? 0 : (size_t)(CHUNK_LIM / per);
            if (15 * k + 16 * m >= 64) n = 0;
            pl->chunk[k][m] = n < pl->npairs ? n : pl->npairs;
        }
    }
}

/* Positions p0 .. p0 + np - 1: the block's rows gathered, squares into
 * limbs, sums, values. The gather is for the cache: a tensor's rows lie a
 * multiple of 4 KiB apart (a side of 64 and up), so the block's c row pieces
 * share a handful of cache sets, and the values' second read of x missed
 * again after the limbs' first (xb: c rows of cols, contiguous; 11 % of
 * the GDNs' time). */
static uint64_t run_block(const igdn_plan *pl, size_t p0, size_t np, int16_t *limbs,
                          uint64_t *acc, int64_t *xb) {
    const size_t c = pl->c, cols = pl->cols, positions = pl->positions;
    const int64_t *xr = pl->x + p0; /* channel i at xr + i * xs */
    size_t xs = positions;
    if (xb) {
        for (size_t i = 0; i < c; i++) memcpy(xb + i * cols, pl->x + i * positions + p0, 8 * np);
        xr = xb, xs = cols;
    }
    pl->limbs(limbs, xr, xs, c, np, cols, pl->lsq);
    memset(acc, 0, sizeof(uint64_t) * pl->nblk * NO * cols);
    const ptrdiff_t toff[1] = {0};
    for (int k = 0; k < pl->lsq; k++)
        for (int m = 0; m < pl->lg; m++) {
            const size_t ch = pl->chunk[k][m];
            if (ch == 0) continue;
            const int16_t *xk = limbs + k * pl->lstride;
            for (size_t blk = 0; blk < pl->nblk; blk++) {
                const int16_t *wb = pl->wp + ((size_t)m * pl->nblk + blk) * pl->npairs * NO * 2;
                for (size_t q0 = 0; q0 < pl->npairs; q0 += ch)
                    pl->dot(acc + blk * NO * cols, xk + q0 * pl->pstride, pl->pstride, toff, 1,
                            wb + q0 * NO * 2, pl->npairs - q0 < ch ? pl->npairs - q0 : ch,
                            (unsigned)(15 * k + 16 * m));
            }
        }
    const wai_layer *l = pl->l;
    if (!xb) {
        for (size_t i = 0; i < c; i++)
            pl->value(pl->y + i * positions + p0, xr + i * xs, acc + i * cols, np,
                      l->beta[i], pl->gf, pl->afrac);
        return 0;
    }
    /* Gathered: the values over their inputs in xb, their largest |y| while
     * they are in cache, then the rows out. */
    uint64_t amax = 0;
    for (size_t i = 0; i < c; i++) {
        pl->value(xb + i * cols, xb + i * cols, acc + i * cols, np, l->beta[i], pl->gf, pl->afrac);
        uint64_t m = pl->max_abs(xb + i * cols, np);
        if (m > amax) amax = m;
        memcpy(pl->y + i * positions + p0, xb + i * cols, 8 * np);
    }
    return amax;
}

/* Share t: a contiguous run of blocks, with its own buffers. */
static void igdn_dot_share(void *arg, unsigned t) {
    const igdn_plan *pl = arg;
    const size_t b0 = pl->nblocks * t / pl->nthr, b1 = pl->nblocks * (t + 1) / pl->nthr;
    unsigned char *buf = pl->bufs + (size_t)t * pl->per_thread;
    uint64_t *acc = (uint64_t *)buf;
    int16_t *limbs = (int16_t *)(buf + sizeof(uint64_t) * pl->nblk * NO * pl->cols);
    int64_t *xb = pl->gather ? (int64_t *)(void *)(limbs + (size_t)pl->lsq * pl->lstride) : NULL;
    uint64_t amax = 0;
    for (size_t b = b0; b < b1; b++) {
        size_t p0 = b * pl->cols;
        uint64_t m = run_block(pl, p0, pl->positions - p0 < pl->cols ? pl->positions - p0 : pl->cols,
                               limbs, acc, xb);
        if (m > amax) amax = m;
    }
    pl->amax[t] = amax;
}

int wai_igdn_dot(const wai_exec *ex, const wai_layer *l, uint32_t gf, uint32_t afrac,
                 const int64_t *x, size_t positions, int64_t *y, uint64_t a) {
    if (a > (uint64_t)INT32_MAX || l->c == 0 || positions == 0) return 0;
    const wai_cores *cores = wai_exec_cores(ex);
    igdn_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.l = l, pl.gf = gf, pl.afrac = afrac, pl.x = x, pl.y = y, pl.positions = positions;
    pl.c = l->c, pl.npairs = (pl.c + 1) / 2, pl.nblk = (pl.c + NO - 1) / NO;
    pl.cols = cores->dot_cols, pl.dot = cores->dot, pl.value = cores->igdn_value;
    pl.limbs = cores->igdn_limbs, pl.max_abs = cores->max_abs;
    pl.pstride = 2 * pl.cols, pl.lstride = pl.npairs * pl.pstride;
    const uint64_t asq = a * a; /* < 2^62 */
    pl.lsq = asq == 0 ? 1 : (wai_bitlen64(asq) + 14) / 15;
    uint64_t gmax = 0;
    for (size_t q = 0; q < pl.c * pl.c; q++) {
        /* Two balanced limbs reach 2^31 - 2^15 - 1 at most. */
        if (l->gamma[q] > INT32_MAX - 32768) return 0;
        uint64_t g = wai_abs_i64(l->gamma[q]);
        if (g > gmax) gmax = g;
    }
    pl.lg = gmax <= 32767 ? 1 : 2;
    /* Temporaries: the packed gamma once, then each thread's sums, limbs and
     * gathered rows (lstride is a multiple of 32 i16, so the rows stay
     * 8-aligned), within WAI_DOT_TEMP_MAX together; else the caller's other
     * path. */
    const size_t nw = (size_t)pl.lg * pl.nblk * pl.npairs * NO * 2 * sizeof(int16_t);
    pl.per_thread = sizeof(uint64_t) * pl.nblk * NO * pl.cols +
                    sizeof(int16_t) * (size_t)pl.lsq * pl.lstride;
    /* The gathered rows where they fit too (c up to about 800 to 1000). */
    pl.gather = nw + pl.per_thread + sizeof(int64_t) * pl.c * pl.cols <= WAI_DOT_TEMP_MAX;
    if (pl.gather) pl.per_thread += sizeof(int64_t) * pl.c * pl.cols;
    if (nw + pl.per_thread > WAI_DOT_TEMP_MAX) return 0;
    pl.nblocks = (positions + pl.cols - 1) / pl.cols;
    size_t n = wai_exec_threads(ex), fit = (WAI_DOT_TEMP_MAX - nw) / pl.per_thread;
    if (n > fit) n = fit;
    if (n > pl.nblocks) n = pl.nblocks;
    if (n > WAI_THREADS_MAX) n = WAI_THREADS_MAX;
    pl.nthr = n ? (unsigned)n : 1;
    const wai_allocator *alloc = ex ? ex->alloc : NULL;
    int16_t *wp = wai_alloc_array(alloc, nw, 1);
    pl.bufs = wai_alloc_array(alloc, pl.per_thread, pl.nthr);
    if (!pl.bufs && pl.nthr > 1) {
        pl.nthr = 1; /* one buffer before none */
        pl.bufs = wai_alloc_array(alloc, pl.per_thread, 1);
    }
    int ok = wp && pl.bufs;
    if (ok) {
        pack_gamma(&pl, wp, asq);
        pl.wp = wp;
        uint64_t amax[WAI_THREADS_MAX] = {0};
        pl.amax = amax;
        wai_exec_run(ex, pl.nthr, igdn_dot_share, &pl);
        /* Gathered, every value's |y| was taken: their largest is y's A. */
        uint64_t top = 0;
        for (unsigned t = 0; t < pl.nthr; t++)
            if (amax[t] > top) top = amax[t];
        if (pl.gather) wai_exec_note_max_abs(ex, y, pl.c * positions, top);
    }
    wai_free(alloc, pl.bufs);
    wai_free(alloc, wp);
    return ok;
}
