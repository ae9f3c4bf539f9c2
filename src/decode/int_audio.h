/* WIA1, the integer learned audio codec (integer-payloads §5), against a
 * loaded set: §7 steps 2 to 4, then the decode of decode/one_network.h. */
#ifndef WAI_DECODE_INT_AUDIO_H
#define WAI_DECODE_INT_AUDIO_H

#include "decode/codec.h"
#include "formats/wia1.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"

/* In order: the payload's afrac is the model's (model_mismatch); the
 * synthesis planned on [n_ch, lat_len] (model_mismatch, too_large); one
 * output channel (model_mismatch); at least t_out samples, then the
 * synthesis of lat_len - 1 giving fewer than t_out (reading N9: none when
 * lat_len is 1 or a layer leaves no output) (both geometry_mismatch). */
wai_status wai_wia1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wia1 *v,
                            wai_plan *p);

/* The capability wai.audio.int_codec (decode/codecs.c): its decode's steps,
 * and its set's loader: model.wam parsed as WAM1 (model_mismatch), its one
 * scale in 1..30 (model_mismatch). */
extern const wai_codec_ops wai_int_audio_ops;
wai_status wai_int_audio_load_set(const wai_allocator *a, const wai_set *set, wai_loaded_set *l);

#endif
