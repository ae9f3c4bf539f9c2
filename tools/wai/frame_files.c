/* SPDX-License-Identifier: BSD-2-Clause */
/* Numbered frame files (frame_files.h). */
#include "frame_files.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *unescape_percent(const char *s, size_t n) {
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k++] = s[i];
        if (s[i] == '%') i++; /* "%%": the pattern check let only pairs through */
    }
    out[k] = '\0';
    return out;
}

int frame_names_parse(const char *out, const char *ext, frame_names *p) {
    memset(p, 0, sizeof *p);
    struct stat st;
    size_t len = strlen(out);
    if ((len && out[len - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode))) {
        int slash = len && out[len - 1] == '/';
        p->prefix = malloc(len + 8);
        p->suffix = unescape_percent(ext, strlen(ext));   /* a copy: ext holds no % */
        if (!p->prefix || !p->suffix) return -1;
        snprintf(p->prefix, len + 8, "%s%sframe_", out, slash ? "" : "/");
        p->width = 6;
        return 0;
    }
    const char *conv = NULL;
    size_t conv_len = 0;
    for (size_t i = 0; i < len; i++) {
        if (out[i] != '%') continue;
        if (out[i + 1] == '%') {
            i++;
            continue;
        }
        size_t j = i + 1;
        int width = 0;
        if (out[j] == '0' && out[j + 1] >= '1' && out[j + 1] <= '9') {
            width = out[j + 1] - '0';
            j += 2;
        }
        if (out[j] != 'd' || conv) return -1;
        conv = out + i;
        conv_len = j + 1 - i;
        p->width = width;
        i = j;
    }
    if (!conv) return -1;
    p->prefix = unescape_percent(out, (size_t)(conv - out));
    p->suffix = unescape_percent(conv + conv_len, strlen(conv + conv_len));
    return p->prefix && p->suffix ? 0 : -1;
}

void frame_names_free(frame_names *p) {
    free(p->prefix);
    free(p->suffix);
    memset(p, 0, sizeof *p);
}

char *frame_names_at(const frame_names *p, uint32_t i) {
    size_t n = strlen(p->prefix) + strlen(p->suffix) + 16;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%0*u%s", p->prefix, p->width, i, p->suffix);
    return s;
}

int frame_file_write(const char *command, const char *path, const uint8_t *data, size_t len,
                     const cli_inputs *inputs) {
    cli_out_file f;
    if (cli_out_open(command, path, inputs, &f) != 0) return -1;
    if (fwrite(data, 1, len, f.f) != len) {
        cli_out_discard(&f);
        fprintf(stderr, "wai %s: %s: write failed\n", command, path);
        return -1;
    }
    return cli_out_commit(command, &f) == 0 ? 0 : -1;
}

/* The digits of v: the width a plain %d gets for a group whose last frame
 * is v, so that names sort as text in frame order (frame_09 before
 * frame_10), as a shell's glob gives them to `wai join`. */
static int digits(uint32_t v) {
    int d = 1;
    while (v >= 10) v /= 10, d++;
    return d;
}

int frame_files_write(const char *command, const frame_names *names, const wai_payload *frames,
                      uint32_t n, const cli_inputs *inputs, uint64_t *bytes) {
    int rc = EXIT_DONE;
    frame_names padded = *names;
    if (padded.width == 0) padded.width = digits(n ? n - 1 : 0);
    const frame_names *p = &padded;
    *bytes = 0;
    for (uint32_t i = 0; i < n && rc == EXIT_DONE; i++) {
        char *name = frame_names_at(p, i);
        if (!name || cli_out_check(command, name, inputs) != 0) rc = EXIT_USAGE;
        free(name);
    }
    for (uint32_t i = 0; i < n && rc == EXIT_DONE; i++) {
        char *name = frame_names_at(p, i);
        if (!name || frame_file_write(command, name, frames[i].data, frames[i].len, inputs) != 0)
            rc = EXIT_USAGE;
        free(name);
        *bytes += frames[i].len;
    }
    return rc;
}
