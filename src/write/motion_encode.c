/* SPDX-License-Identifier: BSD-2-Clause */
/* The WIV1 motion encoder (include/wai/wai_write.h). */
#include "wai/wai_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/pool.h"
#include "entropy/cdf.h"
#include "formats/wiv1.h"
#include "write/motion_search.h"
#include "write/payloads.h"
#include "write/rans_encode.h"

/* The caps of integer-payloads §7 (reading R4: equality allowed). Checked
 * here, before any buffer is sized from them; the writer checks them again. */
#define CAP_ELEMENTS ((uint64_t)1 << 26)
#define CAP_CLIP_BYTES ((uint64_t)1 << 30)
#define CAP_FRAMES ((uint64_t)1 << 20)

void wai_motion_encode_params_default(wai_motion_encode_params *p) {
    memset(p, 0, sizeof *p);
    p->q = 1;
    p->block = 16;
    p->search = 8;
    p->n_threads = 1;
}

/* ---- the residual table ---------------------------------------------------
 * The window [lo, hi] of residuals coded directly is the one whose estimated
 * size is least: the table's 32 bits an entry, each direct residual's
 * -log2(count / total), and each escaped one's escape symbol plus its 4-bit
 * count group and raw groups (§2). The estimate is in 1/1024 bits, with an
 * integer log2, so the choice is the same on every target. */

typedef struct hist_sums {
    uint64_t count[WAI_ME_HIST_LEN + 1];    /* count[i]: residuals at indices < i */
    uint64_t clogc[WAI_ME_HIST_LEN + 1];    /* the same of c * log2 c, Q10 */
    uint64_t total;
} hist_sums;

/* Residuals at indices a..b inclusive, either end clamped to the histogram. */
static uint64_t count_in(const hist_sums *s, int64_t a, int64_t b) {
    if (a < 0) a = 0;
    if (b > WAI_ME_HIST_LEN - 1) b = WAI_ME_HIST_LEN - 1;
    return a > b ? 0 : s->count[b + 1] - s->count[a];
}

static uint64_t window_cost(const hist_sums *s, int64_t lo, int64_t hi) {
    uint64_t lt = wai_me_log2_q10(s->total);
    uint64_t d = count_in(s, lo, hi), e = s->total - d;
    uint64_t bits = d * lt - (s->clogc[hi + 1] - s->clogc[lo]);
    bits += (uint64_t)32 * 1024 * (uint64_t)(hi - lo + 3);
    if (e) {
        bits += e * lt - e * wai_me_log2_q10(e);
        /* Above the window raw = 2 (r - hi - 1): 0 groups at hi + 1, one up
         * to hi + 8, two up to hi + 128, three beyond. Below it raw =
         * 2 (lo - r - 1) + 1: one group down to lo - 8, two down to lo - 128. */
        int64_t top = WAI_ME_HIST_LEN - 1;
        uint64_t groups = count_in(s, hi + 1, top) + count_in(s, hi + 2, top) +
                          count_in(s, hi + 9, top) + count_in(s, hi + 129, top) +
                          2 * count_in(s, 0, lo - 1) + count_in(s, 0, lo - 9) +
                          count_in(s, 0, lo - 129);
        bits += (uint64_t)4 * 1024 * groups;
    }
    return bits;
}

/* Frequencies summing to 2^16, each at least 1, roughly proportional to the
 * counts: scale down, then give the rounding's surplus to, or take its
 * deficit from, the largest entries. */
static void normalise(const uint64_t *counts, uint32_t n_freq, uint64_t total, uint32_t *freq) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < n_freq; i++) {
        uint64_t f = total ? counts[i] * WAI_CDF_TOTAL / total : 0;
        freq[i] = f ? (uint32_t)f : 1;
        sum += freq[i];
    }
    int64_t diff = (int64_t)WAI_CDF_TOTAL - sum;
    while (diff != 0) {
        uint32_t big = 0;
        for (uint32_t i = 1; i < n_freq; i++)
            if (freq[i] > freq[big]) big = i;
        if (diff > 0) {
            freq[big] += (uint32_t)diff;
            diff = 0;
        } else {
            /* n_freq <= 4096 entries of at least 1 leave room below 2^16. */
            uint32_t take = freq[big] - 1 < (uint64_t)-diff ? freq[big] - 1 : (uint32_t)-diff;
            freq[big] -= take;
            diff += take;
        }
    }
}

