/* SPDX-License-Identifier: BSD-2-Clause */
/* Filling a parameter set from a directory (see cli_set.h). */
#include "cli_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "wai/wai_backend.h"
#include "wai/wai_webnn.h"

wai_status cli_context_create(const wai_settings *s, wai_context **out) {
    wai_status st = wai_context_create(s, out);
    if (st == WAI_ok && (st = wai_context_add_backend(*out, wai_webnn_backend())) != WAI_ok) {
        wai_context_destroy(*out);
        *out = NULL;
    }
    return st;
}

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
static int add_member(const char *command, cli_set *cs, const char *dir, const char *name,
                      uint64_t max_bytes, cli_inputs *inputs) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        fprintf(stderr, "wai %s: %s/%s: path too long\n", command, dir, name);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return 0;
    cli_read_opts ro = {max_bytes - cs->bytes, "the memory limit (--max-memory), with the "
                        "members before it", 0, NULL, inputs};
    cli_file *f = &cs->files[cs->n_files];
    if (cli_read(command, path, &ro, f) != 0) return -1;
    cs->n_files++;
    cs->bytes += f->len;
    wai_status st2 = wai_set_add_borrowed(cs->set, name, f->data, f->len);
    if (st2 != WAI_ok) {
        fprintf(stderr, "wai %s: %s: %s\n", command, path, cli_explained(st2));
        return -1;
    }
    return 0;
}

void cli_set_free(cli_set *s) {
    wai_set_destroy(s->set);   /* before the bytes it borrows */
    for (size_t i = 0; i < s->n_files; i++) cli_file_free(&s->files[i]);
    memset(s, 0, sizeof *s);
}

static int load(const char *command, wai_context *ctx, const wai_capability *cap, const char *dir,
                const char *pin, uint64_t max_bytes, cli_inputs *inputs, int encoder,
                cli_set *out) {
    memset(out, 0, sizeof *out);
    uint8_t digest[32];
    if (pin && !parse_pin(pin, digest))
        return cli_usage_error(command, "--pin needs a SHA-256 of 64 hexadecimal digits");
    if (!dir && !pin) return 0;
    if (wai_set_create(ctx, &out->set) != WAI_ok) {
        fprintf(stderr, "wai %s: out of memory\n", command);
        return EXIT_USAGE;
    }
    /* The set's members, then the programs its backends read, then for an
     * encoder its members (each only where the directory holds it). */
    const char *names[8];
    size_t n = 0;
    for (size_t i = 0; cap && i < 4 && cap->set_members[i]; i++) names[n++] = cap->set_members[i];
    for (size_t i = 0; cap && n < 8 && wai_context_program_member(ctx, cap, i); i++)
        names[n++] = wai_context_program_member(ctx, cap, i);
    for (const char *const *p = encoder && cap ? wai_capability_encoder_members(cap) : NULL;
         p && *p && n < 8; p++)
        names[n++] = *p;
    /* The set's listing, which a pin over several files resolves through
     * and every decode checks the files it reads against. */
    if (n < 8) names[n++] = WAI_SET_LISTING;
    for (size_t i = 0; dir && i < n; i++)
        if (add_member(command, out, dir, names[i], max_bytes, inputs) != 0) {
            cli_set_free(out);
            return EXIT_USAGE;
        }
    if (pin) wai_set_pin(out->set, digest);
    return 0;
}

int cli_load_set(const char *command, wai_context *ctx, const wai_capability *cap,
                 const char *dir, const char *pin, uint64_t max_bytes, cli_inputs *inputs,
                 cli_set *out) {
    return load(command, ctx, cap, dir, pin, max_bytes, inputs, 0, out);
}

int cli_load_encoder_set(const char *command, wai_context *ctx, const wai_capability *cap,
                         const char *dir, uint64_t max_bytes, cli_inputs *inputs, cli_set *out) {
    return load(command, ctx, cap, dir, NULL, max_bytes, inputs, 1, out);
}
