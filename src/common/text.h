/* SPDX-License-Identifier: BSD-2-Clause */
/* A bounded text buffer for the library's small JSON outputs (a payload's
 * header): appends stop at the buffer's end, the length counts on, so a
 * caller learns the size it needs from one call with no room. */
#ifndef WAI_COMMON_TEXT_H
#define WAI_COMMON_TEXT_H

#include <stddef.h>

#include "common/sibling.h"
#include "wai/wai.h"

typedef struct wai_text {
    char *buf;     /* may be NULL when size is 0 */
    size_t size;   /* bytes of buf, the NUL included */
    size_t len;    /* the text's whole length, written or not */
} wai_text;

WAI_SIBLING void wai_text_init(wai_text *t, char *buf, size_t size);

/* printf-style (integer conversions only in the library's code). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
WAI_SIBLING void wai_text_printf(wai_text *t, const char *fmt, ...);

/* s[0..n) as a JSON string: quoted, with '"', '\\' and the control
 * characters escaped; other bytes as they are (UTF-8 in, UTF-8 out). */
WAI_SIBLING void wai_text_json_string(wai_text *t, const char *s, size_t n);

/* The API's one rule for text into a caller's buffer (include/wai/wai.h):
 * *len (if not NULL) gets the text's whole length without its NUL; WAI_ok
 * when it fit with its NUL, else WAI_invalid_argument and buf an empty
 * string (where it has a byte). */
WAI_SIBLING wai_status wai_text_result(wai_text *t, size_t *len);
#endif
