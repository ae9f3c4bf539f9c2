/* SPDX-License-Identifier: BSD-2-Clause */
/* Filling a parameter set from a directory (see cli_set.h). */
#define _POSIX_C_SOURCE 200809L /* lstat, readlink */
#include "cli_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "wai/wai_backend.h"
#include "wai/wai_hash.h"
#include "wai/wai_webnn.h"

wai_status cli_context_create(const wai_settings *s, wai_context **out) {
    wai_status st = wai_context_create(s, out);
    if (st == WAI_ok && (st = wai_context_add_backend(*out, wai_webnn_backend())) != WAI_ok) {
        wai_context_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* The listing's next name (wai_set_listing_next) that may be read from
 * the set's folder: names that could leave it ('/', ".", "..") are never
 * read. 0 at the end. */
static int next_listed(const uint8_t *l, size_t len, size_t *at, char name[256]) {
    while (wai_set_listing_next(l, len, at, name, 256) == WAI_ok)
        if (!strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) return 1;
    return 0;
}

int cli_set_explain(const cli_set *s, const wai_capability *cap, FILE *f) {
    if (!s->set) return 0;
    const char *dir = s->dir ? s->dir : "the set";
    if (s->over_limit) {
        fprintf(f, "; %s/%s (%llu bytes) is past the memory limit (--max-memory) with the "
                "members before it: not read", dir, s->over_limit,
                (unsigned long long)s->over_size);
        return 1;
    }
    const uint8_t *data;
    size_t len;
    for (size_t i = 0; cap && i < 4 && cap->set_members[i]; i++)
        if (wai_set_find(s->set, cap->set_members[i], &data, &len) != WAI_ok) {
            fprintf(f, "; %s has no %s", dir, cap->set_members[i]);
            return 1;
        }
    const uint8_t *listing = NULL;
    size_t listing_len = 0;
    int listed = wai_set_find(s->set, WAI_SET_LISTING, &listing, &listing_len) == WAI_ok;
    /* Each file held must stand in the listing by its exact entry. */
    for (size_t i = 0; listed && i < wai_set_count(s->set); i++) {
        const char *name;
        wai_set_member_at(s->set, i, &name, &data, &len);
        if (strcmp(name, WAI_SET_LISTING) == 0) continue;
        uint8_t sha[32];
        char hex[65], entry[400];
        wai_sha256_oneshot(data, len, sha);
        wai_hex(sha, 32, hex);
        int n = snprintf(entry, sizeof entry, "{\"name\":\"%s\",\"bytes\":%llu,\"sha256\":\"%s\"}",
                         name, (unsigned long long)len, hex);
        int found = 0;
        for (size_t at = 0; !found && n > 0 && at + (size_t)n <= listing_len; at++)
            found = memcmp(listing + at, entry, (size_t)n) == 0;
        if (!found) {
            fprintf(f, "; %s/%s is not in %s/%s as it is (altered, or never listed: wai set list "
                    "%s shows the listing of the files as they are)", dir, name, dir,
                    WAI_SET_LISTING, dir);
            return 1;
        }
    }
    if (!s->pinned) {
        if (listed)
            fprintf(f, "; %s/%s is not in its one canonical form (wai set list %s -o %s/%s -y "
                    "writes it)", dir, WAI_SET_LISTING, dir, dir, WAI_SET_LISTING);
        return listed;
    }
    /* Pinned, the set is every file listed. */
    char name[256];
    size_t at = 0;
    while (listed && next_listed(listing, listing_len, &at, name))
        if (wai_set_find(s->set, name, &data, &len) != WAI_ok) {
            fprintf(f, "; the pin covers every file %s/%s names, and %s is not there (or not "
                    "read)", dir, WAI_SET_LISTING, name);
            return 1;
        }
    uint8_t sha[32];
    char hex[65];
    if (listed) {
        wai_sha256_oneshot(listing, listing_len, sha);
        wai_hex(sha, 32, hex);
        fprintf(f, "; the pin and the set's listing differ: the pin is not the SHA-256 of %s/%s "
                "(%s; wai set pin %s prints it)", dir, WAI_SET_LISTING, hex, dir);
    } else if (wai_set_count(s->set) > 1) {
        fprintf(f, "; %s has no %s: a set of several files is pinned through its listing (wai "
                "set list %s -o %s/%s writes one)", dir, WAI_SET_LISTING, dir, dir,
                WAI_SET_LISTING);
    } else {
        fprintf(f, "; the pin is not the SHA-256 of the set's one file");
    }
    return 1;
}

int cli_set_member_stays(const char *command, const char *dir, const char *name) {
    char path[4096], target[256];
    snprintf(target, sizeof target, "%s", name);
    /* A few hops of links between names of the folder; a target with a
     * '/' may lie anywhere, and is what a pin could not vouch for. */
    for (int hop = 0; hop < 8; hop++) {
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, target) >= sizeof path ||
            lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
            return 1;
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0 || (size_t)n >= sizeof target - 1) break;
        target[n] = '\0';
        if (strchr(target, '/') || strcmp(target, ".") == 0 || strcmp(target, "..") == 0) {
            fprintf(stderr, "wai %s: %s/%s: a link out of the set's folder (to %s): not read\n",
                    command, dir, name, target);
            return 0;
        }
    }
    fprintf(stderr, "wai %s: %s/%s: a chain of links: not read\n", command, dir, name);
    return 0;
}

