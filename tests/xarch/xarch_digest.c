/* SPDX-License-Identifier: BSD-2-Clause */
/* Cross-architecture exactness digest.
 *
 * Prints deterministic lines of real library results: JSON parse outcomes
 * and a canonical re-serialisation of every accepted tree, SHA-256 and
 * BLAKE3 over buffers at every block/chunk boundary, BLAKE3 XOF outputs,
 * little-endian reader results, the status table and format detection.
 * tests/ci/xarch.sh runs it on x86-64, i386, aarch64 and wasm32 and diffs
 * the outputs: any difference is a portability bug (word size, endianness
 * assumptions, signed shifts, unaligned loads, libc differences).
 *
 * Nothing printed may depend on the platform: no pointers, no errno text,
 * no host paths; sizes go through unsigned long long.
 *
 *   wai_xarch_digest [--data DIR]     DIR defaults to "tests"
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/reader.h"
#include "wai/wai.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"

static const char *g_data = "tests";
static unsigned long long g_lines;

/* Every result line goes through here so the total is counted. */
#define OUT(...) (g_lines++, printf(__VA_ARGS__))

/* ---- small utilities --------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill_random(uint8_t *buf, size_t len, uint64_t seed) {
    uint64_t st = seed;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = splitmix64(&st);
        for (size_t j = 0; j < 8 && i + j < len; j++) buf[i + j] = (uint8_t)(v >> (8 * j));
    }
}

static void hex_of(const uint8_t *b, size_t n, char *out) { wai_hex(b, n, out); }

static uint8_t *read_file(const char *path, size_t *len) {
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

/* A growable byte buffer that is hashed as it grows. */
typedef struct sink {
    wai_sha256 sha;
    unsigned long long bytes;
} sink;

static void sink_put(sink *s, const void *p, size_t n) {
    wai_sha256_update(&s->sha, p, n);
    s->bytes += n;
}
static void sink_str(sink *s, const char *str) { sink_put(s, str, strlen(str)); }

/* ---- JSON ---------------------------------------------------------------- */

/* Canonical form: no whitespace, members in document order, numbers by their
 * source text (integers are exact by their text; nothing goes through a
 * binary fraction), strings re-escaped: " and \ escaped, control bytes as
 * \u00xx, everything else (valid UTF-8) raw. */
static void canon_string(sink *s, const char *p, size_t n) {
    static const char hexd[] = "0123456789abcdef";
    sink_put(s, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            sink_put(s, e, 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hexd[c >> 4], hexd[c & 15]};
            sink_put(s, e, 6);
        } else {
            sink_put(s, &p[i], 1);
        }
    }
    sink_put(s, "\"", 1);
}

/* The integer readers' results for one number, fed to a second stream so
 * 32- vs 64-bit differences in the exact conversions show up. */
static void canon_integer_views(sink *ints, const wai_json_value *v) {
    char line[160];
    int64_t i64 = 0;
    uint64_t u64 = 0;
    int32_t i32 = 0;
    int ok64 = wai_json_get_i64(v, &i64);
    int oku = wai_json_get_u64(v, &u64);
    int ok32 = wai_json_get_i32(v, &i32);
    snprintf(line, sizeof line, "int %d i64 %d %" PRId64 " u64 %d %" PRIu64 " i32 %d %" PRId32 "\n",
             wai_json_is_integer(v), ok64, ok64 ? i64 : 0, oku, oku ? u64 : 0, ok32,
             ok32 ? i32 : 0);
    sink_str(ints, line);
}

