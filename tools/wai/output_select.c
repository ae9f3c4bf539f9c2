/* SPDX-License-Identifier: BSD-2-Clause */
/* Choosing the format of `wai decode -o OUT` (output.h): by the kind of
 * output the capability gives, then --format or OUT's name. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output_internal.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static int ends_with_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++)
        if (lower((unsigned char)s[n - m + i]) != suffix[i]) return 0;
    return 1;
}

int out_parse_pattern(const char *path, png_pattern *p) {
    const char *pct = strchr(path, '%');
    if (!pct || strchr(pct + 1, '%')) return 0;
    const char *c = pct + 1;
    int width = 0;
    if (*c == '0') {
        c++;
        int digits = 0;
        while (*c >= '0' && *c <= '9' && digits < 3) width = width * 10 + (*c++ - '0'), digits++;
        if (digits == 0 || digits > 2 || width == 0) return 0;
    }
    if (*c != 'd') return 0;
    p->prefix_len = (size_t)(pct - path);
    p->suffix = c + 1;
    p->width = width;
    return 1;
}


/* --format's names for each kind, and what each picks. */
typedef struct format_name {
    const char *name;
    out_format fmt;
    out_plane_file plane_file;
} format_name;

static const format_name pictures[] = {{"y4m", OUT_FORMAT_Y4M, 0},
                                       {"y4m420", OUT_FORMAT_Y4M420, 0},
                                       {"rgb", OUT_FORMAT_RGB, 0},
                                       {"ppm", OUT_FORMAT_PPM, 0},
                                       {"png", OUT_FORMAT_PNG, 0},
                                       {NULL, 0, 0}};
static const format_name sounds[] = {
    {"wav", OUT_FORMAT_WAV, 0}, {"s16le", OUT_FORMAT_S16LE, 0}, {NULL, 0, 0}};
static const format_name planes[] = {{"png", OUT_FORMAT_PLANES, OUT_PLANE_PNG},
                                     {"pgm", OUT_FORMAT_PLANES, OUT_PLANE_PGM},
                                     {NULL, 0, 0}};

static const format_name *names_of(wai_output_kind kind) {
    return kind == WAI_OUTPUT_PCM ? sounds : kind == WAI_OUTPUT_PLANES ? planes : pictures;
}

static int by_format(const char *format, wai_output_kind kind, out_choice *c) {
    const format_name *n = names_of(kind);
    for (; n->name; n++)
        if (strcmp(format, n->name) == 0) {
            c->fmt = n->fmt;
            c->plane_file = n->plane_file;
            return 0;
        }
    char list[64] = "";
    for (n = names_of(kind); n->name; n++) {
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", n->name);
    }
    return cli_usage_error("decode", "--format for %s outputs is one of %s, not '%s'",
                           wai_output_kind_name(kind), list, format);
}

