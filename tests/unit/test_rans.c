/* SPDX-License-Identifier: BSD-2-Clause */
/* E1: the rANS decoder, its canonical encoder, table rules and lookups,
 * and the readings R2, R6, R9, R10 pinned. */
#include <stdlib.h>
#include <string.h>

#include "entropy/rans.h"
#include "harness.h"
#include "wai/wai_rans.h"
#include "wai/wai_write.h"
#include "write/rans_encode.h"

static uint64_t g_seed = 0x5eed0001;

static uint32_t rnd(uint32_t bound) { return (uint32_t)(harness_rand(&g_seed) % bound); }

/* A random valid table of length n (2..65537): n - 1 distinct cut points. */
static void random_table(uint32_t *cdf, uint32_t n) {
    uint8_t *used = calloc(WAI_CDF_TOTAL, 1);
    cdf[0] = 0;
    cdf[n - 1] = WAI_CDF_TOTAL;
    uint32_t need = n - 2, have = 0;
    if (need > WAI_CDF_TOTAL / 2) {
        /* Dense: start from all cut points and drop some. */
        uint32_t drop = (WAI_CDF_TOTAL - 1) - need;
        memset(used, 1, WAI_CDF_TOTAL);
        used[0] = 0;
        while (drop) {
            uint32_t c = 1 + rnd(WAI_CDF_TOTAL - 1);
            if (used[c]) {
                used[c] = 0;
                drop--;
            }
        }
    } else {
        while (have < need) {
            uint32_t c = 1 + rnd(WAI_CDF_TOTAL - 1);
            if (!used[c]) {
                used[c] = 1;
                have++;
            }
        }
    }
    uint32_t k = 1;
    for (uint32_t c = 1; c < WAI_CDF_TOTAL; c++)
        if (used[c]) cdf[k++] = c;
    free(used);
}

static void test_table_rules(void) {
    uint32_t t3[3] = {0, 1, 65536};
    CHECK(wai_cdf_valid(t3, 3, WAI_CDF_T4097));
    CHECK(!wai_cdf_valid(t3, 2, WAI_CDF_T4097));
    uint32_t t2[2] = {0, 65536};
    CHECK(!wai_cdf_valid(t2, 2, WAI_CDF_T4097));
    CHECK(wai_cdf_valid(t2, 2, WAI_CDF_T2));
    uint32_t bad0[3] = {1, 2, 65536}, bad_end[3] = {0, 2, 65535}, flat[4] = {0, 5, 5, 65536};
    uint32_t down[4] = {0, 9, 5, 65536}, over[3] = {0, 70000, 65536};
    CHECK(!wai_cdf_valid(bad0, 3, WAI_CDF_T4097));
    CHECK(!wai_cdf_valid(bad_end, 3, WAI_CDF_T4097));
    CHECK(!wai_cdf_valid(flat, 4, WAI_CDF_T4097));
    CHECK(!wai_cdf_valid(down, 4, WAI_CDF_T4097));
    CHECK(!wai_cdf_valid(over, 3, WAI_CDF_T4097));
    uint32_t *big = malloc(sizeof *big * 65537);
    for (uint32_t i = 0; i <= 65536; i++) big[i] = i;
    CHECK(wai_cdf_valid(big, 65537, WAI_CDF_T2));
    CHECK(!wai_cdf_valid(big, 65537, WAI_CDF_T4097));
    random_table(big, 4097);
    CHECK(wai_cdf_valid(big, 4097, WAI_CDF_T4097));
    random_table(big, 4098);
    CHECK(!wai_cdf_valid(big, 4098, WAI_CDF_T4097));
    free(big);
}

static uint32_t linear_find(const uint32_t *cdf, uint32_t n, uint32_t cum) {
    uint32_t s = 0;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (cdf[i] <= cum) s = i;
    return s;
}

/* The lookup structure answers what a scan of the table answers, for every
 * cum and every lookup resolution. */
