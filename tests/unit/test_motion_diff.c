/* SPDX-License-Identifier: BSD-2-Clause */
/* Differential tests in the manner of checkasm: every fast path against its
 * plain reference, bit for bit and status for status, on random inputs. */
#include <stdlib.h>
#include <string.h>

#include "decode/motion.h"
#include "ops/cores.h"
#include "harness.h"

#define SEED 0xd1ff0001
/* Each test sets it from its own stream (harness_stream) before it draws. */
static uint64_t g_seed;

static uint32_t rnd(uint32_t bound) { return (uint32_t)(harness_rand(&g_seed) % bound); }

static void random_table(uint32_t *cdf, uint32_t n) {
    cdf[0] = 0;
    for (uint32_t i = 1; i < n - 1; i++) {
        uint32_t lo = cdf[i - 1] + 1, hi = 65536 - (n - 1 - i);
        uint32_t v = cdf[i - 1] + 1 + rnd(2 * 65536 / (n - 1));
        cdf[i] = v > hi ? hi : v < lo ? lo : v;
    }
    cdf[n - 1] = 65536;
}

/* A random stream of `words` words: it decodes to something, and often runs
 * out, which both paths must report at the same symbol's row. */
static uint8_t *random_stream(size_t words) {
    uint8_t *b = malloc(4 * words);
    for (size_t i = 0; i < 4 * words; i++) b[i] = (uint8_t)rnd(256);
    if (rnd(2)) b[7] |= 0x80; /* often an encoder-form first state */
    return b;
}

/* The local-state decode against wai_rans_decode, at full and reduced
 * lookup resolution, symbol for symbol and state for state. */
static void test_local_matches_symbol_decode(void) {
    int bad = 0;
    g_seed = harness_stream(SEED, 0);
    for (int trial = 0; trial < 3000 && !bad; trial++) {
        uint32_t n = 3 + rnd(trial % 2 ? 30 : 4095);
        uint32_t *cdf = malloc(sizeof *cdf * n);
        random_table(cdf, n);
        wai_cdf_table t;
        wai_cdf_table_init(&t, NULL, cdf, n, rnd(2) ? 16 : rnd(17));
        int32_t o = (int32_t)rnd(64) - 32;
        if (trial % 17 == 0) o = rnd(2) ? INT32_MAX : INT32_MIN;
        size_t words = 2 + rnd(40), count = 1 + rnd(200);
        uint8_t *s = random_stream(words);
        wai_rans_dec a, b;
        wai_rans_dec_init(&a, s, 4 * words);
        wai_rans_dec_init(&b, s, 4 * words);
        wai_rans_local l = wai_rans_local_load(&b);
        size_t i = 0;
        for (; i < count && !bad; i++) {
            int32_t v, w = wai_rans_local_decode(&l, &b, &t, o);
            wai_status sa = wai_rans_decode(&a, &t, o, &v);
            bad |= (sa != WAI_ok) != (l.ran_out != 0) || a.x != l.x || a.next != l.next;
            if (sa != WAI_ok) break;
            bad |= v != w;
        }
        CHECK_MSG(!bad, "trial %d: n=%u bits=%u differs at symbol %zu", trial, n, t.bits, i);
        free(s);
        wai_cdf_table_free(&t, NULL);
        free(cdf);
    }
}

/* The pool the two-thread path runs on (a second thread where the build has
 * threads). */
static wai_pool *g_pool;

/* The frame step: fast and reference on the same random frame, vectors and
 * stream; and the two-thread path, with chunks of 1 to 5 rows (the ring of
 * four wraps), on the pool and on the caller alone, its segments through
 * each level's loop in turn (ops/cores.h, recon). */
