/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the tool's inputs (cli.h): regular files only, sized before they
 * are read, refused past their bound before a byte is read, read once into
 * one buffer of their exact size (docs/reading-inputs.md). */
/* POSIX.1-2008: open flags, fstat modes, mkstemp, link. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "wai/wai_format.h"

/* The largest read() asked for at once (a size_t read may be refused past
 * SSIZE_MAX, and short reads are the norm for pipes anyway). */
#define READ_CHUNK ((size_t)1 << 24)

static const char *kind_of_mode(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

static int read_error(const char *command, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int read_error(const char *command, const char *name, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "wai %s: %s: ", command, name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

void cli_inputs_init(cli_inputs *in, int force) {
    memset(in, 0, sizeof *in);
    in->force = force;
}

void cli_inputs_free(cli_inputs *in) {
    free(in->ids);
    memset(in, 0, sizeof *in);
}

int cli_inputs_add(cli_inputs *in, const struct stat *st) {
    if (!in) return 0;
    if (in->n == in->cap) {
        size_t cap = in->cap ? 2 * in->cap : 8;
        cli_file_id *grown = realloc(in->ids, cap * sizeof *grown);
        if (!grown) return -1;
        in->ids = grown;
        in->cap = cap;
    }
    in->ids[in->n].dev = (uint64_t)st->st_dev;
    in->ids[in->n].ino = (uint64_t)st->st_ino;
    in->n++;
    return 0;
}

int cli_inputs_has(const cli_inputs *in, const struct stat *st) {
    for (size_t i = 0; in && i < in->n; i++)
        if (in->ids[i].dev == (uint64_t)st->st_dev && in->ids[i].ino == (uint64_t)st->st_ino)
            return 1;
    return 0;
}

int cli_check_input(const char *command, const char *name, cli_inputs *inputs) {
    struct stat st;
    if (strcmp(name, "-") == 0) {
        /* Standard input redirected from a file is that file. */
        if (fstat(0, &st) == 0 && S_ISREG(st.st_mode) && cli_inputs_add(inputs, &st) != 0)
            return read_error(command, name, "out of memory");
        return 0;
    }
    if (stat(name, &st) != 0) return read_error(command, name, "%s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return read_error(command, name, "%s, not a regular file: refused", kind_of_mode(st.st_mode));
    if (cli_inputs_add(inputs, &st) != 0) return read_error(command, name, "out of memory");
    return 0;
}

/* Reads up to n bytes (fewer only at the end of the file). */
static int read_full(int fd, uint8_t *buf, size_t n, size_t *got) {
    size_t at = 0;
    while (at < n) {
        size_t want = n - at < READ_CHUNK ? n - at : READ_CHUNK;
        ssize_t r = read(fd, buf + at, want);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        at += (size_t)r;
    }
    *got = at;
    return 0;
}

/* The bound of a read: the caller's, and the payload's when cap_name or
 * the first bytes name a capability. */
static uint64_t payload_bound(const cli_read_opts *o, const uint8_t *head, size_t n) {
    if (!o->payload) return o->max_bytes;
    const wai_capability *cap = o->cap_name ? wai_capability_find(o->cap_name)
                                            : wai_capability_detect(head, n);
    uint64_t spec = wai_payload_max_bytes(cap);
    return spec < o->max_bytes ? spec : o->max_bytes;
}

/* A payload whose first bytes name no capability (and none was given) is
 * bad_magic whatever follows: only its first bytes are kept. */
#define NAMELESS_PREFIX 64

static int nameless(const cli_read_opts *o, const uint8_t *head, size_t n) {
    return o->payload && !o->cap_name && !wai_capability_detect(head, n);
}

/* streamed: standard input, refused once past the bound (a file is
 * refused by its size, before it is read). */
static int too_large(const char *command, const char *name, uint64_t size, const cli_read_opts *o,
                     uint64_t bound, int streamed) {
    const char *when = streamed ? "refused once read past it" : "refused before reading it";
    if (bound < o->max_bytes)
        return read_error(command, name,
                          "%llu bytes%s: larger than any valid payload of its format "
                          "(%llu bytes), %s",
                          (unsigned long long)size, streamed ? " or more" : "",
                          (unsigned long long)bound, when);
    return read_error(command, name, "%llu bytes%s: past %s (%llu bytes), %s",
                      (unsigned long long)size, streamed ? " or more" : "",
                      o->why ? o->why : "the limit", (unsigned long long)bound, when);
}

/* Standard input: read in growing steps, up to the bound. A nameless
 * payload's bytes past its prefix are counted, not kept. */
static int read_stream(const char *command, const char *name, int fd, const cli_read_opts *o,
                       cli_file *f) {
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) return read_error(command, name, "out of memory");
    uint64_t bound = o->max_bytes, total = 0;
    int have_bound = 0, counting = 0;
    for (;;) {
        if (n == cap && !counting) {
            size_t grown_cap = cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
            if (have_bound && bound < SIZE_MAX && grown_cap > bound + 1)
                grown_cap = (size_t)bound + 1;
            uint8_t *grown = grown_cap > cap ? realloc(buf, grown_cap) : NULL;
            if (!grown) {
                free(buf);
                return read_error(command, name, "out of memory");
            }
            buf = grown;
            cap = grown_cap;
        }
        /* Counting: read into the buffer's tail, past the kept prefix. */
        size_t at = counting ? NAMELESS_PREFIX : n;
        ssize_t r = read(fd, buf + at, cap - at < READ_CHUNK ? cap - at : READ_CHUNK);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return read_error(command, name, "%s", strerror(e));
        }
        if (r == 0) break;
        total += (uint64_t)r;
        if (!counting) n += (size_t)r;
        if (!have_bound && n >= 8) {
            bound = payload_bound(o, buf, n);
            have_bound = 1;
            if (nameless(o, buf, n)) {
                counting = 1;
                if (n > NAMELESS_PREFIX) n = NAMELESS_PREFIX;
            }
        }
        if (total > bound) {
            free(buf);
            return too_large(command, name, total, o, bound, 1);
        }
    }
    if (!have_bound && n > (bound = payload_bound(o, buf, n))) {
        free(buf);
        return too_large(command, name, n, o, bound, 1);
    }
    f->data = buf;
    f->len = n;
    f->size = total;
    return 0;
}

int cli_read(const char *command, const char *name, const cli_read_opts *o, cli_file *f) {
    f->name = name;
    f->data = NULL;
    f->len = 0;
    f->size = 0;
    int is_stdin = strcmp(name, "-") == 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then
     * refuses it. */
    int fd = is_stdin ? 0 : open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return read_error(command, name, "%s", strerror(errno));
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0) {
        read_error(command, name, "%s", strerror(errno));
        goto done;
    }
    if (S_ISREG(st.st_mode) && cli_inputs_add(o->inputs, &st) != 0) {
        read_error(command, name, "out of memory");
        goto done;
    }
    if (is_stdin && !S_ISREG(st.st_mode)) {
        rc = read_stream(command, name, fd, o, f);
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        read_error(command, name, "%s, not a regular file: refused", kind_of_mode(st.st_mode));
        goto done;
    }
    if (!is_stdin) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    /* Standard input redirected from a file reads from where it stands. */
    off_t at = is_stdin ? lseek(fd, 0, SEEK_CUR) : 0;
    uint64_t size = (uint64_t)st.st_size - (at > 0 && at <= st.st_size ? (uint64_t)at : 0);
    uint8_t head[8];
    size_t nh = 0;
    if (o->payload && read_full(fd, head, size < 8 ? (size_t)size : 8, &nh) != 0) {
        read_error(command, name, "%s", strerror(errno));
        goto done;
    }
    if (nameless(o, head, nh)) {
        /* bad_magic whatever follows: keep the first bytes, say the size. */
        f->data = malloc(nh ? nh : 1);
        if (!f->data) {
            read_error(command, name, "out of memory");
            goto done;
        }
        memcpy(f->data, head, nh);
        f->len = nh;
        f->size = size;
        rc = 0;
        goto done;
    }
    uint64_t bound = payload_bound(o, head, nh);
    if (size > bound || size > SIZE_MAX - 1) {
        too_large(command, name, size, o, bound, 0);
        goto done;
    }
    /* One buffer of the file's size (+1 to see a file that grew). */
    uint8_t *buf = malloc((size_t)size + 1);
    if (!buf) {
        read_error(command, name, "out of memory for %llu bytes", (unsigned long long)size);
        goto done;
    }
    memcpy(buf, head, nh);
    size_t got = 0;
    if (read_full(fd, buf + nh, (size_t)size + 1 - nh, &got) != 0) {
        int e = errno;
        free(buf);
        read_error(command, name, "%s", strerror(e));
        goto done;
    }
    if (nh + got > size) {
        free(buf);
        read_error(command, name, "grew while it was read: refused");
        goto done;
    }
    f->data = buf;
    f->len = nh + got;
    f->size = f->len;
    rc = 0;
done:
    if (!is_stdin) close(fd);
    return rc;
}

void cli_file_free(cli_file *f) {
    free(f->data);
    f->data = NULL;
    f->len = f->size = 0;
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

int cli_parse_bytes(const char *s, uint64_t *out) {
    if (!s) return 0;
    if (strcmp(s, "none") == 0) {
        *out = UINT64_MAX;
        return 1;
    }
    char digits[24];
    size_t n = strlen(s);
    unsigned shift = 0;
    if (n >= 2 && (s[n - 1] == 'K' || s[n - 1] == 'M' || s[n - 1] == 'G' || s[n - 1] == 'T')) {
        shift = s[n - 1] == 'K' ? 10 : s[n - 1] == 'M' ? 20 : s[n - 1] == 'G' ? 30 : 40;
        n--;
    }
    if (n == 0 || n >= sizeof digits) return 0;
    memcpy(digits, s, n);
    digits[n] = '\0';
    uint64_t v;
    if (!cli_parse_u64(digits, &v) || v > (UINT64_MAX >> shift)) return 0;
    *out = v << shift;
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

const char *cli_explained(wai_status st) {
    static char buf[160];
    const char *name = wai_status_name(st), *m = wai_status_meaning(st);
    if (!name) return "(not a status)";
    snprintf(buf, sizeof buf, "%s (%s)", name, m);
    return buf;
}

int cli_has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}
