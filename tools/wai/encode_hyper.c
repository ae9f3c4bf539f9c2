/* SPDX-License-Identifier: BSD-2-Clause */
/* wai encode of a picture capability: a picture to a WIH1
 * (wai.neural.int_hyper, wai_hyper_encode) or a WIM1
 * (wai.neural.int_mlicpp, wai_mlic_encode) with the library's encoders
 * (include/wai/wai_write.h), and the WIH1 keyframe of a keyframe-1 clip:
 *
 *   wai encode --capability wai.neural.int_hyper --set DIR [--threads N]
 *              [--quiet] [-y] PICTURE -o OUT
 *   wai encode --capability wai.neural.int_mlicpp --set DIR [--slices K]
 *              [--threads N] [--quiet] [-y] PICTURE -o OUT
 *
 * PICTURE is a .png, or a .y4m of one frame. The set holds the decoder's
 * members and the encoder's (analysis.webnn.json, analysis.f32). The
 * report (stderr) is the decode's: any decoder gives the bytes it
 * measured. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "encode.h"
#include "frame_files.h"
#include "input.h"
#include "psnr.h"
#include "wai/wai_write.h"

/* Progress lines only for pictures that take a while: about 2^20 pixels. */
#define PROGRESS_MIN_PIXELS ((uint64_t)1 << 20)

static int usage(const char *why) { return cli_usage_error("encode", "%s", why); }

static int read_picture(const char *path, input_clip *clip) {
    int rc;
    if (cli_has_suffix(path, ".y4m") || !strcmp(path, "-")) rc = input_read_y4m(path, clip);
    else if (cli_has_suffix(path, ".png")) rc = input_read_pngs(&path, 1, clip);
    else return usage("PICTURE is neither .png nor .y4m");
    if (rc == INPUT_TOO_LARGE) {
        fprintf(stderr, "wai encode: refused: too_large\n");
        return EXIT_REFUSED;
    }
    if (rc != 0) return EXIT_USAGE;
    if (clip->n_frames != 1) {
        input_clip_free(clip);
        return usage("the .y4m holds more than one frame: a WIH1 is one picture");
    }
    return 0;
}

static const char *const stage_names[WAI_HYPER_STAGES] = {
    "the analysis (g_a, h_a)", "the hyper-latent and h_s", "the latent",
    "decoding the payload to measure it"};

static void progress(void *opaque, wai_hyper_encode_stage s) {
    (void)opaque;
    fprintf(stderr, "wai encode: %s\n", stage_names[s]);
}

static void progress_mlic(void *opaque, wai_mlic_encode_stage s) {
    (void)opaque;
    fprintf(stderr, "wai encode: %s%s\n", stage_names[s],
            s == WAI_MLIC_STAGE_LATENT ? " (the entropy network before each slice's two passes)"
                                       : "");
}

/* What the report says of a payload, whichever encoder wrote it (the two
 * results' fields of the same names), and of its format. */
typedef struct summary {
    size_t payload_len;
    uint32_t h, w, coded_h, coded_w;
    uint64_t samples, sse;
    size_t z_bytes, y_bytes;
    uint32_t m, n_z;
    uint64_t z_escapes, y_escapes;
} summary;
#define SUMMARY_OF(r)                                                                          \
    {(r).payload_len, (r).h, (r).w, (r).coded_h, (r).coded_w, (r).samples, (r).sse, (r).z_bytes, \
     (r).y_bytes, (r).m, (r).n_z, (r).z_escapes, (r).y_escapes}

/* A format's own lines: its header and each stream's length prefix, and
 * what its decode's size is. */
typedef struct picture_format {
    const char *name;
    unsigned header, prefix;
    const char *size;
} picture_format;

static const picture_format wih1_format = {"WIH1", 32, 4, "WIH1 carries no picture size"};
static const picture_format wim1_format = {"WIM1", 36, 0, "WIM1 carries the coded size"};

static void report(const summary *r, const picture_format *f, uint32_t slices, const char *set_dir) {
    fprintf(stderr, "picture: %ux%u", r->w, r->h);
    if (r->coded_w != r->w || r->coded_h != r->h)
        fprintf(stderr, ", coded as %ux%u (the last row and column repeated: %s, so its decode "
                        "is %ux%u; the top-left %ux%u is the picture: decode with --crop %ux%u)",
                r->coded_w, r->coded_h, f->size, r->coded_w, r->coded_h, r->w, r->h, r->w, r->h);
    if (f->prefix)
        fprintf(stderr, "\nbytes: %zu (header %u, hyper-latent %zu + %u, latent %zu + %u)\n",
                r->payload_len, f->header, r->z_bytes, f->prefix, r->y_bytes, f->prefix);
    else
        fprintf(stderr, "\nbytes: %zu (header %u, hyper-latent %zu, latent %zu)\n", r->payload_len,
                f->header, r->z_bytes, r->y_bytes);
    fprintf(stderr, "bits per pixel: %.6f\n",
            8.0 * (double)r->payload_len / ((double)r->w * (double)r->h));
    if (r->sse) fprintf(stderr, "psnr: %.4f dB\n", cli_psnr(r->sse, r->samples));
    else fprintf(stderr, "psnr: inf dB\n");
    fprintf(stderr, "sse: %llu over %llu samples\n", (unsigned long long)r->sse,
            (unsigned long long)r->samples);
    fprintf(stderr, "latents: %u channels (escapes %llu", r->m, (unsigned long long)r->y_escapes);
    if (slices) fprintf(stderr, ", in %u slices", slices);
    fprintf(stderr, "), hyper-latent %u channels (escapes %llu)\n", r->n_z,
            (unsigned long long)r->z_escapes);
    /* The payload names no set: it decodes against this one alone. */
    fprintf(stderr, "set: %s (decode with --set %s)\n", set_dir, set_dir);
}

