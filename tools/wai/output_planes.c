/* SPDX-License-Identifier: BSD-2-Clause */
/* Planes for `wai decode -o DIR` (output_internal.h): a WIS1 decode's
 * attribute planes as DIR/plane_000.png, plane_001.png, ... (8-bit grey,
 * side x side; or .pgm, binary P5), and DIR/attributes.json with the
 * payload's presentation data (integer-payloads §6), which is outside the
 * planes:
 *   {"n_gaussians": N, "planes": ATTR, "side": S,
 *    "ranges": [[LO, HI], ...]}
 * a pair per plane, each the binary32 value written as the shortest
 * decimal that reads back to the same binary32 (a byte u of the plane
 * presents at about LO + (HI - LO)·u/255). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "output_internal.h"

int out_open_planes(out_writer *w) {
    struct stat st;
    if (mkdir(w->path, 0777) != 0) {
        int e = errno;
        if (e != EEXIST) return out_io_error(w->path, strerror(e));
        if (stat(w->path, &st) != 0 || !S_ISDIR(st.st_mode))
            return out_io_error(w->path, "exists and is not a directory");
    }
    return 0;
}

/* DIR/NAME into w->name. */
static int dir_file(out_writer *w, const char *name) {
    size_t n = strlen(w->path);
    const char *sep = n && w->path[n - 1] == '/' ? "" : "/";
    int rc = out_set_name(w, w->path, n, sep, name);
    return rc;
}

static int pgm_file(out_writer *w, const char *name, const uint8_t *px, uint32_t side) {
    char header[64];
    snprintf(header, sizeof header, "P5\n%lu %lu\n255\n", (unsigned long)side,
             (unsigned long)side);
    return out_whole_file(w, name, header, px, (size_t)side * side);
}

/* The binary32 bits as the shortest "%.*g" that reads back to them; an
 * integer below 10^9 in plain digits ("-100", not "-1e+02"). */
static void put_f32(FILE *f, uint32_t bits) {
    float v;
    memcpy(&v, &bits, 4);
    char buf[48];
    if (v > -1e9f && v < 1e9f && (float)(long)v == v) {
        fprintf(f, "%.0f", (double)v);   /* -0 prints "-0" */
        return;
    }
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)v);
        float back = strtof(buf, NULL);
        if (memcmp(&back, &v, 4) == 0) break;
    }
    fputs(buf, f);
}

static int write_attributes(out_writer *w, const wai_splat_info *info, const uint32_t *ranges) {
    int rc = dir_file(w, "attributes.json");
    if (rc != 0) return rc;
    cli_out_file out;
    if ((rc = cli_out_open("decode", w->name, w->inputs, &out)) != 0) return rc;
    FILE *f = out.f;
    fprintf(f, "{\"n_gaussians\": %lu, \"planes\": %lu, \"side\": %lu, \"ranges\": [",
            (unsigned long)info->n_gaussians, (unsigned long)info->planes,
            (unsigned long)info->side);
    for (uint32_t i = 0; i < info->planes; i++) {
        fputs(i ? ", [" : "[", f);
        put_f32(f, ranges[2 * (size_t)i]);
        fputs(", ", f);
        put_f32(f, ranges[2 * (size_t)i + 1]);
        fputs("]", f);
    }
    fputs("]}\n", f);
    return cli_out_commit("decode", &out);
}

int out_write_planes(out_writer *w, const wai_output *o, const uint8_t *payload, size_t len) {
    wai_splat_info info;
    wai_status st = wai_splat_presentation(payload, len, &info, NULL, 0);
    size_t plane = (size_t)o->width * o->height;
    if (st != WAI_ok || info.side != o->width || info.side != o->height || plane == 0 ||
        o->size != plane * info.planes) {
        fprintf(stderr, "wai decode: %s: output %llu's planes do not match their payload (%s)\n",
                w->path, (unsigned long long)o->index, cli_explained(st));
        return EXIT_USAGE;
    }
    uint32_t *ranges = malloc(2 * sizeof *ranges * info.planes);
    if (!ranges) return out_io_error(w->path, "out of memory");
    wai_splat_presentation(payload, len, &info, ranges, info.planes);
    const char *ext = w->choice.plane_file == OUT_PLANE_PGM ? ".pgm" : ".png";
    int rc = 0;
    /* Every file is checked before any is written: a refusal (an input, a
     * file that exists without -y) leaves the directory as it was. */
    for (uint32_t i = 0; rc == 0 && i <= info.planes; i++) {
        char name[32];
        if (i < info.planes) snprintf(name, sizeof name, "plane_%03lu%s", (unsigned long)i, ext);
        else snprintf(name, sizeof name, "attributes.json");
        if ((rc = dir_file(w, name)) == 0) rc = cli_out_check("decode", w->name, w->inputs);
    }
    for (uint32_t i = 0; rc == 0 && i < info.planes; i++) {
        char name[32];
        snprintf(name, sizeof name, "plane_%03lu%s", (unsigned long)i, ext);
        const uint8_t *px = o->data + i * plane;
        if ((rc = dir_file(w, name)) != 0) break;
        rc = w->choice.plane_file == OUT_PLANE_PGM ? pgm_file(w, w->name, px, info.side)
                                                  : out_png_file(w, w->name, px, info.side,
                                                                 info.side, 1);
    }
    if (rc == 0) rc = write_attributes(w, &info, ranges);
    free(ranges);
    return rc;
}