static void canon_value(sink *s, sink *ints, const wai_json_value *v) {
    switch (wai_json_type_of(v)) {
    case WAI_JSON_NULL:
        sink_str(s, "null");
        break;
    case WAI_JSON_BOOL:
        sink_str(s, wai_json_bool(v) ? "true" : "false");
        break;
    case WAI_JSON_NUMBER: {
        size_t n = 0;
        const char *t = wai_json_number_text(v, &n);
        if (t) sink_put(s, t, n);
        canon_integer_views(ints, v);
        break;
    }
    case WAI_JSON_STRING: {
        size_t n = 0;
        const char *t = wai_json_string(v, &n);
        canon_string(s, t ? t : "", t ? n : 0);
        break;
    }
    case WAI_JSON_ARRAY: {
        size_t n = wai_json_array_len(v);
        sink_str(s, "[");
        for (size_t i = 0; i < n; i++) {
            if (i) sink_str(s, ",");
            canon_value(s, ints, wai_json_array_at(v, i));
        }
        sink_str(s, "]");
        break;
    }
    case WAI_JSON_OBJECT: {
        size_t n = wai_json_object_len(v);
        sink_str(s, "{");
        for (size_t i = 0; i < n; i++) {
            const char *key = NULL;
            size_t key_len = 0;
            const wai_json_value *m = wai_json_object_value_at(v, i, &key, &key_len);
            if (i) sink_str(s, ",");
            canon_string(s, key ? key : "", key ? key_len : 0);
            sink_str(s, ":");
            canon_value(s, ints, m);
        }
        sink_str(s, "}");
        break;
    }
    default:
        sink_str(s, "?type?");
        break;
    }
}

static void digest_json_file(const char *set, const char *name, unsigned long long *count) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/json/%s/%s", g_data, set, name) >= sizeof path) {
        OUT("json %s/%s path-too-long\n", set, name);
        return;
    }
    size_t len = 0;
    uint8_t *text = read_file(path, &len);
    if (!text) {
        OUT("json %s/%s unreadable\n", set, name);
        return;
    }
    (*count)++;
    wai_allocator a;
    memset(&a, 0, sizeof a);
    wai_json_doc *doc = NULL;
    size_t off = 0;
    wai_json_error e = wai_json_parse(&a, text, len, &doc, &off);
    if (e != WAI_JSON_OK) {
        OUT("json %s/%s len=%llu %s offset=%llu\n", set, name, (unsigned long long)len,
            wai_json_error_name(e), (unsigned long long)off);
    } else {
        sink s, ints;
        uint8_t d1[WAI_SHA256_BYTES], d2[WAI_SHA256_BYTES];
        char h1[2 * WAI_SHA256_BYTES + 1], h2[2 * WAI_SHA256_BYTES + 1];
        memset(&s, 0, sizeof s);
        memset(&ints, 0, sizeof ints);
        wai_sha256_init(&s.sha);
        wai_sha256_init(&ints.sha);
        canon_value(&s, &ints, wai_json_root(doc));
        wai_sha256_final(&s.sha, d1);
        wai_sha256_final(&ints.sha, d2);
        hex_of(d1, sizeof d1, h1);
        hex_of(d2, sizeof d2, h2);
        OUT("json %s/%s len=%llu ok canon=%llu:%s ints=%llu:%s\n", set, name,
            (unsigned long long)len, s.bytes, h1, ints.bytes, h2);
        wai_json_free(doc);
    }
    free(text);
}

/* index.txt: one file per line (first field), '#' comments, blank lines. */
static unsigned long long digest_json_set(const char *set) {
    char path[4096];
    unsigned long long count = 0;
    snprintf(path, sizeof path, "%s/json/%s/index.txt", g_data, set);
    FILE *f = fopen(path, "r");
    if (!f) {
        OUT("json %s index absent\n", set);
        return 0;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        size_t n = strcspn(p, " \t\r\n");
        p[n] = '\0';
        digest_json_file(set, p, &count);
    }
    fclose(f);
    OUT("json %s files=%llu\n", set, count);
    return count;
}

/* ---- hashes -------------------------------------------------------------- */