/* The clip's frames with each side rounded up to a multiple of 64, the
 * last row and column repeated; 0, or -1 when out of memory. */
static int pad_clip(input_clip *clip) {
    uint32_t H = (clip->h + 63) / 64 * 64, W = (clip->w + 63) / 64 * 64;
    if (H == clip->h && W == clip->w) return 0;
    uint8_t *out = malloc((size_t)clip->n_frames * H * W * 3);
    if (!out) return -1;
    for (uint32_t f = 0; f < clip->n_frames; f++)
        for (uint32_t y = 0; y < H; y++) {
            const uint8_t *src = clip->rgb + (((size_t)f * clip->h + (y < clip->h ? y : clip->h - 1)) *
                                              clip->w) * 3;
            uint8_t *dst = out + ((size_t)f * H + y) * W * 3;
            memcpy(dst, src, (size_t)clip->w * 3);
            for (uint32_t x = clip->w; x < W; x++)
                memcpy(dst + (size_t)x * 3, src + (size_t)(clip->w - 1) * 3, 3);
        }
    free(clip->rgb);
    clip->rgb = out;
    clip->h = H;
    clip->w = W;
    return 0;
}

/* The keyframe's capability: the registry's WIH1 row. */
static const wai_capability *wih1_capability(void) {
    for (size_t i = 0; i < wai_capability_count(); i++)
        if (wai_capability_at(i)->format == WAI_FORMAT_WIH1) return wai_capability_at(i);
    return NULL;
}

int encode_hyper_keyframe(const char *set_dir, unsigned threads, int quiet, input_clip *clip,
                          cli_inputs *inputs, wai_context **ctx, wai_hyper_encode_result *key) {
    memset(key, 0, sizeof *key);
    *ctx = NULL;
    uint32_t h = clip->h, w = clip->w;
    if ((uint64_t)((h + 63) / 64 * 64) * ((w + 63) / 64 * 64) * 3 > ((uint64_t)1 << 26)) {
        fprintf(stderr, "wai encode: refused: too_large (the keyframe, padded to multiples of "
                        "64)\n");
        return EXIT_REFUSED;
    }
    if (pad_clip(clip) != 0) {
        fprintf(stderr, "wai encode: out of memory\n");
        return EXIT_USAGE;
    }
    if (clip->h != h || clip->w != w)
        fprintf(stderr, "clip: %ux%u, coded as %ux%u (the last row and column repeated: a "
                        "keyframe-1 clip is its WIH1's size, a multiple of 64: decode with "
                        "--crop %ux%u)\n",
                w, h, clip->w, clip->h, w, h);
    wai_settings settings;
    wai_settings_default(&settings);
    settings.n_threads = threads;
    if (cli_context_create(&settings, ctx) != WAI_ok) {
        fprintf(stderr, "wai encode: out of memory\n");
        return EXIT_USAGE;
    }
    cli_set set;
    int rc = cli_load_encoder_set("encode", *ctx, wih1_capability(), set_dir,
                                  CLI_DEFAULT_MAX_MEMORY, inputs, &set);
    if (rc != 0) return rc;
    wai_hyper_encode_params p;
    wai_hyper_encode_params_default(&p);
    p.keep_decoded = 1;
    if (!quiet && (uint64_t)clip->w * clip->h >= PROGRESS_MIN_PIXELS) p.progress = progress;
    wai_status st = wai_hyper_encode(*ctx, set.set, clip->rgb, clip->h, clip->w, &p, key);
    cli_set_free(&set);
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: the keyframe: refused: %s\n", cli_explained(st));
        return st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
    }
    fprintf(stderr, "keyframe: WIH1 of %zu bytes, psnr ", key->payload_len);
    if (key->sse) fprintf(stderr, "%.4f dB\n", cli_psnr(key->sse, key->samples));
    else fprintf(stderr, "inf dB\n");
    return 0;
}

