/* SPDX-License-Identifier: BSD-2-Clause */
/* What the receipt tests, their corpus generator and fuzz target share: a
 * toy signer (no Ed25519: a keyed BLAKE3, so the library's receipt logic
 * is tested where libsodium is absent), a small gray clip and its WIV1,
 * and the edits a tamperer makes to a receipt's JSON text or fields. */
#ifndef WAI_TESTS_GEN_RECEIPTGEN_H
#define WAI_TESTS_GEN_RECEIPTGEN_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_receipt.h"

/* sig = BLAKE3-XOF("toy-sig", pubkey, msg) to 64 bytes; the "key" is the
 * public key itself. */
void rg_toy_signer(const uint8_t pubkey[32], const char *id, wai_receipt_signer *s);
void rg_toy_verifier(wai_receipt_verifier *v);

/* n gray frames of h × w (RGB8, R = G = B, a moving ramp) and their WIV1
 * from libwai_write's encoder at q, block 8, search 2: *rgb and *payload
 * malloc'd. 0 on success. */
int rg_make_clip(uint32_t n, uint32_t h, uint32_t w, uint32_t q, uint8_t **rgb, size_t *rgb_len,
                 uint8_t **payload, size_t *payload_len);

/* A copy of json (malloc'd, NUL-terminated) with the top-level member
 * name's value replaced by value (JSON text), or with the member removed
 * (value NULL), or with "name": value added before the last member
 * (add set). NULL when name is not there (and add is not set). */
char *rg_json_edit(const char *json, const char *name, const char *value, int add);

/* The receipt's signing payload re-signed by s after its fields were
 * changed (its pubkey and id become s's), with its receipt hash
 * recomputed; rehash_only keeps the signature and only recomputes the
 * hash. Fields are changed through the returned pointer. */
wai_receipt_info *rg_fields(wai_receipt *r);
uint8_t (*rg_frames(wai_receipt *r))[32];
int rg_reseal(wai_receipt *r, const wai_receipt_signer *s, int rehash_only);

#endif
