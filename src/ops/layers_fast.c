/* Fast (transposed) convolution; see layers_fast.h (the inverse GDN is
 * layers_fast_igdn.c).
 *
 * Both convolutions run as tiles of TW output columns times up to OB output
 * channels. For one output row and tile, each input channel contributes a
 * few "terms": a weight per output channel times a contiguous run of TW
 * input values (copied, zero-padded, into a small row buffer), so the inner
 * loop is a broadcast multiply-add over contiguous memory, which the
 * compiler or the AVX2 / AVX-512 loops below vectorise. A transposed
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
 * (choose_mode); the instruction set is the exec's (detected once, when the
 * context was created: ops/cpu.c). */
#include "ops/layers_fast.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/layers_fast_dot.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WAI_FAST_X86 1
#include <immintrin.h>
#else
#define WAI_FAST_X86 0
#endif

#define TW 128  /* output columns per tile, at most */
#define G 32    /* tile widths are whole strips of G columns */
#define OB 16   /* output channels per block */
#define KMAX 8  /* largest k and stride the tiled path takes */
#define NTMAX (KMAX * KMAX) /* terms per input channel (conv_t: rows x taps) */
#define ROWLEN (TW + KMAX)  /* a row buffer: the tile plus (k-1)/s columns */

/* ---- shared checks (as the reference's) ------------------------------------ */

/* ---- the accumulation mode ------------------------------------------------- */

typedef struct acc_mode {
    int narrow;   /* 1: i32 accumulation */
    size_t chunk; /* input channels per i32 chunk (narrow only) */
    int isa;      /* a WAI_FAST_ISA_* level */
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
                            size_t blocks, size_t taps, size_t cin, int isa) {
    const uint64_t lim = (uint64_t)INT32_MAX;
    acc_mode m = {0, 0, isa, a <= lim};
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

/* ---- inner kernels: acc[ob][t] += sum_j wts[ob][j] * xp[j][t], t < tw ------------
 *
 * tw is a multiple of G; the SIMD forms work in strips of G columns so their
 * accumulators stay in registers across all terms. */

static void core_i64(int64_t *acc, size_t nob, const int64_t *const *xp, const int64_t *wts,
                     size_t nt, size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        int64_t *a = acc + ob * TW;
        const int64_t *wv = wts + ob * NTMAX;
        for (size_t j = 0; j < nt; j++) {
            const int64_t c = wv[j], *p = xp[j];
            for (size_t t = 0; t < tw; t++) a[t] += c * p[t];
        }
    }
}

static void core_i32(int32_t *acc, size_t nob, const int32_t *const *xp, const int32_t *wts,
                     size_t nt, size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        int32_t *a = acc + ob * TW;
        const int32_t *wv = wts + ob * NTMAX;
        for (size_t j = 0; j < nt; j++) {
            const int32_t c = wv[j], *p = xp[j];
            for (size_t t = 0; t < tw; t++) a[t] += c * p[t];
        }
    }
}

#if WAI_FAST_X86
/* _mm*_mullo_epi32 keeps the low 32 bits of each product, which is the
 * product itself here (the mode proved it fits i32). */
__attribute__((target("avx2"))) static void core_i32_avx2(int32_t *acc, size_t nob,
                                                           const int32_t *const *xp,
                                                           const int32_t *wts, size_t nt,
                                                           size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        const int32_t *wv = wts + ob * NTMAX;
        for (size_t t0 = 0; t0 < tw; t0 += G) {
            int32_t *a = acc + ob * TW + t0;
            __m256i r[G / 8];
            for (int v = 0; v < G / 8; v++)
                r[v] = _mm256_loadu_si256((const __m256i *)(a + 8 * v));
            for (size_t j = 0; j < nt; j++) {
                const __m256i c = _mm256_set1_epi32(wv[j]);
                const int32_t *p = xp[j] + t0;
                for (int v = 0; v < G / 8; v++)
                    r[v] = _mm256_add_epi32(
                        r[v],
                        _mm256_mullo_epi32(c, _mm256_loadu_si256((const __m256i *)(p + 8 * v))));
            }
            for (int v = 0; v < G / 8; v++) _mm256_storeu_si256((__m256i *)(a + 8 * v), r[v]);
        }
    }
}

/* One AVX-512 broadcast multiply-add loop, for each lane type and multiply:
 * LANES values of T per register, SET1 broadcasts a weight, MUL multiplies
 * (its result is the exact product: see each use), ADD accumulates. */
