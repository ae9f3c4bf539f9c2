/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli.h"

void json_put_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

void json_put_hex(FILE *out, const uint8_t *bytes, size_t n) {
    static const char digits[] = "0123456789abcdef";
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        fputc(digits[bytes[i] >> 4], out);
        fputc(digits[bytes[i] & 15], out);
    }
    fputc('"', out);
}
