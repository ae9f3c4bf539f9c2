/* SPDX-License-Identifier: BSD-2-Clause */
/* Tests of the strict JSON reader (src/common/json.c): the corpus under
 * tests/json, the value API, allocation failure, scale and memory use. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

/* ---- helpers ------------------------------------------------------------ */

static wai_json_error parse_str(const char *text, wai_json_doc **doc, size_t *at) {
    return wai_json_parse(NULL, (const uint8_t *)text, strlen(text), doc, at);
}

/* Parses text that must be valid; returns its document or NULL. */
static wai_json_doc *parse_ok(const char *text) {
    wai_json_doc *doc = NULL;
    size_t at = 0;
    wai_json_error e = parse_str(text, &doc, &at);
    CHECK_MSG(e == WAI_JSON_OK, "%s: %s at %zu", text, wai_json_error_name(e), at);
    return doc;
}

/* The next line of an index file, without its newline; NULL at the end. */
static char *next_line(char **cursor, char *end) {
    while (*cursor < end && (**cursor == '\n' || **cursor == '\r')) (*cursor)++;
    if (*cursor >= end) return NULL;
    char *line = *cursor;
    while (*cursor < end && **cursor != '\n' && **cursor != '\r') (*cursor)++;
    if (*cursor < end) *(*cursor)++ = '\0';
    return line;
}

/* Reads tests/<dir>/index.txt as a NUL-terminated buffer (caller frees). */
static char *read_index(const char *dir, size_t *len) {
    char path[256];
    snprintf(path, sizeof path, "json/%s/index.txt", dir);
    uint8_t *raw = harness_read_file(path, len);
    if (!CHECK_MSG(raw != NULL, "cannot read tests/%s", path)) return NULL;
    char *text = malloc(*len + 1);
    if (text) {
        memcpy(text, raw, *len);
        text[*len] = '\0';
    }
    free(raw);
    return text;
}

/* Parses a copy of data in a buffer of exactly len bytes, so a read past
 * the end is caught by the address sanitizer. */
static wai_json_error parse_exact(const wai_allocator *a, const uint8_t *data, size_t len,
                                  wai_json_doc **doc, size_t *at) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return WAI_JSON_E_NOMEM;
    if (len) memcpy(copy, data, len);
    wai_json_error e = wai_json_parse(a, copy, len, doc, at);
    free(copy);
    return e;
}

/* ---- the corpus ---------------------------------------------------------- */

static void test_corpus_accept(void) {
    size_t len, n = 0;
    char *index = read_index("accept", &len);
    if (!index) return;
    char *cursor = index;
    for (char *name; (name = next_line(&cursor, index + len)) != NULL;) {
        char path[512];
        size_t flen;
        snprintf(path, sizeof path, "json/accept/%s", name);
        uint8_t *data = harness_read_file(path, &flen);
        if (!CHECK_MSG(data != NULL, "missing %s", path)) continue;
        wai_json_doc *doc = NULL;
        size_t at = 0;
        wai_json_error e = parse_exact(NULL, data, flen, &doc, &at);
        CHECK_MSG(e == WAI_JSON_OK && doc, "%s: %s at %zu", name, wai_json_error_name(e), at);
        wai_json_free(doc);
        free(data);
        n++;
    }
    CHECK_MSG(n >= 70, "only %zu accept files", n);
    free(index);
}

static void test_corpus_reject(void) {
    size_t len, n = 0;
    char *index = read_index("reject", &len);
    if (!index) return;
    char *cursor = index;
    for (char *line; (line = next_line(&cursor, index + len)) != NULL;) {
        char *expected = strchr(line, ' ');
        if (!CHECK_MSG(expected != NULL, "bad index line '%s'", line)) continue;
        *expected++ = '\0';
        char path[512];
        size_t flen;
        snprintf(path, sizeof path, "json/reject/%s", line);
        uint8_t *data = harness_read_file(path, &flen);
        if (!CHECK_MSG(data != NULL, "missing %s", path)) continue;
        wai_json_doc *doc = (wai_json_doc *)&n; /* must be reset to NULL */
        size_t at = SIZE_MAX;
        wai_json_error e = parse_exact(NULL, data, flen, &doc, &at);
        CHECK_MSG(strcmp(wai_json_error_name(e), expected) == 0, "%s: got %s, want %s", line,
                  wai_json_error_name(e), expected);
        CHECK_MSG(doc == NULL, "%s: *out not NULL on failure", line);
        CHECK_MSG(at <= flen, "%s: error offset %zu past %zu", line, at, flen);
        free(data);
        n++;
    }
    CHECK_MSG(n >= 150, "only %zu reject files", n);
    free(index);
}

