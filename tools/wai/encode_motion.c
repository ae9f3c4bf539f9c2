/* SPDX-License-Identifier: BSD-2-Clause */
/* The motion encoder of `wai encode` (encode.h): RGB frames (a Y4M file
 * or PNG files) to a WIV1 clip of keyframe 0, or of keyframe 1 after a WIH1
 * keyframe (encode_hyper.c), or to its WIF1 group, with the library's
 * closed-loop encoder. The report (stderr) gives the size, bits per pixel
 * and PSNR of the decode against the input. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_set.h"
#include "encode.h"
#include "energy_meter.h"
#include "frame_files.h"
#include "input.h"
#include "keys.h"
#include "psnr.h"
#include "receipt_cli.h"
#include "wai/wai_write.h"

/* Progress lines only for inputs that take a while: about 2^22 pixels. */
#define PROGRESS_MIN_PIXELS ((uint64_t)1 << 22)

/* The checks after the mode's: inputs, OUT, a receipt's options. */
static int check_options(const encode_options *o, int keyed, int n_in) {
    if (keyed && !o->set_dir)
        return cli_usage_error("encode", "%s needs --set DIR: its keyframe is a WIH1 "
                               "(wai.neural.int_hyper's set, with the encoder's members)",
                               o->capability);
    if (n_in == 0) return cli_usage_error("encode", "no input given");
    if (!o->out) return cli_usage_error("encode", "no output given (-o OUT)");
    if (o->frames && !strcmp(o->out, "-"))
        return cli_usage_error("encode", "--frames writes one file per frame: OUT can't be '-'");
    if (!o->receipt && (o->sign.key || o->sign.id || o->sign.parent || o->sign.powercap))
        return cli_usage_error("encode", "--key, --id, --parent and --powercap go with --receipt");
    if (o->receipt && o->frames)
        return cli_usage_error("encode", "--receipt describes a clip: not with --frames");
    if (o->receipt && !o->sign.key)
        return cli_usage_error("encode", "--receipt needs --key KEY (wai keygen writes one)");
    return 0;
}

typedef struct progress_state {
    uint32_t next;   /* the next frame count worth a line */
} progress_state;

static void report_progress(void *opaque, uint32_t frame, uint32_t n_frames) {
    progress_state *s = opaque;
    uint32_t done = frame + 1;
    if (done < s->next && done != n_frames) return;
    fprintf(stderr, "wai encode: frame %u/%u\n", done, n_frames);
    /* About ten lines for the clip. */
    uint32_t step = n_frames / 10 ? n_frames / 10 : 1;
    s->next = done + step;
}

static void print_report(const wai_motion_encode_result *r, uint64_t bytes, uint32_t files) {
    fprintf(stderr, "frames: %u (%ux%u)\n", r->n_frames, r->w, r->h);
    if (files) fprintf(stderr, "bytes: %llu (%u files)\n", (unsigned long long)bytes, files);
    else fprintf(stderr, "bytes: %llu\n", (unsigned long long)bytes);
    fprintf(stderr, "bits per pixel: %.6f\n", 8.0 * (double)bytes / (double)r->pixels);
    uint64_t frame_samples = (uint64_t)r->w * r->h * 3;
    double sum = 0;
    uint32_t lossy = 0;
    for (uint32_t f = 0; f < r->n_frames; f++) {
        if (!r->frame_sse[f]) continue;
        sum += cli_psnr(r->frame_sse[f], frame_samples);
        lossy++;
    }
    if (r->sse) fprintf(stderr, "psnr: %.4f dB overall", cli_psnr(r->sse, r->samples));
    else fprintf(stderr, "psnr: inf dB overall");
    if (!lossy) fprintf(stderr, ", inf dB per-frame average\n");
    else if (lossy == r->n_frames)
        fprintf(stderr, ", %.4f dB per-frame average\n", sum / lossy);
    else
        fprintf(stderr, ", %.4f dB per-frame average (of %u lossy frames; %u lossless)\n",
                sum / lossy, lossy, r->n_frames - lossy);
    fprintf(stderr, "sse: %llu over %llu samples\n", (unsigned long long)r->sse,
            (unsigned long long)r->samples);
}

