/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIV1 motion encoder's search (src/write/motion_search.c): a block's
 * vector by SAD alone, or by SAD's best few weighed with the rate term
 * (docs/motion-encoder.md); the residual quantiser and the integer log2 the
 * encoder's table shares with it. Integer arithmetic only, so every target
 * finds the same vectors. */
#ifndef WAI_WRITE_MOTION_SEARCH_H
#define WAI_WRITE_MOTION_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "formats/motion_rules.h"

/* A residual is round((src - pred) / q) or one step further out (see
 * wai_me_quantise), so |r| <= 256 for every q: a fixed histogram holds
 * them all, index r + WAI_ME_R_MAX. */
#define WAI_ME_R_MAX 257
#define WAI_ME_HIST_LEN (2 * WAI_ME_R_MAX + 1)

typedef struct wai_me_geom {
    uint32_t h, w;
    size_t stride;
} wai_me_geom;

/* q past it quantises every residual to about 0 or +-1: lambda stops
 * growing there, so J cannot overflow (2^42 * 2^14 + 2^16 * 2^41). */
#define WAI_ME_RD_Q_CAP 256

/* What the rate term weighs a vector's residuals with, for one frame. */
typedef struct wai_me_rate {
    const uint32_t *cost; /* WAI_ME_HIST_LEN entries: a residual's bits, Q10 */
    int32_t q;
    uint64_t lambda;      /* min(q, WAI_ME_RD_Q_CAP)^2 */
} wai_me_rate;

/* The residual of one sample: the nearest multiple of q (ties away from
 * zero), or one step further out when the clamp of E9 brings that closer to
 * the source (255 from pred 0 at q 200 takes r = 2). The smaller |r| wins a
 * tie. *rec is what the decoder will reconstruct. */
static inline int32_t wai_me_quantise(int32_t src, int32_t pred, int32_t q, uint8_t *rec) {
    int32_t d = src - pred;
    int32_t mag = d < 0 ? -d : d;
    int32_t r = (mag + q / 2) / q;
    if (d < 0) r = -r;
    uint8_t v = wai_residual_step(pred, r, (uint32_t)q);
    int32_t err = v > src ? v - src : src - v;
    if (err && d) {
        int32_t r2 = d < 0 ? r - 1 : r + 1;
        uint8_t v2 = wai_residual_step(pred, r2, (uint32_t)q);
        int32_t err2 = v2 > src ? v2 - src : src - v2;
        if (err2 < err) {
            r = r2;
            v = v2;
        }
    }
    *rec = v;
    return r;
}

/* log2(x) in 1/1024ths, x >= 1. */
uint64_t wai_me_log2_q10(uint64_t x);

/* E10 mc_predict for one block, exactly as the decoder forms it (§3,
 * reading R11): out holds bh rows of bw pixels. half: the vector is in
 * half pels. */
void wai_me_predict_block(const wai_me_geom *g, const uint8_t *prev, uint32_t y0, uint32_t x0,
                          uint32_t bh, uint32_t bw, int32_t dy, int32_t dx, int half,
                          uint8_t *out);

/* cost[WAI_ME_HIST_LEN]: the rate term's residual costs (Q10 bits) from
 * the inter frames' residuals coded so far (inter_hist). */
void wai_me_rate_costs(const uint64_t *inter_hist, uint32_t *cost);

/* The block's vector, in the payload's units (half pels when half), by
 * SAD alone and with the rate term. scratch holds one block's prediction. */
void wai_me_search_sad(const wai_me_geom *g, const uint8_t *prev, const uint8_t *src, uint32_t y0,
                       uint32_t x0, uint32_t bh, uint32_t bw, uint32_t radius, int half,
                       uint8_t *scratch, int16_t *vy, int16_t *vx);
void wai_me_search_rd(const wai_me_geom *g, const uint8_t *prev, const uint8_t *src, uint32_t y0,
                      uint32_t x0, uint32_t bh, uint32_t bw, uint32_t radius, int half,
                      const wai_me_rate *m, uint8_t *scratch, int16_t *vy, int16_t *vx);

#endif