static int is_json_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Every prefix of every accept file, each in an exactly sized buffer: never
 * a read past len, and a proper prefix of a complete value is refused
 * unless it is itself a value (numbers, trailing whitespace). */
static void test_corpus_prefixes(void) {
    size_t len;
    char *index = read_index("accept", &len);
    if (!index) return;
    char *cursor = index;
    for (char *name; (name = next_line(&cursor, index + len)) != NULL;) {
        char path[512];
        size_t flen;
        snprintf(path, sizeof path, "json/accept/%s", name);
        uint8_t *data = harness_read_file(path, &flen);
        if (!data || flen > 4096) {
            free(data);
            continue;
        }
        size_t content_end = flen;
        while (content_end > 0 && is_json_space(data[content_end - 1])) content_end--;
        for (size_t k = 0; k < content_end; k++) {
            wai_json_doc *doc = NULL;
            wai_json_error e = parse_exact(NULL, data, k, &doc, NULL);
            CHECK_MSG(e != WAI_JSON_OK || doc != NULL, "%s[0..%zu)", name, k);
            if (e == WAI_JSON_OK && (data[0] == '[' || data[0] == '{'))
                CHECK_MSG(0, "%s: prefix of %zu bytes accepted", name, k);
            wai_json_free(doc);
        }
        free(data);
    }
    free(index);
}

/* ---- the value API ------------------------------------------------------- */

static void check_integer(const char *text, int fits_i64, int64_t i64, int fits_i32,
                          int fits_u64, uint64_t u64) {
    wai_json_doc *doc = parse_ok(text);
    if (!doc) return;
    const wai_json_value *v = wai_json_root(doc);
    int64_t got64 = 12345;
    int32_t got32 = 12345;
    uint64_t gotu = 12345;
    CHECK_MSG(wai_json_type_of(v) == WAI_JSON_NUMBER, "%s: type", text);
    CHECK_MSG(wai_json_is_integer(v), "%s: not an integer", text);
    CHECK_MSG(wai_json_get_i64(v, &got64) == fits_i64, "%s: get_i64 fit", text);
    if (fits_i64) CHECK_MSG(got64 == i64, "%s: i64 %lld", text, (long long)got64);
    CHECK_MSG(wai_json_get_i32(v, &got32) == fits_i32, "%s: get_i32 fit", text);
    if (fits_i32) CHECK_MSG(got32 == (int32_t)i64, "%s: i32 %ld", text, (long)got32);
    CHECK_MSG(wai_json_get_u64(v, &gotu) == fits_u64, "%s: get_u64 fit", text);
    if (fits_u64) CHECK_MSG(gotu == u64, "%s: u64 %llu", text, (unsigned long long)gotu);
    size_t tlen = 0;
    const char *t = wai_json_number_text(v, &tlen);
    CHECK_MSG(t && tlen == strlen(text) && memcmp(t, text, tlen) == 0 && t[tlen] == '\0',
              "%s: number text", text);
    wai_json_free(doc);
}

static void test_integers(void) {
    check_integer("0", 1, 0, 1, 1, 0);
    check_integer("-0", 1, 0, 1, 1, 0);
    check_integer("1", 1, 1, 1, 1, 1);
    check_integer("-1", 1, -1, 1, 0, 0);
    check_integer("2147483647", 1, INT32_MAX, 1, 1, INT32_MAX);
    check_integer("2147483648", 1, 2147483648LL, 0, 1, 2147483648ULL);
    check_integer("-2147483648", 1, INT32_MIN, 1, 0, 0);
    check_integer("-2147483649", 1, -2147483649LL, 0, 0, 0);
    check_integer("9223372036854775807", 1, INT64_MAX, 0, 1, INT64_MAX);
    check_integer("9223372036854775808", 0, 0, 0, 1, 9223372036854775808ULL);
    check_integer("-9223372036854775808", 1, INT64_MIN, 0, 0, 0);
    check_integer("-9223372036854775809", 0, 0, 0, 0, 0);
    check_integer("18446744073709551615", 0, 0, 0, 1, UINT64_MAX);
    check_integer("18446744073709551616", 0, 0, 0, 0, 0);
    check_integer("-18446744073709551615", 0, 0, 0, 0, 0);
    check_integer("99999999999999999999999", 0, 0, 0, 0, 0);
    check_integer("-99999999999999999999999", 0, 0, 0, 0, 0);
    check_integer("100000000000000000000", 0, 0, 0, 0, 0);
}

