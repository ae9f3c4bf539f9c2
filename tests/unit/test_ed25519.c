/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_ed25519 (src/ed25519/sodium.c): RFC 8032's first test vector, a
 * receipt signed and verified through it, and the strictness SPEC §7 asks
 * of verification (a non-canonical S, a small-order key). Where libsodium
 * was not found the suite says so and checks nothing. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#if defined(WAI_HAVE_ED25519)
#include "wai/wai_ed25519.h"

static void hex(const char *s, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* RFC 8032 §7.1, TEST 1: the empty message. */
static void test_rfc8032(void) {
    uint8_t seed[32], pk[32], sig[64], got[64];
    hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", seed, 32);
    hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", pk, 32);
    hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b", sig, 64);
    wai_ed25519_key k;
    CHECK(wai_ed25519_key_from_seed(&k, seed) == 0);
    CHECK(memcmp(k.pubkey, pk, 32) == 0);
    wai_receipt_signer s;
    wai_ed25519_signer(&k, "", 0, &s);
    CHECK(s.sign(s.opaque, (const uint8_t *)"", 0, got) == 0 && memcmp(got, sig, 64) == 0);
    wai_receipt_verifier v;
    wai_ed25519_verifier(&v);
    CHECK(v.verify(v.opaque, pk, (const uint8_t *)"", 0, sig) == 1);
    sig[0] ^= 1;
    CHECK(v.verify(v.opaque, pk, (const uint8_t *)"", 0, sig) == 0);
    sig[0] ^= 1;
    /* S + L (the group order) is the same scalar, not canonical: refused. */
    static const uint8_t L[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                  0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0x10};
    unsigned carry = 0;
    for (int i = 0; i < 32; i++) {
        unsigned t = sig[32 + i] + L[i] + carry;
        sig[32 + i] = (uint8_t)t;
        carry = t >> 8;
    }
    CHECK(v.verify(v.opaque, pk, (const uint8_t *)"", 0, sig) == 0);
    /* The identity as a public key (small order), with any signature. */
    uint8_t identity[32] = {1};
    CHECK(v.verify(v.opaque, identity, (const uint8_t *)"", 0, sig) == 0);
    wai_ed25519_key_wipe(&k);
    uint8_t zero[sizeof k];
    memset(zero, 0, sizeof zero);
    CHECK(memcmp(&k, zero, sizeof k) == 0);
}

static void test_generate(void) {
    wai_ed25519_key a, b;
    CHECK(wai_ed25519_key_generate(&a) == 0 && wai_ed25519_key_generate(&b) == 0);
    CHECK(memcmp(a.seed, b.seed, 32) != 0);
    wai_ed25519_key again;
    CHECK(wai_ed25519_key_from_seed(&again, a.seed) == 0 && !memcmp(again.pubkey, a.pubkey, 32));
}

void suite_ed25519(void) {
    harness_run("ed25519_rfc8032", test_rfc8032);
    harness_run("ed25519_generate", test_generate);
}

#else

void suite_ed25519(void) {
    printf("ed25519: libsodium was not found; nothing checked\n");
}

#endif