#define CORE_AVX512(NAME, TARGET, T, LANES, SET1, MUL, ADD)                               \
    __attribute__((target(TARGET))) static void NAME(T *acc, size_t nob, const T *const *xp, \
                                                     const T *wts, size_t nt, size_t tw) {   \
        for (size_t ob = 0; ob < nob; ob++) {                                                \
            const T *wv = wts + ob * NTMAX;                                                  \
            for (size_t t0 = 0; t0 < tw; t0 += G) {                                          \
                T *a = acc + ob * TW + t0;                                                   \
                __m512i r[G / LANES];                                                        \
                for (int v = 0; v < G / LANES; v++) r[v] = _mm512_loadu_si512(a + LANES * v); \
                for (size_t j = 0; j < nt; j++) {                                            \
                    const __m512i c = SET1(wv[j]);                                           \
                    const T *p = xp[j] + t0;                                                 \
                    for (int v = 0; v < G / LANES; v++)                                      \
                        r[v] = ADD(r[v], MUL(c, _mm512_loadu_si512(p + LANES * v)));         \
                }                                                                            \
                for (int v = 0; v < G / LANES; v++) _mm512_storeu_si512(a + LANES * v, r[v]); \
            }                                                                                \
        }                                                                                    \
    }

/* i32 accumulators: vpmulld keeps the low 32 bits, the product itself (the
 * mode proved it fits i32). */
CORE_AVX512(core_i32_avx512, "avx512f", int32_t, 16, _mm512_set1_epi32, _mm512_mullo_epi32,
            _mm512_add_epi32)

/* i64 accumulators. AVX-512DQ multiplies 64-bit lanes outright (the low 64
 * bits of the product, which is the product: the bound keeps it in i64).
 * AVX2 has only 32x32->64 (vpmuldq: the low halves, sign-extended), exact
 * when every x fits i32 (the weights are i16). */
CORE_AVX512(core_i64_avx512, "avx512f,avx512dq", int64_t, 8, _mm512_set1_epi64,
            _mm512_mullo_epi64, _mm512_add_epi64)

/* As above when every x fits i32: vpmuldq (32x32->64) is the cheaper
 * multiply (measured: 196 vs 257 ms on bench_layers' conv_t2d). */
CORE_AVX512(core_i64x32_avx512, "avx512f", int64_t, 8, _mm512_set1_epi64, _mm512_mul_epi32,
            _mm512_add_epi64)

__attribute__((target("avx2"))) static void core_i64x32_avx2(int64_t *acc, size_t nob,
                                                              const int64_t *const *xp,
                                                              const int64_t *wts, size_t nt,
                                                              size_t tw) {
    for (size_t ob = 0; ob < nob; ob++) {
        const int64_t *wv = wts + ob * NTMAX;
        for (size_t t0 = 0; t0 < tw; t0 += G) {
            int64_t *a = acc + ob * TW + t0;
            __m256i r[G / 4];
            for (int v = 0; v < G / 4; v++)
                r[v] = _mm256_loadu_si256((const __m256i *)(a + 4 * v));
            for (size_t j = 0; j < nt; j++) {
                const __m256i c = _mm256_set1_epi64x(wv[j]);
                const int64_t *p = xp[j] + t0;
                for (int v = 0; v < G / 4; v++)
                    r[v] = _mm256_add_epi64(
                        r[v],
                        _mm256_mul_epi32(c, _mm256_loadu_si256((const __m256i *)(p + 4 * v))));
            }
            for (int v = 0; v < G / 4; v++) _mm256_storeu_si256((__m256i *)(a + 4 * v), r[v]);
        }
    }
}
#endif

static void run_core_i64(const acc_mode *md, int64_t *acc, size_t nob, const int64_t *const *xp,
                         const int64_t *wts, size_t nt, size_t tw) {
#if WAI_FAST_X86
    if (md->isa >= WAI_FAST_ISA_AVX512) {
        if (md->x32)
            core_i64x32_avx512(acc, nob, xp, wts, nt, tw);
        else
            core_i64_avx512(acc, nob, xp, wts, nt, tw);
        return;
    }
    if (md->isa >= WAI_FAST_ISA_AVX2 && md->x32) {
        core_i64x32_avx2(acc, nob, xp, wts, nt, tw);
        return;
    }
#endif
    (void)md;
    core_i64(acc, nob, xp, wts, nt, tw);
}

