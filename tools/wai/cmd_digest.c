/* wai digest: streams each file through the hash, so size is unbounded
 * (and a pipe or FIFO is read as b3sum reads one). BLAKE3 unless --sha256. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "wai/wai_hash.h"

typedef enum { ALGO_NONE, ALGO_SHA256, ALGO_BLAKE3 } digest_algo;

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

int cmd_digest(int argc, char **argv) {
    cli_permute(argc, argv, NULL);
    digest_algo algo = ALGO_NONE;
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            first_file = i + 1;
            break;
        }
        if (strcmp(a, "--sha256") == 0 || strcmp(a, "--blake3") == 0) {
            digest_algo want = a[2] == 's' ? ALGO_SHA256 : ALGO_BLAKE3;
            if (algo != ALGO_NONE && algo != want)
                return cli_usage_error("digest", "choose one of --sha256 and --blake3");
            algo = want;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_usage_error("digest", "unknown option '%s'", a);
        } else {
            first_file = i;
            break;
        }
    }
    if (algo == ALGO_NONE) algo = ALGO_BLAKE3;   /* the spec's hash (receipts, identities) */
    int status = EXIT_DONE;
    if (first_file >= argc) return digest_one("-", algo) == 0 ? EXIT_DONE : EXIT_USAGE;
    for (int i = first_file; i < argc; i++)
        if (digest_one(argv[i], algo) != 0) status = EXIT_USAGE;
    return status;
}
