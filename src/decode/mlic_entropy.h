/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1's entropy network before each of its 2·K passes (integer-payloads
 * §14 S11; docs/int_mlicpp.md, "The entropy network, 2·K times").
 *
 * The plain way runs the network whole on x = concat(y, hyper) before every
 * pass. The kept way gives the same bits with about a quarter of the work:
 * when the first layer is a stride-1 convolution, its accumulator before
 * requantisation is linear in x, so it is kept as exact i64 sums, started
 * once from the hyper latent and added to, after each pass, by the
 * convolution of what that pass decoded alone; before each pass only the
 * requantisation and the layers after the first run. The sums are exact:
 * every partial sum is at most A·S_o, which the first layer's bound, checked
 * before every pass with A = max |x| as a whole run checks it, keeps within
 * 2^63 - 1; a sum's order does not change an exact sum.
 *
 * The plain way runs with the reference kernels (the differential test's
 * twin, tests/unit/test_int_mlicpp.c) and on a plug-in backend (which runs
 * whole networks); the kept way elsewhere. */
#ifndef WAI_DECODE_MLIC_ENTROPY_H
#define WAI_DECODE_MLIC_ENTROPY_H

#include <stdint.h>

#include "ops/network.h"
#include "sets/loaded.h"

/* 1 when m's first layer can be kept: a convolution of stride 1. */
int wai_mlic_entropy_keepable(const wai_model *m);

/* The network after its first layer, as views into m and s (nothing
 * owned). Only for a keepable m. */
void wai_mlic_entropy_tail(const wai_net *n, wai_model *m, wai_sums *s);

/* The bytes the kept way holds beside the plain way's (the declared
 * working bytes add them): the sums and one more tensor of the first
 * layer's output (full: the whole network's plan), one slice of y, the
 * parts' sums and the first layer's weights regrouped by part. */
uint64_t wai_mlic_entropy_kept_bytes(const wai_model *m, const wai_plan *full, uint32_t cy,
                                     uint32_t k);

typedef struct wai_mlic_entropy {
    wai_network_ws *ws;
    const wai_kernels *kern;
    const wai_net *net;
    const wai_plan *full, *tail; /* tail: the plan of wai_mlic_entropy_tail's network */
    wai_model tail_model;        /* that network, views into net (the kept way's) */
    wai_sums tail_sums;
    uint32_t cy, k, h, w;
    int kept;       /* 0: the plain way (from the start, or since a part's refusal) */
    uint64_t a;     /* max |x| so far */
    int64_t *acc;   /* [cout][h·w]: the first layer's sums */
    int64_t *tmp;   /* [cout][h·w]: its requantised output; a part's sums */
    int64_t *slice; /* [cy/k][h·w]: what one pass decoded, 0 elsewhere */
    wai_layer *parts;    /* k slices of y, then the hyper latent: mult 1, bias 0 */
    uint64_t *sums;      /* [(k + 1)·cout]: each part's S_o */
    int16_t *weights;    /* the parts' weights, one after another */
    int64_t *one_zero;   /* [2·cout]: the parts' mult (1) and bias (0) */
} wai_mlic_entropy;

/* Starts the runs on x (y all 0): the kept way when `keep` (only for a
 * keepable network, tail its tail's plan) and the way can be had, the plain
 * way otherwise. ws: the kept arena (its ex runs the kernels).
 * field_range where the first run's first layer would refuse. */
wai_status wai_mlic_entropy_begin(wai_mlic_entropy *e, wai_network_ws *ws,
                                  const wai_kernels *kern, const wai_net *net,
                                  const wai_plan *full, const wai_plan *tail, uint32_t cy,
                                  uint32_t k, int keep, const int64_t *x);

/* sigma || mu ([2·cy][h·w]) for the next pass, from x as it now is: the
 * whole network's bits and refusals. */
wai_status wai_mlic_entropy_run(wai_mlic_entropy *e, const int64_t *x, int64_t *sm);

/* Takes in what pass `pass` of slice j decoded into x; called only when
 * another pass follows (a run comes next). field_range where the next
 * run's first layer would refuse. */
wai_status wai_mlic_entropy_took(wai_mlic_entropy *e, const int64_t *x, uint32_t j,
                                 uint32_t pass);

void wai_mlic_entropy_end(wai_mlic_entropy *e);

#endif
