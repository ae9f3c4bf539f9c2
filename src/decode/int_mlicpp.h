/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.int_mlicpp (integer-payloads §14, docs/int_mlicpp.md): its
 * decode's steps and its set's loader (model.wmb, the WMB1 bundle). */
#ifndef WAI_DECODE_INT_MLICPP_H
#define WAI_DECODE_INT_MLICPP_H

#include "decode/codec.h"

extern const wai_codec_ops wai_int_mlicpp_ops;
wai_status wai_int_mlicpp_load_set(const wai_allocator *a, const wai_set *set,
                                   const char *const *members, wai_loaded_set *l);

#endif