#define MAX_LEN (70u * 1024u + 80u)

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Lengths around every SHA-256/BLAKE3 block boundary in the first two
 * chunks (including SHA-256's 55/56 padding edge), around every BLAKE3 chunk
 * boundary up to 70 KiB, and around the power-of-two subtree edges. */
static size_t boundary_lengths(size_t *out, size_t cap) {
    size_t n = 0;
#define ADD(x)                                                  \
    do {                                                        \
        size_t v_ = (size_t)(x);                                \
        if (v_ <= MAX_LEN && n < cap) out[n++] = v_;            \
    } while (0)
    for (size_t i = 0; i <= 4; i++) ADD(i);
    for (size_t b = 64; b <= 2048; b += 64) {
        ADD(b - 9);
        ADD(b - 8);
        ADD(b - 1);
        ADD(b);
        ADD(b + 1);
    }
    for (size_t c = 1024; c <= 70u * 1024u; c += 1024) {
        ADD(c - 1);
        ADD(c);
        ADD(c + 1);
        ADD(c + 64);
    }
    for (size_t p = 2048; p <= 65536; p *= 2) {
        ADD(p - 64);
        ADD(p + 1023);
        ADD(p + 1025);
    }
    ADD(MAX_LEN);
#undef ADD
    qsort(out, n, sizeof *out, cmp_size);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || out[m - 1] != out[i]) out[m++] = out[i];
    return m;
}

/* Incremental update in pseudo-random piece sizes (1..1100 bytes), so the
 * buffering paths are exercised, not just the one-shot. */
static void sha256_pieces(const uint8_t *buf, size_t len, uint64_t seed, uint8_t out[32]) {
    wai_sha256 st;
    wai_sha256_init(&st);
    size_t pos = 0;
    while (pos < len) {
        size_t step = (size_t)(splitmix64(&seed) % 1100u) + 1;
        if (step > len - pos) step = len - pos;
        wai_sha256_update(&st, buf + pos, step);
        pos += step;
    }
    wai_sha256_final(&st, out);
}

static void blake3_pieces(const uint8_t *buf, size_t len, uint64_t seed, uint8_t out[32]) {
    wai_blake3 st;
    wai_blake3_init(&st);
    size_t pos = 0;
    while (pos < len) {
        size_t step = (size_t)(splitmix64(&seed) % 1100u) + 1;
        if (step > len - pos) step = len - pos;
        wai_blake3_update(&st, buf + pos, step);
        pos += step;
    }
    wai_blake3_final(&st, out, 32);
}

static unsigned long long digest_hashes(uint8_t *buf) {
    static size_t lens[1024];
    size_t n = boundary_lengths(lens, sizeof lens / sizeof lens[0]);
    unsigned long long count = 0;
    fill_random(buf, MAX_LEN, 0x5741490000000001ull);
    for (size_t i = 0; i < n; i++) {
        size_t len = lens[i];
        uint8_t s1[32], s2[32], b1[32], b2[32];
        char hs[65], hb[65];
        wai_sha256_oneshot(buf, len, s1);
        sha256_pieces(buf, len, len ^ 0x1234u, s2);
        wai_blake3_oneshot(buf, len, b1);
        blake3_pieces(buf, len, len ^ 0x4321u, b2);
        hex_of(s1, 32, hs);
        hex_of(b1, 32, hb);
        OUT("hash len=%llu sha256=%s%s blake3=%s%s\n", (unsigned long long)len, hs,
            memcmp(s1, s2, 32) ? " sha256-pieces-differ" : "", hb,
            memcmp(b1, b2, 32) ? " blake3-pieces-differ" : "");
        count++;
    }
    return count;
}

/* BLAKE3 extendable output: several lengths around the 64-byte output block,
 * for inputs on both sides of the chunk edge; long outputs are summarised by
 * their SHA-256. Also checks that final leaves the state usable. */