/* Chooses the window and writes the table: cdf[0..*n). */
static void build_table(const uint64_t *hist, uint32_t *cdf, uint32_t *n, int32_t *offset) {
    hist_sums s;
    s.count[0] = 0;
    s.clogc[0] = 0;
    int64_t vmin = -1, vmax = -1;
    for (int64_t i = 0; i < WAI_ME_HIST_LEN; i++) {
        uint64_t c = hist[i];
        s.count[i + 1] = s.count[i] + c;
        s.clogc[i + 1] = s.clogc[i] + (c ? c * wai_me_log2_q10(c) : 0);
        if (c) {
            if (vmin < 0) vmin = i;
            vmax = i;
        }
    }
    s.total = s.count[WAI_ME_HIST_LEN];
    int64_t lo = WAI_ME_R_MAX, hi = WAI_ME_R_MAX; /* no residual at all: a window at 0 */
    if (vmin >= 0) {
        uint64_t best = UINT64_MAX;
        for (int64_t a = vmin; a <= vmax; a++) {
            for (int64_t b = a; b <= vmax; b++) {
                uint64_t cost = window_cost(&s, a, b);
                if (cost < best) {
                    best = cost;
                    lo = a;
                    hi = b;
                }
            }
        }
    }
    uint32_t len = (uint32_t)(hi - lo + 3);
    uint64_t counts[WAI_ME_HIST_LEN + 1];
    for (int64_t i = lo; i <= hi; i++) counts[i - lo] = hist[i];
    counts[len - 2] = s.total - count_in(&s, lo, hi);
    uint32_t freq[WAI_ME_HIST_LEN + 1];
    normalise(counts, len - 1, s.total, freq);
    cdf[0] = 0;
    for (uint32_t i = 0; i + 1 < len; i++) cdf[i + 1] = cdf[i] + freq[i];
    *n = len;
    *offset = (int32_t)(lo - WAI_ME_R_MAX);
}

/* ---- the clip ---------------------------------------------------------- */

static wai_status check_caps(uint32_t n_frames, uint32_t h, uint32_t w, uint32_t block) {
    if (h > CAP_ELEMENTS || w > CAP_ELEMENTS) return WAI_too_large;
    uint64_t frame = (uint64_t)h * w * 3;
    if (frame > CAP_ELEMENTS) return WAI_too_large;
    if (frame * n_frames > CAP_CLIP_BYTES) return WAI_too_large;
    if (n_frames > CAP_FRAMES) return WAI_too_large;
    uint64_t nb = wai_blocks_per_frame(h, w, n_frames > 1 ? block : 1);
    if (2 * nb * (n_frames - 1) > CAP_ELEMENTS) return WAI_too_large;
    return WAI_ok;
}

typedef struct enc_state {
    wai_me_geom g;
    uint32_t q, block, radius;
    int half;
    int search;             /* 0: the vectors are given (a second pass) */
    int sad_search;         /* 1: vectors by SAD alone, no rate term */
    uint64_t *inter_hist;   /* WAI_ME_HIST_LEN: the residuals of inter frames coded so far */
    uint32_t *cost;         /* WAI_ME_HIST_LEN: wai_me_rate_costs of them, for the frame in hand */
    unsigned n_threads;
    wai_pool *pool;         /* the encode's threads, started once for all its frames */
    size_t scratch_bytes;   /* one block's prediction */
    uint8_t *scratch;       /* n_threads of them */
} enc_state;

/* The motion search of one frame, shared by block rows: thread i takes
 * rows i, i + n, ... with its own scratch. Each block's search reads only
 * prev and src, so the vectors do not depend on the count. */
typedef struct search_job {
    const enc_state *e;
    const uint8_t *src, *prev;
    int16_t *vectors;
    uint32_t nbx;
    wai_me_rate m;
} search_job;

static void search_rows(void *arg, unsigned i) {
    const search_job *j = arg;
    const enc_state *e = j->e;
    const wai_me_geom *g = &e->g;
    uint32_t b = e->block;
    uint8_t *scratch = e->scratch + (size_t)i * e->scratch_bytes;
    uint32_t row = 0;
    for (uint32_t y0 = 0; y0 < g->h; y0 += b, row++) {
        if (row % e->n_threads != i) continue;
        uint32_t bh = g->h - y0 < b ? g->h - y0 : b;
        size_t k = (size_t)row * j->nbx;
        for (uint32_t x0 = 0; x0 < g->w; x0 += b, k++) {
            uint32_t bw = g->w - x0 < b ? g->w - x0 : b;
            int16_t vy, vx;
            if (e->sad_search)
                wai_me_search_sad(g, j->prev, j->src, y0, x0, bh, bw, e->radius, e->half, scratch,
                                 &vy, &vx);
            else
                wai_me_search_rd(g, j->prev, j->src, y0, x0, bh, bw, e->radius, e->half, &j->m,
                                scratch, &vy, &vx);
            j->vectors[2 * k] = vy;
            j->vectors[2 * k + 1] = vx;
        }
    }
}

