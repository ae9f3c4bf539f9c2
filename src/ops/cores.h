/* SPDX-License-Identifier: BSD-2-Clause */
/* The inner loops of the fast kernels, as one table filled once for an
 * instruction set level (dav1d's *_dsp_init habit): wai_cores_init puts in
 * the portable C loops (ops/cores.c), then each level's own file
 * (ops/x86/<level>.c) puts its loops over them, so a level fills only what
 * it makes faster. A context fills one when it is created (src/lib.c) and
 * its exec points at it; a kernel reads the loops from its exec.
 *
 * Every entry of every level computes exactly what the C entry computes,
 * bit for bit (tests/unit/test_cores.c holds each to its C twin on every
 * level this CPU has). The constants below are the loops' contract with
 * the kernels that drive them (ops/layers_fast*.c). */
#ifndef WAI_OPS_CORES_H
#define WAI_OPS_CORES_H

#include <stddef.h>
#include <stdint.h>

#include "common/exec.h"
#include "ops/cpu.h"

/* ---- tap loops: acc[ob][t] += sum_j wts[ob][j] * xp[j][t] ------------------
 *
 * For ob < nob (at most WAI_TAP_OB), j < nt (at most WAI_TAP_NTMAX) and t <
 * tw, tw a multiple of WAI_TAP_G and at most WAI_TAP_TW. acc rows are
 * WAI_TAP_TW apart, weight rows WAI_TAP_NTMAX apart. The caller proved
 * every product and partial sum fits the accumulator's type
 * (layers_fast.c, Exactness). */
#define WAI_TAP_TW 128  /* output columns per tile, at most */
#define WAI_TAP_G 32    /* tile widths are whole strips of G columns */
#define WAI_TAP_OB 16   /* output channels per block */
#define WAI_TAP_NTMAX 64

typedef void (*wai_tap_i64_fn)(int64_t *acc, size_t nob, const int64_t *const *xp,
                               const int64_t *wts, size_t nt, size_t tw);
typedef void (*wai_tap_i32_fn)(int32_t *acc, size_t nob, const int32_t *const *xp,
                               const int32_t *wts, size_t nt, size_t tw);

/* ---- the pair dot product of the transposed convolution --------------------
 *
 * acc64[o * cols + t] += the sum over np pairs p and nt taps j of the pair
 * dot product of x[p][toff[j] + t] and weight pair wp[(p * nt + j) * NO +
 * o], for o < WAI_DOT_NO and t < cols (the entry's dot_cols): that sum
 * taken modulo 2^32, sign-extended, shifted left by shl and added modulo
 * 2^64 (layers_fast_dot.c, Exactness). x points at pair 0, column 0;
 * pairs are pstride i16 apart; offsets and strides count i16. */
#define WAI_DOT_NO 4        /* output channels per register tile */
#define WAI_DOT_COLS_MAX 96 /* the widest entry's columns */

typedef void (*wai_dot_fn)(uint64_t *acc64, const int16_t *x, size_t pstride,
                           const ptrdiff_t *toff, size_t nt, const int16_t *wp, size_t np,
                           unsigned shl);

/* ---- the inverse GDN's sums of squares --------------------------------------
 *
 * acc[ib][pp] += sum_j gamma[ib][j] * x[j][p0 + pp]^2 for ib < nib (at most
 * WAI_IGDN_IB) and pp < WAI_IGDN_PB (positions np .. PB - 1 add 0), in i64:
 * the caller checked A^2 * max G_i <= 2^63 - 1. gamma points at row i0 of
 * the [c][c] matrix; x is [c][positions]. */
#define WAI_IGDN_PB 32 /* positions per block */
#define WAI_IGDN_IB 8  /* output channels per block */

typedef void (*wai_igdn_acc_fn)(int64_t *acc, const int64_t *x, size_t positions, size_t p0,
                                size_t np, const int32_t *gamma, size_t c, size_t nib);

/* ---- the inverse GDN's value ------------------------------------------------
 *
 * y[t] = wai_igdn_value(x[t], the sum whose i64 bits are sum[t], beta, gf,
 * afrac) (ops/layers.h) for t < n. The caller holds |x[t]| < 2^31 and every
 * sum within i64, so the root is below 2^32 and x[t] times it fits i64. y
 * may be x. */
typedef void (*wai_igdn_value_fn)(int64_t *y, const int64_t *x, const uint64_t *sum, size_t n,
                                  int64_t beta, uint32_t gf, uint32_t afrac);

/* ---- the inverse GDN's limbs of the squares ---------------------------------
 *
 * For a block of cols positions (x: channel 0 of the block, channels
 * `positions` apart, |x| < 2^31): limbs[k * lstride + (j / 2) * 2 * cols +
 * 2 * t + (j & 1)] = (x[j][t]^2 >> 15k) & 0x7FFF for k < lsq, j < c and t <
 * np; zero for t in [np, cols) and for channel c when c is odd. lstride is
 * ceil(c / 2) * 2 * cols; cols a multiple of 16 (layers_fast_igdn_dot.c). */
typedef void (*wai_igdn_limbs_fn)(int16_t *limbs, const int64_t *x, size_t positions, size_t c,
                                  size_t np, size_t cols, int lsq);

/* ---- requantisation ----------------------------------------------------------
 *
 * y[t * ys] = wai_requantize(acc[t], m, shift, b) (ops/layers.h) for t < n,
 * acc[t] read as i64 bits: the caller's bound keeps every result in i64. */
typedef void (*wai_requant_fn)(int64_t *y, size_t ys, const uint64_t *acc, size_t n, int64_t m,
                               uint32_t shift, int64_t b);