static int read_inputs(char **in, int n_in, input_clip *clip) {
    int n_y4m = 0;
    for (int i = 0; i < n_in; i++) {
        if (cli_has_suffix(in[i], ".y4m") || !strcmp(in[i], "-")) n_y4m++;
        else if (!cli_has_suffix(in[i], ".png"))
            return cli_usage_error("encode", "%s: neither .y4m nor .png", in[i]);
    }
    if (n_y4m && n_in > 1)
        return cli_usage_error("encode", "give one .y4m file, or PNG files (one per frame)");
    int rc = n_y4m ? input_read_y4m(in[0], clip) : input_read_pngs((const char *const *)in,
                                                                      n_in, clip);
    if (rc == INPUT_TOO_LARGE) {
        fprintf(stderr, "wai encode: refused: too_large\n");
        return EXIT_REFUSED;
    }
    return rc == 0 ? 0 : EXIT_USAGE;
}

static int write_frames(const encode_options *o, const wai_motion_encode_result *r,
                        const cli_inputs *inputs, uint64_t *bytes, uint32_t *files) {
    frame_names pat;
    int rc = EXIT_USAGE;
    if (frame_names_parse(o->out, ".wif1", &pat) != 0) {
        rc = cli_usage_error("encode",
                             "with --frames, OUT is a directory or a name with one %%d or "
                             "%%0Nd: '%s'",
                             o->out);
        frame_names_free(&pat);
        return rc;
    }
    wai_payload *group = NULL;
    uint32_t n = 0;
    wai_status st = wai_wiv1_split(NULL, r->payload, r->payload_len, &group, &n);
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: splitting into frames: %s\n", cli_explained(st));
        frame_names_free(&pat);
        return EXIT_REFUSED;
    }
    rc = frame_files_write("encode", &pat, group, n, inputs, bytes);
    *files = n;
    wai_payloads_free(NULL, group, n);
    frame_names_free(&pat);
    return rc;
}

/* The encode receipt (integer-payloads §15.3) of the clip written, from
 * its source and the energy the encode took. */
static int write_receipt(const encode_options *o, const wai_motion_encode_result *r,
                         const input_clip *clip, const wai_energy *energy, const char *why,
                         cli_inputs *inputs) {
#if defined(WAI_HAVE_ED25519)
    uint8_t parent[32];
    const uint8_t *has_parent;
    wai_ed25519_key key;
    wai_receipt_signer signer;
    int rc = receipt_signer("encode", &o->sign, &key, &signer, parent, &has_parent);
    if (rc != 0) return rc;
    wai_context *ctx = NULL;
    wai_receipt *rec = NULL;
    wai_receipt_seal_options so;
    wai_receipt_seal_options_default(&so);
    so.parent = has_parent;
    so.energy = *energy;
    so.search = (uint32_t)o->search;
    wai_status st = cli_context_create(NULL, &ctx);
    if (st == WAI_ok)
        st = wai_receipt_seal_encode(ctx, r->payload, r->payload_len, clip->rgb,
                                     (size_t)clip->n_frames * clip->h * clip->w * 3, &so, &signer,
                                     &rec);
    if (st != WAI_ok) {
        fprintf(stderr, "wai encode: the receipt: %s\n", cli_explained(st));
        rc = EXIT_USAGE;
    } else {
        rc = receipt_write("encode", ctx, rec, o->receipt, inputs);
        if (rc == 0) {
            fprintf(stderr, "receipt ");
            receipt_print_energy(stderr, energy, why);
        }
    }
    wai_receipt_destroy(rec);
    wai_context_destroy(ctx);
    wai_ed25519_key_wipe(&key);
    return rc;
#else
    (void)o, (void)r, (void)clip, (void)energy, (void)why, (void)inputs;
    return EXIT_USAGE;
#endif
}

