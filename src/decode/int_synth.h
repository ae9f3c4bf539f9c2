/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_synth (integer-payloads §13, docs/int_synth.md): its
 * decode's steps and its set's loader (int_synth.json); every refusal of
 * the payload, the set or the decode is payload_malformed. */
#ifndef WAI_DECODE_INT_SYNTH_H
#define WAI_DECODE_INT_SYNTH_H

#include "decode/codec.h"

extern const wai_codec_ops wai_int_synth_ops;
wai_status wai_int_synth_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l);

#endif