static void check_non_integer(const char *text) {
    wai_json_doc *doc = parse_ok(text);
    if (!doc) return;
    const wai_json_value *v = wai_json_root(doc);
    int64_t i64 = 7;
    int32_t i32 = 7;
    uint64_t u64 = 7;
    CHECK_MSG(wai_json_type_of(v) == WAI_JSON_NUMBER, "%s: type", text);
    CHECK_MSG(!wai_json_is_integer(v), "%s: is_integer", text);
    CHECK_MSG(!wai_json_get_i64(v, &i64) && !wai_json_get_i32(v, &i32) &&
                  !wai_json_get_u64(v, &u64),
              "%s: get_* answered", text);
    size_t tlen = 0;
    const char *t = wai_json_number_text(v, &tlen);
    CHECK_MSG(t && tlen == strlen(text) && memcmp(t, text, tlen) == 0, "%s: text", text);
    wai_json_free(doc);
}

static void test_non_integers(void) {
    check_non_integer("1.0");
    check_non_integer("-0.0");
    check_non_integer("1e0");
    check_non_integer("1E+2");
    check_non_integer("5e-1");
    check_non_integer("0.5");
    check_non_integer("-12.75e3");
}

static void test_wrong_types(void) {
    wai_json_doc *doc = parse_ok("[null,true,false,\"s\",[1],{\"k\":2},3]");
    if (!doc) return;
    const wai_json_value *root = wai_json_root(doc);
    CHECK(wai_json_array_len(root) == 7);
    CHECK(wai_json_type_of(wai_json_array_at(root, 0)) == WAI_JSON_NULL);
    CHECK(wai_json_type_of(wai_json_array_at(root, 1)) == WAI_JSON_BOOL);
    CHECK(wai_json_bool(wai_json_array_at(root, 1)) == 1);
    CHECK(wai_json_bool(wai_json_array_at(root, 2)) == 0);
    CHECK(wai_json_array_at(root, 7) == NULL);
    CHECK(wai_json_array_at(root, SIZE_MAX) == NULL);
    const wai_json_value *s = wai_json_array_at(root, 3);
    int64_t i64;
    CHECK(!wai_json_get_i64(s, &i64) && !wai_json_is_integer(s));
    CHECK(wai_json_number_text(s, NULL) == NULL);
    CHECK(wai_json_array_len(s) == 0 && wai_json_object_len(s) == 0);
    CHECK(wai_json_string(wai_json_array_at(root, 6), NULL) == NULL);
    CHECK(wai_json_bool(wai_json_array_at(root, 6)) == 0);
    CHECK(wai_json_object_get(wai_json_array_at(root, 4), "k") == NULL);
    CHECK(wai_json_object_len(root) == 0);
    CHECK(wai_json_object_value_at(root, 0, NULL, NULL) == NULL);
    wai_json_free(doc);
    wai_json_free(NULL);
}

static void test_strings(void) {
    wai_json_doc *doc = parse_ok("[\"a\\u0000b\",\"\",\"\\\"\\\\\\/\\b\\f\\n\\r\\t\","
                                 "\"\\u00e9\\u20AC\\uD83D\\uDE00\",\"\\u0000\"]");
    if (!doc) return;
    const wai_json_value *root = wai_json_root(doc);
    size_t n = 99;
    const char *s = wai_json_string(wai_json_array_at(root, 0), &n);
    CHECK(s && n == 3 && memcmp(s, "a\0b", 4) == 0);
    s = wai_json_string(wai_json_array_at(root, 1), &n);
    CHECK(s && n == 0 && s[0] == '\0');
    s = wai_json_string(wai_json_array_at(root, 2), &n);
    CHECK(s && n == 8 && memcmp(s, "\"\\/\b\f\n\r\t", 9) == 0);
    s = wai_json_string(wai_json_array_at(root, 3), &n);
    CHECK(s && n == 2 + 3 + 4 && memcmp(s, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 10) == 0);
    s = wai_json_string(wai_json_array_at(root, 4), &n);
    CHECK(s && n == 1 && s[0] == '\0' && s[1] == '\0');
    wai_json_free(doc);

    /* Raw UTF-8 is kept byte for byte. */
    doc = parse_ok("\"\xF4\x8F\xBF\xBF\xE2\x82\xAC\x7F\"");
    if (!doc) return;
    s = wai_json_string(wai_json_root(doc), &n);
    CHECK(s && n == 8 && memcmp(s, "\xF4\x8F\xBF\xBF\xE2\x82\xAC\x7F", 8) == 0);
    wai_json_free(doc);
}

