/* SPDX-License-Identifier: BSD-2-Clause */
/* The wai.neural.int_synth payload (integer-payloads §13): a 12-byte header
 * and the latents, one signed byte each, [C, S, S] in CHW order. No magic,
 * no version: it decodes only when the capability is named. */
#ifndef WAI_FORMATS_INT_SYNTH_PAYLOAD_H
#define WAI_FORMATS_INT_SYNTH_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/text.h"
#include "wai/wai.h"

#define WAI_INT_SYNTH_HEADER_BYTES 12

typedef struct wai_int_synth_payload {
    uint32_t height, width;  /* the image, both at least 1 */
    uint32_t c;              /* latent channels, at least 1 */
    uint32_t s_log2, s;      /* the latent's side S = 2^s_log2 */
    const int8_t *latents;   /* [c][s][s], a view into the payload */
} wai_int_synth_payload;

/* Parses a whole payload in §13's order: the header present, H and W at
 * least 1, the reserved byte 0, C at least 1, C·S·S at most 2^26, then the
 * length exactly 12 + C·S·S. Every refusal is payload_malformed. */
wai_status wai_int_synth_parse(const uint8_t *data, size_t len, wai_int_synth_payload *out);

void wai_int_synth_describe(const wai_int_synth_payload *p, wai_text *t);

#endif
