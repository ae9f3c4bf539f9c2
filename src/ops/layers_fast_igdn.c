/* SPDX-License-Identifier: BSD-2-Clause */
/* The fast inverse GDN (layers_fast.h): blocks of positions accumulated in
 * i64 where A² · max G fits it (else i128) by the exec's loop
 * (ops/cores.h), in place when asked (each block finished in a side buffer),
 * and threads over blocks. Bit-identical to wai_igdn_ref. */
#include "ops/layers_fast.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/cores.h"
#include "ops/layers_fast_dot.h" /* WAI_DOT_TEMP_MAX: one cap on temporaries */
#include "ops/layers_fast_igdn_dot.h"

/* ---- inverse GDN ------------------------------------------------------------------- */

/* wai_igdn_value, with the root taken in 64 bits when n < 2^64. */
static int64_t igdn_value(int64_t xi, wai_i128 sum, int64_t beta, uint32_t gf, uint32_t afrac) {
    wai_i128 t = wai_i128_floor_shift(sum, gf);
    wai_i128 b = wai_i128_from_i64(beta);
    wai_u128 n;
    /* n = t + beta, formed by signs as in the reference (it may need 129
     * bits as a signed value). */
    if (wai_i128_is_neg(t) && beta < 0) {
        n = wai_u128_make(0, 0);
    } else if (!wai_i128_is_neg(t) && beta >= 0) {
        n = wai_u128_add(wai_i128_bits(t), wai_i128_bits(b));
    } else {
        wai_i128 sn = wai_i128_add(t, b);
        n = wai_i128_is_neg(sn) ? wai_u128_make(0, 0) : wai_i128_bits(sn);
    }
    uint64_t r = n.hi == 0 ? wai_isqrt_u64(n.lo) : wai_u128_isqrt(n);
    return wai_i128_to_i64(wai_i128_round_shift(wai_i128_mul_i64_u64(xi, r), afrac));
}

#define PB WAI_IGDN_PB
#define IB WAI_IGDN_IB

/* The reference, in place: the whole input's bound first, then blocks of
 * PB positions gathered into `in` ([c][PB]), computed into `out` and
 * written back, so the temporaries stay at 2·c·PB values (at most 4 MiB:
 * c·c <= 2^26 gammas) whatever the tensor's size. */
static wai_status igdn_ref_blocks(const wai_allocator *alloc, const wai_layer *l,
                                  const uint64_t *sums, uint32_t gf, uint32_t afrac, uint64_t a,
                                  int64_t *x, size_t positions) {
    wai_status st = wai_bound_igdn(a, sums, l->beta, l->c, gf, afrac);
    if (st != WAI_ok) return st;
    const size_t c = l->c;
    int64_t *in = wai_alloc_array(alloc, 2 * c * PB, sizeof(int64_t));
    if (!in) return WAI_out_of_memory;
    int64_t *out = in + c * PB;
    for (size_t p0 = 0; p0 < positions && st == WAI_ok; p0 += PB) {
        size_t np = positions - p0 < PB ? positions - p0 : PB;
        for (size_t i = 0; i < c; i++) memcpy(in + i * np, x + i * positions + p0, 8 * np);
        /* Its own bound passes: the block's max |x| is at most a. */
        st = wai_igdn_ref(l, sums, gf, afrac, in, np, out);
        for (size_t i = 0; st == WAI_ok && i < c; i++)
            memcpy(x + i * positions + p0, out + i * np, 8 * np);
    }
    wai_free(alloc, in);
    return st;
}

/* One fast inverse GDN past its checks, shared read-only by its threads;
 * in place (y == x) when blk is not NULL: each block of positions is then
 * finished in a share's own part of blk ([c][PB] each) and copied back
 * only once every channel of it has been read. */
typedef struct igdn_job {
    const wai_layer *l;
    uint32_t gf, afrac;
    const int64_t *x;
    int64_t *y;
    size_t positions;
    int wide; /* sums in i128 (else i64) */
    const wai_cores *cores;
    int64_t *blk;
    unsigned nthr;
} igdn_job;

/* Positions p0 .. p0 + np - 1, every channel, into y or blk. */
static void igdn_block(const igdn_job *j, size_t p0, size_t np, int64_t *blk) {
    const wai_layer *l = j->l;
    const size_t c = l->c, positions = j->positions;
    const int64_t *x = j->x;
    int64_t sq[PB], acc[IB * PB];
    wai_i128 acc128[IB * PB];
    for (size_t i0 = 0; i0 < c; i0 += IB) {
        size_t nib = c - i0 < IB ? c - i0 : IB;
        if (!j->wide) {
            memset(acc, 0, sizeof acc);
            j->cores->igdn_acc64(acc, x, positions, p0, np, l->gamma + i0 * c, c, nib);
            for (size_t ib = 0; ib < nib; ib++)
                for (size_t pp = 0; pp < np; pp++)
                    acc128[ib * PB + pp] = wai_i128_from_i64(acc[ib * PB + pp]);
        } else {
            for (size_t m = 0; m < IB * PB; m++) acc128[m] = wai_i128_make(0, 0);
            for (size_t jc = 0; jc < c; jc++) {
                const int64_t *xr = x + jc * positions + p0;
                for (size_t pp = 0; pp < np; pp++) sq[pp] = xr[pp] * xr[pp];
                for (size_t ib = 0; ib < nib; ib++) {
                    const int64_t g = l->gamma[(i0 + ib) * c + jc];
                    wai_i128 *ar = acc128 + ib * PB;
                    /* |g * x^2| < 2^31 * 2^63: exact in i128. */
                    for (size_t pp = 0; pp < np; pp++)
                        ar[pp] = wai_i128_add(ar[pp], wai_i128_mul_i64(g, sq[pp]));
                }
            }
        }
        for (size_t ib = 0; ib < nib; ib++) {
            size_t i = i0 + ib;
            int64_t *d = blk ? blk + i * PB : j->y + i * positions + p0;
            for (size_t pp = 0; pp < np; pp++)
                d[pp] = igdn_value(x[i * positions + p0 + pp], acc128[ib * PB + pp], l->beta[i],
                                   j->gf, j->afrac);
        }
    }
    for (size_t i = 0; blk && i < c; i++)
        memcpy(j->y + i * positions + p0, blk + i * PB, sizeof(int64_t) * np);
}