static void test_objects(void) {
    wai_json_doc *doc = parse_ok("{\"z\":1,\"a\":[true],\"\":null,\"m\":{\"z\":2},\"k\\u0000\":3}");
    if (!doc) return;
    const wai_json_value *root = wai_json_root(doc);
    CHECK(wai_json_type_of(root) == WAI_JSON_OBJECT);
    CHECK(wai_json_object_len(root) == 5);
    static const char *const order[] = {"z", "a", "", "m", "k"};
    for (size_t i = 0; i < 5; i++) {
        const char *key = NULL;
        size_t klen = 99;
        const wai_json_value *v = wai_json_object_value_at(root, i, &key, &klen);
        size_t want = strlen(order[i]) + (i == 4 ? 1 : 0);
        CHECK_MSG(v && key && klen == want && memcmp(key, order[i], klen) == 0,
                  "member %zu out of order", i);
    }
    CHECK(wai_json_object_value_at(root, 5, NULL, NULL) == NULL);
    int64_t x = 0;
    CHECK(wai_json_get_i64(wai_json_object_get(root, "z"), &x) && x == 1);
    CHECK(wai_json_type_of(wai_json_object_get(root, "")) == WAI_JSON_NULL);
    CHECK(wai_json_object_get(root, "") != NULL);
    CHECK(wai_json_object_get(root, "nope") == NULL);
    CHECK(wai_json_object_get(root, "k") == NULL);
    CHECK(wai_json_get_i64(wai_json_object_get_n(root, "k\0", 2), &x) && x == 3);
    const wai_json_value *m = wai_json_object_get(root, "m");
    CHECK(wai_json_get_i64(wai_json_object_get(m, "z"), &x) && x == 2);
    const wai_json_value *a = wai_json_object_get(root, "a");
    CHECK(wai_json_array_len(a) == 1 && wai_json_bool(wai_json_array_at(a, 0)));
    wai_json_free(doc);

    doc = parse_ok(" {} ");
    if (doc) {
        CHECK(wai_json_object_len(wai_json_root(doc)) == 0);
        CHECK(wai_json_object_get(wai_json_root(doc), "a") == NULL);
        wai_json_free(doc);
    }
}

static void check_error_at(const char *text, wai_json_error want, size_t want_at) {
    wai_json_doc *doc = NULL;
    size_t at = 999;
    wai_json_error e = parse_str(text, &doc, &at);
    CHECK_MSG(e == want && at == want_at, "%s: got %s at %zu, want %s at %zu", text,
              wai_json_error_name(e), at, wai_json_error_name(want), want_at);
    CHECK(doc == NULL);
}

static void test_error_offsets(void) {
    check_error_at("", WAI_JSON_E_SYNTAX, 0);
    check_error_at("[1,]", WAI_JSON_E_SYNTAX, 3);
    check_error_at("[1 2]", WAI_JSON_E_SYNTAX, 3);
    check_error_at("\"ab\x01\"", WAI_JSON_E_SYNTAX, 3);
    check_error_at("\"ab\\uD800\"", WAI_JSON_E_UTF8, 3);
    check_error_at("\"ab\xC0\x80\"", WAI_JSON_E_UTF8, 3);
    check_error_at("\xEF\xBB\xBF{}", WAI_JSON_E_UTF8, 0);
    check_error_at("{\"a\":1,\"b\":2,\"a\":3}", WAI_JSON_E_DUPLICATE, 13);
    check_error_at("1  x", WAI_JSON_E_TRAILING, 3);
    /* Grammar errors are found by the first pass, before any duplicate. */
    check_error_at("{\"a\":1,\"a\":2} x", WAI_JSON_E_TRAILING, 14);

    char deep[200];
    memset(deep, '[', 65);
    deep[65] = '\0';
    check_error_at(deep, WAI_JSON_E_DEPTH, 64);
    /* A NULL err_offset and NULL out are allowed. */
    CHECK(wai_json_parse(NULL, (const uint8_t *)"[", 1, NULL, NULL) == WAI_JSON_E_SYNTAX);
    CHECK(wai_json_parse(NULL, (const uint8_t *)"[]", 2, NULL, NULL) == WAI_JSON_OK);
    CHECK(wai_json_parse(NULL, NULL, 0, NULL, NULL) == WAI_JSON_E_SYNTAX);
}

