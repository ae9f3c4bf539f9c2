/* SPDX-License-Identifier: BSD-2-Clause */
/* WHM1 (2-D) and WAM1 (1-D) integer networks (integer-payloads §9; the byte
 * layout in docs/integer-operators.md). The parse checks structure only:
 * the magic, every byte present, known tags, nothing after the last layer.
 * Every such failure is model_mismatch. afrac, gf, shift and a leaky ReLU's
 * lshift are kept as read: their ranges are checked by the decode (§7 step
 * 2) and by planning rule 1 (ops/plan.h), reading N6. */
#ifndef WAI_FORMATS_WHM1_H
#define WAI_FORMATS_WHM1_H

#include <stddef.h>
#include <stdint.h>

#include "common/sibling.h"
#include "ops/model.h"

#define WAI_WHM1_MAGIC "WHM1"
#define WAI_WAM1_MAGIC "WAM1"
#define WAI_WHM1_HEADER_BYTES 20   /* magic, afrac, gf, shift, layer count */

/* Parses a whole network; dims 2 reads WHM1, dims 1 WAM1 (any other dims:
 * invalid_argument). Nothing is allocated until a first pass has proven
 * every parameter byte present, so a file that declares huge counts costs
 * no memory. On success *out owns one block (free with wai_model_free); on
 * failure *out is left empty (safe to free). */
WAI_SIBLING wai_status wai_model_parse(const wai_allocator *a, const uint8_t *bytes, size_t len,
                                       int dims, wai_model *out);

WAI_SIBLING void wai_model_free(const wai_allocator *a, wai_model *m);

/* What the form fixes of a layer, for the parse and the writer
 * (write/whm1_write.c): the magic of dims; whether a tag may appear in it
 * (tags 0 and 2 only in WAM1: §9 "layers of tag 0 ... and tag 2"); the
 * element counts of a layer's arrays (each < 2^62 or saturated) and the
 * parameter bytes they call for (saturated past 64 bits, which no file
 * holds). */
typedef struct wai_layer_counts {
    uint64_t weights, per_out, gamma, beta;
} wai_layer_counts;

const char *wai_whm1_magic(int dims);
int wai_whm1_tag_allowed(uint32_t tag, int dims);
wai_layer_counts wai_whm1_counts(const wai_layer *l, int dims);
uint64_t wai_whm1_param_bytes(const wai_layer_counts *c);

#endif