/* Codes frame f's samples: pred is 128 for frame 0, else the block's motion
 * compensated prediction from prev. Writes residuals, the reconstruction and
 * the vectors; returns the frame's SSE. */
static uint64_t code_frame(const enc_state *e, const uint8_t *src, const uint8_t *prev,
                           int16_t *vectors, int32_t *res, uint8_t *rec, uint64_t *hist) {
    const wai_me_geom *g = &e->g;
    int32_t q = (int32_t)e->q;
    uint64_t sse = 0;
    if (!prev) {
        size_t n = (size_t)g->h * g->stride;
        for (size_t i = 0; i < n; i++) {
            res[i] = wai_me_quantise(src[i], 128, q, &rec[i]);
            hist[res[i] + WAI_ME_R_MAX]++;
            int32_t d = (int32_t)rec[i] - src[i];
            sse += (uint64_t)(d * d);
        }
        return sse;
    }
    uint32_t b = e->block;
    uint32_t ql = e->q < WAI_ME_RD_Q_CAP ? e->q : WAI_ME_RD_Q_CAP;
    search_job job = {e, src, prev, vectors, (g->w + b - 1) / b, {e->cost, q, (uint64_t)ql * ql}};
    if (e->search) {
        if (!e->sad_search) wai_me_rate_costs(e->inter_hist, e->cost);
        wai_pool_run(e->pool, e->n_threads, search_rows, &job);
    }
    size_t k = 0;
    for (uint32_t y0 = 0; y0 < g->h; y0 += b) {
        uint32_t bh = g->h - y0 < b ? g->h - y0 : b;
        for (uint32_t x0 = 0; x0 < g->w; x0 += b, k++) {
            uint32_t bw = g->w - x0 < b ? g->w - x0 : b;
            int16_t vy = vectors[2 * k], vx = vectors[2 * k + 1];
            wai_me_predict_block(g, prev, y0, x0, bh, bw, vy, vx, e->half, e->scratch);
            for (uint32_t by = 0; by < bh; by++) {
                size_t at = (size_t)(y0 + by) * g->stride + (size_t)x0 * 3;
                const uint8_t *p = e->scratch + (size_t)by * bw * 3;
                for (uint32_t i = 0; i < bw * 3; i++) {
                    res[at + i] = wai_me_quantise(src[at + i], p[i], q, &rec[at + i]);
                    hist[res[at + i] + WAI_ME_R_MAX]++;
                    e->inter_hist[res[at + i] + WAI_ME_R_MAX]++;
                    int32_t d = (int32_t)rec[at + i] - src[at + i];
                    sse += (uint64_t)(d * d);
                }
            }
        }
    }
    return sse;
}

void wai_motion_encode_result_free(const wai_allocator *a, wai_motion_encode_result *res) {
    if (!res) return;
    wai_free(a, res->payload);
    wai_free(a, res->frame_sse);
    memset(res, 0, sizeof *res);
}

/* One closed-loop pass at step q, its vectors searched into vectors (n_vec
 * entries) when search is set, else read from it; progress is reported by
 * the pass at the step asked for only. */
/* A keyframe-1 clip's frame 0: its WIH1 payload and that payload's decode. */
typedef struct keyframe {
    const uint8_t *payload;
    size_t len;
    const uint8_t *rgb;
} keyframe;