/* Objects past the pairwise size are sorted: names alike in their first 8
 * bytes, names that differ only by a trailing NUL, and the earliest repeat
 * reported. */
static void test_duplicates_sorted(void) {
    const char *distinct = "{\"abcdefghij0\":0,\"abcdefghij1\":0,\"abcdefghij2\":0,"
                           "\"abcdefgh\":0,\"abcdefgh\\u0000\":0,\"abcdefg\":0,"
                           "\"abcdefgi\":0,\"\":0,\"\\u0000\":0,\"b\":0}";
    wai_json_doc *doc = parse_ok(distinct);
    CHECK(wai_json_object_len(wai_json_root(doc)) == 10);
    wai_json_free(doc);
    check_error_at("{\"abcdefghij0\":0,\"abcdefghij1\":0,\"abcdefghij2\":0,\"x\":0,\"y\":0,"
                   "\"z\":0,\"w\":0,\"v\":0,\"abcdefghij1\":0,\"x\":0}",
                   WAI_JSON_E_DUPLICATE, 79);
    check_error_at("{\"k0\":0,\"k1\":0,\"k2\":0,\"k3\":0,\"k4\":0,\"k5\":0,\"k6\":0,"
                   "\"k7\":0,\"k8\":0,\"k9\":0,\"k\\u0030\":0}",
                   WAI_JSON_E_DUPLICATE, 71);
}

/* The length is what counts, not a NUL: "[1]" then bytes past len. */
static void test_length_bound(void) {
    const char text[] = "[12]garbage";
    wai_json_doc *doc = NULL;
    CHECK(wai_json_parse(NULL, (const uint8_t *)text, 4, &doc, NULL) == WAI_JSON_OK);
    int64_t x = 0;
    CHECK(wai_json_get_i64(wai_json_array_at(wai_json_root(doc), 0), &x) && x == 12);
    wai_json_free(doc);
    CHECK(wai_json_parse(NULL, (const uint8_t *)text, 2, &doc, NULL) == WAI_JSON_E_SYNTAX);
    CHECK(wai_json_parse(NULL, (const uint8_t *)"12", 1, &doc, NULL) == WAI_JSON_OK);
    CHECK(wai_json_get_i64(wai_json_root(doc), &x) && x == 1);
    wai_json_free(doc);
    /* An embedded NUL is just a byte: trailing after a value. */
    CHECK(wai_json_parse(NULL, (const uint8_t *)"1\0", 2, &doc, NULL) == WAI_JSON_E_TRAILING);
}

static void test_error_names(void) {
    CHECK(strcmp(wai_json_error_name(WAI_JSON_OK), "WAI_JSON_OK") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_SYNTAX), "WAI_JSON_E_SYNTAX") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_UTF8), "WAI_JSON_E_UTF8") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_DEPTH), "WAI_JSON_E_DEPTH") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_DUPLICATE), "WAI_JSON_E_DUPLICATE") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_TRAILING), "WAI_JSON_E_TRAILING") == 0);
    CHECK(strcmp(wai_json_error_name(WAI_JSON_E_NOMEM), "WAI_JSON_E_NOMEM") == 0);
}

/* ---- allocation ---------------------------------------------------------- */

/* A counting allocator (tests/unit/harness.h), zeroed for each use. */
static wai_allocator make_allocator(harness_alloc *c) {
    memset(c, 0, sizeof *c);
    return harness_allocator(c);
}

