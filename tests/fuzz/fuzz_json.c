/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for the strict JSON reader: parse, and on success walk
 * the whole tree checking what the reader promises about it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "write/decimal32.h"
#include "common/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise stops the run with a crash report and the input. */
static void require(int ok) {
    if (!ok) abort();
}

/* binary32 bits widened to binary64's, by their fields. */
static uint64_t widen(uint32_t f) {
    const uint64_t sign = (uint64_t)(f >> 31) << 63;
    uint32_t e = (f >> 23) & 0xff, m = f & 0x7fffff;
    if (e == 0 && m == 0) return sign;
    if (e == 0) {   /* subnormal: normalise */
        int shift = 0;
        while (!(m & 0x800000)) m <<= 1, shift++;
        m &= 0x7fffff;
        return sign | ((uint64_t)(1 - shift - 127 + 1023) << 52) | ((uint64_t)m << 29);
    }
    return sign | ((uint64_t)(e - 127 + 1023) << 52) | ((uint64_t)m << 29);
}

/* The exact readers (decimal32.h) on every number the reader accepts: a
 * JSON number is never a syntax fault; a non-integer spelling read as
 * binary32 is its binary64 reading, widened; an integer that fits i64 and
 * reads as binary32 is that integer. */
static void check_exact(const char *text, size_t len, int is_int, int64_t i64, int fits64) {
    uint32_t f = 0;
    uint64_t d = 0;
    const wai_decimal32_result r32 = wai_decimal32_read(text, len, &f);
    const wai_decimal32_result r64 = wai_decimal64_read(text, len, &d);
    require(r32 != WAI_DECIMAL32_SYNTAX && r64 != WAI_DECIMAL32_SYNTAX);
    if (!is_int) {
        require(r64 != WAI_DECIMAL32_NO_VALUE || r32 == WAI_DECIMAL32_NO_VALUE);
        if (r32 == WAI_DECIMAL32_OK) require(r64 == WAI_DECIMAL32_OK && d == widen(f));
    } else if (r32 == WAI_DECIMAL32_OK && fits64) {
        const uint64_t mag = i64 < 0 ? (uint64_t)0 - (uint64_t)i64 : (uint64_t)i64;
        require((f >> 31) == 0 || mag != 0);      /* "-0" is +0 */
        const uint32_t e = (f >> 23) & 0xff;
        uint64_t m = e ? (f & 0x7fffff) | 0x800000 : f & 0x7fffff;
        int exp = e ? (int)e - 150 : -149;
        if (mag == 0) require(f == 0);
        else {
            while (exp < 0 && !(m & 1)) m >>= 1, exp++;
            require(exp >= 0 && exp < 64 && (m << exp) >> exp == m && (m << exp) == mag);
        }
    }
}

/* The number's own text parsed again alone: same kind, same value. */
static void check_number(const wai_json_value *v) {
    size_t len = 0;
    const char *text = wai_json_number_text(v, &len);
    require(text != NULL && len > 0 && text[len] == '\0');
    wai_json_doc *again = NULL;
    require(wai_json_parse(NULL, (const uint8_t *)text, len, &again, NULL) == WAI_JSON_OK);
    const wai_json_value *w = wai_json_root(again);
    require(wai_json_type_of(w) == WAI_JSON_NUMBER);
    require(wai_json_is_integer(v) == wai_json_is_integer(w));
    int is_int = wai_json_is_integer(v);
    require(is_int == (memchr(text, '.', len) == NULL && memchr(text, 'e', len) == NULL &&
                       memchr(text, 'E', len) == NULL));

    int64_t a = 0, b = 0;
    uint64_t ua = 0, ub = 0;
    int32_t sa = 0;
    int fits64 = wai_json_get_i64(v, &a);
    require(fits64 == wai_json_get_i64(w, &b) && a == b);
    int fitsu = wai_json_get_u64(v, &ua);
    require(fitsu == wai_json_get_u64(w, &ub) && ua == ub);
    int fits32 = wai_json_get_i32(v, &sa);
    require(!(fits64 || fitsu || fits32) || is_int);
    require(!fits32 || (fits64 && a == sa));
    require(!(fits64 && fitsu) || (a >= 0 && (uint64_t)a == ua));
    /* Beyond 20 digits nothing fits; up to 18 digits everything fits i64. */
    size_t digits = len - (text[0] == '-');
    if (is_int && digits > 20) require(!fits64 && !fitsu);
    if (is_int && digits <= 18) require(fits64);
    wai_json_free(again);
    check_exact(text, len, is_int, fits64 ? a : 0, fits64);
}

static void walk(const wai_json_value *v, int depth) {
    require(depth <= WAI_JSON_MAX_DEPTH);
    size_t len = 0;
    switch (wai_json_type_of(v)) {
    case WAI_JSON_NULL:
    case WAI_JSON_BOOL:
        break;
    case WAI_JSON_NUMBER:
        check_number(v);
        break;
    case WAI_JSON_STRING: {
        const char *s = wai_json_string(v, &len);
        require(s != NULL && s[len] == '\0');
        break;
    }
    case WAI_JSON_ARRAY:
        len = wai_json_array_len(v);
        for (size_t i = 0; i < len; i++) walk(wai_json_array_at(v, i), depth + 1);
        require(wai_json_array_at(v, len) == NULL);
        break;
    case WAI_JSON_OBJECT:
        len = wai_json_object_len(v);
        for (size_t i = 0; i < len; i++) {
            const char *key = NULL;
            size_t key_len = 0;
            const wai_json_value *m = wai_json_object_value_at(v, i, &key, &key_len);
            require(m != NULL && key != NULL && key[key_len] == '\0');
            /* Names are unique, so a lookup finds this very member. */
            require(wai_json_object_get_n(v, key, key_len) == m);
            walk(m, depth + 1);
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_json_doc *doc = NULL;
    size_t at = SIZE_MAX;
    wai_json_error e = wai_json_parse(NULL, data, size, &doc, &at);
    if (e != WAI_JSON_OK) {
        require(doc == NULL && at <= size);
        return 0;
    }
    require(doc != NULL);
    walk(wai_json_root(doc), 0);
    wai_json_free(doc);
    return 0;
}