/* Adds DIR/NAME when it exists; 0, 1 when it is past the limit (not read:
 * cs->over_limit names it), or -1 after printing an I/O error. */
static int add_member(const char *command, cli_set *cs, const char *dir, const char *name,
                      uint64_t max_bytes, cli_inputs *inputs) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        fprintf(stderr, "wai %s: %s/%s: path too long\n", command, dir, name);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) return 0;
    /* Left out, the member is missing: the decode says set_incomplete. */
    if (!cli_set_member_stays(command, dir, name)) return 0;
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes - cs->bytes) {
        snprintf(cs->over_name, sizeof cs->over_name, "%s", name);
        cs->over_limit = cs->over_name;
        cs->over_size = (uint64_t)st.st_size;
        return 1;
    }
    if (cs->n_files == cs->cap_files) {
        size_t cap = cs->cap_files ? 2 * cs->cap_files : 8;
        cli_file *grown = realloc(cs->files, cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "wai %s: out of memory\n", command);
            return -1;
        }
        cs->files = grown;
        cs->cap_files = cap;
    }
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
    free(s->files);
    memset(s, 0, sizeof *s);
}

/* Adds every file the set's listing names, beside those a path reads: a
 * set that carries a listing is the listed set, so a decode checks each of
 * its files (check 5, L5a), whatever its path reads. 0, 1 (past the
 * limit) or -1. */
static int add_listed(const char *command, cli_set *cs, const char *dir, uint64_t max_bytes,
                      cli_inputs *inputs) {
    const uint8_t *l, *d;
    size_t len, dl, at = 0;
    char name[256];
    if (wai_set_find(cs->set, WAI_SET_LISTING, &l, &len) != WAI_ok) return 0;
    while (next_listed(l, len, &at, name)) {
        if (wai_set_find(cs->set, name, &d, &dl) == WAI_ok) continue;
        int rc = add_member(command, cs, dir, name, max_bytes, inputs);
        if (rc != 0) return rc;
    }
    return 0;
}

static int load(const char *command, wai_context *ctx, const wai_capability *cap, const char *dir,
                const char *pin, uint64_t max_bytes, cli_inputs *inputs, int encoder,
                cli_set *out) {
    memset(out, 0, sizeof *out);
    uint8_t digest[32];
    if (pin && wai_pin_parse(pin, digest, out->tier, sizeof out->tier) != WAI_ok)
        return cli_usage_error(command, "--pin needs a SHA-256 of 64 hexadecimal digits, then "
                                        "optionally the tier it states (:tier=TOKEN)");
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
     * and every decode checks the set's files against; then what it lists. */
    if (n < 8) names[n++] = WAI_SET_LISTING;
    out->dir = dir;
    int rc = 0;
    for (size_t i = 0; dir && i < n && rc == 0; i++)
        rc = add_member(command, out, dir, names[i], max_bytes, inputs);
    if (dir && rc == 0) rc = add_listed(command, out, dir, max_bytes, inputs);
    if (rc < 0) {
        cli_set_free(out);
        return EXIT_USAGE;
    }
    if (out->over_limit && encoder) {
        /* An encoder has no route to take: the limit is the user's to raise. */
        fprintf(stderr, "wai %s: %s/%s: %llu bytes, past the memory limit with the members "
                "before it\n", command, dir, out->over_limit, (unsigned long long)out->over_size);
        cli_set_free(out);
        return EXIT_USAGE;
    }
    if (pin) {
        wai_set_pin(out->set, digest);
        memcpy(out->pin, digest, 32);
        out->pinned = 1;
    }
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
