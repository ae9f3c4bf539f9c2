/* SPDX-License-Identifier: BSD-2-Clause */
/* wai digest: streams each file through the hash, so size is unbounded
 * (and a pipe or FIFO is read as b3sum reads one). BLAKE3 unless --sha256. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "wai/wai_hash.h"

typedef enum { ALGO_SHA256, ALGO_BLAKE3 } digest_algo;

static int digest_stream(FILE *in, digest_algo algo, uint8_t out[32]) {
    static uint8_t buf[1 << 16];
    wai_sha256 sha;
    wai_blake3 b3;
    if (algo == ALGO_SHA256) wai_sha256_init(&sha);
    else wai_blake3_init(&b3);
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0) {
        if (algo == ALGO_SHA256) wai_sha256_update(&sha, buf, got);
        else wai_blake3_update(&b3, buf, got);
    }
    if (ferror(in)) return -1;
    if (algo == ALGO_SHA256) wai_sha256_final(&sha, out);
    else wai_blake3_final(&b3, out, 32);
    return 0;
}

static int digest_one(const char *name, digest_algo algo) {
    int is_stdin = strcmp(name, "-") == 0;
    FILE *in = is_stdin ? stdin : fopen(name, "rb");
    if (!in) {
        fprintf(stderr, "wai digest: %s: %s\n", name, strerror(errno));
        return -1;
    }
    uint8_t out[32];
    int rc = digest_stream(in, algo, out);
    if (!is_stdin) fclose(in);
    if (rc != 0) {
        fprintf(stderr, "wai digest: %s: read failed\n", name);
        return -1;
    }
    char hex[65];
    wai_hex(out, 32, hex);
    printf("%s  %s\n", hex, name);
    return 0;
}

typedef struct digest_options {
    int sha256, blake3;
} digest_options;

static const cli_opt digest_opts[] = {
    {.name = "--blake3", .offset = offsetof(digest_options, blake3),
     .help = "BLAKE3, 32 bytes of output: the spec's hash (the default)"},
    {.name = "--sha256", .offset = offsetof(digest_options, sha256),
     .help = "SHA-256 (FIPS 180-4)"},
};

static int cmd_digest(int argc, char **argv);

const cli_command digest_command = {
    .name = "digest",
    .summary = "SHA-256 or BLAKE3 of files, as sha256sum/b3sum print them",
    .operands = "[FILE...]",
    .about = "Prints \"HEX  FILE\" for each FILE, exactly as b3sum and sha256sum do,\n"
             "so receipts and corpora can be checked with either. FILE '-' (or no\n"
             "FILE) reads standard input. A FILE that can't be read is reported and\n"
             "skipped.\n",
    .opts = CLI_ROWS(digest_opts),
    .after = "Exit status: 0 done, 2 a FILE could not be read, or a usage error.\n",
    .run = cmd_digest,
};

static int cmd_digest(int argc, char **argv) {
    digest_options o = {0, 0};
    int first_file;
    uint64_t given;
    int rc = cli_parse(&digest_command, argc, argv, &o, &first_file, &given);
    if (rc != 0) return rc;
    if (o.sha256 && o.blake3) return cli_usage_error("digest", "choose one of --sha256 and --blake3");
    /* BLAKE3 unless asked: the spec's hash (receipts, identities). */
    digest_algo algo = o.sha256 ? ALGO_SHA256 : ALGO_BLAKE3;
    int status = EXIT_DONE;
    if (first_file >= argc) return digest_one("-", algo) == 0 ? EXIT_DONE : EXIT_USAGE;
    for (int i = first_file; i < argc; i++)
        if (digest_one(argv[i], algo) != 0) status = EXIT_USAGE;
    return status;
}
