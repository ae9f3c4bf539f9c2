#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_read_file(const char *name, cli_file *f) {
    int is_stdin = strcmp(name, "-") == 0;
    FILE *in = is_stdin ? stdin : fopen(name, "rb");
    f->name = name;
    f->data = NULL;
    f->len = 0;
    if (!in) {
        fprintf(stderr, "wai: %s: %s\n", name, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16;
    uint8_t *buf = malloc(cap);
    size_t n = 0;
    int failed = buf == NULL;
    while (!failed) {
        if (n == cap) {
            uint8_t *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                failed = 1;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0) {
            failed = ferror(in) != 0;
            break;
        }
    }
    if (!is_stdin) fclose(in);
    if (failed) {
        fprintf(stderr, "wai: %s: read failed\n", name);
        free(buf);
        return -1;
    }
    f->data = buf;
    f->len = n;
    return 0;
}

void cli_file_free(cli_file *f) {
    free(f->data);
    f->data = NULL;
    f->len = 0;
}

static int takes_a_value(const char *a, const char *const *takes_value) {
    for (; takes_value && *takes_value; takes_value++)
        if (strcmp(a, *takes_value) == 0) return 1;
    return 0;
}

void cli_permute(int argc, char **argv, const char *const *takes_value) {
    if (argc < 3) return;
    char **options = malloc(sizeof *options * (size_t)argc);
    char **operands = malloc(sizeof *operands * (size_t)argc);
    if (!options || !operands) {
        free(options);
        free(operands);
        return; /* unchanged: options after FILEs then read as FILEs */
    }
    int n_opt = 0, n_op = 0;
    char *dashdash = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (dashdash) {
            operands[n_op++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            dashdash = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            options[n_opt++] = argv[i];
            if (takes_a_value(a, takes_value) && i + 1 < argc) options[n_opt++] = argv[++i];
        } else {
            operands[n_op++] = argv[i];
        }
    }
    int at = 1;
    for (int i = 0; i < n_opt; i++) argv[at++] = options[i];
    if (dashdash) argv[at++] = dashdash; /* what followed it stays operands */
    for (int i = 0; i < n_op; i++) argv[at++] = operands[i];
    free(options);
    free(operands);
}

int cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s) return 0;
    if (s[0] == '0' && s[1] != '\0') return 0;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

int cli_usage_error(const char *command, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "wai %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'wai help %s')\n", command);
    return EXIT_USAGE;
}
