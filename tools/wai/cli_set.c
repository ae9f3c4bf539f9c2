/* Filling a parameter set from a directory (see cli_set.h). */
#include "cli_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int parse_pin(const char *s, uint8_t out[32]) {
    if (strlen(s) != 64) return 0;
    for (int i = 0; i < 32; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

/* Adds DIR/NAME when it exists; 0, or -1 after printing an I/O error. */
static int add_member(wai_set *s, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        fprintf(stderr, "wai: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fclose(f);
    cli_file file;
    if (cli_read_file(path, &file) != 0) return -1;
    wai_status st = wai_set_add(s, name, file.data, file.len);
    cli_file_free(&file);
    if (st != WAI_ok) {
        fprintf(stderr, "wai: %s: %s\n", path, wai_status_name(st));
        return -1;
    }
    return 0;
}

int cli_load_set(const char *command, wai_context *ctx, const wai_capability *cap,
                 const char *dir, const char *pin, wai_set **out) {
    *out = NULL;
    uint8_t digest[32];
    if (pin && !parse_pin(pin, digest))
        return cli_usage_error(command, "--pin needs a SHA-256 of 64 hexadecimal digits");
    if (!dir && !pin) return 0;
    wai_set *s;
    if (wai_set_create(ctx, &s) != WAI_ok) {
        fprintf(stderr, "wai: out of memory\n");
        return EXIT_USAGE;
    }
    for (size_t i = 0; dir && cap && cap->set_members[i]; i++)
        if (add_member(s, dir, cap->set_members[i]) != 0) {
            wai_set_destroy(s);
            return EXIT_USAGE;
        }
    if (pin) wai_set_pin(s, digest);
    *out = s;
    return 0;
}
