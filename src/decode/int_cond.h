/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.video.int_cond and wai.video.int_cond.frame (integer-payloads §17,
 * docs/int_cond.md): the clip's and the frame form's steps, and the set's
 * loader (model.wcb, the WCB1 bundle). */
#ifndef WAI_DECODE_INT_COND_H
#define WAI_DECODE_INT_COND_H

#include "decode/codec.h"

extern const wai_codec_ops wai_int_cond_ops;
extern const wai_codec_ops wai_int_cond_frame_ops;
wai_status wai_int_cond_load_set(const wai_allocator *a, const wai_set *set,
                                 const char *const *members, wai_loaded_set *l);

#endif