/* Either encoder's result (the one that ran; the other stays empty). */
typedef struct results {
    wai_hyper_encode_result hyper;
    wai_mlic_encode_result mlic;
} results;

/* The picture coded by cap's encoder (its format's) into *res: what the
 * report says into *sum, the payload (res's) into *payload. */
static wai_status encode_one(const wai_capability *cap, const encode_options *o, wai_context *ctx,
                             const wai_set *set, const input_clip *clip, results *res,
                             summary *sum, const uint8_t **payload) {
    const int quiet = o->quiet || (uint64_t)clip->w * clip->h < PROGRESS_MIN_PIXELS;
    wai_status st;
    memset(res, 0, sizeof *res);
    if (cap->format == WAI_FORMAT_WIM1) {
        wai_mlic_encode_params p;
        wai_mlic_encode_params_default(&p);
        p.k = (uint32_t)o->slices;
        p.progress = quiet ? NULL : progress_mlic;
        st = wai_mlic_encode(ctx, set, clip->rgb, clip->h, clip->w, &p, &res->mlic);
        *sum = (summary)SUMMARY_OF(res->mlic);
        *payload = res->mlic.payload;
    } else {
        wai_hyper_encode_params p;
        wai_hyper_encode_params_default(&p);
        p.progress = quiet ? NULL : progress;
        st = wai_hyper_encode(ctx, set, clip->rgb, clip->h, clip->w, &p, &res->hyper);
        *sum = (summary)SUMMARY_OF(res->hyper);
        *payload = res->hyper.payload;
    }
    return st;
}

/* Why an encode was refused, on stderr; the exit status. */
static int refused(const wai_capability *cap, const encode_options *o, const cli_set *set,
                   wai_status st) {
    const int mlic = cap->format == WAI_FORMAT_WIM1;
    /* The tool's K is in range: what the library refuses is its not
     * dividing the latent's channels, which the analysis gives. */
    if (st == WAI_invalid_argument && mlic)
        return cli_usage_error("encode", "--slices %llu does not divide the set's latent channels",
                               (unsigned long long)(o->slices ? o->slices : WAI_MLIC_DEFAULT_SLICES));
    fprintf(stderr, "wai encode: refused: %s", cli_explained(st));
    if (st == WAI_set_incomplete && !cli_set_explain(set, cap, stderr))
        fprintf(stderr, " (the set needs %s, and the encoder's analysis.webnn.json and "
                        "analysis.f32)", mlic ? "model.wmb" : "g_s.whm, h_s.whm, entropy.json");
    fprintf(stderr, "\n");
    return st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
}

int encode_picture(const wai_capability *cap, const encode_options *o, char **in, int n_in) {
    if (n_in > 1) return usage("give one PICTURE");
    if (n_in == 0 || !o->out || !o->set_dir)
        return cli_usage_error("encode", "for %s: --set DIR PICTURE -o OUT (PICTURE: a .png, or a "
                               "one-frame .y4m)", cap->name);
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    if (cli_check_input("encode", in[0], &inputs) != 0 ||
        (strcmp(o->out, "-") != 0 && cli_out_check("encode", o->out, &inputs) != 0)) {
        cli_inputs_free(&inputs);
        return EXIT_USAGE;
    }
    wai_settings settings;
    wai_settings_default(&settings);
    settings.n_threads = (unsigned)o->threads;
    wai_context *ctx = NULL;
    if (cli_context_create(&settings, &ctx) != WAI_ok) {
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: out of memory\n");
        return EXIT_USAGE;
    }
    cli_set set;
    memset(&set, 0, sizeof set);
    input_clip clip;
    memset(&clip, 0, sizeof clip);
    int rc = cli_load_encoder_set("encode", ctx, cap, o->set_dir, CLI_DEFAULT_MAX_MEMORY, &inputs,
                                  &set);
    if (rc == 0) rc = read_picture(in[0], &clip);
    if (rc != 0) goto out;
    results res;
    summary sum;
    const uint8_t *payload;
    wai_status st = encode_one(cap, o, ctx, set.set, &clip, &res, &sum, &payload);
    if (st != WAI_ok) {
        rc = refused(cap, o, &set, st);
        goto out;
    }
    rc = frame_file_write("encode", o->out, payload, sum.payload_len, &inputs) == 0 ? EXIT_DONE
                                                                                 : EXIT_USAGE;
    if (rc == EXIT_DONE && cap->format == WAI_FORMAT_WIM1)
        report(&sum, &wim1_format, res.mlic.k, o->set_dir);
    else if (rc == EXIT_DONE)
        report(&sum, &wih1_format, 0, o->set_dir);
    wai_mlic_encode_result_free(ctx, &res.mlic);
    wai_hyper_encode_result_free(ctx, &res.hyper);
out:
    input_clip_free(&clip);
    cli_set_free(&set);
    wai_context_destroy(ctx);
    cli_inputs_free(&inputs);
    return rc;
}