static void test_lookup_matches_scan(void) {
    static const uint32_t lens[] = {2, 3, 4, 5, 17, 256, 1000, 4097, 30000, 65537};
    uint32_t *cdf = malloc(sizeof *cdf * 65537);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        random_table(cdf, lens[li]);
        for (uint32_t bits = 0; bits <= 16; bits += 4) {
            wai_cdf_table t;
            if (!CHECK(wai_cdf_table_init(&t, NULL, cdf, lens[li], bits) == WAI_ok)) continue;
            int bad = 0;
            uint32_t s = 0;
            for (uint32_t cum = 0; cum < WAI_CDF_TOTAL && !bad; cum++) {
                while (s + 2 < lens[li] && cdf[s + 1] <= cum) s++;
                bad = wai_cdf_find(&t, cum) != s;
            }
            CHECK_MSG(!bad, "lookup differs from scan: n=%u bits=%u", lens[li], bits);
            wai_cdf_table_free(&t, NULL);
        }
    }
    CHECK(linear_find(cdf, 3, 0) == 0);
    free(cdf);
}

/* A peaked table of n symbols (most mass on a few, so the step table is
 * built), its boundaries some on slice edges, some inside. */
static void peaked_table(uint32_t *cdf, uint32_t n) {
    uint32_t rest = WAI_CDF_TOTAL, at = 0;
    cdf[0] = 0;
    for (uint32_t s = 0; s + 1 < n; s++) {
        uint32_t left = n - 1 - s, f = s + 2 == n ? rest : rest / 2 > left ? rest / 2 : 1;
        if (s % 3 == 1 && f > 32) f &= ~15u;   /* a boundary on a slice's edge */
        if (f > rest - (left - 1)) f = rest - (left - 1);
        at += f;
        rest -= f;
        cdf[s + 1] = at;
    }
}

/* The step tables (cdf.h): the pair table where the slices of 32 that two
 * boundaries cut are rare, else the per-slot one; either way every state's
 * step, for every cum and high parts at the extremes, is the struct
 * decoder's: the same state, words read and symbol. */
static void test_step_table(void) {
    uint32_t *cdf = malloc(sizeof *cdf * 65537);
    static const uint64_t his[] = {1u << 15, 0x12345, 0x7fffffff, 0xffffffffffffull >> 1,
                                   0xffffffffffffull};
    uint8_t words[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t pair_multi = 0, pair_cut = 0;
    for (int k = 0; k < 14; k++) {
        uint32_t n = k < 6 ? (uint32_t[]){2, 3, 4, 9, 19, 40}[k] : k == 12 ? 4097 : k == 13 ? 65537 : 3 + rnd(60);
        if (k < 9) peaked_table(cdf, n);
        else random_table(cdf, n);
        wai_cdf_table t;
        if (!CHECK(wai_cdf_table_init(&t, NULL, cdf, n, 16) == WAI_ok)) continue;
        CHECK((t.pair != NULL) != (t.step != NULL));
        if (k < 9) CHECK_MSG(t.pair != NULL, "a peaked table of %u symbols has a pair table", n);
        for (uint32_t i = 0; t.pair && i < (1u << WAI_CDF_PAIR_BITS); i++) {
            pair_multi += (uint32_t)t.pair[i] == WAI_CDF_PAIR_MULTI;
            pair_cut += (uint32_t)t.pair[i] != WAI_CDF_PAIR_MULTI && t.pair[i] >> 32 != (uint32_t)t.pair[i];
        }
        int bad = 0;
        for (uint32_t cum = 0; cum < WAI_CDF_TOTAL && !bad; cum++) {
            for (size_t h = 0; h < sizeof his / sizeof his[0] && !bad; h++) {
                wai_rans_dec a, b;
                wai_rans_dec_init(&a, words, sizeof words);
                a.x = his[h] << 16 | cum;
                b = a;
                int32_t va = 0;
                wai_status st = wai_rans_decode(&a, &t, -3, &va);
                wai_rans_local l = wai_rans_local_load(&b);
                int32_t vb = wai_rans_local_decode(&l, &b, &t, -3);
                wai_rans_local_store(&b, &l);
                bad = a.x != b.x || a.next != b.next || a.ran_out != b.ran_out ||
                      (st == WAI_ok && va != vb);
            }
        }
        CHECK_MSG(!bad, "the step differs: n=%u, %s table", n, t.pair ? "pair" : "per-slot");
        wai_cdf_table_free(&t, NULL);
    }
    /* The pair tables above held slices of both kinds: cut once, and cut
     * twice or more (the bucket's way). */
    CHECK_MSG(pair_multi > 0 && pair_cut > 0, "pair slices: %u cut once, %u more", pair_cut,
              pair_multi);
    /* A wide table's boundaries cut most slices of 32 twice: per slot. */
    random_table(cdf, 4097);
    wai_cdf_table t;
    CHECK(wai_cdf_table_init(&t, NULL, cdf, 4097, 16) == WAI_ok && t.step && !t.pair);
    wai_cdf_table_free(&t, NULL);
    /* Tables at other resolutions have none. */
    CHECK(wai_cdf_table_init(&t, NULL, cdf, 4097, 12) == WAI_ok && !t.step && !t.pair);
    wai_cdf_table_free(&t, NULL);
    free(cdf);
}

/* Encodes, decodes back and checks the canonical end. */
static int round_trip(const wai_cdf_table *t, int32_t offset, const int32_t *syms, size_t n) {
    uint8_t *bytes;
    size_t len;
    if (wai_rans_encode(NULL, t, NULL, NULL, offset, syms, n, &bytes, &len) != WAI_ok) return 0;
    wai_rans_dec d;
    wai_rans_dec_init(&d, bytes, len);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        int32_t v;
        ok = wai_rans_decode(&d, t, offset, &v) == WAI_ok && v == syms[i];
    }
    ok = ok && wai_rans_end_canonical(&d) == WAI_ok;
    free(bytes);
    return ok;
}

