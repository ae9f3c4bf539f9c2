/* SPDX-License-Identifier: BSD-2-Clause */
/* WIM1, wai.neural.int_mlicpp's payload (integer-payloads §14): the
 * picture's size, the hyper-latent's and the latent's shapes, the slice
 * count, and two E1 streams with no length prefix. No version byte; every
 * refusal is payload_malformed (reading S6). */
#ifndef WAI_FORMATS_WIM1_H
#define WAI_FORMATS_WIM1_H

#include <stddef.h>
#include <stdint.h>

#include "common/sibling.h"
#include "common/text.h"
#include "wai/wai.h"

#define WAI_WIM1_HEADER_BYTES 36

typedef struct wai_wim1 {
    uint32_t h, w;           /* the picture */
    uint32_t cz, zh, zw;     /* the hyper-latent z [Cz, Zh, Zw] */
    uint32_t cy, yh, yw;     /* the latent y [Cy, Yh, Yw] */
    uint32_t k;              /* slices: Cy / K channels each */
    const uint8_t *z;        /* the z stream, Lz bytes (a view) */
    size_t lz;
    const uint8_t *y;        /* the y stream, Ly bytes */
    size_t ly;
} wai_wim1;

/* Parses in §14's order: at least 36 bytes; the magic (any other,
 * another format's included, S6); the reserved field; no dimension 0; Cy a
 * multiple of K; Cz·Zh·Zw, 3·Cy·Yh·Yw and 3·H·W each at most 2^26; the
 * payload exactly 36 + Lz + Ly bytes. Each stream's own length rule is the
 * decode's, when it reaches the stream (S12). */
WAI_SIBLING wai_status wai_wim1_parse(const uint8_t *data, size_t len, wai_wim1 *out);

/* A stream's length rule (§14: a multiple of 4, at least 8). */
static inline int wai_wim1_stream_ok(size_t len) { return len % 4 == 0 && len >= 8; }

void wai_wim1_describe(const wai_wim1 *v, wai_text *t);

/* The largest WIM1: the header and two streams of at most 2^32 - 1 bytes. */
#define WAI_WIM1_MAX_BYTES (WAI_WIM1_HEADER_BYTES + 2 * (uint64_t)UINT32_MAX)

#endif
