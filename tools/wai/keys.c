/* SPDX-License-Identifier: BSD-2-Clause */
/* Key files (keys.h). */
#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

int keys_parse_hex32(const char *s, size_t n, uint8_t out[32]) {
    while (n && is_space(*s)) s++, n--;
    while (n && is_space(s[n - 1])) n--;
    if (n != 64) return 0;
    for (size_t i = 0; i < 32; i++) {
        int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

int keys_read(const char *command, const char *path, uint8_t out[32]) {
    cli_read_opts o = {4096, "a key file's size", 0, NULL, NULL};
    cli_file f;
    if (cli_read(command, path, &o, &f) != 0) return -1;
    int ok = keys_parse_hex32((const char *)f.data, f.len, out);
    memset(f.data, 0, f.len);   /* a secret seed does not linger in the heap */
    cli_file_free(&f);
    if (!ok) {
        fprintf(stderr, "wai %s: %s: not a key file (64 hexadecimal digits)\n", command, path);
        return -1;
    }
    return 0;
}

int keys_read_public(const char *command, const char *arg, uint8_t out[32]) {
    if (keys_parse_hex32(arg, strlen(arg), out)) return 0;
    return keys_read(command, arg, out);
}
