/* The WIH1 keyframe of a wai.video.int_hyper clip (encode_hyper.c), for
 * `wai encode`'s clip encoder. */
#ifndef WAI_TOOLS_ENCODE_HYPER_H
#define WAI_TOOLS_ENCODE_HYPER_H

#include "cli.h"
#include "input.h"
#include "wai/wai_write.h"

/* Pads every frame of clip to multiples of 64 (the last row and column
 * repeated; the clip then has the padded size), then codes frame 0 as a
 * WIH1 against the set in set_dir (its encoder members too) on a context of
 * `threads`, keeping its decode: *key, freed with *ctx, which the caller
 * destroys after it (both set even on failure). Prints the keyframe's size
 * and PSNR. Returns 0, or an exit status after printing why. */
int encode_hyper_keyframe(const char *set_dir, unsigned threads, int quiet, input_clip *clip,
                          cli_inputs *inputs, wai_context **ctx, wai_hyper_encode_result *key);

#endif
