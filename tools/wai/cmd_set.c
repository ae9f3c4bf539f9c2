/* SPDX-License-Identifier: BSD-2-Clause */
/* wai set list DIR / wai set pin DIR: a parameter set's listing and the pin
 * over it (docs/spec-readings.md, L5). DIR's set is every regular file in
 * it whose name does not start with '.', the listing member aside. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_set.h"
#include "wai/wai_hash.h"
#include "wai/wai_set.h"

typedef struct set_options {
    const char *out_path;
    int force;
    uint64_t max_memory;
} set_options;

static const cli_opt set_opts[] = {
    {.name = "-o", .value = "OUT", .offset = offsetof(set_options, out_path),
     .help = "list: write the listing to OUT (DIR/listing.json makes it\n"
             "the set's listing member) instead of standard output"},
    {.name = "--force", .alias = "-y", .offset = offsetof(set_options, force),
     .help = "replace OUT when it exists"},
    {.name = "--max-memory", .value = "BYTES", .offset = offsetof(set_options, max_memory),
     .parse = cli_take_bytes, .must = CLI_BYTE_COUNT,
     .help = "the most the set's files may hold together (default 2G)"},
};

static const char *const set_subcommands[] = {"list", "pin", NULL};

static int cmd_set(int argc, char **argv);

const cli_command set_command = {
    .name = "set",
    .summary = "a parameter set's listing, and the pin over it",
    .usage = "wai set list DIR [-o OUT [-y]]\n"
             "       wai set pin DIR\n",
    .about = "A set of several files is pinned through its listing (integer-payloads\n"
             "§9, SPEC §3.1): listing.json, a member of the set naming every other\n"
             "file with its length and SHA-256 in one canonical JSON form\n"
             "(docs/spec-readings.md, L5). The pin is the listing's SHA-256; a\n"
             "decode given the pin (wai decode --pin) resolves it against the set's\n"
             "listing.json, and any decode of a set that carries one checks each\n"
             "file it reads against it (set_incomplete otherwise).\n"
             "\n"
             "list prints DIR's listing: every regular file in DIR whose name does\n"
             "not start with '.', but listing.json. The bytes are the listing's\n"
             "exactly, with no newline: -o DIR/listing.json makes it DIR's member.\n"
             "\n"
             "pin prints the pin over DIR's set: the SHA-256 of DIR/listing.json,\n"
             "once it is checked to be the listing of DIR's files. Without a\n"
             "listing.json it refuses, and says which command writes one.\n"
             "\n"
             "A file that is a link is read only when it names a file of DIR (a\n"
             "target with a '/' may leave the set, where no pin vouches for it).\n",
    .opts = CLI_ROWS(set_opts),
    .after = "Exit status: 0 done; 1 DIR/listing.json is not the listing of DIR's\n"
             "files, or (pin) DIR has none; 2 usage or I/O error.\n",
    .subcommands = set_subcommands,
    .run = cmd_set,
};

/* DIR's files (but the listing) into set, their bytes kept in files. */
typedef struct dir_set {
    wai_set *set;
    cli_file *files;
    size_t n;
    uint64_t bytes;
    cli_inputs inputs;   /* the files read: -o may name none of them */
} dir_set;

static void dir_set_free(dir_set *d) {
    wai_set_destroy(d->set);
    for (size_t i = 0; i < d->n; i++) cli_file_free(&d->files[i]);
    free(d->files);
    cli_inputs_free(&d->inputs);
    memset(d, 0, sizeof *d);
}

static int read_dir(const char *cmd, wai_context *ctx, const char *dir, uint64_t budget,
                    int force, dir_set *d) {
    memset(d, 0, sizeof *d);
    cli_inputs_init(&d->inputs, force);
    DIR *dp = opendir(dir);
    if (!dp) {
        fprintf(stderr, "wai %s: %s: %s\n", cmd, dir, strerror(errno));
        return EXIT_USAGE;
    }
    int rc = wai_set_create(ctx, &d->set) == WAI_ok ? 0 : EXIT_USAGE;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, WAI_SET_LISTING) == 0) continue;
        char path[4096];
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
            !cli_set_member_stays(cmd, dir, e->d_name))
            continue;
        cli_file *grown = realloc(d->files, (d->n + 1) * sizeof *grown);
        if (!grown) {
            rc = EXIT_USAGE;
            break;
        }
        d->files = grown;
        cli_read_opts ro = {budget - d->bytes, "the memory limit (--max-memory)", 0, NULL,
                            &d->inputs};
        if (cli_read(cmd, path, &ro, &d->files[d->n]) != 0) {
            rc = EXIT_USAGE;
            break;
        }
        cli_file *f = &d->files[d->n++];
        d->bytes += f->len;
        wai_status s = wai_set_add_borrowed(d->set, e->d_name, f->data, f->len);
        if (s != WAI_ok) {
            fprintf(stderr, "wai %s: %s: a name a listing cannot hold, or twice (%s)\n", cmd, path,
                    cli_explained(s));
            rc = EXIT_USAGE;
        }
    }
    closedir(dp);
    if (rc != 0) dir_set_free(d);
    return rc;
}

