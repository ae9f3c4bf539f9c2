/* WIA1, the integer learned audio codec (integer-payloads §5), against a
 * loaded set: §7 steps 2 to 4, the declared cost, and the decode. */
#ifndef WAI_DECODE_INT_AUDIO_H
#define WAI_DECODE_INT_AUDIO_H

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

/* output 2·t_out; entropy n_ch·lat_len; macs the synthesis's; working 8
 * bytes per element of the latent and the synthesis's output, plus the
 * synthesis's working bytes, plus the output. */
void wai_wia1_cost(const wai_wia1 *v, const wai_plan *p, wai_cost *c);

/* The latent stream, the synthesis, the PCM step on the first t_out
 * samples into pcm (t_out i16, little-endian bytes). */
wai_status wai_wia1_decode(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                           const wai_wia1 *v, const wai_plan *p, uint8_t *pcm);

#endif