/* Share t: a contiguous run of blocks of PB positions (a block reads and
 * writes only its own positions, so shares never touch each other's). */
static void igdn_share(void *arg, unsigned t) {
    const igdn_job *j = arg;
    const size_t nblk = (j->positions + PB - 1) / PB;
    const size_t b0 = nblk * t / j->nthr, b1 = nblk * (t + 1) / j->nthr;
    int64_t *blk = j->blk ? j->blk + (size_t)t * j->l->c * PB : NULL;
    for (size_t b = b0; b < b1; b++) {
        size_t p0 = b * PB, np = j->positions - p0 < PB ? j->positions - p0 : PB;
        igdn_block(j, p0, np, blk);
    }
}

/* The fast inverse GDN, in place (y == x) when inplace: then its side
 * buffers come from ex, one per thread, all within WAI_DOT_TEMP_MAX. */
static wai_status igdn_run(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                           int64_t *y, int inplace);

wai_status wai_igdn_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                         uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                         int64_t *y) {
    return igdn_run(ex, l, sums, gf, afrac, x, positions, y, 0);
}

wai_status wai_igdn_fast_inplace(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t gf, uint32_t afrac, int64_t *x, size_t positions) {
    return igdn_run(ex, l, sums, gf, afrac, x, positions, x, 1);
}

/* The threads for an in-place run: no more than its blocks, and their side
 * buffers (c * PB i64 each, at most 2 MiB as c <= 2^13) within
 * WAI_DOT_TEMP_MAX together, so a decode's temporaries keep their bound. */
static unsigned igdn_threads(const wai_exec *ex, size_t c, size_t positions) {
    size_t n = wai_exec_threads(ex), nblk = (positions + PB - 1) / PB;
    size_t fit = WAI_DOT_TEMP_MAX / (c * PB * sizeof(int64_t));
    if (n > nblk) n = nblk;
    if (n > fit) n = fit;
    if (n > WAI_THREADS_MAX) n = WAI_THREADS_MAX;
    return n ? (unsigned)n : 1;
}

static wai_status igdn_run(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                           uint32_t gf, uint32_t afrac, const int64_t *x, size_t positions,
                           int64_t *y, int inplace) {
    size_t n, cc, cb;
    if (l->kind != WAI_LAYER_IGDN || !wai_count3(l->c, positions, 1, &n) ||
        !wai_count3(l->c, l->c, 1, &cc) || !wai_count3(l->c, PB, 1, &cb))
        return WAI_invalid_argument;
    const wai_allocator *alloc = ex ? ex->alloc : NULL;
    uint64_t a = wai_exec_max_abs(ex, x, n);
    /* floor(sqrt(2^63 - 1)): above it x^2 may leave i64; the reference's
     * u128 squares handle that rare case. */
    if (a > 3037000499u) {
        if (inplace) return igdn_ref_blocks(alloc, l, sums, gf, afrac, a, y, positions);
        return wai_igdn_ref(l, sums, gf, afrac, x, positions, y);
    }
    /* Refusals come before any buffer or thread. */
    wai_status st = wai_bound_igdn(a, sums, l->beta, l->c, gf, afrac);
    if (st != WAI_ok) return st;

    uint64_t gmax = 0;
    for (size_t i = 0; i < l->c; i++)
        if (sums[i] > gmax) gmax = sums[i];
    /* Every term |gamma| * x^2 and partial sum is at most A^2 * G_i; when
     * A^2 * max G fits i64 the sums are kept in i64, else in i128. */
    const uint64_t a2 = a * a; /* < 2^63 */
    igdn_job j = {l, gf, afrac, x, y, positions, gmax != 0 && a2 > (uint64_t)INT64_MAX / gmax,
                  wai_exec_cores(ex), NULL, 1};
    /* i64 sums: the pair dot products, when they take the call. */
    if (!j.wide && wai_igdn_dot(ex, l, gf, afrac, x, positions, y, a)) return WAI_ok;
    if (inplace) {
        j.nthr = igdn_threads(ex, l->c, positions);
        j.blk = wai_alloc_array(alloc, cb ? cb * j.nthr : 1, sizeof(int64_t));
        if (!j.blk && j.nthr > 1) {
            /* Fewer buffers before no run at all. */
            j.nthr = 1;
            j.blk = wai_alloc_array(alloc, cb ? cb : 1, sizeof(int64_t));
        }
        if (!j.blk) return WAI_out_of_memory;
    }
    wai_exec_run(ex, j.nthr, igdn_share, &j);
    wai_free(alloc, j.blk);
    return WAI_ok;
}