/* A symbol drawn to exercise direct values, escapes, and the i32 limits. */
static int32_t random_symbol(uint32_t n, int32_t offset) {
    int64_t v;
    switch (rnd(8)) {
    case 0: v = (int64_t)(int32_t)harness_rand(&g_seed); break;        /* anywhere */
    case 1: v = rnd(2) ? INT32_MAX - (int64_t)rnd(3) : INT32_MIN + (int64_t)rnd(3); break;
    case 2: v = (int64_t)offset - 1 - rnd(300); break;                /* negative escapes */
    case 3: v = (int64_t)offset + n - 2 + rnd(300); break;            /* positive escapes */
    default: v = (int64_t)offset + rnd(n > 2 ? n - 2 : 1); break;      /* direct */
    }
    if (v > INT32_MAX) v = INT32_MAX;
    if (v < INT32_MIN) v = INT32_MIN;
    if (!wai_rans_encodable((int32_t)v, offset)) v = offset;
    return (int32_t)v;
}

static int32_t random_offset(void) {
    switch (rnd(6)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return (int32_t)harness_rand(&g_seed);
    default: return (int32_t)rnd(64) - 32;
    }
}

/* Every table length from 3 to 4097, random offsets, escapes at the limits. */
static void test_round_trip_every_length(void) {
    uint32_t *cdf = malloc(sizeof *cdf * 4097);
    int32_t syms[200];
    int failures = 0;
    for (uint32_t n = 3; n <= 4097; n++) {
        random_table(cdf, n);
        wai_cdf_table t;
        wai_cdf_table_init(&t, NULL, cdf, n, n & 1 ? 16 : 8);
        int32_t offset = random_offset();
        for (size_t i = 0; i < 200; i++) syms[i] = random_symbol(n, offset);
        if (!round_trip(&t, offset, syms, 200)) failures++;
        wai_cdf_table_free(&t, NULL);
    }
    CHECK_MSG(failures == 0, "%d tables failed to round-trip", failures);
    free(cdf);
}

/* Millions of symbols through one stream, and t2 tables (every symbol an
 * escape when n = 2). */
static void test_round_trip_long_streams(void) {
    enum { N = 2000000 };
    int32_t *syms = malloc(sizeof *syms * N);
    uint32_t cdf[19];
    random_table(cdf, 19);
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 19, 16);
    for (size_t i = 0; i < N; i++) syms[i] = random_symbol(19, -8);
    CHECK(round_trip(&t, -8, syms, N));
    wai_cdf_table_free(&t, NULL);

    uint32_t t2[2] = {0, 65536};
    wai_cdf_table tt;
    wai_cdf_table_init(&tt, NULL, t2, 2, 4);
    for (size_t i = 0; i < 100000; i++) syms[i] = random_symbol(2, 7);
    CHECK(round_trip(&tt, 7, syms, 100000));
    wai_cdf_table_free(&tt, NULL);
    free(syms);
}