static wai_status encode_pass(const wai_allocator *a, const uint8_t *const *frames,
                              uint32_t n_frames, uint32_t h, uint32_t w, const keyframe *key,
                              const wai_motion_encode_params *p, uint32_t q, int search,
                              int16_t *vectors, wai_motion_encode_result *res) {
    wai_status st = WAI_ok;
    /* A one-frame clip codes no vector and is written with block 1 and
     * whole-pel precision (§3). */
    uint32_t block = n_frames > 1 ? p->block : 1;
    int half = n_frames > 1 && p->half_pel;
    enc_state e;
    e.g.h = h;
    e.g.w = w;
    e.g.stride = (size_t)w * 3;
    e.q = q;
    e.block = block;
    e.radius = p->search;
    e.half = half;
    e.search = search;
    e.sad_search = p->sad_search != 0;
    size_t frame = (size_t)h * w * 3;
    uint64_t nb = wai_blocks_per_frame(h, w, block);
    size_t n_vec = (size_t)(2 * nb * (n_frames - 1));
    uint32_t bh = block < h ? block : h, bw = block < w ? block : w;
    /* No more threads than block rows. */
    uint64_t rows = ((uint64_t)h + block - 1) / block;
    e.n_threads = wai_threads_resolve(p->n_threads);
    if (e.n_threads > rows) e.n_threads = (unsigned)rows;
    e.scratch_bytes = (size_t)bh * bw * 3;

    int32_t *symbols = wai_alloc_array(a, frame, (size_t)n_frames * sizeof *symbols);
    uint8_t *rec_a = wai_alloc(a, frame), *rec_b = wai_alloc(a, frame);
    e.scratch = wai_alloc_array(a, e.scratch_bytes, e.n_threads);
    e.pool = NULL;
    if (e.n_threads > 1 && wai_pool_create(a, e.n_threads, &e.pool) != WAI_ok) e.pool = NULL;
    uint64_t *frame_sse = wai_alloc_zeroed(a, n_frames, sizeof *frame_sse);
    uint64_t *hist = wai_alloc_zeroed(a, WAI_ME_HIST_LEN, sizeof *hist);
    e.inter_hist = wai_alloc_zeroed(a, WAI_ME_HIST_LEN, sizeof *e.inter_hist);
    e.cost = wai_alloc_array(a, WAI_ME_HIST_LEN, sizeof *e.cost);
    uint32_t *cdf = wai_alloc_array(a, WAI_ME_HIST_LEN + 2, sizeof *cdf);
    uint8_t *stream = NULL, *payload = NULL;
    size_t stream_len = 0, payload_len = 0;
    if (!symbols || (n_vec && !vectors) || !rec_a || !rec_b || !e.scratch || !frame_sse ||
        !hist || !e.inter_hist || !e.cost || !cdf) {
        st = WAI_out_of_memory;
        goto done;
    }

    uint64_t sse = 0;
    const uint8_t *prev = NULL;
    uint8_t *cur = rec_a;
    /* A keyframe reads no residual: frame 0 is its decode, and the stream
     * starts at frame 1. */
    const uint32_t first = key ? 1 : 0;
    if (key) {
        for (size_t i = 0; i < frame; i++) {
            int32_t d = (int32_t)key->rgb[i] - frames[0][i];
            frame_sse[0] += (uint64_t)(d * d);
        }
        sse = frame_sse[0];
        prev = key->rgb;
        if (p->progress && q == p->q) p->progress(p->progress_opaque, 0, n_frames);
    }
    for (uint32_t f = first; f < n_frames; f++) {
        int16_t *fv = f ? vectors + (size_t)(f - 1) * 2 * (size_t)nb : NULL;
        frame_sse[f] = code_frame(&e, frames[f], prev, fv, symbols + (size_t)(f - first) * frame,
                                  cur, hist);
        sse += frame_sse[f];
        prev = cur;
        cur = cur == rec_a ? rec_b : rec_a;
        if (p->progress && q == p->q) p->progress(p->progress_opaque, f, n_frames);
    }

    uint32_t cdf_len;
    int32_t offset;
    build_table(hist, cdf, &cdf_len, &offset);
    if (!wai_cdf_valid(cdf, cdf_len, WAI_CDF_T4097)) {
        st = WAI_invalid_argument; /* unreachable: build_table keeps the rules */
        goto done;
    }
    wai_cdf_table t;
    if ((st = wai_cdf_table_init(&t, a, cdf, cdf_len, 12)) != WAI_ok) goto done;
    st = wai_rans_encode(a, &t, NULL, NULL, offset, symbols, frame * (n_frames - first), &stream,
                         &stream_len);
    wai_cdf_table_free(&t, a);
    if (st != WAI_ok) goto done;

    wai_wiv1_parts parts;
    memset(&parts, 0, sizeof parts);
    parts.mv_precision = half ? 2 : 1;
    parts.keyframe = key ? 1 : 0;
    parts.key = key ? key->payload : NULL;
    parts.key_len = key ? key->len : 0;
    parts.n_frames = n_frames;
    parts.h = h;
    parts.w = w;
    parts.block = block;
    parts.q = q;
    parts.offset = offset;
    parts.cdf = cdf;
    parts.cdf_len = cdf_len;
    parts.vectors = vectors;
    parts.stream = stream;
    parts.stream_len = stream_len;
    if ((st = wai_wiv1_write(a, &parts, &payload, &payload_len)) != WAI_ok) goto done;

    res->payload = payload;
    res->payload_len = payload_len;
    res->n_frames = n_frames;
    res->h = h;
    res->w = w;
    res->pixels = (uint64_t)h * w * n_frames;
    res->samples = 3 * res->pixels;
    res->sse = sse;
    res->frame_sse = frame_sse;
    frame_sse = NULL;
    res->offset = offset;
    res->cdf_len = cdf_len;
    res->q = q;
    res->escapes = 0;
    for (int64_t i = 0; i < WAI_ME_HIST_LEN; i++) {
        int64_t r = i - WAI_ME_R_MAX;
        if (r < offset || r > offset + (int64_t)cdf_len - 3) res->escapes += hist[i];
    }
done:
    wai_free(a, stream);
    wai_free(a, cdf);
    wai_free(a, e.cost);
    wai_free(a, e.inter_hist);
    wai_free(a, hist);
    wai_free(a, frame_sse);
    wai_pool_destroy(e.pool);
    wai_free(a, e.scratch);
    wai_free(a, rec_b);
    wai_free(a, rec_a);
    wai_free(a, symbols);
    return st;
}

