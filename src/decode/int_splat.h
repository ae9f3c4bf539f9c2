/* WIS1, the integer learned Gaussian-splat attribute codec
 * (integer-payloads §6), against a loaded set: §7 steps 2 to 4, then the
 * decode of decode/one_network.h. */
#ifndef WAI_DECODE_INT_SPLAT_H
#define WAI_DECODE_INT_SPLAT_H

#include "decode/codec.h"
#include "formats/wis1.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"

/* In order: the payload's afrac is the model's (model_mismatch); g_s
 * planned on [c, sh, sw] (model_mismatch, too_large); its output [attr, s,
 * s] (geometry_mismatch). */
wai_status wai_wis1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wis1 *v,
                            wai_plan *p);

/* The capability wai.splat.int_codec (decode/codecs.c): its decode's steps,
 * and its set's loader: g_s.whm parsed as WHM1 (model_mismatch), its one
 * scale in 1..30 (model_mismatch). */
extern const wai_codec_ops wai_int_splat_ops;
wai_status wai_int_splat_load_set(const wai_allocator *a, const wai_set *set, wai_loaded_set *l);

#endif