/* ---- the largest |x| ----------------------------------------------------------
 *
 * max |x[i]| over i < n, 0 when n is 0 (|-2^63| = 2^63): every layer's A. */
typedef uint64_t (*wai_max_abs_fn)(const int64_t *x, size_t n);

/* ---- the RGB8 step -------------------------------------------------------------
 *
 * rgb[3 * i + ch] = wai_rgb8_step(planes[ch * hw + i], afrac) (ops/layers.h)
 * for ch < 3 and i0 <= i < i1: three planes into interleaved RGB8. */
typedef void (*wai_rgb8_fn)(uint8_t *rgb, const int64_t *planes, size_t hw, size_t i0,
                            size_t i1, uint32_t afrac);

/* ---- a motion segment's reconstruction ------------------------------------------
 *
 * out[i] = the clamp to 0..255 of pred_i + r[i] * q for i < n (E9), where
 * pred_i is the prediction of E10 from rows a and b of the previous frame,
 * by kind (its half-pel flags, fx | fy << 1):
 *   0  a[i]                                      whole-pel
 *   1  (a[i] + a[i + 3] + 1) >> 1                a horizontal half
 *   2  (a[i] + b[i] + 1) >> 1                    a vertical half
 *   3  (a[i] + a[i + 3] + b[i] + b[i + 3] + 2) >> 2   both
 * The caller holds |r[i]| <= 256 and 1 <= q <= 65535, so r * q fits i32
 * (decode/motion_pipe.c), and every read inside the frame. */
#define WAI_RECON_WHOLE 0u
#define WAI_RECON_HALF_X 1u
#define WAI_RECON_HALF_Y 2u
typedef void (*wai_recon_fn)(uint8_t *out, const uint8_t *a, const uint8_t *b, unsigned kind,
                             const int16_t *r, size_t n, int32_t q);

typedef struct wai_cores {
    int isa;                   /* the level it was filled for (ops/cpu.h) */
    wai_tap_i64_fn tap_i64;    /* any x */
    wai_tap_i64_fn tap_i64x32; /* every x (not the weights' products) fits i32 */
    wai_tap_i32_fn tap_i32;
    wai_dot_fn dot;
    size_t dot_cols;           /* columns per dot call: a multiple of 16, at most COLS_MAX */
    wai_igdn_acc_fn igdn_acc64;
    wai_igdn_value_fn igdn_value;
    wai_igdn_limbs_fn igdn_limbs;
    wai_max_abs_fn max_abs;
    wai_requant_fn requant;
    wai_rgb8_fn rgb8;
    wai_recon_fn recon;
    /* 1: the one-thread motion frame step decodes a chunk's residuals, then
     * reconstructs them with recon; 0: it predicts as it decodes, in the
     * shadow of the rANS chain (decode/motion.h). Where each is faster is
     * measured (docs/performance.md, Issue 30). */
    int motion_split;
} wai_cores;

/* Fills c for level isa, held to what this CPU runs (a level above it
 * fills the CPU's own; below 0, the portable loops). */
void wai_cores_init(wai_cores *c, int isa);

/* The portable loops alone (level WAI_FAST_ISA_PORTABLE). */
const wai_cores *wai_cores_portable(void);

/* The loops a kernel running on ex uses: ex's, or the portable ones when ex
 * (or its table) is NULL. */
static inline const wai_cores *wai_exec_cores(const wai_exec *ex) {
    return ex && ex->cores ? ex->cores : wai_cores_portable();
}

/* A layer's A over ex's threads (each a run of x, the largest of theirs
 * kept: the same value whatever the count) with ex's loop; or, inside a
 * network run, the note the layer before left of x, the same number. */
uint64_t wai_exec_max_abs(const wai_exec *ex, const int64_t *x, size_t n);

/* A tensor's A (its largest |x|) as the layer that wrote it found it, so
 * the next layer need not read the whole tensor again to learn it
 * (docs/integer-operators.md, "A from the layer before"). The network
 * runner (ops/network.c) hands a layer's `out` to the next layer as its
 * `in` only when it names that layer's input, and clears both around
 * every layer and run; ex->notes is NULL outside a run. */
typedef struct wai_amax {
    const int64_t *x;
    size_t n;
    uint64_t a;
    int known;
} wai_amax;

typedef struct wai_amax_notes {
    wai_amax in, out;
} wai_amax_notes;

/* A kernel's note that it wrote y[0..n) and found a its largest |y|. */
void wai_exec_note_max_abs(const wai_exec *ex, const int64_t *y, size_t n, uint64_t a);

/* The body of the inverse GDN's loop, written once so that a level's file
 * compiles the same C for its own instructions (ops/x86/avx512.c). */
#define WAI_IGDN_ACC64_BODY                                                           \
    int64_t sq[WAI_IGDN_PB];                                                          \
    for (size_t j = 0; j < c; j++) {                                                  \
        const int64_t *xr = x + j * positions + p0;                                   \
        for (size_t pp = 0; pp < np; pp++) sq[pp] = xr[pp] * xr[pp];                  \
        for (size_t pp = np; pp < WAI_IGDN_PB; pp++) sq[pp] = 0;                      \
        for (size_t ib = 0; ib < nib; ib++) {                                         \
            const int64_t g = gamma[ib * c + j];                                      \
            int64_t *ar = acc + ib * WAI_IGDN_PB;                                     \
            for (size_t pp = 0; pp < WAI_IGDN_PB; pp++) ar[pp] += g * sq[pp];         \
        }                                                                             \
    }

#endif