/* No --format: OUT's name. */
static int by_name(const char *path, wai_output_kind kind, out_choice *c) {
    int is_stdout = strcmp(path, "-") == 0;
    static const char *const known[] = {".y4m", ".rgb", ".ppm", ".png", ".wav", ".pcm", ".s16le", NULL};
    if (kind == WAI_OUTPUT_PCM) {
        if (is_stdout || ends_with_ci(path, ".pcm") || ends_with_ci(path, ".s16le"))
            c->fmt = OUT_FORMAT_S16LE;
        else if (ends_with_ci(path, ".wav")) c->fmt = OUT_FORMAT_WAV;
        else
            return cli_usage_error("decode",
                                   "can't tell the format of '%s' for PCM: name it .wav or "
                                   ".pcm, or give --format wav|s16le",
                                   path);
        return 0;
    }
    if (kind == WAI_OUTPUT_PLANES) {
        for (size_t i = 0; known[i]; i++)
            if (ends_with_ci(path, known[i]) || is_stdout)
                return cli_usage_error("decode",
                                       "planes go to a directory (-o DIR: one file a plane "
                                       "and attributes.json), not '%s'",
                                       path);
        c->fmt = OUT_FORMAT_PLANES;
#ifdef WAI_HAVE_PNG
        c->plane_file = OUT_PLANE_PNG;
#else
        c->plane_file = OUT_PLANE_PGM;
#endif
        return 0;
    }
    if (is_stdout) c->fmt = OUT_FORMAT_RGB;
    else if (ends_with_ci(path, ".y4m")) c->fmt = OUT_FORMAT_Y4M;
    else if (ends_with_ci(path, ".rgb")) c->fmt = OUT_FORMAT_RGB;
    else if (ends_with_ci(path, ".ppm")) c->fmt = OUT_FORMAT_PPM;
    else if (ends_with_ci(path, ".png")) c->fmt = OUT_FORMAT_PNG;
    else
        return cli_usage_error("decode",
                               "can't tell the format of '%s': name it .y4m, .rgb or "
                               "frame_%%04d.png%s, or give --format",
                               path, kind == WAI_OUTPUT_IMAGE ? " (an image: or NAME.png)" : "");
    return 0;
}

int out_select(const char *path, const char *format, wai_output_kind kind, out_choice *c) {
    c->fmt = OUT_FORMAT_NONE;
    c->plane_file = OUT_PLANE_PNG;
    if (!path) {
        if (format) return cli_usage_error("decode", "--format needs -o OUT");
        return 0;
    }
    int rc = format ? by_format(format, kind, c) : by_name(path, kind, c);
    if (rc != 0) return rc;
    int is_stdout = strcmp(path, "-") == 0;
    png_pattern pat;
    if (c->fmt != OUT_FORMAT_PNG && c->fmt != OUT_FORMAT_PLANES && out_parse_pattern(path, &pat))
        return cli_usage_error("decode",
                               "'%s' is a pattern, but this format writes one file: a %%d "
                               "pattern is for PNG frames (frame_%%04d.png)",
                               path);
    if (c->fmt == OUT_FORMAT_PLANES) {
        if (is_stdout)
            return cli_usage_error("decode", "planes go to a directory, not to standard output");
#ifndef WAI_HAVE_PNG
        if (c->plane_file == OUT_PLANE_PNG)
            return cli_usage_error("decode",
                                   "this wai was built without libpng: no PNG output "
                                   "(--format pgm writes the planes as PGM)");
#endif
    }
    if (c->fmt == OUT_FORMAT_PNG) {
        png_pattern p;
        if (is_stdout)
            return cli_usage_error("decode", "PNG frames go to files, not to standard output");
        /* An image is one output: a plain name holds it. */
        if (kind == WAI_OUTPUT_IMAGE && !strchr(path, '%')) c->fmt = OUT_FORMAT_PNG_ONE;
        else if (!out_parse_pattern(path, &p))
            return cli_usage_error("decode",
                                   "a PNG OUT is a pattern with exactly one %%d or %%0Nd (N 1..99) "
                                   "and no other %%, such as frame_%%04d.png; got '%s'",
                                   path);
#ifndef WAI_HAVE_PNG
        return cli_usage_error("decode", "this wai was built without libpng: no PNG output");
#endif
    }
    return 0;
}

int out_parse_fps(const char *s, uint32_t *num, uint32_t *den) {
    char buf[48];
    size_t n = strlen(s);
    if (n >= sizeof buf) return 0;
    memcpy(buf, s, n + 1);
    char *slash = strchr(buf, '/');
    if (slash) *slash = '\0';
    uint64_t a, b = 1;
    if (!cli_parse_u64(buf, &a) || (slash && !cli_parse_u64(slash + 1, &b))) return 0;
    if (a == 0 || b == 0 || a > INT32_MAX || b > INT32_MAX) return 0;
    *num = (uint32_t)a;
    *den = (uint32_t)b;
    return 1;
}
