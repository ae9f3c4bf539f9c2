/* SPDX-License-Identifier: BSD-2-Clause */
/* The commitments of wai.video.int_motion's receipts (integer-payloads
 * §15; docs/receipts.md): BLAKE3 over ASCII domain tags, a version byte
 * 0x01 and integers little-endian, as §15 writes them, and the Merkle root
 * over the frame hashes (reading K1: RFC 6962's tree, with BLAKE3). */
#ifndef WAI_RECEIPT_COMMITMENTS_H
#define WAI_RECEIPT_COMMITMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_hash.h"

/* The domain tags of §15. */
#define WAI_TAG_RFRAME "wai:video-rframe"   /* a decoded frame (§15.1) */
#define WAI_TAG_SFRAME "wai:video-sframe"   /* a source frame (§15.3) */
#define WAI_TAG_CLIP "wai:video-clip"       /* the decoded frames (§15.1) */
#define WAI_TAG_SOURCE "wai:video-source"   /* the source frames (§15.3) */

/* BLAKE3(tag, 0x01, i as u64 LE, the frame's RGB8 bytes). */
void wai_frame_hash(const char *tag, uint64_t i, const uint8_t *rgb, size_t len, uint8_t out[32]);

/* BLAKE3(tag, 0x01, h u32, w u32, n u64, then each frame's i u64 and hash),
 * all little-endian. */
void wai_clip_hash(const char *tag, uint32_t h, uint32_t w, uint64_t n, const uint8_t (*frames)[32],
                   uint8_t out[32]);

/* Reading K1 (jwp-receipts §2.2, which we do not have): the Merkle tree of
 * RFC 6962 §2.1 with BLAKE3 for SHA-256: the root of no leaf is
 * BLAKE3(""); a leaf's hash is BLAKE3(0x00, the frame hash); a node's is
 * BLAKE3(0x01, left, right), the left subtree holding the largest power of
 * two of leaves under n. */
void wai_merkle_root(const uint8_t (*leaves)[32], uint64_t n, uint8_t out[32]);

/* The same tree over n byte strings, with BLAKE3 or (sha256 set) SHA-256:
 * RFC 6962's own test vectors check its shape. */
void wai_merkle_root_of(int sha256, const uint8_t *const *leaf, const size_t *len, uint64_t n,
                        uint8_t out[32]);

/* frames × h × w × 3, saturating at 2^64 − 1: the subpixels decoded. */
uint64_t wai_work_pixel_ops(uint64_t frames, uint32_t h, uint32_t w);

#endif