static void check_alloc_failures(const char *text) {
    harness_alloc c;
    wai_allocator a = make_allocator(&c);
    wai_json_doc *doc = NULL;
    size_t len = strlen(text);
    if (!CHECK_MSG(wai_json_parse(&a, (const uint8_t *)text, len, &doc, NULL) == WAI_JSON_OK,
                   "%.40s: does not parse", text))
        return;
    size_t needed = c.calls;
    CHECK_MSG(needed >= 1, "%.40s: no allocation", text);
    wai_json_free(doc);
    CHECK_MSG(c.live == 0, "%.40s: %zu blocks leaked", text, c.live);
    for (size_t k = 1; k <= needed; k++) {
        a = make_allocator(&c);
        c.fail_at = k;
        doc = (wai_json_doc *)&c;
        wai_json_error e = wai_json_parse(&a, (const uint8_t *)text, len, &doc, NULL);
        CHECK_MSG(e == WAI_JSON_E_NOMEM, "%.40s: failing allocation %zu gave %s", text, k,
                  wai_json_error_name(e));
        CHECK_MSG(doc == NULL, "%.40s: failing allocation %zu left *out set", text, k);
        CHECK_MSG(c.live == 0, "%.40s: failing allocation %zu leaked %zu blocks", text,
                  k, c.live);
    }
}

static char *many_objects(size_t n) {
    /* [{"k0":0},...] forces the container-count table to grow. */
    char *text = malloc(n * 24 + 3);
    if (!text) return NULL;
    size_t at = 0;
    text[at++] = '[';
    for (size_t i = 0; i < n; i++)
        at += (size_t)sprintf(text + at, "%s{\"k%zu\":%zu}", i ? "," : "", i, i);
    text[at++] = ']';
    text[at] = '\0';
    return text;
}

static void test_alloc_failure(void) {
    check_alloc_failures("null");
    check_alloc_failures("[]");
    check_alloc_failures("\"s\"");
    check_alloc_failures("{\"a\":[1,2,{\"b\":\"c\\u00e9\"}],\"d\":-0.5e3}");
    /* More than SMALL_OBJECT members, so the duplicate check sorts. */
    check_alloc_failures("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,"
                         "\"h\":8,\"i\":9,\"j\":[{},{}]}");
    char *text = many_objects(100);
    if (text) check_alloc_failures(text);
    free(text);

    /* A duplicate found after allocation frees everything too. */
    harness_alloc c;
    wai_allocator a = make_allocator(&c);
    wai_json_doc *doc = NULL;
    const char *dup = "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"a\":0}";
    CHECK(wai_json_parse(&a, (const uint8_t *)dup, strlen(dup), &doc, NULL) ==
          WAI_JSON_E_DUPLICATE);
    CHECK(doc == NULL && c.live == 0);
    /* So does a grammar error found after the container table grew. */
    text = many_objects(100);
    if (text) {
        a = make_allocator(&c);
        text[strlen(text) - 1] = ',';
        CHECK(wai_json_parse(&a, (const uint8_t *)text, strlen(text), &doc, NULL) ==
              WAI_JSON_E_SYNTAX);
        CHECK(doc == NULL && c.live == 0);
    }
    free(text);
}

/* ---- scale --------------------------------------------------------------- */

static char *big_object(size_t n, int duplicate_last) {
    char *text = malloc(n * 32 + 8);
    if (!text) return NULL;
    size_t at = 0;
    text[at++] = '{';
    for (size_t i = 0; i < n; i++) {
        /* Keys in a scrambled order so sorting does real work. */
        size_t key = (i * 7919) % n;
        if (duplicate_last && i == n - 1) key = 12345;
        at += (size_t)sprintf(text + at, "%s\"key%zu\":%zu", i ? "," : "", key, i);
    }
    text[at++] = '}';
    text[at] = '\0';
    return text;
}

static void test_scale_object(void) {
    const size_t n = 200000;
    char *text = big_object(n, 0);
    if (!CHECK(text != NULL)) return;
    wai_json_doc *doc = parse_ok(text);
    if (doc) {
        const wai_json_value *root = wai_json_root(doc);
        CHECK(wai_json_object_len(root) == n);
        const char *key;
        size_t klen;
        int64_t x = -1;
        const wai_json_value *v = wai_json_object_value_at(root, n - 1, &key, &klen);
        CHECK(wai_json_get_i64(v, &x) && x == (int64_t)(n - 1));
        char want[32];
        snprintf(want, sizeof want, "key%zu", ((n - 1) * 7919) % n);
        CHECK(klen == strlen(want) && memcmp(key, want, klen) == 0);
        CHECK(wai_json_get_i64(wai_json_object_get(root, want), &x) && x == (int64_t)(n - 1));
        wai_json_free(doc);
    }
    free(text);

    text = big_object(n, 1);
    if (!CHECK(text != NULL)) return;
    doc = NULL;
    size_t at = 0;
    CHECK(parse_str(text, &doc, &at) == WAI_JSON_E_DUPLICATE);
    CHECK(doc == NULL && text[at] == '"' && at > strlen(text) - 40);
    free(text);
}