static unsigned long long digest_xof(const uint8_t *buf) {
    static const size_t in_lens[] = {0, 1, 64, 1023, 1024, 1025, 2049, 31744, 70u * 1024u};
    static const size_t out_lens[] = {1, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000, 4096};
    static uint8_t out[4096], again[4096];
    unsigned long long count = 0;
    for (size_t i = 0; i < sizeof in_lens / sizeof in_lens[0]; i++) {
        wai_blake3 st;
        wai_blake3_init(&st);
        wai_blake3_update(&st, buf, in_lens[i]);
        for (size_t j = 0; j < sizeof out_lens / sizeof out_lens[0]; j++) {
            size_t ol = out_lens[j];
            char hex[2 * 129 + 1];
            memset(out, 0, sizeof out);
            wai_blake3_final(&st, out, ol);
            wai_blake3_final(&st, again, ol);
            if (ol <= 129) {
                hex_of(out, ol, hex);
            } else {
                uint8_t d[32];
                wai_sha256_oneshot(out, ol, d);
                memcpy(hex, "sha256:", 7);
                hex_of(d, 32, hex + 7);
            }
            OUT("xof in=%llu out=%llu %s%s\n", (unsigned long long)in_lens[i],
                (unsigned long long)ol, hex, memcmp(out, again, ol) ? " final-not-idempotent" : "");
            count++;
        }
        /* More input after final: must equal hashing the concatenation. */
        uint8_t cont[32], whole[32];
        char hc[65];
        wai_blake3_update(&st, buf + in_lens[i], 100);
        wai_blake3_final(&st, cont, 32);
        wai_blake3_oneshot(buf, in_lens[i] + 100, whole);
        hex_of(cont, 32, hc);
        OUT("xof in=%llu+100 %s%s\n", (unsigned long long)in_lens[i], hc,
            memcmp(cont, whole, 32) ? " continue-differs" : "");
        count++;
    }
    return count;
}

/* ---- little-endian reader ------------------------------------------------ */

static const char *sname(wai_status s) {
    const char *n = wai_status_name(s);
    return n ? n : "(null)";
}

