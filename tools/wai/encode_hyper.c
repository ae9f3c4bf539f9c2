/* SPDX-License-Identifier: BSD-2-Clause */
/* wai encode of a WIH1 capability (wai.neural.int_hyper): a picture to a
 * WIH1 with the library's encoder (wai_hyper_encode,
 * include/wai/wai_write.h), and the WIH1 keyframe of a keyframe-1 clip:
 *
 *   wai encode --capability wai.neural.int_hyper --set DIR [--threads N]
 *              [--quiet] [-y] PICTURE -o OUT
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

static void progress(void *opaque, wai_hyper_encode_stage s) {
    (void)opaque;
    static const char *const names[WAI_HYPER_STAGES] = {
        "the analysis (g_a, h_a)", "the hyper-latent and h_s", "the latent",
        "decoding the payload to measure it"};
    fprintf(stderr, "wai encode: %s\n", names[s]);
}

static void report(const wai_hyper_encode_result *r, const char *set_dir) {
    fprintf(stderr, "picture: %ux%u", r->w, r->h);
    if (r->coded_w != r->w || r->coded_h != r->h)
        fprintf(stderr, ", coded as %ux%u (the last row and column repeated: WIH1 carries "
                        "no picture size, so its decode is %ux%u; the top-left %ux%u is the "
                        "picture: decode with --crop %ux%u)", r->coded_w, r->coded_h, r->coded_w,
                r->coded_h, r->w, r->h, r->w, r->h);
    fprintf(stderr, "\nbytes: %zu (header 32, hyper-latent %zu + 4, latent %zu + 4)\n",
            r->payload_len, r->z_bytes, r->y_bytes);
    fprintf(stderr, "bits per pixel: %.6f\n",
            8.0 * (double)r->payload_len / ((double)r->w * (double)r->h));
    if (r->sse) fprintf(stderr, "psnr: %.4f dB\n", cli_psnr(r->sse, r->samples));
    else fprintf(stderr, "psnr: inf dB\n");
    fprintf(stderr, "sse: %llu over %llu samples\n", (unsigned long long)r->sse,
            (unsigned long long)r->samples);
    fprintf(stderr, "latents: %u channels (escapes %llu), hyper-latent %u channels (escapes %llu)\n",
            r->m, (unsigned long long)r->y_escapes, r->n_z, (unsigned long long)r->z_escapes);
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
    wai_hyper_encode_params p;
    wai_hyper_encode_params_default(&p);
    if (!o->quiet && (uint64_t)clip.w * clip.h >= PROGRESS_MIN_PIXELS) p.progress = progress;
    wai_hyper_encode_result r;
    wai_status st = wai_hyper_encode(ctx, set.set, clip.rgb, clip.h, clip.w, &p, &r);
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: refused: %s", cli_explained(st));
        if (st == WAI_set_incomplete && !cli_set_explain(&set, cap, stderr))
            fprintf(stderr, " (the set needs g_s.whm, h_s.whm, entropy.json, and the encoder's "
                            "analysis.webnn.json and analysis.f32)");
        fprintf(stderr, "\n");
        rc = st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
        goto out;
    }
    rc = frame_file_write("encode", o->out, r.payload, r.payload_len, &inputs) == 0 ? EXIT_DONE
                                                                                  : EXIT_USAGE;
    if (rc == EXIT_DONE) report(&r, o->set_dir);
    wai_hyper_encode_result_free(ctx, &r);
out:
    input_clip_free(&clip);
    cli_set_free(&set);
    wai_context_destroy(ctx);
    cli_inputs_free(&inputs);
    return rc;
}
