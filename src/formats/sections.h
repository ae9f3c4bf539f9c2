/* SPDX-License-Identifier: BSD-2-Clause */
/* Pieces every payload parser shares: §2's framing steps and its sections. */
#ifndef WAI_FORMATS_SECTIONS_H
#define WAI_FORMATS_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "common/reader.h"
#include "entropy/cdf.h"
#include "wai/wai.h"
#include "wai/wai_format.h"

/* §2 steps 1-3: the magic of `format` (bad_magic, format_capability_mismatch),
 * the version byte (stream_length, version), then `header_bytes` present
 * (stream_length). On success the reader stands after the version byte. */
wai_status wai_parse_framing(wai_reader *r, wai_format format, size_t header_bytes);

/* A parse's start: the reader over data, *out (out_size bytes) zeroed, the
 * framing above, then the header's reserved bytes (a mask by offset, from
 * WAI_RESERVED) each 0 (reserved_nonzero). On success the reader stands at
 * the first section, after the fixed header. */
wai_status wai_parse_begin(wai_reader *r, const uint8_t *data, size_t len, void *out,
                           size_t out_size, wai_format format, size_t header_bytes,
                           uint64_t reserved);

/* Header bytes [at, at + n) as a mask for wai_parse_begin's reserved bytes. */
#define WAI_RESERVED(at, n) (((UINT64_C(1) << (n)) - 1) << (at))

/* A table section of n u32 entries: present (stream_length), then the rule
 * (cdf_malformed). *bytes views the entries (little-endian). */
wai_status wai_read_cdf_section(wai_reader *r, uint32_t n, wai_cdf_rule rule,
                                const uint8_t **bytes);

/* 1 when the n little-endian u32 entries at bytes keep the rule. */
int wai_cdf_bytes_valid(const uint8_t *bytes, uint32_t n, wai_cdf_rule rule);

/* A rANS stream section (reading R6). */
typedef struct wai_stream_view {
    const uint8_t *bytes;
    size_t len;
} wai_stream_view;

wai_status wai_read_stream_section(wai_reader *r, wai_stream_view *s);

/* A payload's last section: the stream above, then nothing more (trailing). */
wai_status wai_read_last_stream(wai_reader *r, wai_stream_view *s);

/* A payload's end that WIA1 and WIS1 share: §2 step 7's section of n
 * tables read table by table (each present, stream_length, then checked,
 * cdf_malformed, before the next; table k of length(arg, k) entries), the
 * rANS stream section, then nothing more (trailing). The tables lie back
 * to back, so *tables views the first, the whole section. */
wai_status wai_read_tables_then_stream(wai_reader *r, uint32_t n,
                                       uint32_t (*length)(const void *arg, uint32_t k),
                                       const void *arg, const uint8_t **tables,
                                       wai_stream_view *stream);

/* Bounds on a payload's parts, for the largest payload each format's parse
 * can pass (wai_payload_max_bytes; docs/reading-inputs.md derives each): a
 * stream "4 + L" is at most 4 + (2^32 - 1) bytes; a table at most 4097
 * entries of 4 bytes; a tensor the caps bound at 2^26 elements, so a count
 * of channels, of planes or of motion-vector components is at most 2^26. */
#define WAI_STREAM_MAX_BYTES (UINT64_C(4) + UINT32_MAX)
#define WAI_TABLE_MAX_BYTES (UINT64_C(4097) * 4)
#define WAI_ELEMS_MAX (UINT64_C(1) << 26)

#endif