static int frame_case(int trial) {
    wai_motion_frame f;
    memset(&f, 0, sizeof f);
    f.h = 1 + rnd(trial % 5 == 0 ? 3 : 24);
    f.w = 1 + rnd(trial % 7 == 0 ? 3 : 40);
    f.block = 1 + rnd(trial % 3 == 0 ? 4 : 20);
    f.nbx = (f.w + f.block - 1) / f.block;
    f.mv_precision = 1 + rnd(2);
    f.q = trial % 11 == 0 ? 65535 : 1 + rnd(40);
    f.offset = (int32_t)rnd(16) - 8;
    uint32_t n = 3 + rnd(20), cdf[24];
    random_table(cdf, n);
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, n, 16);
    f.table = &t;
    size_t frame_bytes = (size_t)f.h * f.w * 3;
    uint32_t nby = (f.h + f.block - 1) / f.block;
    uint8_t *prev = malloc(frame_bytes), *vec = malloc(4 * (size_t)nby * f.nbx);
    for (size_t i = 0; i < frame_bytes; i++) prev[i] = (uint8_t)rnd(256);
    for (size_t i = 0; i < (size_t)nby * f.nbx; i++) {
        int far = rnd(8) == 0;
        int32_t dy = far ? (int32_t)rnd(65536) - 32768 : (int32_t)rnd(2 * f.h + 9) - (int32_t)f.h - 4;
        int32_t dx = far ? (int32_t)rnd(65536) - 32768 : (int32_t)rnd(2 * f.w + 9) - (int32_t)f.w - 4;
        vec[4 * i] = (uint8_t)dy;
        vec[4 * i + 1] = (uint8_t)((uint32_t)dy >> 8);
        vec[4 * i + 2] = (uint8_t)dx;
        vec[4 * i + 3] = (uint8_t)((uint32_t)dx >> 8);
    }
    f.prev = trial % 4 == 0 ? NULL : prev;
    f.vectors = vec;
    size_t words = 2 + rnd(trial % 2 ? 8 : (uint32_t)frame_bytes + 8);
    uint8_t *s = random_stream(words);
    uint8_t *out_ref = malloc(frame_bytes), *out_fast = malloc(frame_bytes);
    uint8_t *out_pipe = malloc(frame_bytes);
    wai_rans_dec a, b, c;
    wai_rans_dec_init(&a, s, 4 * words);
    wai_rans_dec_init(&b, s, 4 * words);
    wai_rans_dec_init(&c, s, 4 * words);
    wai_status sa = wai_decode_motion_frame_ref(&f, &a, out_ref);
    wai_status sb = wai_decode_motion_frame_fast(&f, &b, out_fast);
    wai_cores level;
    wai_cores_init(&level, trial % (wai_cpu_isa() + 1));
    f.cores = &level;
    wai_status sc = wai_decode_motion_frame_pipe(&f, &c, trial % 3 ? g_pool : NULL, NULL,
                                                 1 + rnd(5), out_pipe);
    int same = sa == sb && sa == sc;
    if (same && sa == WAI_ok)
        same = memcmp(out_ref, out_fast, frame_bytes) == 0 && a.x == b.x && a.next == b.next &&
               memcmp(out_ref, out_pipe, frame_bytes) == 0 && a.x == c.x && a.next == c.next;
    free(out_ref);
    free(out_fast);
    free(out_pipe);
    free(s);
    free(prev);
    free(vec);
    wai_cdf_table_free(&t, NULL);
    return same;
}

/* Part k takes the trials k, k + parts, ... on stream k + 1 of the seed. */
#define FRAME_PARTS 4
static void test_frame_fast_matches_reference(unsigned part, unsigned parts) {
    int bad = 0;
    if (!CHECK(wai_pool_create(NULL, 2, &g_pool) == WAI_ok)) return;
    g_seed = harness_stream(SEED, part + 1);
    for (int trial = (int)part; trial < 20000 && !bad; trial += (int)parts)
        bad = !CHECK_MSG(frame_case(trial), "frame case %d differs", trial);
    wai_pool_destroy(g_pool);
    g_pool = NULL;
}

/* The same cases, fewer: CI's ThreadSanitizer run takes this one (the
 * ring's hand-offs between the two threads). */
static void test_frame_pipe_threads(void) {
    int bad = 0;
    if (!CHECK(wai_pool_create(NULL, 2, &g_pool) == WAI_ok)) return;
    g_seed = harness_stream(SEED, FRAME_PARTS + 1);
    for (int trial = 1; trial < 3000 && !bad; trial += 3) {
        bad = !CHECK_MSG(frame_case(trial), "frame case %d differs", trial);
        if (!bad) bad = !CHECK_MSG(frame_case(trial + 1), "frame case %d differs", trial + 1);
    }
    wai_pool_destroy(g_pool);
    g_pool = NULL;
}

void suite_motion_diff(void) {
    harness_run("diff/rans_local", test_local_matches_symbol_decode);
    harness_run_parts("diff/motion_frame", FRAME_PARTS, test_frame_fast_matches_reference);
    harness_run("diff/motion_pipe_threads", test_frame_pipe_threads);
}
