/* SPDX-License-Identifier: BSD-2-Clause */
/* The rANS encoder of E1 (integer-payloads §2) and the step form of a
 * stream that split and join copy exactly; part of libwai_write (the
 * decoder core holds no encoder). entropy/rans.h has the decoder. */
#ifndef WAI_WRITE_RANS_ENCODE_H
#define WAI_WRITE_RANS_ENCODE_H

#include "entropy/rans.h"

/* ---- encoder ---------------------------------------------------------------
 * Writes canonical streams: the state starts at 2^31 and only the words it
 * flushes are written, so the decode ends with every word read and x = 2^31.
 * Values 0..n-3 are coded directly and any other by the shortest escape
 * (reading R10). */

/* 1 when the symbol can be coded at offset o without saturation. */
int wai_rans_encodable(int32_t symbol, int32_t o);

/* Encodes n_symbols symbols against one table (`tables` NULL) or against
 * tables[i] for symbol i. On success *out (allocated with a) holds the L
 * stream bytes, without the u32 length prefix; WAI_field_range for a symbol
 * that is not encodable. */
wai_status wai_rans_encode(const wai_allocator *a, const wai_cdf_table *table,
                           const wai_cdf_table *const *tables, const int32_t *offsets,
                           int32_t offset, const int32_t *symbols, size_t n_symbols,
                           uint8_t **out, size_t *out_len);

/* The steps of a stream one by one, for copying streams exactly (split and
 * join keep any escape layout) and for writers of non-minimal escapes: a step
 * is a table index, or WAI_RANS_GROUP | v for one 4-bit group v, in decode
 * order. */
typedef uint32_t wai_rans_step;
#define WAI_RANS_GROUP 0x80000000u

/* The most steps one symbol takes: its table step, nine count groups and
 * eight raw groups. */
#define WAI_RANS_MAX_STEPS_PER_SYMBOL 18

/* Decodes one symbol as its steps. Returns WAI_stream_exhausted as
 * wai_rans_decode does. */
wai_status wai_rans_decode_steps(wai_rans_dec *d, const wai_cdf_table *t, wai_rans_step *steps,
                                 size_t *n_steps);

/* Encodes steps against one table (canonically); WAI_invalid_argument for a
 * step the table or a group cannot hold. */
wai_status wai_rans_encode_steps(const wai_allocator *a, const wai_cdf_table *t,
                                 const wai_rans_step *steps, size_t n_steps, uint8_t **out,
                                 size_t *out_len);

#endif
