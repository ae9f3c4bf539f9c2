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

#include "ops/model.h"

#define WAI_WHM1_MAGIC "WHM1"
#define WAI_WAM1_MAGIC "WAM1"
#define WAI_WHM1_HEADER_BYTES 20   /* magic, afrac, gf, shift, layer count */

/* Parses a whole network; dims 2 reads WHM1, dims 1 WAM1 (any other dims:
 * invalid_argument). Nothing is allocated until a first pass has proven
 * every parameter byte present, so a file that declares huge counts costs
 * no memory. On success *out owns one block (free with wai_model_free); on
 * failure *out is left empty (safe to free). */
wai_status wai_model_parse(const wai_allocator *a, const uint8_t *bytes, size_t len, int dims,
                           wai_model *out);

void wai_model_free(const wai_allocator *a, wai_model *m);

/* Serialises a model (parsed or built by hand) back to its bytes, in the
 * form its dims names; parse(write(m)) gives m and write(parse(b)) gives b
 * byte for byte. A model the parser would refuse for its structure (a tag
 * its form does not allow, n_weights disagreeing with the layer's fields, a
 * missing array) is invalid_argument; ranges are not checked, as the parse
 * does not check them. *out is allocated with `a` (free with wai_free). */
wai_status wai_model_write(const wai_allocator *a, const wai_model *m, uint8_t **out,
                           size_t *out_len);

#endif