static unsigned long long digest_reader(void) {
    uint8_t buf[37];
    unsigned long long count = 0;
    fill_random(buf, sizeof buf, 0x7265616465720001ull);
    buf[5] = 0x80; /* sign bits set at a few places */
    buf[8] = 0xff;
    buf[9] = 0xff;
    for (size_t start = 0; start <= sizeof buf; start++) {
        wai_reader r;
        wai_reader_init(&r, buf, sizeof buf);
        wai_status st = wai_skip(&r, start);
        OUT("reader skip %llu %s pos=%llu left=%llu\n", (unsigned long long)start, sname(st),
            (unsigned long long)r.pos, (unsigned long long)wai_reader_left(&r));
        /* One of each width from here, in a fixed order; a short read must
         * report stream_length and leave pos alone. */
        uint8_t u8 = 0;
        uint16_t u16 = 0;
        uint32_t u32 = 0;
        uint64_t u64 = 0;
        int16_t i16 = 0;
        int32_t i32 = 0;
        int64_t i64 = 0;
        wai_reader c = r;
        st = wai_read_u8(&c, &u8);
        OUT("  u8 %s %u pos=%llu\n", sname(st), (unsigned)u8, (unsigned long long)c.pos);
        c = r;
        st = wai_read_u16(&c, &u16);
        OUT("  u16 %s %u pos=%llu\n", sname(st), (unsigned)u16, (unsigned long long)c.pos);
        c = r;
        st = wai_read_u32(&c, &u32);
        OUT("  u32 %s %" PRIu32 " pos=%llu\n", sname(st), u32, (unsigned long long)c.pos);
        c = r;
        st = wai_read_u64(&c, &u64);
        OUT("  u64 %s %" PRIu64 " pos=%llu\n", sname(st), u64, (unsigned long long)c.pos);
        c = r;
        st = wai_read_i16(&c, &i16);
        OUT("  i16 %s %d pos=%llu\n", sname(st), (int)i16, (unsigned long long)c.pos);
        c = r;
        st = wai_read_i32(&c, &i32);
        OUT("  i32 %s %" PRId32 " pos=%llu\n", sname(st), i32, (unsigned long long)c.pos);
        c = r;
        st = wai_read_i64(&c, &i64);
        OUT("  i64 %s %" PRId64 " pos=%llu\n", sname(st), i64, (unsigned long long)c.pos);
        count += 8;
    }
    /* Spans and sizes past the address space. */
    static const uint64_t sizes[] = {0, 1, 36, 37, 38, 0xffffffffull, 0x100000000ull,
                                     0x100000025ull, UINT64_MAX / 2, UINT64_MAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        wai_reader r;
        const uint8_t *span = NULL;
        wai_reader_init(&r, buf, sizeof buf);
        int has = wai_reader_has(&r, sizes[i]);
        wai_status st = wai_read_span(&r, sizes[i], &span);
        OUT("reader span %" PRIu64 " has=%d %s pos=%llu first=%d\n", sizes[i], has, sname(st),
            (unsigned long long)r.pos, (st == WAI_ok && span && sizes[i]) ? (int)span[0] : -1);
        wai_reader_init(&r, buf, sizeof buf);
        (void)wai_skip(&r, 1);
        st = wai_skip(&r, sizes[i]);
        OUT("reader skip-from-1 %" PRIu64 " %s pos=%llu\n", sizes[i], sname(st),
            (unsigned long long)r.pos);
        count += 2;
    }
    /* The inline loads/stores and two's-complement helpers. */
    static const uint64_t vals[] = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
                                    0x7fffffff, 0x80000000ull, 0xffffffffull,
                                    0x7fffffffffffffffull, 0x8000000000000000ull,
                                    0xfedcba9876543210ull, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        uint8_t b[8];
        char hex[17];
        uint64_t v = vals[i];
        wai_store_u64le(b, v);
        hex_of(b, 8, hex);
        OUT("le %016" PRIx64 " bytes=%s u64=%" PRIu64 " u32=%" PRIu32 " u16=%u i64=%" PRId64
            " i32=%" PRId32 " i16=%d\n",
            v, hex, wai_load_u64le(b), wai_load_u32le(b), (unsigned)wai_load_u16le(b),
            wai_i64_from_u64(v), wai_i32_from_u32((uint32_t)v),
            (int)wai_i16_from_u16((uint16_t)v));
        wai_store_u32le(b, (uint32_t)v);
        wai_store_u16le(b + 4, (uint16_t)(v >> 32));
        hex_of(b, 6, hex);
        OUT("le-store32+16 %s\n", hex);
        count += 2;
    }
    return count;
}

/* ---- statuses ------------------------------------------------------------ */

static unsigned long long digest_status(void) {
    unsigned long long count = 0;
    for (int i = 0; i < 256; i++) {
        wai_status s = (wai_status)i;
        const char *n = wai_status_name(s);
        if (!n) continue;
        wai_status back = WAI_invalid_argument;
        int ok = wai_status_from_name(n, &back);
        OUT("status %d %s kind=%d from_name=%d:%d\n", i, n, (int)wai_status_kind_of(s), ok,
            (int)back);
        count++;
    }
    wai_status untouched = WAI_ok;
    OUT("status from_name(nope)=%d:%d version=%s\n", wai_status_from_name("nope", &untouched),
        (int)untouched, wai_version());
    return count;
}

/* ---- formats and capabilities -------------------------------------------- */

