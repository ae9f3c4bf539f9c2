/* SPDX-License-Identifier: BSD-2-Clause */
/* Throughput of libwai's SHA-256 and BLAKE3 (single thread, portable C).
 *
 *   wai_bench_hash            a table of MB/s (1 MB = 10^6 bytes)
 *   wai_bench_hash --raw      "NAME MBPS" lines, for bench_hash.sh
 *
 * Each figure is the best of several runs, so a stray interruption does not
 * decide it. The 64 MiB case hashes one buffer in a single call; the 4 KiB
 * case hashes 16384 separate 4 KiB messages (same 64 MiB total), which adds
 * the per-message init/final cost. */
#define _POSIX_C_SOURCE 200809L

#include "wai/wai_hash.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BULK_BYTES ((size_t)64 * 1024 * 1024)
#define MSG_BYTES ((size_t)4096)
#define REPS 5

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Folded into the output so no hash call can be optimised away. */
static uint8_t g_sink;

static void sink(const uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++) g_sink ^= d[i];
}

typedef void (*hash_fn)(const void *, size_t, uint8_t *);

static void run_sha256(const void *p, size_t n, uint8_t *out) { wai_sha256_oneshot(p, n, out); }
static void run_blake3(const void *p, size_t n, uint8_t *out) { wai_blake3_oneshot(p, n, out); }

/* Best-of-REPS rate in MB/s for hashing `total` bytes as messages of
 * `msg` bytes each. */
static uint64_t measure(hash_fn fn, const uint8_t *buf, size_t total, size_t msg) {
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < REPS; r++) {
        uint8_t d[32];
        uint64_t t0 = now_ns();
        for (size_t off = 0; off < total; off += msg) {
            fn(buf + off, msg, d);
            sink(d, sizeof d);
        }
        uint64_t dt = now_ns() - t0;
        if (dt < best) best = dt;
    }
    if (best == 0) best = 1;
    /* bytes / ns * 1000 = MB/s (10^6 bytes per second). */
    return (uint64_t)total * 1000u / best;
}

int main(int argc, char **argv) {
    int raw = argc > 1 && strcmp(argv[1], "--raw") == 0;
    uint8_t *buf = malloc(BULK_BYTES);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < BULK_BYTES; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        buf[i] = (uint8_t)x;
    }

    struct {
        const char *name;
        hash_fn fn;
        size_t msg;
        const char *label;
    } cases[] = {
        {"sha256_64MiB", run_sha256, BULK_BYTES, "64 MiB buffer"},
        {"sha256_4KiB", run_sha256, MSG_BYTES, "4 KiB messages"},
        {"blake3_64MiB", run_blake3, BULK_BYTES, "64 MiB buffer"},
        {"blake3_4KiB", run_blake3, MSG_BYTES, "4 KiB messages"},
    };
    if (!raw) printf("%-8s %-16s %10s\n", "hash", "input", "MB/s");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t mbps = measure(cases[i].fn, buf, BULK_BYTES, cases[i].msg);
        if (raw) {
            printf("%s %llu\n", cases[i].name, (unsigned long long)mbps);
        } else {
            printf("%-8.6s %-16s %10llu\n", cases[i].name, cases[i].label, (unsigned long long)mbps);
        }
        fflush(stdout);
    }
    if (!raw) printf("(checksum %02x)\n", g_sink);
    free(buf);
    return 0;
}
