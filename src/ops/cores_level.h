/* SPDX-License-Identifier: BSD-2-Clause */
/* What every level's file (ops/arm, ops/wasm, ops/x86) writes the same way,
 * written once as macros: the tap loops' nest, the reconstruction's
 * prediction by kind and its loops by kind and width, and the init that puts
 * the level's loops in the table (ops/cores.h). A level passes its own
 * intrinsics in; none is named here. */
#ifndef WAI_OPS_CORES_LEVEL_H
#define WAI_OPS_CORES_LEVEL_H

#include <stddef.h>
#include <stdint.h>

#include "ops/cores.h"
#include "ops/cores_c.h"

/* ---- the tap loops (cores.h, wai_tap_i32_fn and wai_tap_i64_fn) ---------------
 *
 * NAME, with ATTR before it (x86's target attribute; empty elsewhere), for
 * accumulators of type T, over strips of STRIP columns (a whole number of
 * them in every tile width). Per strip, a pointing at its accumulators,
 * OPEN loads them into registers; per tap, with c = SET1(the tap's weight)
 * of type CT and p at the tap's x for the strip, TAP adds the products;
 * CLOSE stores the registers back. OPEN, TAP and CLOSE are statements. */
#define WAI_TAP_NEST(NAME, ATTR, T, STRIP, CT, SET1, OPEN, TAP, CLOSE)                       \
    ATTR static void NAME(T *acc, size_t nob, const T *const *xp, const T *wts, size_t nt,  \
                          size_t tw) {                                                      \
        for (size_t ob = 0; ob < nob; ob++) {                                               \
            const T *wv = wts + ob * WAI_TAP_NTMAX;                                         \
            for (size_t t0 = 0; t0 < tw; t0 += (STRIP)) {                                   \
                T *a = acc + ob * WAI_TAP_TW + t0;                                          \
                OPEN                                                                        \
                for (size_t j = 0; j < nt; j++) {                                           \
                    const CT c = SET1(wv[j]);                                               \
                    const T *p = xp[j] + t0;                                                \
                    TAP                                                                     \
                }                                                                           \
                CLOSE                                                                       \
            }                                                                               \
        }                                                                                   \
    }

/* The nest with a strip of WAI_TAP_G columns held as an array r of vectors
 * of type VT, LANES columns each (a compiler keeps it in registers where
 * they suffice): LOAD and STORE move one vector, r += MUL(c, x) by ADD. */
#define WAI_TAP_LOOP(NAME, ATTR, T, VT, LANES, LOAD, STORE, SET1, MUL, ADD)                  \
    WAI_TAP_NEST(                                                                           \
        NAME, ATTR, T, WAI_TAP_G, VT, SET1,                                                 \
        VT r[WAI_TAP_G / (LANES)];                                                          \
        for (int v = 0; v < WAI_TAP_G / (LANES); v++) r[v] = LOAD(a + (LANES) * v);,        \
        for (int v = 0; v < WAI_TAP_G / (LANES); v++)                                       \
            r[v] = ADD(r[v], MUL(c, LOAD(p + (LANES) * v)));,                               \
        for (int v = 0; v < WAI_TAP_G / (LANES); v++) STORE(a + (LANES) * v, r[v]);)

/* ---- a motion segment's reconstruction (cores.h, wai_recon_fn) -----------------
 *
 * NAME runs 16 samples a step, in one loop for each kind and width so that
 * neither test is inside a loop, then the C loop over the tail. The level's
 * STEP(KIND, LANES) writes out[i .. i + 16) for the constant KIND, adding
 * r * q to the prediction in i16 lanes (LANES i16: q < 128, so |r * q| <=
 * 256 * 127 and the sum fits) or in i32 lanes (LANES i32). */
/* The level's prediction of 16 samples by kind (E10; a step's kind is a
 * constant, so the switch folds away): LOAD reads 16 bytes, AVG is the
 * rounded mean of two vectors' bytes, MEAN4 the rounded mean of four. */
#define WAI_RECON_PRED_FN(NAME, VT, LOAD, AVG, MEAN4)                                  \
    static inline VT NAME(const uint8_t *a, const uint8_t *b, unsigned kind) {        \
        const VT a0 = LOAD(a);                                                         \
        switch (kind) {                                                                \
        case WAI_RECON_WHOLE: return a0;                                               \
        case WAI_RECON_HALF_X: return AVG(a0, LOAD(a + 3));                            \
        case WAI_RECON_HALF_Y: return AVG(a0, LOAD(b));                                \
        default: return MEAN4(a0, LOAD(a + 3), LOAD(b), LOAD(b + 3));                  \
        }                                                                              \
    }

#define WAI_RECON_WIDTHS_(KIND, STEP)                                                  \
    if (q < 128) {                                                                    \
        for (; i + 16 <= n; i += 16) STEP(KIND, i16)                                  \
    } else {                                                                          \
        for (; i + 16 <= n; i += 16) STEP(KIND, i32)                                  \
    }

#define WAI_RECON_FN(NAME, STEP)                                                       \
    static void NAME(uint8_t *out, const uint8_t *a, const uint8_t *b, unsigned kind,  \
                     const int16_t *r, size_t n, int32_t q) {                          \
        size_t i = 0;                                                                  \
        if (!b) b = a; /* a kind without b never reads it; keeps b + i defined */      \
        WAI_RECON_EACH_KIND(kind, WAI_RECON_WIDTHS_, STEP)                             \
        wai_recon_c(out + i, a + i, b + i, kind, r + i, n - i, q); /* the tail */      \
    }

/* ---- the level's init (ops/cores.c, levels[]) ------------------------------------
 *
 * INIT puts each loop LOOPS lists over the table's entry of the same name
 * (LOOPS(E) is E(name) for each: the level's static function is named as
 * its entry), then runs MORE, statements that may set c's other fields. */
#define WAI_CORES_PUT_(name) c->name = name;

#define WAI_CORES_LEVEL(INIT, LOOPS, MORE)                                              \
    void INIT(wai_cores *c) {                                                           \
        LOOPS(WAI_CORES_PUT_)                                                           \
        MORE                                                                            \
    }

#endif
