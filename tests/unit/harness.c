/* SPDX-License-Identifier: BSD-2-Clause */
#include "harness.h"
#include "wai/wai_set.h"

#include "common/pool.h"
#include "ops/cores.h"
#include "ops/cpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *g_filter;
static unsigned g_shard, g_shards = 1; /* --shard K/N, held as K-1 and N */
static unsigned g_taken;               /* tests the filter took so far */
static int g_times;                    /* --times: each test's milliseconds */
static int g_together, g_group_dealt, g_group_takes; /* harness_together */
static const char *g_data = "tests";
static int g_failed_checks;
static long g_checks;                  /* checks made, passed or failed */
static int g_passed, g_failed, g_skipped;
static const char *g_current;
static int g_skipping;                 /* the current test called harness_skip */

void harness_skip(const char *why) {
    g_skipping = 1;
    printf("skip %s: %s\n", g_current ? g_current : "?", why);
}

int harness_check(int ok, const char *expr, const char *file, int line) {
    g_checks++;
    if (!ok) {
        g_failed_checks++;
        printf("FAIL %s: %s:%d: %s\n", g_current ? g_current : "?", file, line, expr);
    }
    return ok;
}

int harness_check_msg(int ok, const char *file, int line, const char *fmt, ...) {
    g_checks++;
    if (!ok) {
        va_list ap;
        g_failed_checks++;
        printf("FAIL %s: %s:%d: ", g_current ? g_current : "?", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
    return ok;
}

/* Whether name contains one of the filter's comma-separated substrings. */
static int filter_takes(const char *name) {
    if (!g_filter) return 1;
    for (const char *p = g_filter;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        for (const char *q = name; len && strlen(q) >= len; q++)
            if (strncmp(q, p, len) == 0) return 1;
        if (!end) return 0;
        p = end + 1;
    }
}

static long long now_ms(void) {
    struct timespec ts;
    if (!timespec_get(&ts, TIME_UTC)) return 0;
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void harness_together(int on) {
    g_together = on;
    g_group_dealt = 0;
}

/* Whether this run takes the test `name`: the filter's, then the shard's
 * say. Shards deal the filtered tests round-robin, a group as one. */
static int run_takes(const char *name) {
    if (!filter_takes(name)) return 0;
    if (g_together && g_group_dealt) return g_group_takes;
    const int takes = g_taken++ % g_shards == g_shard;
    if (g_together) g_group_dealt = 1, g_group_takes = takes;
    return takes;
}

/* Runs one test that the run takes: fn(), or part_fn(part, parts) for a
 * part, counted and (with --times) timed under `name`. */
static void run_one(const char *name, wai_test_fn fn, wai_test_part_fn part_fn, unsigned part,
                    unsigned parts) {
    const int before = g_failed_checks;
    const long checks_before = g_checks;
    const long long start = g_times ? now_ms() : 0;
    g_current = name;
    g_skipping = 0;
    if (fn) fn();
    else part_fn(part, parts);
    if (g_times) printf("time %s %lld ms\n", name, now_ms() - start);
    /* A test that checked nothing and did not say why is no pass. */
    if (g_checks == checks_before && !g_skipping) {
        printf("FAIL %s: ran no check (harness_skip says why a test cannot run here)\n", name);
        g_failed_checks++;
    }
    if (g_failed_checks != before) {
        g_failed++;
    } else if (g_skipping) {
        g_skipped++;
    } else {
        g_passed++;
    }
    g_current = NULL;
    g_skipping = 0;
    fflush(stdout);
}

void harness_run(const char *name, wai_test_fn fn) {
    if (run_takes(name)) run_one(name, fn, NULL, 0, 1);
}

void harness_run_parts(const char *name, unsigned parts, wai_test_part_fn fn) {
    for (unsigned k = 0; k < parts; k++) {
        char part_name[128];
        snprintf(part_name, sizeof part_name, "%s/%u", name, k);
        if (run_takes(part_name)) run_one(part_name, NULL, fn, k, parts);
    }
}

const char *harness_data_dir(void) { return g_data; }

uint8_t *harness_read_file(const char *relpath, size_t *len) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", g_data, relpath) >= sizeof path)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (buf) *len = n;
    return buf;
}

int harness_set_files_read(const char *dir, const char *const *names, int n,
                           harness_set_files *f) {
    memset(f, 0, sizeof *f);
    f->names = names;
    f->n = n > HARNESS_SET_MAX ? HARNESS_SET_MAX : n;
    int ok = 1;
    for (int i = 0; i < f->n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        f->data[i] = harness_read_file(path, &f->len[i]);
        ok &= CHECK_MSG(f->data[i] != NULL, "%s: not found", path);
    }
    return ok;
}

void harness_set_files_free(harness_set_files *f) {
    for (int i = 0; i < f->n; i++) free(f->data[i]);
    memset(f, 0, sizeof *f);
}

wai_set *harness_set_make(wai_context *ctx, const harness_set_files *f, int n, int broken,
                          const char *junk) {
    wai_set *s = NULL;
    if (!CHECK(wai_set_create(ctx, &s) == WAI_ok)) return NULL;
    for (int i = 0; i < n && i < f->n; i++) {
        wai_status st = i == broken
                            ? wai_set_add(s, f->names[i], (const uint8_t *)junk, strlen(junk))
                            : wai_set_add_borrowed(s, f->names[i], f->data[i], f->len[i]);
        CHECK(st == WAI_ok);
    }
    return s;
}

/* Each block carries its size in a header, so frees can be accounted. */
#define ALLOC_HEADER 16

static void *harness_malloc(void *opaque, size_t size) {
    harness_alloc *h = opaque;
    h->calls++;
    if (h->fail_at && h->calls == h->fail_at) {
        h->failed = 1;
        return NULL;
    }
    if (size > SIZE_MAX - ALLOC_HEADER) return NULL;
    unsigned char *block = malloc(size + ALLOC_HEADER);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    h->live++;
    h->bytes_now += size;
    if (h->bytes_now > h->bytes_peak) h->bytes_peak = h->bytes_now;
    return block + ALLOC_HEADER;
}

static void harness_free(void *opaque, void *p) {
    harness_alloc *h = opaque;
    if (!p) return;
    unsigned char *block = (unsigned char *)p - ALLOC_HEADER;
    size_t size;
    memcpy(&size, block, sizeof size);
    h->live--;
    h->bytes_now -= size;
    free(block);
}

wai_allocator harness_allocator(harness_alloc *h) {
    wai_allocator a = {harness_malloc, harness_free, h};
    return a;
}

void harness_sweep_allocations(unsigned part, unsigned parts, unsigned threads,
                               const harness_set_files *f, int n, harness_steps steps,
                               const void *arg) {
    size_t failures = 0;
    for (size_t k = part; k < 20000; k += parts) {
        harness_alloc fa = {0};
        wai_settings s;
        wai_settings_default(&s);
        s.n_threads = threads;
        s.allocator = harness_allocator(&fa);
        wai_context *ctx = NULL;
        if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) break;
        wai_set *set = harness_set_make(ctx, f, n, -1, "");
        fa.fail_at = fa.calls + k + 1; /* the steps' (k + 1)th call */
        const wai_status st = steps(ctx, set, arg);
        /* Done once a run had no call left to fail. */
        const int done = st == WAI_ok && !fa.failed;
        if (st != WAI_ok) {
            failures += (size_t)fa.failed;
            CHECK_MSG(st == WAI_out_of_memory, "allocation %zu: %s", k, wai_status_name(st));
        }
        fa.fail_at = 0;
        wai_set_destroy(set);
        wai_context_destroy(ctx);
        CHECK_MSG(fa.live == 0, "allocation %zu: %zu blocks leaked", k, fa.live);
        if (done || (st != WAI_ok && st != WAI_out_of_memory)) break;
    }
    CHECK(failures > 0);
}

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ull

uint64_t harness_rand(uint64_t *state) {
    uint64_t z = (*state += GOLDEN_GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t harness_stream(uint64_t seed, unsigned k) {
    return seed + ((uint64_t)k << 32) * GOLDEN_GAMMA;
}

static int usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s [--data TESTS_DIR] [--filter SUBSTRING[,SUBSTRING...]]\n"
            "       [--shard K/N (K from 1 to N)] [--times]\n",
            argv0);
    return 2;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) g_data = argv[++i];
        else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) g_filter = argv[++i];
        else if (strcmp(argv[i], "--shard") == 0 && i + 1 < argc) {
            char tail;
            unsigned k;
            /* K counts from 1, as CI's step names (unit-gcc-1of2) do. */
            if (sscanf(argv[++i], "%u/%u%c", &k, &g_shards, &tail) != 2 || k == 0 || k > g_shards)
                return usage(argv[0]);
            g_shard = k - 1;
        } else if (strcmp(argv[i], "--times") == 0) g_times = 1;
        else return usage(argv[0]);
    }
    suite_status();
    suite_reader();
    suite_json();
    suite_hash();
    suite_formats();
    suite_formats_neural();
    suite_rans();
    suite_codecs();
    suite_corpus();
    suite_motion_diff();
    suite_route();
    suite_streaming();
    suite_webnn_limits();
    suite_webnn_memory();
    suite_motion();
    suite_encode();
    suite_hyper_encode();
    suite_mlic_encode();
    suite_set_network();
    suite_seek();
    suite_model();
    suite_layers();
    suite_cores();
    suite_layers_diff();
    suite_network();
    suite_dispatch();
    suite_model_corpus();
    suite_sets();
    suite_decoder_dispatch();
    suite_decode_memory();
    suite_webnn_validation();
    suite_webnn_kernels();
    suite_webnn_fast();
    suite_int_synth();
    suite_int_mlicpp();
    suite_int_cond();
    suite_decimal32();
    suite_json_forms();
    suite_binary64();
    suite_commitments();
    suite_signing();
    suite_receipt();
    suite_ed25519();
    suite_energy_figure();
    suite_bmshj2018();
    suite_webnn_conformance();
    suite_threads();
    suite_int_backend();
    /* A skip is no pass: counted on its own (tests/ci/check.sh sums them). */
    if (g_skipped) printf("%d passed, %d failed, %d skipped\n", g_passed, g_failed, g_skipped);
    else printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}

const struct wai_cores *harness_cores(int isa) {
    static wai_cores tables[WAI_FAST_ISA_BEST + 1];
    static int filled[WAI_FAST_ISA_BEST + 1];
    if (isa < 0) isa = 0;
    if (isa > WAI_FAST_ISA_BEST) isa = WAI_FAST_ISA_BEST;
    if (!filled[isa]) {
        wai_cores_init(&tables[isa], isa);
        filled[isa] = 1;
    }
    return &tables[isa];
}

int harness_isa(void) { return wai_cpu_isa(); }

struct wai_pool *harness_pool(unsigned n) {
    static wai_pool *pools[WAI_THREADS_MAX + 1];
    if (n == 0 || n > WAI_THREADS_MAX) return NULL;
    if (!pools[n] && wai_pool_create(NULL, n, &pools[n]) != WAI_ok) pools[n] = NULL;
    return pools[n];
}
