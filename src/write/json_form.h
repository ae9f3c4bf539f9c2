/* SPDX-License-Identifier: BSD-2-Clause */
/* What the converters of the tools' JSON forms share (integer-payloads §10,
 * docs/json-forms.md): members read by the strict JSON reader with the
 * forms' codes, byte strings as base64, and the JSON text written back.
 *
 * Codes: a text that is no JSON, a root that is no object, a required
 * member absent or of the wrong type, a number that is no integer, or a
 * byte string that is no canonical base64 is payload_malformed; an integer
 * outside its field's range, or a §10 value rule broken, is field_range.
 * Other members are ignored (rmax among them). */
#ifndef WAI_WRITE_JSON_FORM_H
#define WAI_WRITE_JSON_FORM_H

#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "common/text.h"
#include "wai/wai.h"

/* An integer member in [lo, hi]. Absent: *out = dflt when !required,
 * payload_malformed otherwise. */
wai_status wai_jf_int(const wai_json_value *obj, const char *name, int required, int64_t lo,
                      int64_t hi, int64_t dflt, int64_t *out);

/* An integer array element check: v an integer in [lo, hi]. */
wai_status wai_jf_int_value(const wai_json_value *v, int64_t lo, int64_t hi, int64_t *out);

/* An array member of u32 values (a table), from a: *n its length. */
wai_status wai_jf_u32_array(const wai_allocator *a, const wai_json_value *obj, const char *name,
                            uint32_t **out, uint32_t *n);

/* An array member of integers in [lo, hi], from a; *n its length. */
wai_status wai_jf_int_array(const wai_allocator *a, const wai_json_value *obj, const char *name,
                            int64_t lo, int64_t hi, int64_t **out, size_t *n);

/* An array member of tables (arrays of u32), flattened channel after
 * channel into *flat, with each one's length in *lengths (both from a). */
wai_status wai_jf_tables(const wai_allocator *a, const wai_json_value *obj, const char *name,
                         uint32_t **flat, uint32_t **lengths, size_t *n_tables);

/* The afrac of a set's network (dims 1: model.wam, 2: a WHM1), to check a
 * form's against: set_incomplete when model is NULL, model_mismatch when
 * it is no network. */
wai_status wai_jf_model_afrac(const wai_allocator *a, const uint8_t *model, size_t len, int dims,
                              uint32_t *afrac);

/* The set, checked last as a decode reads it after the payload: the
 * network's afrac must be the form's (model_mismatch); on any refusal the
 * payload written (*out) is freed and cleared. */
wai_status wai_jf_model_check(const wai_allocator *a, const uint8_t *model, size_t len, int dims,
                              uint32_t afrac, uint8_t **out, size_t *out_len);

/* A base64 member (RFC 4648, padded, canonical) decoded into bytes from a. */
wai_status wai_jf_bytes(const wai_allocator *a, const wai_json_value *obj, const char *name,
                        uint8_t **out, size_t *len);

/* Writing: base64 of bytes; a u32 table as a JSON array. */
void wai_jf_put_b64(wai_text *t, const uint8_t *b, size_t n);
void wai_jf_put_table(wai_text *t, const uint8_t *le_u32, uint32_t n);
/* n little-endian i64 (stride 8) or i32 (stride 4) values as a JSON array. */
void wai_jf_put_ints(wai_text *t, const uint8_t *le, size_t n, int stride);

/* Runs emit twice (sizing, then writing) into one allocation from a: *out
 * NUL-terminated, *len without the NUL. */
wai_status wai_jf_render(const wai_allocator *a, void (*emit)(wai_text *t, const void *ctx),
                         const void *ctx, char **out, size_t *len);

#endif
