/* SPDX-License-Identifier: BSD-2-Clause */
/* Set members written from the decoder's own parsed forms (a wai_model, a
 * wai_entropy_set): the inverse of their parsers, for the corpus
 * generator, the tests, the fuzzers' round trips and the benchmarks. They
 * serialise the core's internal structs, so they are no part of
 * libwai_write, which is a client of the public API alone. */
#ifndef WAI_TESTS_GEN_SET_WRITE_H
#define WAI_TESTS_GEN_SET_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/model.h"
#include "sets/entropy_json.h"
#include "wai/wai.h"

/* Serialises a model (parsed or built by hand) back to its bytes, in the
 * form its dims names; parse(write(m)) gives m and write(parse(b)) gives b
 * byte for byte. A model the parser would refuse for its structure (a tag
 * its form does not allow, n_weights disagreeing with the layer's fields, a
 * missing array) is invalid_argument; ranges are not checked, as the parse
 * does not check them. *out is allocated with `a` (free with wai_free). */
wai_status wai_model_write(const wai_allocator *a, const wai_model *m, uint8_t **out,
                           size_t *out_len);

/* Writes s as entropy.json text (each table's first n entries; no other
 * member), then reads the text back and refuses (model_mismatch) what the
 * parser would. *out is from a (wai_free); it is not NUL-terminated. */
wai_status wai_entropy_json_write(const wai_allocator *a, const wai_entropy_set *s,
                                  uint8_t **out, size_t *out_len);

#endif
