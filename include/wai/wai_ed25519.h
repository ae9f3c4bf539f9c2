/* SPDX-License-Identifier: BSD-2-Clause */
/* Ed25519 for receipts, through libsodium: libwai_ed25519, a library of its
 * own, built where libsodium is found (Debian's libsodium-dev), so libwai
 * itself needs libc alone. It fills the signer and the verifier that
 * include/wai/wai_receipt.h takes. Verification is libsodium's
 * crypto_sign_verify_detached, which is strict (SPEC §7 Signatures): it
 * refuses a non-canonical S, a non-canonical or small-order public key and
 * a small-order R (docs/receipts.md). */
#ifndef WAI_WAI_ED25519_H
#define WAI_WAI_ED25519_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_receipt.h"

#if defined(__GNUC__) && !defined(_WIN32)
#define WAI_ED25519_API __attribute__((visibility("default")))
#else
#define WAI_ED25519_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One signing key: its seed (what a key file keeps), the secret key
 * libsodium signs with, and its public key. Wipe it when done. */
typedef struct wai_ed25519_key {
    uint8_t seed[32];
    uint8_t secret[64];
    uint8_t pubkey[32];
} wai_ed25519_key;

/* A new key from the system's random source; 0 on success. */
WAI_ED25519_API int wai_ed25519_key_generate(wai_ed25519_key *k);

/* The key of a seed; 0 on success. */
WAI_ED25519_API int wai_ed25519_key_from_seed(wai_ed25519_key *k, const uint8_t seed[32]);

/* Overwrites k with zeros the compiler keeps. */
WAI_ED25519_API void wai_ed25519_key_wipe(wai_ed25519_key *k);

/* A signer of k (borrowed: it must outlive the signer) and id. */
WAI_ED25519_API void wai_ed25519_signer(const wai_ed25519_key *k, const char *id, size_t id_len,
                                        wai_receipt_signer *out);

/* The strict verifier. */
WAI_ED25519_API void wai_ed25519_verifier(wai_receipt_verifier *out);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_ED25519_H */
