/* SPDX-License-Identifier: BSD-2-Clause */
/* What decode/decoder.c shows beside the public API (include/wai/
 * wai_decode.h): for tests. */
#ifndef WAI_DECODE_DECODER_H
#define WAI_DECODE_DECODER_H

#include <stdint.h>

#include "wai/wai_decode.h"

/* The elements of the network arena the decoder keeps between decodes (0:
 * none). */
uint64_t wai_decoder_arena_elems(const wai_decoder *d);

#endif
