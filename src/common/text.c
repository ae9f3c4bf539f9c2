/* SPDX-License-Identifier: BSD-2-Clause */
/* See text.h. */
#include "common/text.h"

#include <stdarg.h>
#include <stdio.h>

void wai_text_init(wai_text *t, char *buf, size_t size) {
    t->buf = size ? buf : NULL;
    t->size = buf ? size : 0;
    t->len = 0;
    if (t->size) t->buf[0] = '\0';
}

void wai_text_printf(wai_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) t->len += (size_t)n;
}

void wai_text_json_string(wai_text *t, const char *s, size_t n) {
    wai_text_printf(t, "\"");
    size_t run = 0;   /* bytes copied as they are, written in one go */
    for (size_t i = 0; i <= n; i++) {
        unsigned char c = i < n ? (unsigned char)s[i] : 0;
        int plain = i < n && c >= 0x20 && c != '"' && c != '\\';
        if (plain && run < ((size_t)1 << 30)) {
            run++;
            continue;
        }
        if (run) wai_text_printf(t, "%.*s", (int)run, s + i - run);
        run = 0;
        if (i == n) break;
        if (plain) {   /* a long run, flushed: this byte starts the next */
            run = 1;
            continue;
        }
        if (c == '"' || c == '\\') wai_text_printf(t, "\\%c", c);
        else if (c == '\n') wai_text_printf(t, "\\n");
        else if (c == '\t') wai_text_printf(t, "\\t");
        else wai_text_printf(t, "\\u%04x", c);
    }
    wai_text_printf(t, "\"");
}

wai_status wai_text_result(wai_text *t, size_t *len) {
    if (len) *len = t->len;
    if (t->len < t->size) return WAI_ok;
    if (t->size) t->buf[0] = '\0';
    return WAI_invalid_argument;
}