/* Per-symbol tables and offsets (as WIH1's latents use them). */
static void test_round_trip_table_per_symbol(void) {
    enum { K = 5, N = 20000 };
    uint32_t cdfs[K][64];
    wai_cdf_table tables[K];
    for (int k = 0; k < K; k++) {
        random_table(cdfs[k], 3 + 13 * (uint32_t)k);
        wai_cdf_table_init(&tables[k], NULL, cdfs[k], 3 + 13 * (uint32_t)k, 12);
    }
    const wai_cdf_table **per = malloc(sizeof *per * N);
    int32_t *offs = malloc(sizeof *offs * N), *syms = malloc(sizeof *syms * N);
    for (size_t i = 0; i < N; i++) {
        per[i] = &tables[rnd(K)];
        offs[i] = random_offset();
        syms[i] = random_symbol(per[i]->n, offs[i]);
    }
    uint8_t *bytes;
    size_t len;
    CHECK(wai_rans_encode(NULL, NULL, per, offs, 0, syms, N, &bytes, &len) == WAI_ok);
    wai_rans_dec d;
    wai_rans_dec_init(&d, bytes, len);
    int bad = 0;
    for (size_t i = 0; i < N; i++) {
        int32_t v;
        bad |= wai_rans_decode(&d, per[i], offs[i], &v) != WAI_ok || v != syms[i];
    }
    CHECK(!bad);
    CHECK(wai_rans_end_canonical(&d) == WAI_ok);
    free(bytes);
    free(per);
    free(offs);
    free(syms);
    for (int k = 0; k < K; k++) wai_cdf_table_free(&tables[k], NULL);
}

/* R10: the encoder refuses a symbol that would need saturation to come back. */
static void test_encoder_refuses_saturation(void) {
    uint32_t cdf[3] = {0, 30000, 65536};
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 3, 16);
    int32_t s = INT32_MAX;
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(wai_rans_encode(NULL, &t, NULL, NULL, -1, &s, 1, &bytes, &len) == WAI_field_range);
    CHECK(bytes == NULL && len == 0);
    s = INT32_MIN;
    CHECK(wai_rans_encode(NULL, &t, NULL, NULL, 1, &s, 1, &bytes, &len) == WAI_field_range);
    CHECK(wai_rans_encodable(INT32_MAX, 0) && wai_rans_encodable(INT32_MIN, 0));
    CHECK(wai_rans_encodable(INT32_MIN, INT32_MIN) && wai_rans_encodable(INT32_MAX, INT32_MAX));
    CHECK(!wai_rans_encodable(INT32_MAX, INT32_MIN) && !wai_rans_encodable(INT32_MIN, INT32_MAX));
    int32_t edge[4] = {INT32_MIN, INT32_MAX, 0, -1};
    CHECK(round_trip(&t, 0, edge, 4));
    wai_cdf_table_free(&t, NULL);
}

#define G(v) (WAI_RANS_GROUP | (v))

/* Decodes one symbol from a list of steps; returns its status. */
static wai_status decode_ops(const wai_rans_step *ops, size_t n, const wai_cdf_table *t,
                             int32_t offset, int32_t *value, wai_status *end) {
    uint8_t *bytes;
    size_t len;
    if (wai_rans_encode_steps(NULL, t, ops, n, &bytes, &len) != WAI_ok) return WAI_invalid_argument;
    wai_rans_dec d;
    wai_rans_dec_init(&d, bytes, len);
    wai_status st = wai_rans_decode(&d, t, offset, value);
    *end = wai_rans_end_canonical(&d);
    free(bytes);
    return st;
}

