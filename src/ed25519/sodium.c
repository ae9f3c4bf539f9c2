/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_ed25519 (include/wai/wai_ed25519.h): libsodium's Ed25519 behind
 * the receipt signer and verifier. libsodium keeps its own state; this
 * file keeps none. */
#include <sodium.h>
#include <string.h>

#include "wai/wai_ed25519.h"

int wai_ed25519_key_generate(wai_ed25519_key *k) {
    if (!k || sodium_init() < 0) return -1;
    uint8_t seed[32];
    randombytes_buf(seed, sizeof seed);
    int rc = wai_ed25519_key_from_seed(k, seed);
    sodium_memzero(seed, sizeof seed);
    return rc;
}

int wai_ed25519_key_from_seed(wai_ed25519_key *k, const uint8_t seed[32]) {
    if (!k || !seed || sodium_init() < 0) return -1;
    memcpy(k->seed, seed, 32);
    return crypto_sign_seed_keypair(k->pubkey, k->secret, k->seed) == 0 ? 0 : -1;
}

void wai_ed25519_key_wipe(wai_ed25519_key *k) {
    if (k) sodium_memzero(k, sizeof *k);
}

static int sign(void *opaque, const uint8_t *msg, size_t len, uint8_t sig[64]) {
    const wai_ed25519_key *k = opaque;
    if (sodium_init() < 0) return -1;
    return crypto_sign_detached(sig, NULL, msg, len, k->secret) == 0 ? 0 : -1;
}

static int verify(void *opaque, const uint8_t pubkey[32], const uint8_t *msg, size_t len,
                  const uint8_t sig[64]) {
    (void)opaque;
    if (sodium_init() < 0) return 0;
    return crypto_sign_verify_detached(sig, msg, len, pubkey) == 0;
}

void wai_ed25519_signer(const wai_ed25519_key *k, const char *id, size_t id_len,
                        wai_receipt_signer *out) {
    memset(out, 0, sizeof *out);
    memcpy(out->pubkey, k->pubkey, 32);
    out->id = id;
    out->id_len = id_len;
    out->sign = sign;
    out->opaque = (void *)(uintptr_t)k;
}

void wai_ed25519_verifier(wai_receipt_verifier *out) {
    out->verify = verify;
    out->opaque = NULL;
}
