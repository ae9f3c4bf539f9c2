/* SPDX-License-Identifier: BSD-2-Clause */
/* The signing payloads and receipt hashes of wai.video.int_motion's
 * receipts (integer-payloads §15.1, §15.3; docs/receipts.md): every
 * integer of a signing payload big-endian, in §15's order. The signature
 * itself is the caller's (Ed25519 over these bytes). The fields are
 * wai_receipt_info's (include/wai/wai_receipt.h); sig and receipt_hash
 * are not read. */
#ifndef WAI_RECEIPT_SIGNING_H
#define WAI_RECEIPT_SIGNING_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_receipt.h"

/* The signing payload into out (cap bytes; NULL and 0 to size it); returns
 * its length, or 0 when a length field cannot hold signer_id or the
 * calibration reference (past 2^32 - 1 bytes). */
size_t wai_receipt_signing_payload(const wai_receipt_info *r, uint8_t *out, size_t cap);

/* BLAKE3(wai:video-receipt-id or wai:video-encode-receipt-id, 0x01, the
 * signing payload, sig). */
void wai_receipt_hash(wai_receipt_kind kind, const uint8_t *payload, size_t len,
                      const uint8_t sig[64], uint8_t out[32]);

#endif