/* R10: every escape layout the rules allow decodes. */
static void test_non_minimal_escapes(void) {
    uint32_t cdf[6] = {0, 100, 200, 300, 400, 65536}; /* n = 6: escape index 4 */
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 6, 16);
    int32_t v;
    wai_status end;
    /* Count groups [15, 0]: count 15, capped at 8 raw groups. raw = 2 -> 1 + (n - 2). */
    wai_rans_step a[] = {4, G(15), G(0), G(2), G(0), G(0), G(0), G(0), G(0), G(0), G(0)};
    CHECK(decode_ops(a, 11, &t, 0, &v, &end) == WAI_ok && v == 5 && end == WAI_ok);
    /* Nine 15s: the loop stops after 8 more groups even though v is still 15. */
    wai_rans_step b[18] = {4};
    for (int i = 1; i <= 9; i++) b[i] = G(15);
    for (int i = 10; i < 18; i++) b[i] = G(0);
    b[10] = G(3); /* raw = 3: odd -> -(1) - 1 = -2 */
    CHECK(decode_ops(b, 18, &t, 0, &v, &end) == WAI_ok && v == -2 && end == WAI_ok);
    /* Zero-padded raw groups: count 3, raw [6, 0, 0] = 6 -> 3 + 4 = 7, offset 10. */
    wai_rans_step c[] = {4, G(3), G(6), G(0), G(0)};
    CHECK(decode_ops(c, 5, &t, 10, &v, &end) == WAI_ok && v == 17 && end == WAI_ok);
    /* Count 0: raw 0 -> value n - 2. */
    wai_rans_step z[] = {4, G(0)};
    CHECK(decode_ops(z, 2, &t, 0, &v, &end) == WAI_ok && v == 4);
    /* A raw value that saturates: raw = 0xFFFFFFFE -> 2^31 - 1 + 4, then + offset. */
    wai_rans_step s[10] = {4, G(8)};
    for (int i = 2; i < 10; i++) s[i] = G(15);
    s[2] = G(14);
    CHECK(decode_ops(s, 10, &t, 0, &v, &end) == WAI_ok && v == INT32_MAX);
    CHECK(decode_ops(s, 10, &t, -4, &v, &end) == WAI_ok && v == INT32_MAX - 4);
    /* raw = 0xFFFFFFFF (odd) -> INT32_MIN; with offset -1 the symbol saturates. */
    s[2] = G(15);
    CHECK(decode_ops(s, 10, &t, 0, &v, &end) == WAI_ok && v == INT32_MIN);
    CHECK(decode_ops(s, 10, &t, -1, &v, &end) == WAI_ok && v == INT32_MIN);
    CHECK(decode_ops(s, 10, &t, 1, &v, &end) == WAI_ok && v == INT32_MIN + 1);
    /* An op past the table's last symbol or a group past 15 is not writable. */
    wai_rans_step bad[] = {5}, bad_group[] = {4, G(16)};
    CHECK(decode_ops(bad, 1, &t, 0, &v, &end) == WAI_invalid_argument);
    CHECK(decode_ops(bad_group, 2, &t, 0, &v, &end) == WAI_invalid_argument);
    wai_cdf_table_free(&t, NULL);
}

static void put_words(uint8_t *p, const uint32_t *w, size_t n) {
    for (size_t i = 0; i < n; i++) wai_store_u32le(p + 4 * i, w[i]);
}

/* R9 and the empty stream: the state 2^31 alone; a word left unread or
 * another final state is stream_noncanonical. */
static void test_canonical_end(void) {
    uint8_t buf[16];
    wai_rans_dec d;
    uint32_t empty[2] = {0x80000000u, 0};
    put_words(buf, empty, 2);
    wai_rans_dec_init(&d, buf, 8);
    CHECK(wai_rans_end_canonical(&d) == WAI_ok);
    uint32_t extra[3] = {0x80000000u, 0, 0};
    put_words(buf, extra, 3);
    wai_rans_dec_init(&d, buf, 12);
    CHECK(wai_rans_end_canonical(&d) == WAI_stream_noncanonical);
    uint32_t other[2] = {0x80000001u, 0};
    put_words(buf, other, 2);
    wai_rans_dec_init(&d, buf, 8);
    CHECK(wai_rans_end_canonical(&d) == WAI_stream_noncanonical);
    CHECK(wai_rans_end_final_only(&d) == WAI_ok);

    /* A real stream with a word appended decodes the same symbols, then is
     * refused at its end. */
    uint32_t cdf[4] = {0, 20000, 40000, 65536};
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 4, 16);
    int32_t syms[300];
    for (int i = 0; i < 300; i++) syms[i] = random_symbol(4, 0);
    uint8_t *bytes;
    size_t len;
    CHECK(wai_rans_encode(NULL, &t, NULL, NULL, 0, syms, 300, &bytes, &len) == WAI_ok);
    uint8_t *longer = malloc(len + 4);
    memcpy(longer, bytes, len);
    wai_store_u32le(longer + len, 0xdeadbeef);
    wai_rans_dec_init(&d, longer, len + 4);
    int same = 1;
    for (int i = 0; i < 300; i++) {
        int32_t v;
        same &= wai_rans_decode(&d, &t, 0, &v) == WAI_ok && v == syms[i];
    }
    CHECK(same);
    CHECK(wai_rans_end_canonical(&d) == WAI_stream_noncanonical);
    free(longer);
    free(bytes);
    wai_cdf_table_free(&t, NULL);
}