/* The listing's text (the caller frees it), or NULL after saying why. */
static char *listing_of(const char *cmd, const dir_set *d, size_t *len) {
    size_t need = 0;
    wai_set_listing_json(d->set, NULL, 0, &need);
    char *text = malloc(need + 1);
    if (!text || wai_set_listing_json(d->set, text, need + 1, len) != WAI_ok) {
        fprintf(stderr, "wai %s: a file's name is not printable ASCII without '\"' and '\\', "
                "so no listing can hold it\n", cmd);
        free(text);
        return NULL;
    }
    return text;
}

static int list(const set_options *o, const dir_set *d) {
    size_t len;
    char *text = listing_of("set list", d, &len);
    if (!text) return EXIT_USAGE;
    /* Never over a file just read as a member, -y or not (the listing
     * itself is no member: -o DIR/listing.json -y rewrites it). */
    cli_out_file out;
    int rc = cli_out_open("set list", o->out_path ? o->out_path : "-", &d->inputs, &out);
    if (rc == 0) {
        fwrite(text, 1, len, out.f);
        rc = cli_out_commit("set list", &out);
    }
    free(text);
    return rc;
}

static int pin(const char *dir, const dir_set *d) {
    size_t len;
    char *text = listing_of("set pin", d, &len);
    if (!text) return EXIT_USAGE;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, WAI_SET_LISTING);
    cli_file f;
    memset(&f, 0, sizeof f);
    struct stat st;
    int has = stat(path, &st) == 0;
    cli_read_opts ro = {(uint64_t)len + 1, "the listing's size", 0, NULL, NULL};
    int rc = 0;
    if (has && (cli_read("set pin", path, &ro, &f) != 0 || f.len != len ||
                memcmp(f.data, text, len) != 0)) {
        fprintf(stderr, "wai set pin: %s is not the listing of %s's files (wai set list %s -o %s -y "
                "writes it)\n", path, dir, dir, path);
        rc = EXIT_REFUSED;
    }
    if (!has) {
        /* A pin with nothing to resolve it would be refused by every decode. */
        fprintf(stderr, "wai set pin: %s has no %s, so no pin resolves: wai set list %s -o %s "
                "writes it, and then wai set pin %s prints the pin\n", dir, WAI_SET_LISTING, dir,
                path, dir);
        rc = EXIT_REFUSED;
    }
    if (rc == 0) {
        uint8_t sha[32];
        char hex[65];
        wai_sha256_oneshot(text, len, sha);
        wai_hex(sha, 32, hex);
        printf("%s\n", hex);
    }
    cli_file_free(&f);
    free(text);
    return rc;
}

static int cmd_set(int argc, char **argv) {
    set_options o = {NULL, 0, CLI_DEFAULT_MAX_MEMORY};
    int first;
    uint64_t given;
    int rc = cli_parse(&set_command, argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
    int is_list = strcmp(argv[1], "list") == 0;
    if (argc - first != 1) return cli_usage_error(is_list ? "set list" : "set pin", "one DIR");
    if (!is_list && o.out_path) return cli_usage_error("set pin", "-o is list's");
    wai_context *ctx = NULL;
    if (wai_context_create(NULL, &ctx) != WAI_ok) return EXIT_USAGE;
    dir_set d;
    rc = read_dir(is_list ? "set list" : "set pin", ctx, argv[first], o.max_memory, o.force, &d);
    if (rc == 0) {
        rc = is_list ? list(&o, &d) : pin(argv[first], &d);
        dir_set_free(&d);
    }
    wai_context_destroy(ctx);
    return rc;
}
