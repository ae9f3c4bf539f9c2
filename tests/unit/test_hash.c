/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 and BLAKE3: published vectors, vector files under tests/hash/,
 * and equivalence of incremental hashing over random splits with oneshot. */
#include "harness.h"

#include "wai/wai_hash.h"

#include <stdlib.h>
#include <string.h>

#define XOF_LEN 131 /* extended output length of the official BLAKE3 vectors */

static void fill_251(uint8_t *buf, size_t n) {
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i % 251);
}

static void fill_rand(uint8_t *buf, size_t n, uint64_t *rng) {
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(harness_rand(rng) >> 56);
}

static int hex_nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Parses exactly n bytes of hex; returns 0 on a malformed string. */
static int parse_hex(const char *s, size_t slen, uint8_t *out, size_t n) {
    if (slen != 2 * n) return 0;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi * 16 + lo);
    }
    return 1;
}

/* One "LEN HEX" line of a vector file. */
typedef struct vec_line {
    size_t len;
    const char *hex;
    size_t hex_len;
} vec_line;

/* Splits the next line off *pos; returns 0 at the end or on a bad line
 * (which is then reported). */
static int next_vec(const char *buf, size_t n, size_t *pos, vec_line *v, const char *file) {
    while (*pos < n && (buf[*pos] == '\n' || buf[*pos] == '\r')) (*pos)++;
    if (*pos >= n) return 0;
    size_t i = *pos, len = 0;
    int digits = 0;
    while (i < n && buf[i] >= '0' && buf[i] <= '9') {
        len = len * 10 + (size_t)(buf[i] - '0');
        i++;
        digits++;
    }
    if (!CHECK_MSG(digits > 0 && i < n && buf[i] == ' ', "%s: bad line at byte %zu", file, *pos))
        return 0;
    i++;
    size_t start = i;
    while (i < n && buf[i] != '\n' && buf[i] != '\r') i++;
    v->len = len;
    v->hex = buf + start;
    v->hex_len = i - start;
    *pos = i;
    return 1;
}

/* A random split size for incremental feeding: mostly small or aligned to
 * the block and chunk sizes, where buffering bugs live. */
static size_t rand_split(uint64_t *rng, size_t remaining) {
    uint64_t r = harness_rand(rng);
    size_t s;
    switch (r & 15) {
    case 0: s = 0; break;
    case 1: s = 1; break;
    case 2: s = (size_t)(r >> 8) % 8; break;
    case 3: s = (size_t)(r >> 8) % 65; break;
    case 4: s = 64 * ((size_t)(r >> 8) % 20); break;
    case 5: s = 64 * ((size_t)(r >> 8) % 20) + 1; break;
    case 6: s = 1024 * ((size_t)(r >> 8) % 5); break;
    case 7: s = 1024 * (1 + (size_t)(r >> 8) % 4) - 1 + 2 * (size_t)((r >> 40) & 1); break;
    case 8: s = (size_t)(r >> 8) % 2100; break;
    case 9: s = (size_t)(r >> 8) % 9000; break;
    default: s = (size_t)(r >> 8) % (remaining + 1); break;
    }
    return s > remaining ? remaining : s;
}

static void sha256_split(const uint8_t *data, size_t len, uint64_t *rng, uint8_t out[32]) {
    wai_sha256 st;
    wai_sha256_init(&st);
    size_t off = 0;
    while (off < len) {
        size_t s = rand_split(rng, len - off);
        wai_sha256_update(&st, data + off, s);
        off += s;
    }
    wai_sha256_final(&st, out);
}

static void blake3_split(const uint8_t *data, size_t len, uint64_t *rng, wai_blake3 *st) {
    wai_blake3_init(st);
    size_t off = 0;
    while (off < len) {
        size_t s = rand_split(rng, len - off);
        wai_blake3_update(st, data + off, s);
        off += s;
    }
}

/* ---- SHA-256 ------------------------------------------------------------ */

static int sha256_is(const void *data, size_t len, const char *hex) {
    uint8_t d[32];
    char got[65];
    wai_sha256_oneshot(data, len, d);
    wai_hex(d, 32, got);
    return CHECK_MSG(strcmp(got, hex) == 0, "sha256 of %zu bytes: got %s want %s", len, got, hex);
}

