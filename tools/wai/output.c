/* SPDX-License-Identifier: BSD-2-Clause */
/* Writers for `wai decode -o OUT` (output.h): opening, the dispatch to
 * each format's writer, the raw writer and closing (Y4M: output_y4m.c; PNG:
 * output_png.c; PCM: output_wav.c; planes: output_planes.c; the helpers
 * they share: output_file.c). */
#include "output.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output_internal.h"

static int is_file_format(out_format fmt) {
    return fmt == OUT_FORMAT_Y4M || fmt == OUT_FORMAT_Y4M420 || fmt == OUT_FORMAT_RGB ||
           fmt == OUT_FORMAT_PPM || fmt == OUT_FORMAT_WAV || fmt == OUT_FORMAT_S16LE;
}

int out_open(const char *path, const out_choice *c, uint32_t fps_num, uint32_t fps_den,
             const cli_inputs *inputs, out_writer **w) {
    *w = NULL;
    out_writer *o = calloc(1, sizeof *o);
    if (!o) return out_io_error(path, "out of memory");
    o->choice = *c;
    o->path = path;
    o->fps_num = fps_num;
    o->fps_den = fps_den;
    o->inputs = inputs;
    int rc = 0;
    if (c->fmt == OUT_FORMAT_PNG) {
        out_parse_pattern(path, &o->pattern);  /* checked by out_select */
    } else if (c->fmt == OUT_FORMAT_PLANES) {
        rc = out_open_planes(o);
    } else if (c->fmt == OUT_FORMAT_PNG_ONE) {
        rc = cli_out_check("decode", path, inputs);   /* written whole, after the decode */
    } else if (is_file_format(c->fmt)) {
        if ((rc = cli_out_open("decode", path, inputs, &o->file)) == 0) o->f = o->file.f;
    }
    if (rc != 0) {
        free(o);
        return rc;
    }
    *w = o;
    return 0;
}

static int is_rgb8(const wai_output *o) {
    return (o->kind == WAI_OUTPUT_FRAME || o->kind == WAI_OUTPUT_IMAGE) &&
           o->size == (size_t)o->width * o->height * 3;
}

/* The kind each format holds. */
static int fits(out_format fmt, const wai_output *o) {
    switch (fmt) {
    case OUT_FORMAT_WAV:
    case OUT_FORMAT_S16LE: return o->kind == WAI_OUTPUT_PCM;
    case OUT_FORMAT_PLANES: return o->kind == WAI_OUTPUT_PLANES;
    default: return is_rgb8(o);
    }
}

static const char *holds(out_format fmt) {
    switch (fmt) {
    case OUT_FORMAT_WAV:
    case OUT_FORMAT_S16LE: return "PCM";
    case OUT_FORMAT_PLANES: return "planes";
    default: return "RGB8 frames and images";
    }
}

int out_write(out_writer *w, const wai_output *o, const uint8_t *payload, size_t payload_len) {
    out_format fmt = w->choice.fmt;
    if (!fits(fmt, o)) {
        fprintf(stderr, "wai decode: %s: output %llu is %s: this OUT holds %s\n", w->path,
                (unsigned long long)o->index, wai_output_kind_name(o->kind), holds(fmt));
        return EXIT_USAGE;
    }
    /* A format that holds one output refuses a second, writing nothing. */
    if (w->n_written > 0 && fmt != OUT_FORMAT_Y4M && fmt != OUT_FORMAT_Y4M420 &&
        fmt != OUT_FORMAT_RGB && fmt != OUT_FORMAT_PPM && fmt != OUT_FORMAT_PNG) {
        fprintf(stderr, "wai decode: %s: holds one output; output %llu is another\n", w->path,
                (unsigned long long)o->index);
        return EXIT_USAGE;
    }
    int rc;
    switch (fmt) {
    case OUT_FORMAT_Y4M:
    case OUT_FORMAT_Y4M420: rc = out_write_y4m(w, o); break;
    case OUT_FORMAT_RGB:
        rc = fwrite(o->data, 1, o->size, w->f) != o->size ? out_write_failed(w->path) : 0;
        break;
    case OUT_FORMAT_PPM:
        rc = fprintf(w->f, "P6\n%u %u\n255\n", (unsigned)o->width, (unsigned)o->height) < 0 ||
                     fwrite(o->data, 1, o->size, w->f) != o->size
                 ? out_write_failed(w->path)
                 : 0;
        break;
    case OUT_FORMAT_PNG:
    case OUT_FORMAT_PNG_ONE: rc = out_write_png(w, o); break;
    case OUT_FORMAT_WAV:
    case OUT_FORMAT_S16LE: rc = out_write_pcm(w, o); break;
    case OUT_FORMAT_PLANES: rc = out_write_planes(w, o, payload, payload_len); break;
    default: rc = out_io_error(w->path, "no writer for this format"); break;
    }
    /* A pipe gets each frame as it is decoded (a player reads it now). */
    if (rc == 0 && w->file.is_stdout && fflush(w->f) != 0) rc = out_write_failed(w->path);
    if (rc == 0) w->n_written++;
    else if (w->f && ferror(w->f)) w->failed = 1;   /* a part of it may be in OUT */
    return rc;
}

int out_close(out_writer *w) {
    if (!w) return 0;
    int rc = 0;
    if (w->file.f && (w->n_written > 0 || w->file.is_stdout) && !w->failed)
        rc = cli_out_commit("decode", &w->file);
    else if (w->file.f)
        cli_out_discard(&w->file);
    free(w->planes);
    free(w->name);
    free(w);
    return rc;
}
