/* SPDX-License-Identifier: BSD-2-Clause */
/* A run of bmshj2018 pictures through one context and set: what keeping
 * the loaded set and its built graph (issue 28) is worth.
 *
 * The shipped photograph (examples/bmshj2018/chelsea.b18f, its set
 * examples/bmshj2018/sets/q3) is decoded --frames times through one context and
 * one set object on the native WebNN backend, twice, alternating: on a
 * context with the default loaded-set cache (the program parsed and its
 * graph built once, then kept) and on one whose cache keeps nothing
 * (set_cache_budget 0: everything built again for every decode, as every
 * decode did before). Each side is timed best of --reps; the ratio is
 * rebuilt / kept. Both sides' pictures are checked equal.
 *
 *   wai_bench_bmshj_frames [--frames N] [--reps N] [--repo DIR]
 *
 * Public API only (wai.h, wai_set.h, wai_decode.h, wai_webnn.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wai/wai.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"
#include "wai/wai_webnn.h"

#define CAP "wai.neural.bmshj2018"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static uint8_t *read_file(const char *dir, const char *name, size_t *len) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n + 1)) != NULL && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

typedef struct side {
    wai_context *ctx;
    wai_set *set;
    uint8_t *first;     /* the first picture, to hold the other side to */
    size_t first_len;
} side;

static const char *const members[] = {"cdfs_q3.json", "decoder.webnn.json", "decoder.f32"};

static int open_side(side *s, uint64_t budget, const char *set_dir) {
    memset(s, 0, sizeof *s);
    wai_settings st;
    wai_settings_default(&st);
    st.set_cache_budget = budget;
    if (wai_context_create(&st, &s->ctx) != WAI_ok ||
        wai_context_add_backend(s->ctx, wai_webnn_backend()) != WAI_ok ||
        wai_set_create(s->ctx, &s->set) != WAI_ok)
        return 0;
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        size_t n;
        uint8_t *b = read_file(set_dir, members[i], &n);
        wai_status rc = b ? wai_set_add(s->set, members[i], b, n) : WAI_io_error;
        free(b);
        if (rc != WAI_ok) {
            fprintf(stderr, "set member %s/%s: %s\n", set_dir, members[i], wai_status_name(rc));
            return 0;
        }
    }
    return 1;
}

/* frames decodes, each through a decoder of its own (a player's pictures);
 * the time of all, or a negative number on a refusal or a picture that
 * differs from the first ever decoded. */
static double run(side *s, const uint8_t *payload, size_t len, int frames, const side *ref) {
    double t0 = now_ms();
    for (int i = 0; i < frames; i++) {
        wai_decoder_config cfg;
        wai_decoder_config_default(&cfg);
        cfg.capability = CAP;
        cfg.set = s->set;
        wai_decoder *d;
        wai_output o;
        if (wai_decoder_create(s->ctx, &cfg, &d) != WAI_ok) return -1;
        wai_status st = wai_decoder_send(d, payload, len, NULL);
        if (st == WAI_ok) st = wai_decoder_receive(d, &o);
        if (st != WAI_ok || o.kind != WAI_OUTPUT_IMAGE) {
            fprintf(stderr, "decode: %s\n", wai_status_name(st));
            wai_decoder_destroy(d);
            return -1;
        }
        const side *hold = ref && ref->first ? ref : s;
        if (!hold->first) {
            s->first = malloc(o.size);
            if (!s->first) return -1;
            memcpy(s->first, o.data, o.size);
            s->first_len = o.size;
        } else if (o.size != hold->first_len || memcmp(o.data, hold->first, o.size) != 0) {
            fprintf(stderr, "a picture differs from the first\n");
            wai_decoder_destroy(d);
            return -1;
        }
        wai_decoder_destroy(d);
    }
    return now_ms() - t0;
}

static void close_side(side *s) {
    wai_set_destroy(s->set);
    wai_context_destroy(s->ctx);
    free(s->first);
}

int main(int argc, char **argv) {
    int frames = 10, reps = 3;
    const char *repo = ".";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repo") && i + 1 < argc) repo = argv[++i];
        else {
            fprintf(stderr, "usage: wai_bench_bmshj_frames [--frames N] [--reps N] [--repo DIR]\n");
            return 2;
        }
    }
    if (frames < 1 || reps < 1) return 2;
    char dir[4096], set_dir[4200];
    snprintf(dir, sizeof dir, "%s/examples/bmshj2018", repo);
    snprintf(set_dir, sizeof set_dir, "%s/set", dir);
    size_t len;
    uint8_t *payload = read_file(dir, "chelsea.b18f", &len);
    if (!payload) {
        fprintf(stderr, "cannot read %s/chelsea.b18f (--repo)\n", dir);
        return 1;
    }
    side kept, rebuilt;
    int ok = open_side(&kept, 256u << 20, set_dir) && open_side(&rebuilt, 0, set_dir);
    double best_kept = -1, best_rebuilt = -1;
    for (int r = 0; ok && r < reps; r++) {
        double a = run(&kept, payload, len, frames, NULL);
        double b = run(&rebuilt, payload, len, frames, &kept);
        if (a < 0 || b < 0) ok = 0;
        if (best_kept < 0 || a < best_kept) best_kept = a;
        if (best_rebuilt < 0 || b < best_rebuilt) best_rebuilt = b;
    }
    if (ok) {
        wai_webnn_backend_stats sk, sr;
        wai_webnn_backend_stats_of(kept.ctx, &sk);
        wai_webnn_backend_stats_of(rebuilt.ctx, &sr);
        printf("bmshj2018 chelsea.b18f, %d pictures through one context and set, best of %d\n",
               frames, reps);
        printf("  kept (default cache)      %8.1f ms  %7.1f ms a picture  (%llu graphs built in all)\n",
               best_kept, best_kept / frames, (unsigned long long)sk.graphs);
        printf("  rebuilt (cache budget 0)  %8.1f ms  %7.1f ms a picture  (%llu graphs built in all)\n",
               best_rebuilt, best_rebuilt / frames, (unsigned long long)sr.graphs);
        printf("  rebuilt / kept: %.2fx\n", best_rebuilt / best_kept);
    }
    close_side(&kept);
    close_side(&rebuilt);
    free(payload);
    return ok ? 0 : 1;
}
