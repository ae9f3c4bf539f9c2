/* SPDX-License-Identifier: BSD-2-Clause */
/* The motion search of the WIV1 encoder (motion_search.h). */
#include "write/motion_search.h"

/* E10 mc_predict for one block, exactly as the decoder forms it (§3,
 * reading R11): each of the reads clamped on its own. half: the vector is in
 * half pels. out holds bh rows of bw pixels. */
void wai_me_predict_block(const wai_me_geom *g, const uint8_t *prev, uint32_t y0, uint32_t x0,
                          uint32_t bh, uint32_t bw, int32_t dy, int32_t dx, int half,
                          uint8_t *out) {
    int32_t hmax = (int32_t)g->h - 1, wmax = (int32_t)g->w - 1;
    int32_t fy = 0, fx = 0;
    if (half) wai_mv_halves(&dy, &dx, &fy, &fx);
    for (uint32_t by = 0; by < bh; by++) {
        int64_t iy = (int64_t)(y0 + by) + dy;
        const uint8_t *r0 = prev + (size_t)wai_mv_clamp(iy, hmax) * g->stride;
        const uint8_t *r1 = prev + (size_t)wai_mv_clamp(iy + 1, hmax) * g->stride;
        uint8_t *o = out + (size_t)by * bw * 3;
        for (uint32_t bx = 0; bx < bw; bx++) {
            int64_t ix = (int64_t)(x0 + bx) + dx;
            size_t c0 = (size_t)wai_mv_clamp(ix, wmax) * 3, c1 = (size_t)wai_mv_clamp(ix + 1, wmax) * 3;
            for (int c = 0; c < 3; c++) {
                int32_t p;
                if (!fy && !fx) p = r0[c0 + c];
                else if (!fy) p = (r0[c0 + c] + r0[c1 + c] + 1) >> 1;
                else if (!fx) p = (r0[c0 + c] + r1[c0 + c] + 1) >> 1;
                else p = (r0[c0 + c] + r0[c1 + c] + r1[c0 + c] + r1[c1 + c] + 2) >> 2;
                o[3 * bx + (uint32_t)c] = (uint8_t)p;
            }
        }
    }
}

/* SAD of a whole-pel candidate, stopping once it exceeds `bound` (a
 * candidate that cannot win or tie needs no exact figure). */
static uint64_t sad_whole(const wai_me_geom *g, const uint8_t *prev, const uint8_t *src,
                          uint32_t y0, uint32_t x0, uint32_t bh, uint32_t bw, int32_t dy,
                          int32_t dx, uint64_t bound) {
    int32_t hmax = (int32_t)g->h - 1, wmax = (int32_t)g->w - 1;
    int64_t xa = (int64_t)x0 + dx, xb = xa + bw - 1;
    int inside = xa >= 0 && xb <= wmax;
    uint64_t sad = 0;
    for (uint32_t by = 0; by < bh; by++) {
        const uint8_t *s = src + (size_t)(y0 + by) * g->stride + (size_t)x0 * 3;
        const uint8_t *r = prev + (size_t)wai_mv_clamp((int64_t)(y0 + by) + dy, hmax) * g->stride;
        if (inside) {
            const uint8_t *p = r + (size_t)xa * 3;
            for (uint32_t i = 0; i < bw * 3; i++) {
                int32_t d = (int32_t)s[i] - (int32_t)p[i];
                sad += (uint32_t)(d < 0 ? -d : d);
            }
        } else {
            for (uint32_t bx = 0; bx < bw; bx++) {
                const uint8_t *p = r + (size_t)wai_mv_clamp(xa + bx, wmax) * 3;
                for (int c = 0; c < 3; c++) {
                    int32_t d = (int32_t)s[3 * bx + (uint32_t)c] - (int32_t)p[c];
                    sad += (uint32_t)(d < 0 ? -d : d);
                }
            }
        }
        if (sad > bound) return sad;
    }
    return sad;
}

static uint64_t sad_pred(const wai_me_geom *g, const uint8_t *src, uint32_t y0, uint32_t x0,
                         uint32_t bh, uint32_t bw, const uint8_t *pred) {
    uint64_t sad = 0;
    for (uint32_t by = 0; by < bh; by++) {
        const uint8_t *s = src + (size_t)(y0 + by) * g->stride + (size_t)x0 * 3;
        const uint8_t *p = pred + (size_t)by * bw * 3;
        for (uint32_t i = 0; i < bw * 3; i++) {
            int32_t d = (int32_t)s[i] - (int32_t)p[i];
            sad += (uint32_t)(d < 0 ? -d : d);
        }
    }
    return sad;
}

static inline uint32_t l1(int32_t dy, int32_t dx) {
    return (uint32_t)(dy < 0 ? -dy : dy) + (uint32_t)(dx < 0 ? -dx : dx);
}

/* One candidate replaces the best when its SAD is smaller, or equal with a
 * smaller |dy| + |dx|; candidates come in raster order, so an equal pair
 * keeps the earlier one. */
static inline int better(uint64_t sad, uint32_t len, uint64_t best_sad, uint32_t best_len) {
    return sad < best_sad || (sad == best_sad && len < best_len);
}

