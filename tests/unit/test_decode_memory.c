/* A neural decode's peak memory against its declared working bytes
 * (integer-payloads §7, Memory and work; docs/neural-decodes.md): every
 * valid neural payload of the corpus decoded through a context whose
 * allocator counts, with its set already in the cache (what the cache
 * keeps is the set's, not the decode's), must peak at no more than its
 * declared working bytes plus the fixed overhead the docs state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
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
static void test_peak_within_declared(void) {
    char *text = corpus_index();
    if (!CHECK(text != NULL)) return;
    static const unsigned threads[] = {1, 7};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        harness_alloc h;
        memset(&h, 0, sizeof h);
        wai_settings s;
        wai_default_settings(&s);
        s.allocator = harness_allocator(&h);
        s.n_threads = threads[t];
        wai_context *ctx;
        if (!CHECK(wai_context_create(&s, &ctx) == WAI_ok)) break;
        int n = 0, r;
        corpus_line c;
        for (const char *at = text; (r = corpus_next_neural(&at, &c)) >= 0;) {
            if (r == 0 || strcmp(c.status, "ok") != 0) continue;
            const wai_capability *cap = wai_capability_find(c.capability);
            wai_set *set = corpus_set(ctx, c.capability, c.set);
            uint64_t peak = 0;
            wai_cost cost;
            size_t plen = 0;
            if (CHECK_MSG(cap && set && measure(ctx, &h, cap, set, c.file, &peak, &cost, &plen),
                          "%s: no decode", c.file))
                CHECK_MSG(peak <= cost.working_bytes + WAI_DECODE_OVERHEAD_BYTES + 2 * plen,
                          "%s (%u threads): peak %llu bytes, declared %llu", c.file, threads[t],
                          (unsigned long long)peak, (unsigned long long)cost.working_bytes);
            if (getenv("WAI_TEST_VERBOSE"))
                printf("  %s: peak %llu, declared %llu\n", c.file, (unsigned long long)peak,
                       (unsigned long long)cost.working_bytes);
            wai_set_destroy(set);
            n++;
        }
        CHECK(n >= 10);
        wai_context_destroy(ctx);
    }
    free(text);
}

void suite_decode_memory(void) {
    harness_run("decode_memory/peak_within_declared", test_peak_within_declared);
}
