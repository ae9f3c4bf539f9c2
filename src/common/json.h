/* SPDX-License-Identifier: BSD-2-Clause */
/* A strict JSON reader (RFC 8259) for the specs' JSON inputs.
 *
 * Strict means: UTF-8 validated (no overlong forms, no surrogate code
 * points, nothing past U+10FFFF), no byte-order mark, no member named twice
 * in one object (compared after unescaping), at most WAI_JSON_MAX_DEPTH
 * nested arrays and objects, and nothing but whitespace after the value.
 *
 * Numbers are never converted through floating point. A number with no
 * fraction and no exponent is an integer, read exactly (any length; -0 is 0);
 * every number keeps its source text for readers that need more. */
#ifndef WAI_COMMON_JSON_H
#define WAI_COMMON_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "common/sibling.h"
#include "wai/wai.h"

#define WAI_JSON_MAX_DEPTH 64

typedef enum wai_json_type {
    WAI_JSON_NULL,
    WAI_JSON_BOOL,
    WAI_JSON_NUMBER,
    WAI_JSON_STRING,
    WAI_JSON_ARRAY,
    WAI_JSON_OBJECT
} wai_json_type;

typedef enum wai_json_error {
    WAI_JSON_OK = 0,
    WAI_JSON_E_SYNTAX,       /* not RFC 8259 grammar */
    WAI_JSON_E_UTF8,         /* invalid UTF-8, a BOM, or a lone surrogate escape */
    WAI_JSON_E_DEPTH,        /* more than WAI_JSON_MAX_DEPTH levels */
    WAI_JSON_E_DUPLICATE,    /* a member named twice in one object */
    WAI_JSON_E_TRAILING,     /* something after the value */
    WAI_JSON_E_NOMEM         /* the allocator failed */
} wai_json_error;

typedef struct wai_json_doc wai_json_doc;
typedef struct wai_json_value wai_json_value;

/* The length of the well-formed UTF-8 sequence of two to four bytes at s
 * (avail bytes there; Unicode table 3-7: no overlong form, no surrogate,
 * nothing past U+10FFFF); 0 if ill-formed or an ASCII byte. */
size_t wai_utf8_sequence(const uint8_t *s, size_t avail);

/* 1 when s[0..n) is all well-formed UTF-8, as the reader requires of a
 * text. */
WAI_SIBLING int wai_utf8_valid(const char *s, size_t n);

/* Parses text[0..len). On success *out is a document the caller frees with
 * wai_json_free; on failure *out is NULL and *err_offset (if not NULL) is the
 * byte offset where the error was found. */
WAI_SIBLING wai_json_error wai_json_parse(const wai_allocator *a, const uint8_t *text, size_t len,
                              wai_json_doc **out, size_t *err_offset);
WAI_SIBLING void wai_json_free(wai_json_doc *doc);
WAI_SIBLING const char *wai_json_error_name(wai_json_error e);

WAI_SIBLING const wai_json_value *wai_json_root(const wai_json_doc *doc);
WAI_SIBLING wai_json_type wai_json_type_of(const wai_json_value *v);

/* BOOL: 1 true, 0 false. */
WAI_SIBLING int wai_json_bool(const wai_json_value *v);

/* NUMBER. */
WAI_SIBLING int wai_json_is_integer(const wai_json_value *v);       /* no fraction, no exponent */
/* 1 when an integer that fits. */
WAI_SIBLING int wai_json_get_i64(const wai_json_value *v, int64_t *out);
int wai_json_get_i32(const wai_json_value *v, int32_t *out);
/* 1 when a non-negative integer that fits. */
WAI_SIBLING int wai_json_get_u64(const wai_json_value *v, uint64_t *out);
WAI_SIBLING const char *wai_json_number_text(const wai_json_value *v, size_t *len);

/* STRING: the unescaped UTF-8 bytes, NUL-terminated; *len excludes the
 * terminator and the bytes may contain NUL (from \u0000). */
WAI_SIBLING const char *wai_json_string(const wai_json_value *v, size_t *len);

/* ARRAY. */
WAI_SIBLING size_t wai_json_array_len(const wai_json_value *v);
WAI_SIBLING const wai_json_value *wai_json_array_at(const wai_json_value *v, size_t i);

/* OBJECT: members in document order; lookup by exact key bytes. */
WAI_SIBLING size_t wai_json_object_len(const wai_json_value *v);
WAI_SIBLING const wai_json_value *wai_json_object_value_at(const wai_json_value *v, size_t i,
                                               const char **key, size_t *key_len);
WAI_SIBLING const wai_json_value *wai_json_object_get(const wai_json_value *v, const char *key);
/* The same for a key of key_len bytes, which may hold NUL (from \u0000). */
const wai_json_value *wai_json_object_get_n(const wai_json_value *v, const char *key,
                                size_t key_len);

#endif