static unsigned long long digest_formats(void) {
    static const char *const probes[] = {"WIV1", "WIH1", "WIA1", "WIS1", "WIF1", "WCF1",
                                         "WIC1", "WIM1", "WIV2", "wiv1", "WIV",  "",
                                         "XXXX", "WIV1\x01\x00\x00", "WIV1\x01\x00\x01",
                                         "WIF1\x01\x00\x02", "WIM1\x01"};
    unsigned long long count = 0;
    for (int f = 0; f <= 10; f++) {
        const char *n = wai_format_name((wai_format)f);
        OUT("format %d name=%s section2=%d\n", f, n ? n : "(null)",
            wai_format_is_section2((wai_format)f));
        count++;
    }
    uint8_t buf[64];
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        size_t plen = strlen(probes[i]);
        if (i == 13 || i == 14 || i == 15) plen = 7; /* embedded NULs */
        for (size_t len = 0; len <= plen + 2 && len <= sizeof buf; len++) {
            memset(buf, 0, sizeof buf);
            memcpy(buf, probes[i], plen < len ? plen : len);
            wai_format f = wai_format_detect(buf, len);
            const wai_capability *cap = wai_capability_detect(buf, len);
            OUT("detect %llu:%llu format=%d cap=%s\n", (unsigned long long)i,
                (unsigned long long)len, (int)f, cap && cap->name ? cap->name : "(none)");
            count++;
        }
    }
    size_t ncap = wai_capability_count();
    for (size_t i = 0; i < ncap; i++) {
        const wai_capability *cap = wai_capability_at(i);
        if (!cap) {
            OUT("cap %llu (null)\n", (unsigned long long)i);
            continue;
        }
        const wai_capability *again = cap->name ? wai_capability_find(cap->name) : NULL;
        OUT("cap %llu %s format=%d keyframe=%d frame_form=%d class=%s tier=%s decoder=%d "
            "find=%d members=",
            (unsigned long long)i, cap->name ? cap->name : "(null)", (int)cap->format,
            cap->keyframe, cap->frame_form, cap->registry_class ? cap->registry_class : "(null)",
            cap->tier ? cap->tier : "(null)", wai_capability_has_decoder(cap), again == cap);
        for (size_t m = 0; m < 4 && cap->set_members[m]; m++)
            printf("%s%s", m ? "," : "", cap->set_members[m]);
        printf("\n");
        count++;
        /* Framing checks over the probes, at a few lengths. */
        for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
            static const size_t lens[] = {0, 3, 4, 5, 8, 35, 36, 64};
            for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
                size_t plen = strlen(probes[p]);
                if (p == 13 || p == 14 || p == 15) plen = 7;
                memset(buf, 0, sizeof buf);
                memcpy(buf, probes[p], plen < lens[l] ? plen : lens[l]);
                if (lens[l] > 4) buf[4] = 1; /* a version byte */
                OUT("  framing %llu:%llu %s\n", (unsigned long long)p,
                    (unsigned long long)lens[l], sname(wai_check_framing(cap, buf, lens[l])));
                count++;
            }
        }
    }
    OUT("cap count=%llu find(nope)=%d\n", (unsigned long long)ncap,
        wai_capability_find("nope") != NULL);
    return count;
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            g_data = argv[++i];
        } else {
            fprintf(stderr, "usage: wai_xarch_digest [--data DIR]\n");
            return 2;
        }
    }
    uint8_t *buf = malloc(MAX_LEN + 200);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    unsigned long long n_accept = digest_json_set("accept");
    unsigned long long n_reject = digest_json_set("reject");
    unsigned long long n_hash = digest_hashes(buf);
    fill_random(buf, MAX_LEN + 200, 0x786f660000000001ull);
    unsigned long long n_xof = digest_xof(buf);
    unsigned long long n_reader = digest_reader();
    unsigned long long n_status = digest_status();
    unsigned long long n_format = digest_formats();
    free(buf);
    printf("counts: json-accept=%llu json-reject=%llu hash-lengths=%llu xof=%llu reader=%llu "
           "status=%llu format=%llu lines=%llu\n",
           n_accept, n_reject, n_hash, n_xof, n_reader, n_status, n_format, g_lines);
    return 0;
}
