/* SPDX-License-Identifier: BSD-2-Clause */
/* The portable inner loops (see cores.h) and the table's init: these C
 * loops first, then every level's file up to the one asked for. */
#include "ops/cores.h"

#include <string.h>

#include "ops/arm/arm.h"
#include "ops/cores_c.h"
#include "ops/wasm/wasm.h"
#include "ops/x86/x86.h"

/* acc[ob][t] += sum_j wts[ob][j] * xp[j][t] (cores.h) in the accumulator's
 * type T: the one loop of both widths. */
#define TAP_BODY(T)                                                                    \
    for (size_t ob = 0; ob < nob; ob++) {                                              \
        T *a = acc + ob * WAI_TAP_TW;                                                  \
        const T *wv = wts + ob * WAI_TAP_NTMAX;                                        \
        for (size_t j = 0; j < nt; j++) {                                              \
            const T c = wv[j], *p = xp[j];                                             \
            for (size_t t = 0; t < tw; t++) a[t] += c * p[t];                          \
        }                                                                              \
    }

static void tap_i64(int64_t *acc, size_t nob, const int64_t *const *xp, const int64_t *wts,
                    size_t nt, size_t tw) {
    TAP_BODY(int64_t)
}

static void tap_i32(int32_t *acc, size_t nob, const int32_t *const *xp, const int32_t *wts,
                    size_t nt, size_t tw) {
    TAP_BODY(int32_t)
}

/* The signed value of a 32-bit residue. */
static int64_t s32_of(uint32_t u) { return (int64_t)(u ^ 0x80000000u) - 0x80000000; }

#define DOT_COLS 32

static void dot(uint64_t *acc64, const int16_t *x, size_t pstride, const ptrdiff_t *toff,
                size_t nt, const int16_t *wp, size_t np, unsigned shl) {
    uint32_t acc[WAI_DOT_NO][DOT_COLS];
    memset(acc, 0, sizeof acc);
    for (size_t p = 0; p < np; p++) {
        for (size_t j = 0; j < nt; j++) {
            const int16_t *xj = x + p * pstride + toff[j];
            const int16_t *wj = wp + (p * nt + j) * WAI_DOT_NO * 2;
            for (size_t o = 0; o < WAI_DOT_NO; o++) {
                const int32_t we = wj[2 * o], wo = wj[2 * o + 1];
                /* Each i16 * i16 product fits i32; their sum is taken in
                 * u32, modulo 2^32 (cores.h). */
                for (size_t t = 0; t < DOT_COLS; t++)
                    acc[o][t] += (uint32_t)(we * xj[2 * t]) + (uint32_t)(wo * xj[2 * t + 1]);
            }
        }
    }
    for (size_t o = 0; o < WAI_DOT_NO; o++)
        for (size_t t = 0; t < DOT_COLS; t++)
            acc64[o * DOT_COLS + t] += (uint64_t)s32_of(acc[o][t]) << shl;
}

static void igdn_acc64(int64_t *acc, const int64_t *x, size_t positions, size_t p0, size_t np,
                       const int32_t *gamma, size_t c, size_t nib) {
    WAI_IGDN_ACC64_BODY
}

/* tap_i64x32 is tap_i64: with x in i32 the same loop is as exact. */
static void rgb8(uint8_t *rgb, const int64_t *planes, size_t hw, size_t i0, size_t i1,
                 uint32_t afrac) {
    wai_rgb8_c(rgb, planes, hw, i0, i1, afrac);
}

static void recon(uint8_t *out, const uint8_t *a, const uint8_t *b, unsigned kind,
                  const int16_t *r, size_t n, int32_t q) {
#define PORTABLE_KIND(KIND, LOOP) LOOP(out, a, b, KIND, r, n, q);
    WAI_RECON_EACH_KIND(kind, PORTABLE_KIND, wai_recon_c)
#undef PORTABLE_KIND
}