static void test_sha256_published(void) {
    /* FIPS 180-4 examples (NIST CSRC) and the long-message vector. */
    sha256_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_is(m448, strlen(m448), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    static const char m896[] =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    sha256_is(m896, strlen(m896), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    size_t n = 1000000;
    uint8_t *a = malloc(n);
    if (!CHECK(a != NULL)) return;
    memset(a, 'a', n);
    sha256_is(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* The same million fed one byte at a time, and in 1000-byte pieces. */
    wai_sha256 st;
    uint8_t d1[32], d2[32], d3[32];
    wai_sha256_oneshot(a, n, d1);
    wai_sha256_init(&st);
    for (size_t i = 0; i < n; i++) wai_sha256_update(&st, "a", 1);
    wai_sha256_final(&st, d2);
    wai_sha256_init(&st);
    for (size_t i = 0; i < n; i += 1000) wai_sha256_update(&st, a + i, 1000);
    wai_sha256_final(&st, d3);
    CHECK(memcmp(d1, d2, 32) == 0);
    CHECK(memcmp(d1, d3, 32) == 0);
    free(a);
}

static void test_sha256_file(void) {
    size_t n = 0;
    char *buf = (char *)harness_read_file("hash/sha256_vectors.txt", &n);
    if (!CHECK_MSG(buf != NULL, "tests/hash/sha256_vectors.txt missing")) return;
    size_t pos = 0, count = 0;
    vec_line v;
    while (next_vec(buf, n, &pos, &v, "sha256_vectors.txt")) {
        uint8_t want[32], got[32];
        if (!CHECK_MSG(parse_hex(v.hex, v.hex_len, want, 32), "bad hex for len %zu", v.len)) break;
        uint8_t *in = malloc(v.len + 1);
        if (!CHECK(in != NULL)) break;
        fill_251(in, v.len);
        wai_sha256_oneshot(in, v.len, got);
        CHECK_MSG(memcmp(got, want, 32) == 0, "sha256 vector len %zu", v.len);
        free(in);
        count++;
    }
    CHECK_MSG(count >= 100, "only %zu sha256 vectors read", count);
    free(buf);
}

static void test_sha256_final_twice(void) {
    /* final leaves the state alone: calling it again gives the same digest,
     * and more input may follow it. */
    uint8_t msg[300], d1[32], d2[32], d3[32];
    fill_251(msg, sizeof msg);
    for (size_t cut = 0; cut <= sizeof msg; cut += 37) {
        wai_sha256 st;
        wai_sha256_init(&st);
        wai_sha256_update(&st, msg, cut);
        wai_sha256_final(&st, d1);
        wai_sha256_final(&st, d2);
        wai_sha256_oneshot(msg, cut, d3);
        CHECK_MSG(memcmp(d1, d2, 32) == 0 && memcmp(d1, d3, 32) == 0, "final twice at %zu", cut);
        wai_sha256_update(&st, msg + cut, sizeof msg - cut);
        wai_sha256_final(&st, d1);
        wai_sha256_oneshot(msg, sizeof msg, d3);
        CHECK_MSG(memcmp(d1, d3, 32) == 0, "update after final at %zu", cut);
    }
    /* A zero-length update may pass NULL. */
    wai_sha256 st;
    wai_sha256_init(&st);
    wai_sha256_update(&st, NULL, 0);
    wai_sha256_final(&st, d1);
    wai_sha256_oneshot("", 0, d2);
    CHECK(memcmp(d1, d2, 32) == 0);
}

/* ---- BLAKE3 ------------------------------------------------------------- */

static void test_blake3_official(void) {
    size_t n = 0;
    char *buf = (char *)harness_read_file("hash/blake3_vectors.txt", &n);
    if (!CHECK_MSG(buf != NULL, "tests/hash/blake3_vectors.txt missing")) return;
    size_t pos = 0, count = 0;
    uint64_t rng = 0xb1a4e3;
    vec_line v;
    while (next_vec(buf, n, &pos, &v, "blake3_vectors.txt")) {
        uint8_t want[XOF_LEN], got[XOF_LEN + 1];
        if (!CHECK_MSG(parse_hex(v.hex, v.hex_len, want, XOF_LEN), "bad hex for len %zu", v.len)) break;
        uint8_t *in = malloc(v.len + 1);
        if (!CHECK(in != NULL)) break;
        fill_251(in, v.len);

        wai_blake3_oneshot(in, v.len, got);
        CHECK_MSG(memcmp(got, want, 32) == 0, "blake3 oneshot len %zu", v.len);

        wai_blake3 st;
        wai_blake3_init(&st);
        wai_blake3_update(&st, in, v.len);
        got[XOF_LEN] = 0xa5; /* final must write exactly out_len bytes */
        wai_blake3_final(&st, got, XOF_LEN);
        CHECK_MSG(memcmp(got, want, XOF_LEN) == 0, "blake3 xof len %zu", v.len);
        CHECK(got[XOF_LEN] == 0xa5);

        /* Byte by byte, and in random pieces. */
        wai_blake3_init(&st);
        for (size_t i = 0; i < v.len; i++) wai_blake3_update(&st, in + i, 1);
        wai_blake3_final(&st, got, XOF_LEN);
        CHECK_MSG(memcmp(got, want, XOF_LEN) == 0, "blake3 bytewise len %zu", v.len);
        for (int rep = 0; rep < 4; rep++) {
            blake3_split(in, v.len, &rng, &st);
            wai_blake3_final(&st, got, XOF_LEN);
            CHECK_MSG(memcmp(got, want, XOF_LEN) == 0, "blake3 split len %zu", v.len);
        }
        free(in);
        count++;
    }
    CHECK_MSG(count == 35, "read %zu blake3 vectors, want 35", count);
    free(buf);
}

static void test_blake3_xof_prefix(void) {
    static const size_t lens[] = {0, 1, 64, 65, 1024, 1025, 2048, 3073, 10000};
    uint8_t in[10000];
    fill_251(in, sizeof in);
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        wai_blake3 st;
        uint8_t full[200], part[201];
        wai_blake3_init(&st);
        wai_blake3_update(&st, in, lens[k]);
        wai_blake3_final(&st, full, sizeof full);
        for (size_t m = 1; m <= 200; m++) {
            memset(part, 0x5a, sizeof part);
            wai_blake3_final(&st, part, m);
            CHECK_MSG(memcmp(part, full, m) == 0 && part[m] == 0x5a, "xof prefix %zu of input %zu", m,
                      lens[k]);
        }
        memset(part, 0x5a, sizeof part);
        wai_blake3_final(&st, part, 0); /* nothing written */
        CHECK(part[0] == 0x5a);
    }
}

static void test_blake3_final_keeps_state(void) {
    /* final is const: calling it mid-stream changes nothing, so hashing can
     * go on and the end result equals oneshot. */
    uint8_t in[5000], a[32], b[32], c[32];
    fill_251(in, sizeof in);
    for (size_t cut = 0; cut <= sizeof in; cut += 97) {
        wai_blake3 st, copy;
        wai_blake3_init(&st);
        wai_blake3_update(&st, in, cut);
        memcpy(&copy, &st, sizeof st);
        wai_blake3_final(&st, a, 32);
        wai_blake3_final(&st, b, 32);
        wai_blake3_oneshot(in, cut, c);
        CHECK_MSG(memcmp(a, b, 32) == 0 && memcmp(a, c, 32) == 0, "final twice at %zu", cut);
        CHECK(memcmp(&copy, &st, sizeof st) == 0);
        wai_blake3_update(&st, in + cut, sizeof in - cut);
        wai_blake3_final(&st, a, 32);
        wai_blake3_oneshot(in, sizeof in, c);
        CHECK_MSG(memcmp(a, c, 32) == 0, "update after final at %zu", cut);
    }
    wai_blake3 st;
    wai_blake3_init(&st);
    wai_blake3_update(&st, NULL, 0);
    wai_blake3_final(&st, a, 32);
    wai_blake3_oneshot("", 0, b);
    CHECK(memcmp(a, b, 32) == 0);
}

/* ---- incremental == oneshot over many lengths -------------------------- */

#define BIG_MAX (40 * 1024 + 2)

static void check_len(const uint8_t *data, size_t len, uint64_t *rng) {
    uint8_t s1[32], s2[32], b1[32], b2[32], b3[32];
    wai_sha256_oneshot(data, len, s1);
    sha256_split(data, len, rng, s2);
    CHECK_MSG(memcmp(s1, s2, 32) == 0, "sha256 split differs at len %zu", len);

    wai_blake3 st;
    wai_blake3_oneshot(data, len, b1);
    blake3_split(data, len, rng, &st);
    wai_blake3_final(&st, b2, 32);
    wai_blake3_final(&st, b3, 32);
    CHECK_MSG(memcmp(b1, b2, 32) == 0, "blake3 split differs at len %zu", len);
    CHECK_MSG(memcmp(b2, b3, 32) == 0, "blake3 final twice differs at len %zu", len);
}

static void test_incremental_lengths(void) {
    uint64_t rng = 0x1234567;
    uint8_t *data = malloc(BIG_MAX);
    if (!CHECK(data != NULL)) return;
    fill_rand(data, BIG_MAX, &rng);
    for (size_t len = 0; len <= 2100; len++) check_len(data, len, &rng);
    /* Around every block boundary up to 40 KiB (this includes every chunk
     * boundary, 1024 = 16 * 64). */
    for (size_t k = 33; 64 * k + 1 < BIG_MAX; k++) {
        for (size_t d = 0; d < 3; d++) check_len(data, 64 * k - 1 + d, &rng);
    }
    free(data);
}

static void test_incremental_large(void) {
    static const size_t lens[] = {
        (size_t)2 * 1024 * 1024 + 7,
        (size_t)3 * 1024 * 1024 + 1023,
        (size_t)4 * 1024 * 1024,
        (size_t)5 * 1024 * 1024 + 1,
    };
    uint64_t rng = 0xfeedface;
    size_t max = lens[3];
    uint8_t *data = malloc(max);
    if (!CHECK(data != NULL)) return;
    fill_rand(data, max, &rng);
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        check_len(data, lens[k], &rng);
        /* BLAKE3 again through whole-chunk-sized pieces offset by one, so
         * the bulk path and the buffered path alternate. */
        wai_blake3 st;
        uint8_t a[64], b[64];
        wai_blake3_init(&st);
        wai_blake3_update(&st, data, 1);
        for (size_t off = 1; off < lens[k];) {
            size_t s = lens[k] - off < 4097 ? lens[k] - off : 4097;
            wai_blake3_update(&st, data + off, s);
            off += s;
        }
        wai_blake3_final(&st, a, sizeof a);
        wai_blake3 st2;
        wai_blake3_init(&st2);
        wai_blake3_update(&st2, data, lens[k]);
        wai_blake3_final(&st2, b, sizeof b);
        CHECK_MSG(memcmp(a, b, sizeof a) == 0, "blake3 4097-pieces differ at len %zu", lens[k]);
    }
    free(data);
}

static void test_hex(void) {
    static const uint8_t bytes[] = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xff};
    char out[2 * sizeof bytes + 1];
    memset(out, 'x', sizeof out);
    wai_hex(bytes, sizeof bytes, out);
    CHECK(strcmp(out, "00017f80abff") == 0);
    wai_hex(bytes, 0, out);
    CHECK(out[0] == '\0');
}

void suite_hash(void); /* called from harness.c's main */

void suite_hash(void) {
    harness_run("hash/sha256_published", test_sha256_published);
    harness_run("hash/sha256_file", test_sha256_file);
    harness_run("hash/sha256_final_twice", test_sha256_final_twice);
    harness_run("hash/blake3_official", test_blake3_official);
    harness_run("hash/blake3_xof_prefix", test_blake3_xof_prefix);
    harness_run("hash/blake3_final_keeps_state", test_blake3_final_keeps_state);
    harness_run("hash/incremental_lengths", test_incremental_lengths);
    harness_run("hash/incremental_large", test_incremental_large);
    harness_run("hash/hex", test_hex);
}
