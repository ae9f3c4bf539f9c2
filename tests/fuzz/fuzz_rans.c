/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: E1 rans64_decode (integer-payloads §2) against a plain model of
 * the spec's text, the steps API against the symbol API, and the encoder.
 *
 * Input: byte 0 picks the table length (3..64) and the lookup's resolution,
 * then two bytes per cut point
 * (sorted and deduplicated into a valid table), a 4-byte offset, a 2-byte
 * symbol count, and the rest (cut to whole words, at least two) the stream.
 *
 * Re-encoding the decoded steps gives the stream back exactly when the stream
 * ends canonically AND every state the decode passes through is one the
 * encoder could hold ([2^31, 2^63) after loading and after each word read).
 * Streams that end canonically without that (e.g. words 30000, 0, 2^31 with
 * table {0, 30000, 60000, 65536}: one symbol, 12 bytes, where the encoder
 * writes 8) code the same steps in other bytes; §2's canonical rule does not
 * close them. The target checks that exact split rather than trapping on it. */
#include <stdlib.h>
#include <string.h>

#include "entropy/rans.h"
#include "wai/wai_rans.h"
#include "write/rans_encode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CDF 64
/* Symbols decoded at most. A loop's trips count as coverage only up to 128,
 * but the corpus drifted to the limit anyway (a stream of 12 words can hold
 * thousands of likely symbols): at 4,096 the campaign's corpus ran 1,150
 * executions a second, at 512 2,450, with the same edges. */
#define MAX_SYMBOLS 512

/* The model: the spec's decode written out plainly (linear table search,
 * one `if` per renormalisation), noting whether it stays in the encoder's
 * state range. */
typedef struct model {
    uint64_t x;
    const uint8_t *w;
    size_t n_words, next;
    int out, encoder_form;
} model;