static const wai_cores portable = {
    .isa = WAI_FAST_ISA_PORTABLE,
    .tap_i64 = tap_i64,
    .tap_i64x32 = tap_i64,
    .tap_i32 = tap_i32,
    .dot = dot,
    .dot_cols = DOT_COLS,
    .igdn_acc64 = igdn_acc64,
    .igdn_value = wai_igdn_value_c,
    .igdn_limbs = wai_igdn_limbs_c,
    .max_abs = wai_max_abs_i64,
    .requant = wai_requant_c,
    .rgb8 = rgb8,
    .recon = recon,
    .motion_split = 0, /* x86-64: predicting in the rANS chain's shadow is faster */
};

const wai_cores *wai_cores_portable(void) { return &portable; }

/* Each level's file, in its architecture's order; a level fills the loops
 * it makes faster over those of the levels below. A new level is its file
 * and its row. */
static const struct level {
    int isa;
    void (*init)(wai_cores *c);
} levels[] = {
#if WAI_X86_SIMD
    {WAI_FAST_ISA_AVX2, wai_cores_init_avx2},
    {WAI_FAST_ISA_AVX512, wai_cores_init_avx512},
    {WAI_FAST_ISA_AVX512BW, wai_cores_init_avx512bw},
    {WAI_FAST_ISA_VNNI, wai_cores_init_avx512vnni},
#endif
#if WAI_WASM_SIMD
    {WAI_FAST_ISA_WASM128, wai_cores_init_simd128},
#endif
#if WAI_ARM_NEON
    {WAI_FAST_ISA_NEON, wai_cores_init_neon},
#endif
    {WAI_FAST_ISA_PORTABLE, NULL}, /* the portable loops: the table's start */
};

void wai_cores_init(wai_cores *c, int isa) {
    const int cpu = wai_cpu_isa();
    if (isa > cpu) isa = cpu;
    if (isa < WAI_FAST_ISA_PORTABLE) isa = WAI_FAST_ISA_PORTABLE;
    *c = portable;
    c->isa = isa;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (levels[i].init && levels[i].isa <= isa) levels[i].init(c);
}

/* Below this many values one thread scans them (a share's start-up costs
 * more than the scan). */
#define MAX_ABS_SPLIT ((size_t)1 << 18)

typedef struct max_abs_job {
    const int64_t *x;
    size_t n;
    unsigned nthr;
    wai_max_abs_fn fn;
    uint64_t part[WAI_THREADS_MAX]; /* share t's largest, written once */
} max_abs_job;

static void max_abs_share(void *arg, unsigned t) {
    max_abs_job *j = arg;
    size_t i0 = j->n * t / j->nthr, i1 = j->n * (t + 1) / j->nthr;
    j->part[t] = j->fn(j->x + i0, i1 - i0);
}

void wai_exec_note_max_abs(const wai_exec *ex, const int64_t *y, size_t n, uint64_t a) {
    if (!ex || !ex->notes) return;
    wai_amax note = {y, n, a, 1};
    ex->notes->out = note;
}

uint64_t wai_exec_max_abs(const wai_exec *ex, const int64_t *x, size_t n) {
    const wai_amax *h = ex && ex->notes ? &ex->notes->in : NULL;
    if (h && h->known && h->x == x && h->n == n) return h->a;
    const wai_cores *c = wai_exec_cores(ex);
    unsigned nthr = wai_exec_threads(ex);
    if (nthr > WAI_THREADS_MAX) nthr = WAI_THREADS_MAX;
    if (nthr <= 1 || n < MAX_ABS_SPLIT) return c->max_abs(x, n);
    max_abs_job j = {x, n, nthr, c->max_abs, {0}};
    wai_exec_run(ex, nthr, max_abs_share, &j);
    uint64_t a = 0;
    for (unsigned t = 0; t < nthr; t++)
        if (j.part[t] > a) a = j.part[t];
    return a;
}