static void test_scale_array(void) {
    const size_t n = 1000000;
    char *text = malloc(n * 12 + 3);
    if (!CHECK(text != NULL)) return;
    size_t at = 0;
    uint64_t rng = 42;
    text[at++] = '[';
    for (size_t i = 0; i < n; i++) {
        int32_t value = (int32_t)(harness_rand(&rng) % 2001) - 1000;
        at += (size_t)sprintf(text + at, "%s%d", i ? "," : "", (int)value);
    }
    text[at++] = ']';
    harness_alloc c;
    wai_allocator a = make_allocator(&c);
    wai_json_doc *doc = NULL;
    CHECK(wai_json_parse(&a, (const uint8_t *)text, at, &doc, NULL) == WAI_JSON_OK);
    if (doc) {
        const wai_json_value *root = wai_json_root(doc);
        CHECK(wai_json_array_len(root) == n);
        rng = 42;
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++) {
            int32_t want = (int32_t)(harness_rand(&rng) % 2001) - 1000, got = 0;
            if (!wai_json_get_i32(wai_json_array_at(root, i), &got) || got != want) wrong++;
        }
        CHECK_MSG(wrong == 0, "%zu elements read wrong", wrong);
        /* Compact nodes: at most ~40 bytes per small integer at the peak. */
        CHECK_MSG(c.bytes_peak <= 40 * n, "peak %zu bytes for %zu elements", c.bytes_peak, n);
        wai_json_free(doc);
    }
    CHECK(c.live == 0);
    free(text);
}

/* Random byte edits and cuts of two seeds: whatever the result, no read
 * past the end, no leak, and no document left on failure. */
static void test_mutations(void) {
    static const char *const seeds[] = {
        "{\"a\":[1,-2.5e3,\"x\\u00e9\\uD83D\\uDE00\"],\"b\":{\"c\":null,\"d\":true}}",
        "[0,1,-0,12345678901234567890,\"\xE2\x82\xAC\",[],{}]",
    };
    uint64_t rng = 7;
    harness_alloc c;
    wai_allocator a = make_allocator(&c);
    for (size_t round = 0; round < 20000; round++) {
        const char *seed = seeds[round % 2];
        size_t len = strlen(seed);
        uint8_t buf[128];
        memcpy(buf, seed, len);
        for (int edits = 1 + (int)(harness_rand(&rng) % 3); edits > 0; edits--)
            buf[harness_rand(&rng) % len] = (uint8_t)harness_rand(&rng);
        size_t cut = len - (size_t)(harness_rand(&rng) % 4);
        wai_json_doc *doc = NULL;
        wai_json_error e = parse_exact(&a, buf, cut, &doc, NULL);
        if (e == WAI_JSON_OK) wai_json_free(doc);
        else CHECK(doc == NULL);
    }
    CHECK(c.live == 0);
}

void suite_json(void);
void suite_json(void) {
    harness_run("json_corpus_accept", test_corpus_accept);
    harness_run("json_corpus_reject", test_corpus_reject);
    harness_run("json_corpus_prefixes", test_corpus_prefixes);
    harness_run("json_integers", test_integers);
    harness_run("json_non_integers", test_non_integers);
    harness_run("json_wrong_types", test_wrong_types);
    harness_run("json_strings", test_strings);
    harness_run("json_objects", test_objects);
    harness_run("json_error_offsets", test_error_offsets);
    harness_run("json_duplicates_sorted", test_duplicates_sorted);
    harness_run("json_length_bound", test_length_bound);
    harness_run("json_error_names", test_error_names);
    harness_run("json_alloc_failure", test_alloc_failure);
    harness_run("json_scale_object", test_scale_object);
    harness_run("json_scale_array", test_scale_array);
    harness_run("json_mutations", test_mutations);
}
