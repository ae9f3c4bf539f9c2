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

int wai_utf8_valid(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || n - i < len) return 0;
        for (size_t k = 1; k < len; k++)
            if ((p[i + k] & 0xC0) != 0x80) return 0;
        /* No overlong three- or four-byte form, no surrogate, nothing past
         * U+10FFFF: the second byte's range after E0, ED, F0 and F4. */
        if (len >= 3) {
            unsigned c1 = p[i + 1];
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) ||
                (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
                return 0;
        }
        i += len;
    }
    return 1;
}