/* R2: a stream cut short refuses the first symbol during whose decode it ran
 * out (stream_exhausted, never stream_noncanonical, the last symbol
 * included); the symbols before it are the encoder's. */
static void test_run_out(void) {
    uint32_t cdf[8];
    random_table(cdf, 8);
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 8, 16);
    int last_symbol_cases = 0, escape_cases = 0, bad = 0;
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 1 + rnd(60);
        int32_t syms[60];
        for (size_t i = 0; i < n; i++) syms[i] = random_symbol(8, -3);
        uint8_t *bytes;
        size_t len;
        wai_rans_encode(NULL, &t, NULL, NULL, -3, syms, n, &bytes, &len);
        for (size_t cut = 8; cut < len; cut += 4) {
            wai_rans_dec d;
            wai_rans_dec_init(&d, bytes, cut);
            size_t i = 0;
            wai_status st = WAI_ok;
            for (; i < n; i++) {
                int32_t v;
                st = wai_rans_decode(&d, &t, -3, &v);
                if (st != WAI_ok) break;
                bad |= v != syms[i];
            }
            /* Dropping words always runs the stream out somewhere. */
            bad |= st != WAI_stream_exhausted;
            if (i == n - 1) last_symbol_cases++;
            if (i < n && (syms[i] < -3 || syms[i] > -3 + 5)) escape_cases++;
        }
        free(bytes);
    }
    CHECK(!bad);
    CHECK(last_symbol_cases > 0);
    CHECK(escape_cases > 0);
    wai_cdf_table_free(&t, NULL);
}

/* R6: the stream's framing. */
static void test_stream_framing(void) {
    uint8_t buf[32] = {0};
    wai_reader r;
    const uint8_t *bytes;
    size_t len;
    wai_reader_init(&r, buf, 3);
    CHECK(wai_rans_read_stream(&r, &bytes, &len) == WAI_stream_length);
    static const uint32_t bad_l[] = {0, 4, 6, 9, 10, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad_l / sizeof bad_l[0]; i++) {
        wai_store_u32le(buf, bad_l[i]);
        wai_reader_init(&r, buf, sizeof buf);
        CHECK(wai_rans_read_stream(&r, &bytes, &len) == WAI_stream_length);
    }
    wai_store_u32le(buf, 8);
    wai_reader_init(&r, buf, 12);
    CHECK(wai_rans_read_stream(&r, &bytes, &len) == WAI_ok && len == 8 && bytes == buf + 4);
    wai_reader_init(&r, buf, 11);
    CHECK(wai_rans_read_stream(&r, &bytes, &len) == WAI_stream_length);
    wai_store_u32le(buf, 0xFFFFFFFCu); /* a multiple of 4, far past the bytes */
    wai_reader_init(&r, buf, sizeof buf);
    CHECK(wai_rans_read_stream(&r, &bytes, &len) == WAI_stream_length);
}

/* Decoding a stream as steps and encoding the steps gives the same bytes,
 * whatever escape layout the stream used. */
static void test_steps_copy_streams_exactly(void) {
    uint32_t cdf[6] = {0, 100, 200, 300, 400, 65536};
    wai_cdf_table t;
    wai_cdf_table_init(&t, NULL, cdf, 6, 16);
    wai_rans_step steps[600];
    size_t n = 0;
    for (int sym = 0; sym < 40; sym++) {
        if (rnd(3)) {
            steps[n++] = rnd(4);
            continue;
        }
        steps[n++] = 4; /* an escape with random, possibly non-minimal groups */
        uint32_t count = rnd(2) ? 15 : rnd(9);
        steps[n++] = G(count);
        uint32_t total = count;
        for (int i = 0; i < 8 && count == 15; i++) {
            count = rnd(2) ? 15 : rnd(16);
            steps[n++] = G(count);
            total += count;
        }
        if (total > 8) total = 8;
        for (uint32_t j = 0; j < total; j++) steps[n++] = G(rnd(16));
    }
    uint8_t *bytes, *again;
    size_t len, len2;
    CHECK(wai_rans_encode_steps(NULL, &t, steps, n, &bytes, &len) == WAI_ok);
    wai_rans_dec d;
    wai_rans_dec_init(&d, bytes, len);
    wai_rans_step got[600];
    size_t m = 0, k;
    for (int sym = 0; sym < 40; sym++) {
        CHECK(wai_rans_decode_steps(&d, &t, got + m, &k) == WAI_ok);
        m += k;
    }
    CHECK(wai_rans_end_canonical(&d) == WAI_ok);
    CHECK(m == n && memcmp(got, steps, n * sizeof *steps) == 0);
    CHECK(wai_rans_encode_steps(NULL, &t, got, m, &again, &len2) == WAI_ok);
    CHECK(len2 == len && memcmp(again, bytes, len) == 0);
    free(bytes);
    free(again);
    wai_cdf_table_free(&t, NULL);
}

