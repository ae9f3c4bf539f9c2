/* libFuzzer target for the strict JSON reader: parse, and on success walk
 * the whole tree checking what the reader promises about it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise stops the run with a crash report and the input. */
static void require(int ok) {
    if (!ok) abort();
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