static void run_core_i32(const acc_mode *md, int32_t *acc, size_t nob, const int32_t *const *xp,
                         const int32_t *wts, size_t nt, size_t tw) {
#if WAI_FAST_X86
    if (md->isa >= WAI_FAST_ISA_AVX512) {
        core_i32_avx512(acc, nob, xp, wts, nt, tw);
        return;
    }
    if (md->isa >= WAI_FAST_ISA_AVX2) {
        core_i32_avx2(acc, nob, xp, wts, nt, tw);
        return;
    }
#endif
    (void)md;
    core_i32(acc, nob, xp, wts, nt, tw);
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
    if (md->narrow)
        run_core_i32(md, tl->acc32, nob, tl->xp32, tl->w.w32, nt, tw);
    else
        run_core_i64(md, tl->acc64, nob, tl->xp64, tl->w.w64, nt, tw);
}

static void set_weight(tile *tl, int narrow, size_t idx, int16_t v) {
    if (narrow)
        tl->w.w32[idx] = v;
    else
        tl->w.w64[idx] = v;
}

/* ---- convolution -------------------------------------------------------------- */

wai_status wai_conv2d_fast(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                           const int64_t *x, uint32_t h, uint32_t w,
                           int64_t *y, uint32_t oh, uint32_t ow) {
    return wai_conv2d_fast_ex(NULL, l, sums, shift, x, h, w, y, oh, ow, WAI_FAST_ISA_BEST);
}

wai_status wai_conv2d_fast_isa(const wai_layer *l, const uint64_t *sums, uint32_t shift,
                               const int64_t *x, uint32_t h, uint32_t w, int64_t *y, uint32_t oh,
                               uint32_t ow, int isa_cap) {
    return wai_conv2d_fast_ex(NULL, l, sums, shift, x, h, w, y, oh, ow, isa_cap);
}

/* One tiled convolution, shared read-only by its threads. */
typedef struct conv_job {
    const wai_layer *l;
    uint32_t shift;
    const int64_t *x;
    int64_t *y;
    size_t h, w, oh, ow;
    acc_mode md;
    unsigned nthr;
} conv_job;

/* Output row oy of output channels o0 .. o0 + nob - 1 through the tile tl
 * (its term pointers already set). */
static void conv_row(const conv_job *j, tile *tl, size_t o0, size_t nob, size_t oy) {
    const wai_layer *l = j->l;
    const acc_mode md = j->md;
    const size_t k = l->k, cin = l->cin, s = l->stride, pad = l->pad;
    const size_t kk = k * k, dk = (k - 1) / s, nph = s < k ? s : k;
    const size_t h = j->h, w = j->w, oh = j->oh, ow = j->ow;
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
        if (md.narrow) flush32(tl, nob, tw);
        size_t n = ow - t0 < TW ? ow - t0 : TW;
        for (size_t ob = 0; ob < nob; ob++) {
            size_t o = o0 + ob;
            for (size_t tt = 0; tt < n; tt++)
                j->y[(o * oh + oy) * ow + t0 + tt] =
                    wai_requantize(tl->acc64[ob * TW + tt], l->mult[o], j->shift, l->bias[o]);
        }
    }
}

/* Share t of the rows: a contiguous run of output rows, every channel
 * block, in its own tile (each output computed whole by one share, by the
 * same steps whatever the split). */
