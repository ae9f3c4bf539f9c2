/* SPDX-License-Identifier: BSD-2-Clause */
/* The keyframe-1 video capabilities (decode/codecs.c):
 * wai.video.int_hyper (a WIV1 clip) and wai.video.int_hyper.frame (a WIF1
 * frame; its stream state a wai_motion_group). Both read the int_hyper set
 * (wai_int_hyper_load_set); an inter frame reads none. */
#ifndef WAI_DECODE_INT_HYPER_VIDEO_H
#define WAI_DECODE_INT_HYPER_VIDEO_H

#include "decode/codec.h"

extern const wai_codec_ops wai_int_hyper_clip_ops;
extern const wai_codec_ops wai_int_hyper_frame_ops;

#endif