static wai_status encode(const wai_allocator *a, const uint8_t *const *frames, uint32_t n_frames,
                         uint32_t h, uint32_t w, const keyframe *key,
                         const wai_motion_encode_params *p, wai_motion_encode_result *res) {
    memset(res, 0, sizeof *res);
    if (!frames || !p || n_frames == 0 || h == 0 || w == 0) return WAI_invalid_argument;
    if (p->q < 1 || p->q > 65535 || p->block < 1 || p->search > WAI_MOTION_ENCODE_MAX_SEARCH)
        return WAI_invalid_argument;
    for (size_t i = 0; i < sizeof p->reserved; i++)
        if (p->reserved[i]) return WAI_invalid_argument;
    for (uint32_t f = 0; f < n_frames; f++)
        if (!frames[f]) return WAI_invalid_argument;
    wai_status st = check_caps(n_frames, h, w, p->block);
    if (st != WAI_ok) return st;
    uint32_t block = n_frames > 1 ? p->block : 1;
    size_t n_vec = (size_t)(2 * wai_blocks_per_frame(h, w, block) * (n_frames - 1));
    int16_t *vectors = n_vec ? wai_alloc_array(a, n_vec, sizeof *vectors) : NULL;
    if (n_vec && !vectors) return WAI_out_of_memory;
    st = encode_pass(a, frames, n_frames, h, w, key, p, p->q, 1, vectors, res);
    /* Never larger than lossless: at q > 1 the clip is coded again as q 1
     * codes it, and the smaller payload is kept, the lossless one on a tie.
     * (Reusing the first pass's vectors would save the second search, but
     * a lossless clip coded with vectors searched against a lossy
     * reconstruction can be larger than q 1's own.) */
    if (st == WAI_ok && p->q > 1) {
        wai_motion_encode_result lossless;
        memset(&lossless, 0, sizeof lossless);
        st = encode_pass(a, frames, n_frames, h, w, key, p, 1, 1, vectors, &lossless);
        if (st == WAI_ok && lossless.payload_len <= res->payload_len) {
            wai_motion_encode_result_free(a, res);
            *res = lossless;
        } else {
            wai_motion_encode_result_free(a, &lossless);
        }
        if (st != WAI_ok) wai_motion_encode_result_free(a, res);
    }
    wai_free(a, vectors);
    return st;
}

wai_status wai_motion_encode(const wai_allocator *a, const uint8_t *const *frames,
                             uint32_t n_frames, uint32_t h, uint32_t w,
                             const wai_motion_encode_params *p, wai_motion_encode_result *res) {
    return encode(a, frames, n_frames, h, w, NULL, p, res);
}

wai_status wai_motion_encode_keyed(const wai_allocator *a, const uint8_t *const *frames,
                                   uint32_t n_frames, uint32_t h, uint32_t w, const uint8_t *key,
                                   size_t key_len, const uint8_t *key_rgb,
                                   const wai_motion_encode_params *p,
                                   wai_motion_encode_result *res) {
    if (!key || !key_len || !key_rgb) {
        if (res) memset(res, 0, sizeof *res);
        return WAI_invalid_argument;
    }
    const keyframe k = {key, key_len, key_rgb};
    return encode(a, frames, n_frames, h, w, &k, p, res);
}