static void conv_share(void *arg, unsigned t) {
    const conv_job *j = arg;
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

wai_status wai_conv2d_fast_ex(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                              uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                              int64_t *y, uint32_t oh, uint32_t ow, int isa_cap) {
    size_t n_in, n_out;
    if (!wai_conv2d_args_ok(l, h, w, oh, ow, &n_in, &n_out)) return WAI_invalid_argument;
    if (l->k > KMAX || l->stride > KMAX)
        return wai_conv2d_ref(l, sums, shift, x, h, w, y, oh, ow);
    uint64_t a = wai_max_abs_i64(x, n_in);
    /* Refusals come before any thread starts. */
    wai_status st = wai_bound_conv(a, sums, l->mult, l->bias, l->cout, shift);
    if (st != WAI_ok) return st;
    conv_job j = {l, shift, x, y, h, w, oh, ow,
                  choose_mode(a, sums, l->cout, l->weights, (size_t)l->cout * l->cin,
                              (size_t)l->k * l->k, l->cin, wai_exec_isa(ex, isa_cap)),
                  wai_exec_threads(ex)};
    if (j.nthr > oh) j.nthr = oh ? oh : 1;
    if (j.nthr > WAI_THREADS_MAX) j.nthr = WAI_THREADS_MAX;
    wai_exec_run(ex, j.nthr, conv_share, &j);
    return WAI_ok;
}

/* ---- transposed convolution ------------------------------------------------------ */

wai_status wai_conv_t2d_fast(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                             uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                             int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow) {
    return wai_conv_t2d_fast_isa(ex, l, sums, shift, x, h, w, scratch, y, oh, ow,
                                 WAI_FAST_ISA_BEST);
}

/* One tiled transposed convolution, shared read-only by its threads. */
typedef struct convt_job {
    const wai_layer *l;
    uint32_t shift;
    const int64_t *x;
    int64_t *y;
    size_t h, w, oh, ow;
    acc_mode md;
    unsigned nthr;
} convt_job;

/* Output row oy, output channels o0 .. o0 + nob - 1, every column phase,
 * through the tile tl. */
static void convt_row(const convt_job *j, tile *tl, size_t o0, size_t nob, size_t oy) {
    const wai_layer *l = j->l;
    const acc_mode md = j->md;
    const size_t k = l->k, cin = l->cin, cout = l->cout, s = l->stride, pad = l->pad;
    const size_t kk = k * k, dmax = (k - 1) / s, h = j->h, w = j->w, oh = j->oh, ow = j->ow;
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
            if (md.narrow) flush32(tl, nob, tw);
            size_t n = t_end - t0 < TW ? t_end - t0 : TW;
            for (size_t ob = 0; ob < nob; ob++) {
                size_t o = o0 + ob;
                int64_t *yr = j->y + (o * oh + oy) * ow;
                for (size_t tt = 0; tt < n; tt++)
                    yr[(t0 + tt) * s + q - pad] =
                        wai_requantize(tl->acc64[ob * TW + tt], l->mult[o], j->shift, l->bias[o]);
            }
        }
    }
}

/* Share t of the rows: a contiguous run of output rows, every channel
 * block, in its own tile (each output is computed whole by one share, by
 * the same steps whatever the split). */
static void convt_share(void *arg, unsigned t) {
    const convt_job *j = arg;
    const size_t y0 = j->oh * t / j->nthr, y1 = j->oh * (t + 1) / j->nthr;
    tile tl;
    for (size_t o0 = 0; o0 < j->l->cout; o0 += OB) {
        size_t nob = j->l->cout - o0 < OB ? j->l->cout - o0 : OB;
        for (size_t oy = y0; oy < y1; oy++) convt_row(j, &tl, o0, nob, oy);
    }
}

wai_status wai_conv_t2d_fast_isa(const wai_exec *ex, const wai_layer *l, const uint64_t *sums,
                                 uint32_t shift, const int64_t *x, uint32_t h, uint32_t w,
                                 int64_t *scratch, int64_t *y, uint32_t oh, uint32_t ow,
                                 int isa_cap) {
    uint32_t uh, uw;
    size_t n_in, n_u, n_out;
    if (!wai_conv_t2d_args_ok(l, h, w, oh, ow, &uh, &uw, &n_in, &n_u, &n_out))
        return WAI_invalid_argument;
    if (l->k > KMAX || l->stride > KMAX)
        return wai_conv_t2d_ref(l, sums, shift, x, h, w, scratch, y, oh, ow);
    uint64_t a = wai_max_abs_i64(x, n_in);
    /* Refusals come before any thread starts. */
    wai_status st = wai_bound_conv(a, sums, l->mult, l->bias, l->cout, shift);
    if (st != WAI_ok) return st;

    const int isa = wai_exec_isa(ex, isa_cap);
    if (wai_conv_t2d_dot(ex, l, shift, x, h, w, y, oh, ow, a, isa)) return WAI_ok;

    convt_job j = {l, shift, x, y, h, w, oh, ow,
                   choose_mode(a, sums, l->cout, l->weights, (size_t)l->cin * l->cout,
                               (size_t)l->k * l->k, l->cin, wai_exec_isa(ex, isa_cap)),
                   wai_exec_threads(ex)};
    if (j.nthr > oh) j.nthr = oh ? oh : 1;
    if (j.nthr > WAI_THREADS_MAX) j.nthr = WAI_THREADS_MAX;
    wai_exec_run(ex, j.nthr, convt_share, &j);
    return WAI_ok;
}
