/* SPDX-License-Identifier: BSD-2-Clause */
/* WIS1, the integer learned Gaussian-splat attribute codec
 * (integer-payloads §6), against a loaded set: §7 steps 2 to 4, then the
 * decode of decode/one_network.h. */
#ifndef WAI_DECODE_INT_SPLAT_H
#define WAI_DECODE_INT_SPLAT_H

#include "decode/codec.h"

/* The capability wai.splat.int_codec (decode/codecs.c): its decode's steps,
 * and its set's loader: g_s.whm parsed as WHM1 (model_mismatch), its one
 * scale in 1..30 (model_mismatch). */
extern const wai_codec_ops wai_int_splat_ops;
wai_status wai_int_splat_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l);

#endif