static uint32_t word(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void m_renorm(model *m) {
    if (m->x >= ((uint64_t)1 << 31)) return;
    if (m->next == m->n_words) {
        m->out = 1;
        return;
    }
    m->x = (m->x << 32) | word(m->w + 4 * m->next++);
    if (m->x < ((uint64_t)1 << 31)) m->encoder_form = 0;
}

static uint32_t m_bits4(model *m, wai_rans_step *steps, size_t *k) {
    uint32_t v = (uint32_t)(m->x & 15);
    m->x >>= 4;
    m_renorm(m);
    steps[(*k)++] = WAI_RANS_GROUP | v;
    return v;
}

static int32_t sat(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }

/* One symbol; writes its steps; returns 0 when the stream ran out during it. */
static int m_symbol(model *m, const uint32_t *cdf, uint32_t n, int32_t o, int32_t *sym,
                    wai_rans_step *steps, size_t *k) {
    uint32_t cum = (uint32_t)(m->x & 0xffff), s = 0;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (cdf[i] <= cum) s = i;
    m->x = (uint64_t)(cdf[s + 1] - cdf[s]) * (m->x >> 16) + cum - cdf[s];
    m_renorm(m);
    *k = 0;
    steps[(*k)++] = s;
    int64_t value = s;
    if (s == n - 2) {
        uint32_t v = m_bits4(m, steps, k), count = v;
        for (int i = 0; i < 8 && v == 15 && !m->out; i++) count += (v = m_bits4(m, steps, k));
        if (count > 8) count = 8;
        uint64_t raw = 0;
        for (uint32_t j = 0; j < count; j++) raw |= (uint64_t)m_bits4(m, steps, k) << (4 * j);
        value = (raw & 1) ? -(int64_t)(raw >> 1) - 1 : (int64_t)(raw >> 1) + (n - 2);
        value = sat(value);
    }
    *sym = sat(value + o);
    return !m->out;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint32_t want = 3 + data[0] % (MAX_CDF - 2);
    size_t at = 1;
    if (size < at + 2 * (size_t)(want - 2) + 6 + 8) return 0;
    uint32_t cdf[MAX_CDF];
    uint32_t n = 1;
    cdf[0] = 0;
    for (uint32_t i = 0; i < want - 2; i++, at += 2)
        cdf[n++] = 1 + (uint32_t)(data[at] | data[at + 1] << 8) % 65535;
    qsort(cdf + 1, n - 1, sizeof cdf[0], cmp_u32);
    uint32_t m = 1;
    for (uint32_t i = 1; i < n; i++)
        if (cdf[i] != cdf[m - 1]) cdf[m++] = cdf[i];
    cdf[m++] = 65536;
    n = m;
    if (!wai_cdf_valid(cdf, n, WAI_CDF_T4097)) return 0; /* a single cut point of 0 cannot happen */
    int32_t offset = (int32_t)word(data + at);
    at += 4;
    size_t count = (size_t)(data[at] | data[at + 1] << 8) % (MAX_SYMBOLS + 1);
    at += 2;
    const uint8_t *stream = data + at;
    size_t len = (size - at) & ~(size_t)3;
    if (len < 8) return 0;

    /* The lookup's resolution: 0 to 12 bits mostly, 13 to 16 one input in
     * 64. A table of up to 2^16 entries costs the same whatever the input
     * and, under the sanitizers, far more than the decode (the allocator
     * maps and unmaps it each time): built often, it held the target to
     * ~1.8k executions a second. */
    uint32_t bits = data[0] < 252 ? data[0] % 13u : 13u + data[0] % 4u;
    wai_cdf_table t;
    if (wai_cdf_table_init(&t, NULL, cdf, n, bits) != WAI_ok) return 0;
    wai_rans_dec d, ds;
    wai_rans_dec_init(&d, stream, len);
    wai_rans_dec_init(&ds, stream, len);
    model md = {0};
    md.w = stream;
    md.n_words = len / 4;
    md.next = 2;
    md.x = (uint64_t)word(stream) | (uint64_t)word(stream + 4) << 32;
    md.encoder_form = md.x >= ((uint64_t)1 << 31) && md.x < ((uint64_t)1 << 63);

    /* The harness's own arrays are static: a heap block of up to 295 KB
     * each input went through the sanitizer's large allocator, whose map,
     * unmap and shadow release (a TLB flush each) cost more than the
     * decode. The library's writes into pub stay bounded by count. */
    static wai_rans_step all[(MAX_SYMBOLS + 1) * WAI_RANS_MAX_STEPS_PER_SYMBOL];
    static int32_t syms[MAX_SYMBOLS + 1], pub[MAX_SYMBOLS + 1];
    static uint32_t tof[MAX_SYMBOLS + 1]; /* all zero: every symbol from the first table */
    size_t n_all = 0, i;
    int ran_out = 0;
    for (i = 0; i < count; i++) {
        int32_t sym = 0, msym;
        wai_rans_step st_lib[WAI_RANS_MAX_STEPS_PER_SYMBOL], st_model[WAI_RANS_MAX_STEPS_PER_SYMBOL];
        size_t k_lib, k_model;
        wai_status a = wai_rans_decode(&d, &t, offset, &sym);
        wai_status b = wai_rans_decode_steps(&ds, &t, st_lib, &k_lib);
        int mok = m_symbol(&md, cdf, n, offset, &msym, st_model, &k_model);
        /* The same run-out point on all three paths (R2). */
        if (a != b || (a == WAI_ok) != mok) __builtin_trap();
        if (a != WAI_ok && a != WAI_stream_exhausted) __builtin_trap();
        if (k_lib != k_model || memcmp(st_lib, st_model, k_lib * sizeof st_lib[0]) != 0)
            __builtin_trap();
        if (d.x != md.x || d.next != md.next || ds.x != md.x || ds.next != md.next)
            __builtin_trap();
        if (a != WAI_ok) {
            ran_out = 1;
            break;
        }
        if (sym != msym) __builtin_trap();
        syms[i] = sym;
        memcpy(all + n_all, st_lib, k_lib * sizeof all[0]);
        n_all += k_lib;
    }
    wai_status end = wai_rans_end_canonical(&d);
    if (end != wai_rans_end_canonical(&ds)) __builtin_trap();
    if (ran_out ? end != WAI_stream_exhausted : end == WAI_stream_exhausted) __builtin_trap();
    if (end == WAI_ok && (d.x != ((uint64_t)1 << 31) || d.next != len / 4)) __builtin_trap();
    /* The public decoder (wai_rans.h): the same symbols and the same end.
     * It sizes its lookups to the call (no more buckets than symbols, 8
     * bits at least, 8 bits for any past 16 tables): one input in 64 gives
     * it one table, the others 17 copies of it, all symbols from the
     * first. */
    const uint32_t *cdfs[17];
    size_t lens[17];
    int32_t offs[17];
    size_t n_tabs = (data[0] & 63) == 0 ? 1 : 17;
    for (size_t j = 0; j < n_tabs; j++) cdfs[j] = cdf, lens[j] = n, offs[j] = offset;
    wai_status pst = wai_rans_decode_symbols_tables(NULL, n_tabs, cdfs, lens, offs, tof, stream, len,
                                                    pub, count);
    if (pst != (ran_out ? WAI_stream_exhausted : end)) __builtin_trap();
    if (pst == WAI_ok && count && memcmp(pub, syms, count * sizeof *syms) != 0) __builtin_trap();

    if (!ran_out) {
        uint8_t *re;
        size_t re_len;
        if (wai_rans_encode_steps(NULL, &t, all, n_all, &re, &re_len) != WAI_ok) __builtin_trap();
        int same = re_len == len && memcmp(re, stream, len) == 0;
        if (end == WAI_ok && same != md.encoder_form) __builtin_trap();
        if (end != WAI_ok && same) __builtin_trap(); /* the encoder's streams end canonically */
        /* Whatever the input, the re-encoded stream decodes the same steps
         * and ends canonically. */
        wai_rans_dec r;
        wai_rans_dec_init(&r, re, re_len);
        size_t k_at = 0;
        for (size_t j = 0; j < i; j++) {
            wai_rans_step s2[WAI_RANS_MAX_STEPS_PER_SYMBOL];
            size_t k2;
            if (wai_rans_decode_steps(&r, &t, s2, &k2) != WAI_ok) __builtin_trap();
            if (memcmp(s2, all + k_at, k2 * sizeof s2[0]) != 0) __builtin_trap();
            k_at += k2;
        }
        if (k_at != n_all || wai_rans_end_canonical(&r) != WAI_ok) __builtin_trap();
        free(re);
    }
    wai_cdf_table_free(&t, NULL);
    return 0;
}
