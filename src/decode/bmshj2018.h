/* SPDX-License-Identifier: BSD-2-Clause */
/* wai.neural.bmshj2018 (decode/codecs.c): its decode's steps, its set's
 * loader (cdfs_q3.json by every rule of docs/bmshj2018.md, each
 * model_mismatch), and the backend questions it answers. */
#ifndef WAI_DECODE_BMSHJ2018_H
#define WAI_DECODE_BMSHJ2018_H

#include "decode/codec.h"

extern const wai_codec_ops wai_bmshj2018_ops;
wai_status wai_bmshj2018_load_set(const wai_allocator *a, const wai_set *set,
                                  const char *const *members, wai_loaded_set *l);

#endif
