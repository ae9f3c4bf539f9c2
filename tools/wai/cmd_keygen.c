/* SPDX-License-Identifier: BSD-2-Clause */
/* wai keygen: an Ed25519 key for receipts. KEY gets the seed (mode 0600),
 * KEY.pub the public key, each 64 hexadecimal digits and a newline
 * (keys.h); the public key is printed too. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#if defined(WAI_HAVE_ED25519)
#include "wai/wai_ed25519.h"
#include "wai/wai_hash.h"

/* Writes 32 bytes as hex to PATH with mode; without force an existing
 * file is refused. */
static int write_key(const char *path, const uint8_t b[32], mode_t mode, int force) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (force ? 0 : O_EXCL), mode);
    if (fd < 0) {
        perror(path);
        return -1;
    }
    char text[66];
    wai_hex(b, 32, text);
    text[64] = '\n';
    int ok = write(fd, text, 65) == 65;
    memset(text, 0, sizeof text);
    /* An existing file keeps its mode through O_TRUNC: a secret gets its own. */
    ok = ok && fchmod(fd, mode) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok) fprintf(stderr, "wai keygen: %s: write failed\n", path);
    return ok ? 0 : -1;
}
#endif

typedef struct keygen_options {
    const char *out;
    int force;
} keygen_options;

static const cli_opt keygen_opts[] = {
    {.name = "-o", .value = "KEY", .offset = offsetof(keygen_options, out),
     .help = "the secret key's file (KEY.pub beside it)"},
    {.name = "--force", .alias = "-y", .offset = offsetof(keygen_options, force),
     .help = "replace KEY and KEY.pub when they exist"},
};

static int cmd_keygen(int argc, char **argv);

const cli_command keygen_command = {
    .name = "keygen",
    .summary = "an Ed25519 key for receipts",
    .operands = "-o KEY",
    .about = "Writes a new Ed25519 key for receipts: KEY holds its 32-byte seed (mode\n"
             "0600), KEY.pub its public key, each as 64 lowercase hexadecimal digits\n"
             "and a newline. Prints the public key.\n",
    .opts = CLI_ROWS(keygen_opts),
    .after = "Exit status: 0 written, 2 usage or I/O error, or a build without\n"
             "libsodium.\n",
    .run = cmd_keygen,
};

static int cmd_keygen(int argc, char **argv) {
    keygen_options o = {NULL, 0};
    int first;
    uint64_t given;
    int rc = cli_parse(&keygen_command, argc, argv, &o, &first, &given);
    if (rc != 0) return rc;
    if (!o.out) return cli_usage_error("keygen", "no output given (-o KEY)");
    if (first != argc) return cli_usage_error("keygen", "keygen reads no file");
    if (!strcmp(o.out, "-")) return cli_usage_error("keygen", "KEY is a file, not '-'");
#if defined(WAI_HAVE_ED25519)
    size_t n = strlen(o.out);
    char *pub = malloc(n + 5);
    if (!pub) return EXIT_USAGE;
    memcpy(pub, o.out, n);
    memcpy(pub + n, ".pub", 5);
    wai_ed25519_key k;
    rc = EXIT_USAGE;
    if (wai_ed25519_key_generate(&k) != 0) fprintf(stderr, "wai keygen: libsodium could not start\n");
    else if (write_key(o.out, k.seed, 0600, o.force) == 0 && write_key(pub, k.pubkey, 0644, o.force) == 0) {
        char hex[65];
        wai_hex(k.pubkey, 32, hex);
        printf("%s\n", hex);
        rc = EXIT_DONE;
    }
    wai_ed25519_key_wipe(&k);
    free(pub);
    return rc;
#else
    fprintf(stderr, "wai keygen: this build has no Ed25519 (libsodium was not found)\n");
    return EXIT_USAGE;
#endif
}
