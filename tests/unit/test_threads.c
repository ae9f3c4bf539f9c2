/* SPDX-License-Identifier: BSD-2-Clause */
/* The context's worker pool (common/pool.h): its threads start when the
 * context is created and no decode creates another (counted through the
 * linker's --wrap of pthread_create, tests/CMakeLists.txt), and every
 * thread count gives the corpus's bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "common/pool.h"
#include "wai/wai_decode.h"
#include "wai/wai_hash.h"

#if defined(WAI_TEST_WRAP_PTHREAD)
#include <pthread.h>
#include <stdatomic.h>

static atomic_uint g_created;

int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg) {
    int r = __real_pthread_create(t, attr, fn, arg);
    if (r == 0) atomic_fetch_add(&g_created, 1u);
    return r;
}

static unsigned created(void) { return atomic_load(&g_created); }
#endif

/* Decodes one corpus case; its first output's SHA-256 in hex into hex. */
static wai_status decode_case(wai_context *ctx, const corpus_line *c, const wai_set *set,
                              char hex[65]) {
    size_t len;
    uint8_t *data = corpus_file(c->file, &len);
    strcpy(hex, "-");
    if (!data) return WAI_io_error;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = c->capability;
    cfg.set = set;
    wai_decoder *d;
    wai_status st = wai_decoder_create(ctx, &cfg, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, data, len, NULL);
    wai_output o;
    if (st == WAI_ok && wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
        uint8_t h[32];
        wai_sha256_oneshot(o.data, o.size, h);
        wai_hex(h, 32, hex);
    }
    wai_decoder_destroy(d);
    free(data);
    return st;
}

/* Every neural case of the corpus that decodes, on a context of n
 * threads: the index's first hash each time. The count of cases run. */
static int corpus_on(unsigned n, int *failures) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = n;
    wai_context *ctx;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return 0;
#if defined(WAI_TEST_WRAP_PTHREAD)
    unsigned before = created();
#endif
    char *text = corpus_index();
    int cases = 0;
    const char *at = text;
    corpus_line c;
    int r;
    while (text && (r = corpus_next_neural(&at, &c)) >= 0) {
        if (r == 0 || strcmp(c.status, "ok") != 0 || strcmp(c.mode, "decode") != 0) continue;
        wai_set *set = corpus_set(ctx, c.capability, c.set);
        char hex[65];
        wai_status st = decode_case(ctx, &c, set, hex);
        char want[65];
        snprintf(want, sizeof want, "%.64s", c.hash);
        if (!CHECK_MSG(st == WAI_ok && strcmp(hex, want) == 0, "%u threads, %s: %s, %s", n,
                       c.file, wai_status_name(st), hex))
            (*failures)++;
        wai_set_destroy(set);
        cases++;
    }
    free(text);
#if defined(WAI_TEST_WRAP_PTHREAD)
    CHECK_MSG(created() == before, "%u threads: %u threads created by decodes", n,
              created() - before);
#endif
    wai_context_destroy(ctx);
    return cases;
}

static void test_no_threads_per_decode(void) {
#if defined(WAI_TEST_WRAP_PTHREAD)
    /* Creating a context of 2 starts its one worker, and only that. */
    unsigned before = created();
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 2;
    wai_context *ctx;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    CHECK_MSG(created() - before == 1, "context of 2 threads: %u created", created() - before);
    wai_context_destroy(ctx);
#else
    printf("note: this build cannot count thread creations (no --wrap=pthread_create)\n");
#endif
    int failures = 0;
    int cases = corpus_on(2, &failures);
    CHECK_MSG(cases >= 10, "only %d corpus cases", cases);
}

static void test_every_thread_count(void) {
    static const unsigned counts[] = {1, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        int failures = 0;
        corpus_on(counts[i], &failures);
        CHECK_MSG(failures == 0, "%u threads: %d cases differ", counts[i], failures);
    }
}

/* The pool alone: every share of a run runs once, on any count. */
typedef struct share_log {
    unsigned n;
    unsigned char hits[256];
} share_log;

static void mark(void *arg, unsigned i) {
    share_log *l = arg;
    l->hits[i]++;
}

static void test_pool_shares(void) {
    wai_pool *p;
    if (!CHECK(wai_pool_create(NULL, 4, &p) == WAI_ok)) return;
    CHECK(wai_pool_threads(p) >= 1 && wai_pool_threads(p) <= 4);
    for (unsigned n = 0; n <= 200; n += 7) {
        share_log l;
        memset(&l, 0, sizeof l);
        wai_pool_run(p, n, mark, &l);
        int ok = 1;
        for (unsigned i = 0; i < 256; i++) ok &= l.hits[i] == (i < n ? 1 : 0);
        CHECK_MSG(ok, "%u shares", n);
    }
    wai_pool_destroy(p);
    share_log l;
    memset(&l, 0, sizeof l);
    wai_pool_run(NULL, 5, mark, &l);
    CHECK(l.hits[0] == 1 && l.hits[4] == 1 && l.hits[5] == 0);
}

/* wai_context_serve: a host's thread joins only a pool that cannot start
 * its own (wasm32) and has room; natively, and on a one-thread context,
 * the call returns invalid_argument at once instead of blocking. */
static void test_serve_refused(void) {
    CHECK(wai_context_serve(NULL) == WAI_invalid_argument);
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 1;
    wai_context *ctx = NULL;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    CHECK(wai_context_serve(ctx) == WAI_invalid_argument);
    wai_context_destroy(ctx);
#if !defined(__wasm__)
    s.n_threads = 2;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    CHECK(wai_context_serve(ctx) == WAI_invalid_argument); /* it has its own threads */
    wai_context_destroy(ctx);
#endif
}

void suite_threads(void) {
    harness_run("threads/serve_refused", test_serve_refused);
    harness_run("threads/pool_shares", test_pool_shares);
    harness_run("threads/no_threads_per_decode", test_no_threads_per_decode);
    harness_run("threads/every_thread_count", test_every_thread_count);
}
