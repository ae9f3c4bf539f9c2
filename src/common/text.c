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