int encode_clip(const wai_capability *cap, const encode_options *o, char **in, int n_in) {
    const int keyed = cap->keyframe == 1;
    int rc = check_options(o, keyed, n_in);
    if (rc != 0) return rc;
    if (o->frames) {
        /* Check OUT before spending time on the encode. */
        frame_names pat;
        int bad = frame_names_parse(o->out, ".wif1", &pat);
        frame_names_free(&pat);
        if (bad)
            return cli_usage_error("encode",
                                   "with --frames, OUT is a directory or a name with one %%d "
                                   "or %%0Nd: '%s'",
                                   o->out);
    }
    /* The inputs, recorded so that OUT is none of them; OUT checked before
     * the encode spends any time. */
    cli_inputs inputs;
    cli_inputs_init(&inputs, o->force);
    for (int i = 0; i < n_in; i++)
        if (cli_check_input("encode", in[i], &inputs) != 0) {
            cli_inputs_free(&inputs);
            return EXIT_USAGE;
        }
    if ((!o->frames && strcmp(o->out, "-") != 0 && cli_out_check("encode", o->out, &inputs) != 0) ||
        (o->receipt && cli_out_check("encode", o->receipt, &inputs) != 0)) {
        cli_inputs_free(&inputs);
        return EXIT_USAGE;
    }
#if !defined(WAI_HAVE_ED25519)
    if (o->receipt) {
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: this build has no Ed25519 (libsodium was not found): no --receipt\n");
        return EXIT_USAGE;
    }
#endif
    input_clip clip;
    if ((rc = read_inputs(in, n_in, &clip)) != 0) {
        cli_inputs_free(&inputs);
        return rc;
    }
    /* wai.video.int_hyper: the frames padded, frame 0 coded as the keyframe. */
    wai_context *key_ctx = NULL;
    wai_hyper_encode_result key;
    memset(&key, 0, sizeof key);
    if (keyed && (rc = encode_hyper_keyframe(o->set_dir, (unsigned)o->threads, o->quiet, &clip,
                                             &inputs, &key_ctx, &key)) != 0) {
        wai_hyper_encode_result_free(key_ctx, &key);
        wai_context_destroy(key_ctx);
        input_clip_free(&clip);
        cli_inputs_free(&inputs);
        return rc;
    }

    const uint8_t **frames = malloc(clip.n_frames * sizeof *frames);
    if (!frames) {
        wai_hyper_encode_result_free(key_ctx, &key);
        wai_context_destroy(key_ctx);
        input_clip_free(&clip);
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: out of memory\n");
        return EXIT_USAGE;
    }
    size_t frame = (size_t)clip.w * clip.h * 3;
    for (uint32_t f = 0; f < clip.n_frames; f++) frames[f] = clip.rgb + frame * f;

    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.q = (uint32_t)o->q;
    p.block = (uint32_t)o->block;
    p.search = (uint32_t)o->search;
    p.half_pel = o->half_pel;
    p.sad_search = o->sad_search;
    p.n_threads = (unsigned)o->threads;
    progress_state ps = {1};
    if (!o->quiet && (uint64_t)clip.n_frames * clip.w * clip.h >= PROGRESS_MIN_PIXELS) {
        p.progress = report_progress;
        p.progress_opaque = &ps;
    }
    wai_motion_encode_result r;
    energy_meter meter;
    wai_energy energy = {0};
    if (o->receipt) {
        energy_meter_init(&meter, o->sign.powercap);
        energy_meter_begin(&meter);
    }
    wai_status st = keyed ? wai_motion_encode_keyed(NULL, frames, clip.n_frames, clip.h, clip.w,
                                                    key.payload, key.payload_len, key.decoded, &p,
                                                    &r)
                          : wai_motion_encode(NULL, frames, clip.n_frames, clip.h, clip.w, &p, &r);
    wai_hyper_encode_result_free(key_ctx, &key);
    wai_context_destroy(key_ctx);
    if (o->receipt) energy_meter_end(&meter, &energy);
    free(frames);
    if (st != WAI_ok) {
        input_clip_free(&clip);
        cli_inputs_free(&inputs);
        fprintf(stderr, "wai encode: refused: %s\n", cli_explained(st));
        return st == WAI_out_of_memory ? EXIT_USAGE : EXIT_REFUSED;
    }
    uint64_t bytes = r.payload_len;
    uint32_t files = 0;
    if (o->frames) rc = write_frames(o, &r, &inputs, &bytes, &files);
    else rc = frame_file_write("encode", o->out, r.payload, r.payload_len, &inputs) == 0
                  ? EXIT_DONE
                  : EXIT_USAGE;
    if (rc == EXIT_DONE) print_report(&r, bytes, files);
    if (rc == EXIT_DONE && r.q != o->q)
        fprintf(stderr, "q: %u (lossless was no larger than q %llu)\n", r.q, (unsigned long long)o->q);
    if (rc == EXIT_DONE && o->receipt)
        rc = write_receipt(o, &r, &clip, &energy, meter.why, &inputs);
    input_clip_free(&clip);
    wai_motion_encode_result_free(NULL, &r);
    cli_inputs_free(&inputs);
    return rc;
}
