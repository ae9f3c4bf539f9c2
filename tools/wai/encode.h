/* SPDX-License-Identifier: BSD-2-Clause */
/* What `wai encode` hands its encoders: the options, parsed once by
 * cmd_encode.c from its one table, and the encoders of the modes a
 * capability's registry row picks (its format, keyframe kind and frame
 * form). */
#ifndef WAI_TOOLS_ENCODE_H
#define WAI_TOOLS_ENCODE_H

#include "cli.h"
#include "input.h"
#include "receipt_cli.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

/* The modes, a bit each (the rows' modes). */
enum {
    ENCODE_MOTION = 1,  /* WIV1 or WIF1 of keyframe 0: the motion encoder */
    ENCODE_KEYED = 2,   /* WIV1 or WIF1 of keyframe 1: a WIH1 keyframe, then motion */
    ENCODE_PICTURE = 4, /* WIH1: a picture (encode_hyper.c) */
    ENCODE_LATENTS = 8, /* int_synth: its latents (encode_synth.c) */
    ENCODE_SLICED = 16  /* WIM1: a picture, its latent in channel slices (encode_hyper.c) */
};

/* The modes that code one picture against a set (encode_picture). */
#define ENCODE_PICTURES (ENCODE_PICTURE | ENCODE_SLICED)

/* --size H or HxW. */
typedef struct encode_size {
    uint64_t h, w;
} encode_size;

typedef struct encode_options {
    const char *capability, *out, *set_dir;
    const char *receipt;        /* --receipt R.json */
    receipt_sign_opts sign;     /* its --key, --id, --parent, --powercap */
    uint64_t q, block, search, threads, channels, quality, slices;
    encode_size size;
    int half_pel, sad_search, frames, quiet, force;
} encode_options;

/* --quality's range: CompressAI's ladder of eight rate points. */
#define ENCODE_QUALITY_MAX 8

/* --quality Q: the set DIR/qQ of the folder of rate points dir (--set),
 * written to path[0..n). 0, or a usage error's exit status after printing
 * which rate points dir has (encode_quality.c). */
int encode_quality_set(const char *dir, uint64_t quality, char *path, size_t n);

/* Without --quality: 0, or a usage error's exit status when dir is no set
 * (it has no `member`, the capability's first) but a folder of rate points
 * (it says which, and to pick with --quality). */
int encode_plain_set(const char *dir, const char *member);

/* --size's value parser: H or HxW, each 1..2^32-1 (encode_synth.c). */
int encode_take_size(const cli_opt *opt, char *value, void *field);

/* The encoders: cap's payload from the operands in[0..n_in), written to
 * o->out; an exit status, with what went wrong printed. Frames to a clip
 * or, with o->frames, its WIF1 group (encode_motion.c); a picture to a
 * WIH1 or a WIM1 (encode_hyper.c); latents to an int_synth payload
 * (encode_synth.c). */
int encode_clip(const wai_capability *cap, const encode_options *o, char **in, int n_in);
int encode_picture(const wai_capability *cap, const encode_options *o, char **in, int n_in);
int encode_latents(const wai_capability *cap, const encode_options *o, char **in, int n_in);

/* Pads every frame of clip to multiples of 64 (the last row and column
 * repeated; the clip then has the padded size), then codes frame 0 as a
 * WIH1 against the set in set_dir (its encoder members too) on a context of
 * `threads`, keeping its decode: *key, freed with *ctx, which the caller
 * destroys after it (both set even on failure). Prints the keyframe's size
 * and PSNR. Returns 0, or an exit status after printing why. */
int encode_hyper_keyframe(const char *set_dir, unsigned threads, int quiet, input_clip *clip,
                          cli_inputs *inputs, wai_context **ctx, wai_hyper_encode_result *key);

#endif
