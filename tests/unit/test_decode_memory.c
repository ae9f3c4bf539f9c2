/* A neural decode's peak memory against its declared working bytes
 * (integer-payloads §7, Memory and work; docs/neural-decodes.md): every
 * valid neural payload of the corpus decoded through a context whose
 * allocator counts, with its set already in the cache (what the cache
 * keeps is the set's, not the decode's), must peak at no more than its
 * declared working bytes plus the fixed overhead the docs state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ops/layers_fast_dot.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"

/* docs/neural-decodes.md, "Memory": the bytes a decode may hold beyond
 * its declared working bytes: the fast kernels' temporaries (at most
 * WAI_DOT_TEMP_MAX), the decoder's bookkeeping and a motion table's lookup
 * (256 KiB), plus, per payload byte, two bytes for the tables a payload
 * carries and their lookups. */
#define WAI_DECODE_OVERHEAD_BYTES (WAI_DOT_TEMP_MAX + 256u * 1024u)

static wai_set *set_from(wai_context *ctx, const wai_capability *c, const char *dir) {
    wai_set *s = NULL;
    if (wai_set_create(ctx, &s) != WAI_ok) return NULL;
    for (size_t i = 0; c->set_members[i]; i++) {
        char rel[1100];
        snprintf(rel, sizeof rel, "corpus/%s/%s", dir, c->set_members[i]);
        size_t len;
        uint8_t *d = harness_read_file(rel, &len);
        if (d) wai_set_add(s, c->set_members[i], d, len);
        free(d);
    }
    return s;
}

/* Decodes file twice through ctx (the first fills the cache); returns the
 * second decode's peak above what was live before it. */
static int measure(wai_context *ctx, harness_alloc *h, const wai_capability *cap,
                   const wai_set *set, const char *file, uint64_t *peak, wai_cost *cost,
                   size_t *payload_len) {
    char rel[1100];
    snprintf(rel, sizeof rel, "corpus/%s", file);
    size_t len;
    uint8_t *data = harness_read_file(rel, &len);
    if (!data) return 0;
    *payload_len = len;
    wai_decoder_config cfg;
    wai_decoder_default_config(&cfg);
    cfg.capability = cap->name;
    cfg.set = set;
    int ok = 1;
    for (int pass = 0; pass < 2 && ok; pass++) {
        wai_decoder *d;
        ok = wai_decoder_create(ctx, &cfg, &d) == WAI_ok;
        size_t before = h->bytes_now;
        h->bytes_peak = before;
        ok = ok && wai_decoder_send(d, data, len, cost) == WAI_ok;
        *peak = h->bytes_peak - before;
        wai_decoder_destroy(d);
    }
    free(data);
    return ok;
}

/* The peaks with the context's n_threads = threads: the kernels' per-thread
 * buffers share the same fixed allowance, whatever the count. */
static void peak_within_declared(unsigned threads) {
    size_t len;
    char *text = (char *)harness_read_file("corpus/index.txt", &len);
    if (!CHECK(text != NULL)) return;
    text = realloc(text, len + 1);
    text[len] = '\0';
    harness_alloc h;
    memset(&h, 0, sizeof h);
    wai_settings s;
    wai_default_settings(&s);
    s.allocator = harness_allocator(&h);
    s.n_threads = threads;
    wai_context *ctx;
    if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) return;
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char mode[16], cap[64], status[64], maxcost[32], file[512], hash[512], dir[256];
        if (sscanf(line, "%15s %63s %63s %31s %511s %511s %255s", mode, cap, status, maxcost,
                   file, hash, dir) != 7 ||
            strcmp(status, "ok") != 0 || strchr(file, ','))
            continue;
        const wai_capability *c = wai_capability_find(cap);
        wai_set *set = c ? set_from(ctx, c, dir) : NULL;
        uint64_t peak = 0;
        wai_cost cost;
        size_t plen = 0;
        if (CHECK_MSG(set && measure(ctx, &h, c, set, file, &peak, &cost, &plen), "%s: no decode",
                      file))
            CHECK_MSG(peak <= cost.working_bytes + WAI_DECODE_OVERHEAD_BYTES + 2 * plen,
                      "%s (%u threads): peak %llu bytes, declared %llu", file, threads,
                      (unsigned long long)peak, (unsigned long long)cost.working_bytes);
        if (getenv("WAI_TEST_VERBOSE"))
            printf("  %s: peak %llu, declared %llu\n", file, (unsigned long long)peak,
                   (unsigned long long)cost.working_bytes);
        wai_set_destroy(set);
        n++;
    }
    CHECK(n >= 10);
    wai_context_destroy(ctx);
    free(text);
}

static void test_peak_within_declared(void) {
    peak_within_declared(1);
    peak_within_declared(7);
}

void suite_decode_memory(void) {
    harness_run("decode_memory/peak_within_declared", test_peak_within_declared);
}
