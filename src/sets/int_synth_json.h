/* SPDX-License-Identifier: BSD-2-Clause */
/* int_synth.json, wai.neural.int_synth's set (integer-payloads §13): a chain
 * of integer transposed convolutions, read by the strict JSON reader
 * (reading S2) and certified once (S3): with the latents' |x| <= 128, no
 * product, partial sum or acc + bias of any layer can leave i64, whatever
 * the latents are. docs/int_synth.md. */
#ifndef WAI_SETS_INT_SYNTH_JSON_H
#define WAI_SETS_INT_SYNTH_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "ops/synth_convt.h"
#include "wai/wai.h"

/* Reads text as int_synth.json by every member rule of §13 (S2: strict
 * JSON, absent defaults, other members ignored, relu a boolean), then the
 * chain (each layer's in the previous out) and the certificate (S3).
 * payload_malformed for any rule broken, out_of_memory. On failure *m may
 * hold a part: wai_synth_model_free it either way. */
wai_status wai_synth_model_read(const wai_allocator *a, const uint8_t *text, size_t len,
                                wai_synth_model *m);

void wai_synth_model_free(const wai_allocator *a, wai_synth_model *m);

/* S3's certificate on m: A = 128; per layer and output channel o, with S_o
 * = sum of |w| over o's filter (every input and tap), A·S_o + |bias_o| <=
 * 2^63 - 1; the next A = max_o ceil((A·S_o + |bias_o|) / 2^shift). 1 when
 * every layer passes. */
int wai_synth_model_certified(const wai_synth_model *m);

#endif
