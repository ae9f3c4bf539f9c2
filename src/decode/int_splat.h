/* WIS1, the integer learned Gaussian-splat attribute codec
 * (integer-payloads §6), against a loaded set: §7 steps 2 to 4, the
 * declared cost, and the decode. */
#ifndef WAI_DECODE_INT_SPLAT_H
#define WAI_DECODE_INT_SPLAT_H

#include "formats/wis1.h"
#include "ops/network.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"

/* In order: the payload's afrac is the model's (model_mismatch); g_s
 * planned on [c, sh, sw] (model_mismatch, too_large); its output [attr, s,
 * s] (geometry_mismatch). */
wai_status wai_wis1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wis1 *v,
                            wai_plan *p);

/* output attr·s·s; entropy c·sh·sw; macs g_s's; working 8 bytes per
 * element of the latent and g_s's output, plus g_s's working bytes, plus
 * the output. */
void wai_wis1_cost(const wai_wis1 *v, const wai_plan *p, wai_cost *c);

/* The latent stream, g_s, the RGB8 step into planes (attr·s·s bytes,
 * plane after plane). */
wai_status wai_wis1_decode(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                           const wai_wis1 *v, const wai_plan *p, uint8_t *planes);

#endif