/* The public encoder (wai_write.h): the symbols back through the decoder,
 * escapes included, and its refusals. */
static void test_public_encoder(void) {
    static const uint32_t cdf[] = {0, 20000, 45000, 60000, 65536};
    const int32_t syms[] = {-3, -2, -1, 0, 7, -100000, 123456789, INT32_MIN + 5, -3};
    const size_t n = sizeof syms / sizeof *syms;
    uint8_t *out = NULL;
    size_t len = 0;
    if (!CHECK(wai_rans_encode_symbols(NULL, cdf, 5, -3, syms, n, &out, &len) == WAI_ok)) return;
    wai_cdf_table t;
    CHECK(wai_cdf_table_init(&t, NULL, cdf, 5, 16) == WAI_ok);
    wai_rans_dec d;
    wai_rans_dec_init(&d, out, len);
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        int32_t v;
        same &= wai_rans_decode(&d, &t, -3, &v) == WAI_ok && v == syms[i];
    }
    CHECK(same && wai_rans_end_canonical(&d) == WAI_ok);
    wai_cdf_table_free(&t, NULL);
    wai_write_free(NULL, out);
    static const uint32_t bad_cdf[] = {0, 20000, 20000, 65536};
    CHECK(wai_rans_encode_symbols(NULL, bad_cdf, 4, 0, syms, n, &out, &len) == WAI_cdf_malformed &&
          !out && !len);
    CHECK(wai_rans_encode_symbols(NULL, cdf, 5, INT32_MAX, syms, 1, &out, &len) == WAI_field_range);
    CHECK(wai_rans_encode_symbols(NULL, cdf, 5, 0, NULL, 0, &out, &len) == WAI_ok && len == 8);
    wai_write_free(NULL, out);
    CHECK(wai_rans_encode_symbols(NULL, NULL, 5, 0, syms, 1, &out, &len) == WAI_invalid_argument);
}

/* The public decoder (wai_rans.h) against the public encoder, several
 * tables in one stream, with every refusal it names. */
static void test_public_decoder(void) {
    static const uint32_t c0[] = {0, 20000, 45000, 60000, 65536};
    static const uint32_t c1[] = {0, 1, 65535, 65536};
    const uint32_t *cdfs[2] = {c0, c1};
    const size_t lens[2] = {5, 4};
    const int32_t offs[2] = {-3, 100};
    enum { N = 300 };
    uint32_t tof[N];
    int32_t syms[N], got[N];
    uint64_t seed = 99;
    for (size_t i = 0; i < N; i++) {
        tof[i] = (uint32_t)(harness_rand(&seed) & 1);
        syms[i] = offs[tof[i]] + (int32_t)(harness_rand(&seed) % 7) - (i % 50 == 0 ? 100000 : 0);
    }
    uint8_t *st = NULL;
    size_t len = 0;
    if (!CHECK(wai_rans_encode_symbols_tables(NULL, 2, cdfs, lens, offs, tof, syms, N, &st,
                                              &len) == WAI_ok))
        return;
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, tof, st, len, got, N) ==
              WAI_ok &&
          memcmp(got, syms, sizeof syms) == 0);
    /* One symbol short: the stream has more (noncanonical); one past: it
     * runs out. */
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, tof, st, len, got, N - 1) ==
          WAI_stream_noncanonical);
    uint32_t tof2[N + 1];
    memcpy(tof2, tof, sizeof tof);
    tof2[N] = 0;
    int32_t got2[N + 1];
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, tof2, st, len, got2, N + 1) ==
          WAI_stream_exhausted);
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, tof, st, len - 4, got, N) !=
          WAI_ok);
    static const uint32_t bad[] = {0, 20000, 20000, 65536};
    const uint32_t *bcdfs[2] = {c0, bad};
    const size_t blens[2] = {5, 4};
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, bcdfs, blens, offs, tof, st, len, got, N) ==
          WAI_cdf_malformed);
    tof2[0] = 2;
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, tof2, st, len, got, N) ==
          WAI_invalid_argument);
    CHECK(wai_rans_decode_symbols_tables(NULL, 2, cdfs, lens, offs, NULL, st, len, got, N) ==
          WAI_invalid_argument);
    wai_write_free(NULL, st);
}

