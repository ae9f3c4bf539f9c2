/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 (FIPS 180-4) and BLAKE3 (hash mode, any output length).
 *
 * The state structs are public so they can live on the stack; their members
 * are private to the library. */
#ifndef WAI_WAI_HASH_H
#define WAI_WAI_HASH_H

#include "wai/wai.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WAI_SHA256_BYTES 32
#define WAI_BLAKE3_BYTES 32

typedef struct wai_sha256 {
    uint32_t h[8];
    uint64_t total;          /* bytes absorbed */
    uint8_t block[64];
    uint32_t used;           /* bytes in block */
} wai_sha256;

WAI_API void wai_sha256_init(wai_sha256 *st);
WAI_API void wai_sha256_update(wai_sha256 *st, const void *data, size_t len);
/* Does not change *st (it pads a copy): more input may follow, and final may
 * be called again. */
WAI_API void wai_sha256_final(wai_sha256 *st, uint8_t out[WAI_SHA256_BYTES]);
WAI_API void wai_sha256_oneshot(const void *data, size_t len, uint8_t out[WAI_SHA256_BYTES]);

/* Enough stack for inputs up to 2^54 chunks (2^64 bytes). */
#define WAI_BLAKE3_MAX_DEPTH 54

typedef struct wai_blake3 {
    uint32_t key[8];
    uint32_t cv[8];                      /* chaining value of the open chunk */
    uint64_t chunk_counter;
    uint8_t block[64];
    uint8_t block_len;
    uint8_t blocks_compressed;
    uint8_t flags;
    uint8_t stack_len;
    uint32_t stack[WAI_BLAKE3_MAX_DEPTH][8];  /* subtree chaining values */
} wai_blake3;

WAI_API void wai_blake3_init(wai_blake3 *st);
WAI_API void wai_blake3_update(wai_blake3 *st, const void *data, size_t len);
/* Writes out_len bytes of output (extendable output); does not change *st,
 * so more input may follow and final may be called again. */
WAI_API void wai_blake3_final(const wai_blake3 *st, uint8_t *out, size_t out_len);
WAI_API void wai_blake3_oneshot(const void *data, size_t len, uint8_t out[WAI_BLAKE3_BYTES]);

/* Lowercase hex of n bytes into out (2n + 1 bytes, NUL-terminated). */
WAI_API void wai_hex(const uint8_t *bytes, size_t n, char *out);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_HASH_H */
