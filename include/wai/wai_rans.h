/* SPDX-License-Identifier: BSD-2-Clause */
/* The rANS stream of integer-payloads §2 decoded on its own: the twin of
 * libwai_write's wai_rans_encode_symbols_tables, for tools that code
 * symbols against their own tables (the Python module's wai.rans_decode).
 * Core library, libc only. */
#ifndef WAI_WAI_RANS_H
#define WAI_WAI_RANS_H

#include "wai/wai.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes n symbols from a stream (its bytes, without the u32 length a
 * payload puts before them): symbol i against table table_of[i] of the
 * n_tables (cdfs[t], cdf_lens[t] entries, offset offsets[t]), each value
 * its symbol plus its table's offset, into out[0..n). Then the stream must
 * end canonically (§2: every word read, the state back at 2^31).
 * cdf_malformed for a table out of §2's rule (3 <= length <= 4097, 0 first,
 * 65536 last, increasing); invalid_argument for an index past n_tables or
 * a NULL array with n > 0; stream_exhausted for a symbol that runs the
 * stream out; stream_noncanonical for a stream with more after the last
 * symbol or a state not at 2^31. Temporaries (each table's lookup,
 * sized to the call: 2^8 to 2^16 buckets, no more in all than n past the
 * least) come from a (NULL: libc's) and go back before it returns. */
WAI_API wai_status wai_rans_decode_symbols_tables(const wai_allocator *a, size_t n_tables,
                                                  const uint32_t *const *cdfs,
                                                  const size_t *cdf_lens,
                                                  const int32_t *offsets,
                                                  const uint32_t *table_of,
                                                  const uint8_t *stream, size_t len,
                                                  int32_t *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
