/* SPDX-License-Identifier: BSD-2-Clause */
/* The file helpers the writers of output*.c share (output_internal.h):
 * their error message, a name built from parts, and a whole file written
 * through cli_out_open/commit. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output_internal.h"

int out_io_error(const char *path, const char *what) {
    fprintf(stderr, "wai decode: %s: %s\n", path, what);
    return EXIT_USAGE;
}

int out_write_failed(const char *path) {
    int e = errno;
    return out_io_error(path, e == EPIPE ? "its reader closed the pipe (Broken pipe): stopped"
                              : e       ? strerror(e)
                                        : "write failed");
}

int out_set_name(out_writer *w, const char *prefix, size_t prefix_len, const char *middle,
                 const char *suffix) {
    size_t nm = strlen(middle), ns = strlen(suffix);
    size_t need = prefix_len + nm + ns + 1;
    if (w->name_cap < need) {
        free(w->name);
        w->name = malloc(need);
        w->name_cap = w->name ? need : 0;
        if (!w->name) return out_io_error(w->path, "out of memory");
    }
    memcpy(w->name, prefix, prefix_len);
    memcpy(w->name + prefix_len, middle, nm);
    memcpy(w->name + prefix_len + nm, suffix, ns + 1);
    return 0;
}

int out_whole_file(out_writer *w, const char *name, const char *header, const uint8_t *data,
                   size_t n) {
    cli_out_file f;
    int rc = cli_out_open("decode", name, w->inputs, &f);
    if (rc != 0) return rc;
    if ((header && fputs(header, f.f) == EOF) || fwrite(data, 1, n, f.f) != n) {
        rc = out_write_failed(name); /* before the discard: errno is the write's */
        cli_out_discard(&f);
        return rc;
    }
    return cli_out_commit("decode", &f);
}