/* The block's vector by SAD alone, in the units of the payload (half pels
 * when half): the search before the rate term, kept for comparisons
 * (wai_motion_encode_params.sad_search). */
void wai_me_search_sad(const wai_me_geom *g, const uint8_t *prev, const uint8_t *src, uint32_t y0,
                       uint32_t x0, uint32_t bh, uint32_t bw, uint32_t radius, int half,
                       uint8_t *scratch, int16_t *vy, int16_t *vx) {
    /* A vector past h - 1 rows (w - 1 columns) reads only clamped edge
     * samples, the same as h - 1 does, with a longer vector: it can never
     * win the tie rule, so the search stops there. */
    int32_t ry = (int32_t)(radius < g->h - 1 ? radius : g->h - 1);
    int32_t rx = (int32_t)(radius < g->w - 1 ? radius : g->w - 1);
    int32_t bdy = 0, bdx = 0;
    uint64_t best = sad_whole(g, prev, src, y0, x0, bh, bw, 0, 0, UINT64_MAX);
    uint32_t best_len = 0;
    for (int32_t dy = -ry; dy <= ry && (best || best_len); dy++) {
        for (int32_t dx = -rx; dx <= rx; dx++) {
            if (!dy && !dx) continue;
            uint32_t len = l1(dy, dx);
            if (!best && len >= best_len) continue; /* cannot win */
            uint64_t s = sad_whole(g, prev, src, y0, x0, bh, bw, dy, dx, best);
            if (better(s, len, best, best_len)) {
                best = s;
                best_len = len;
                bdy = dy;
                bdx = dx;
            }
        }
    }
    if (half) {
        int32_t cy = 2 * bdy, cx = 2 * bdx;
        bdy = cy;
        bdx = cx;
        best_len = l1(cy, cx);
        /* The whole-pel vector first, then its 8 neighbours in raster order. */
        for (int32_t ddy = -1; ddy <= 1; ddy++) {
            for (int32_t ddx = -1; ddx <= 1; ddx++) {
                if (!ddy && !ddx) continue;
                int32_t dy = cy + ddy, dx = cx + ddx;
                if (!best && l1(dy, dx) >= best_len) continue;
                wai_me_predict_block(g, prev, y0, x0, bh, bw, dy, dx, 1, scratch);
                uint64_t s = sad_pred(g, src, y0, x0, bh, bw, scratch);
                uint32_t len = l1(dy, dx);
                if (better(s, len, best, best_len)) {
                    best = s;
                    best_len = len;
                    bdy = dy;
                    bdx = dx;
                }
            }
        }
    }
    /* |vector| <= 2 * 16383 + 1 by the radius cap. */
    *vy = (int16_t)bdy;
    *vx = (int16_t)bdx;
}

/* log2(x) in 1/1024ths, x >= 1: the integer part from the top bit, the
 * fraction by repeated squaring of the mantissa (kept in [1, 2) at Q30). */
uint64_t wai_me_log2_q10(uint64_t x) {
    uint32_t e = 0;
    while ((x >> e) > 1) e++;
    uint64_t y = e >= 30 ? x >> (e - 30) : x << (30 - e);
    uint64_t frac = 0;
    for (int i = 9; i >= 0; i--) {
        y = (y * y) >> 30;
        if (y >= ((uint64_t)1 << 31)) {
            y >>= 1;
            frac |= (uint64_t)1 << i;
        }
    }
    return ((uint64_t)e << 10) | frac;
}

/* ---- the rate term ---------------------------------------------------------
 * A vector's cost is J = D + lambda * R over its block: D the squared error
 * of the samples the decoder will reconstruct, R the bits of their residuals
 * under the residual costs of the frames coded so far (vectors are raw i16s,
 * the same bits for every one). lambda = ln 2 / 6 * q^2, the slope of a
 * uniform quantiser's D(R) = q^2 / 12 * 2^(-2R) at high rate; held as
 * J = D * 8864 + q^2 * R_q10 (1024 / (ln 2 / 6) = 8864.3; R in 1/1024 bits),
 * all in integers so that every target picks the same vector. The SAD
 * search proposes the candidates and the rate term chooses among them:
 * weighing every vector of the window would cost a quantiser step per
 * sample per vector. */

#define RD_WHOLE 8       /* the whole-pel vectors of least SAD carried over */
#define RD_MAX (RD_WHOLE + 8)
#define RD_D_WEIGHT 8864 /* see above */

/* The costs of frame f's residuals from the inter frames coded before it:
 * -log2((count + 1) / (total + WAI_ME_HIST_LEN)) (every residual
 * possible); before any, the length of a signed exponential-Golomb code, 1 + 2 log2(1 + |r|),
 * a Laplacian's shape. */