/* The public decoder's lookups are sized to the call: no more buckets in
 * all than symbols (8 bits at least; full resolution from 2^16 symbols a
 * table, for up to 16 tables), and every size decodes the same. Peak
 * bytes show the size: a 2^16-bucket lookup alone is 128 KiB. */
static void test_public_decoder_lookup_size(void) {
    static const uint32_t c0[] = {0, 300, 20000, 45000, 60000, 65535, 65536};
    const uint32_t *cdfs[17];
    size_t lens[17];
    int32_t offs[17];
    for (int t = 0; t < 17; t++) cdfs[t] = c0, lens[t] = 7, offs[t] = t - 5;
    enum { BIG = 1 << 17 };
    uint32_t *tof = malloc(BIG * sizeof *tof);
    int32_t *syms = malloc(BIG * sizeof *syms), *got = malloc(BIG * sizeof *got);
    if (!CHECK(tof && syms && got)) goto done;
    static const struct {
        size_t n, n_tables, peak_min, peak_max;
    } cases[] = {
        {10, 1, 0, 2048},                  /* 8 bits: 514 bytes */
        {10, 16, 0, 16 * 1024},            /* 8 bits each */
        {2000, 1, 2048, 8192},             /* 10 bits */
        {BIG, 1, 1 << 17, SIZE_MAX},       /* 16 bits, with its step table */
        {BIG, 2, 1 << 17, SIZE_MAX},       /* 16 bits each */
        {BIG, 4, 1 << 16, 5 << 16},        /* 15 bits each */
        {BIG, 17, 0, 32 * 1024},           /* past 16 tables: 8 bits */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const size_t n = cases[c].n, nt = cases[c].n_tables;
        uint64_t seed = 1000 + c;
        for (size_t i = 0; i < n; i++) {
            tof[i] = (uint32_t)(harness_rand(&seed) % nt);
            syms[i] = offs[tof[i]] + (int32_t)(harness_rand(&seed) % 9) - 1;
        }
        uint8_t *st = NULL;
        size_t len = 0;
        if (!CHECK(wai_rans_encode_symbols_tables(NULL, nt, cdfs, lens, offs, tof, syms, n, &st,
                                                  &len) == WAI_ok))
            continue;
        harness_alloc h = {0};
        wai_allocator a = harness_allocator(&h);
        const wai_status s = wai_rans_decode_symbols_tables(&a, nt, cdfs, lens, offs, tof, st, len, got, n);
        CHECK_MSG(s == WAI_ok && memcmp(got, syms, n * sizeof *syms) == 0, "case %zu: %d", c, (int)s);
        CHECK_MSG(h.bytes_peak >= cases[c].peak_min && h.bytes_peak <= cases[c].peak_max,
                  "case %zu: %zu symbols, %zu tables: peak %zu bytes", c, n, nt, h.bytes_peak);
        CHECK(h.live == 0);
        wai_write_free(NULL, st);
    }
done:
    free(tof), free(syms), free(got);
}

void suite_rans(void) {
    harness_run("rans/public_decoder_lookup_size", test_public_decoder_lookup_size);
    harness_run("rans/public_encoder", test_public_encoder);
    harness_run("rans/public_decoder", test_public_decoder);
    harness_run("rans/steps_copy_streams_exactly", test_steps_copy_streams_exactly);
    harness_run("rans/table_rules", test_table_rules);
    harness_run("rans/lookup_matches_scan", test_lookup_matches_scan);
    harness_run("rans/step_table", test_step_table);
    harness_run("rans/round_trip_every_length", test_round_trip_every_length);
    harness_run("rans/round_trip_long_streams", test_round_trip_long_streams);
    harness_run("rans/round_trip_table_per_symbol", test_round_trip_table_per_symbol);
    harness_run("rans/encoder_refuses_saturation", test_encoder_refuses_saturation);
    harness_run("rans/non_minimal_escapes_R10", test_non_minimal_escapes);
    harness_run("rans/canonical_end_R9", test_canonical_end);
    harness_run("rans/run_out_R2", test_run_out);
    harness_run("rans/stream_framing_R6", test_stream_framing);
}