void wai_me_rate_costs(const uint64_t *inter_hist, uint32_t *cost) {
    uint64_t total = 0;
    for (int i = 0; i < WAI_ME_HIST_LEN; i++) total += inter_hist[i];
    if (!total) {
        for (int i = 0; i < WAI_ME_HIST_LEN; i++) {
            int32_t r = i - WAI_ME_R_MAX;
            cost[i] = (uint32_t)(1024 + 2 * wai_me_log2_q10((uint64_t)(1 + (r < 0 ? -r : r))));
        }
        return;
    }
    uint64_t lt = wai_me_log2_q10(total + WAI_ME_HIST_LEN);
    for (int i = 0; i < WAI_ME_HIST_LEN; i++)
        cost[i] = (uint32_t)(lt - wai_me_log2_q10(inter_hist[i] + 1));
}

typedef struct candidate {
    uint64_t sad;
    uint32_t len;
    int32_t dy, dx;
} candidate;

/* Inserts c into list (n entries, at most cap, best first by better()). */
static void keep_candidate(candidate *list, unsigned *n, unsigned cap, candidate c) {
    unsigned at = *n;
    while (at > 0 && better(c.sad, c.len, list[at - 1].sad, list[at - 1].len)) at--;
    if (at >= cap) return;
    unsigned last = *n < cap ? *n : cap - 1;
    for (unsigned i = last; i > at; i--) list[i] = list[i - 1];
    list[at] = c;
    if (*n < cap) (*n)++;
}

/* J of one prediction of the block (pred: bh rows of bw pixels). */
static uint64_t rd_cost(const wai_me_geom *g, const uint8_t *src, uint32_t y0, uint32_t x0,
                        uint32_t bh, uint32_t bw, const uint8_t *pred, const wai_me_rate *m) {
    uint64_t sse = 0, bits = 0;
    for (uint32_t by = 0; by < bh; by++) {
        const uint8_t *s = src + (size_t)(y0 + by) * g->stride + (size_t)x0 * 3;
        const uint8_t *p = pred + (size_t)by * bw * 3;
        for (uint32_t i = 0; i < bw * 3; i++) {
            uint8_t rec;
            int32_t r = wai_me_quantise(s[i], p[i], m->q, &rec);
            int32_t d = (int32_t)rec - s[i];
            sse += (uint64_t)(d * d);
            bits += m->cost[r + WAI_ME_R_MAX];
        }
    }
    return sse * RD_D_WEIGHT + m->lambda * bits;
}

/* The block's vector under the rate term, in the units of the payload. A
 * block the zero vector predicts exactly keeps it, as the SAD search does. */
void wai_me_search_rd(const wai_me_geom *g, const uint8_t *prev, const uint8_t *src, uint32_t y0,
                      uint32_t x0, uint32_t bh, uint32_t bw, uint32_t radius, int half,
                      const wai_me_rate *m, uint8_t *scratch, int16_t *vy, int16_t *vx) {
    int32_t ry = (int32_t)(radius < g->h - 1 ? radius : g->h - 1);
    int32_t rx = (int32_t)(radius < g->w - 1 ? radius : g->w - 1);
    candidate list[RD_MAX];
    unsigned n = 0;
    candidate zero = {sad_whole(g, prev, src, y0, x0, bh, bw, 0, 0, UINT64_MAX), 0, 0, 0};
    keep_candidate(list, &n, RD_WHOLE, zero);
    if (zero.sad) {
        for (int32_t dy = -ry; dy <= ry; dy++) {
            for (int32_t dx = -rx; dx <= rx; dx++) {
                if (!dy && !dx) continue;
                uint64_t bound = n < RD_WHOLE ? UINT64_MAX : list[n - 1].sad;
                candidate c = {sad_whole(g, prev, src, y0, x0, bh, bw, dy, dx, bound), l1(dy, dx),
                               dy, dx};
                keep_candidate(list, &n, RD_WHOLE, c);
            }
        }
    }
    int32_t scale = half ? 2 : 1;
    for (unsigned i = 0; i < n; i++) {
        list[i].dy *= scale;
        list[i].dx *= scale;
        list[i].len = l1(list[i].dy, list[i].dx);
    }
    if (half && zero.sad) {
        /* The best whole-pel vector's 8 half-pel neighbours join the list. */
        int32_t cy = list[0].dy, cx = list[0].dx;
        for (int32_t ddy = -1; ddy <= 1; ddy++) {
            for (int32_t ddx = -1; ddx <= 1; ddx++) {
                if (!ddy && !ddx) continue;
                candidate c = {0, l1(cy + ddy, cx + ddx), cy + ddy, cx + ddx};
                list[n++] = c;
            }
        }
    }
    /* The least J; a tie keeps the shorter vector, then the earlier one. */
    uint64_t best = UINT64_MAX;
    uint32_t best_len = 0;
    int32_t bdy = 0, bdx = 0;
    for (unsigned i = 0; i < n; i++) {
        wai_me_predict_block(g, prev, y0, x0, bh, bw, list[i].dy, list[i].dx, half, scratch);
        uint64_t j = rd_cost(g, src, y0, x0, bh, bw, scratch, m);
        if (better(j, list[i].len, best, best_len)) {
            best = j;
            best_len = list[i].len;
            bdy = list[i].dy;
            bdx = list[i].dx;
        }
    }
    *vy = (int16_t)bdy;
    *vx = (int16_t)bdx;
}
