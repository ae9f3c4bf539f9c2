/* SPDX-License-Identifier: BSD-2-Clause */
/* The receipts' commitments (src/receipt/commitments.c, integer-payloads
 * §15; docs/receipts.md): the Merkle tree's shape against RFC 6962's own
 * SHA-256 vectors (the certificate-transparency test leaves, roots checked
 * against an independent Python hashlib tree), the BLAKE3 tree over frame
 * hashes against the same shape over byte strings, and each commitment
 * against its preimage written out here byte by byte from §15's text. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "receipt/commitments.h"

static void hex32(const uint8_t *h, char *out) {
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", h[i]);
}

static void blake3_of(const uint8_t *b, size_t n, uint8_t out[32]) {
    wai_blake3 s;
    wai_blake3_init(&s);
    wai_blake3_update(&s, b, n);
    wai_blake3_final(&s, out, 32);
}

static void test_rfc6962_shape(void) {
    static const uint8_t l3[] = {0x20, 0x21}, l4[] = {0x30, 0x31}, l5[] = {0x40, 0x41, 0x42, 0x43},
                         l6[] = {0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57}, l1[] = {0x00},
                         l2[] = {0x10};
    static uint8_t l7[16];
    for (int i = 0; i < 16; i++) l7[i] = (uint8_t)(0x60 + i);
    const uint8_t *leaf[8] = {(const uint8_t *)"", l1, l2, l3, l4, l5, l6, l7};
    const size_t len[8] = {0, 1, 1, 2, 2, 4, 8, 16};
    static const char *const roots[9] = {
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};
    for (uint64_t n = 0; n <= 8; n++) {
        uint8_t r[32];
        char h[65];
        wai_merkle_root_of(1, leaf, len, n, r);
        hex32(r, h);
        CHECK_MSG(strcmp(h, roots[n]) == 0, "RFC 6962 root of %llu leaves: %s", (unsigned long long)n, h);
    }
}

static void test_blake3_tree(void) {
    enum { N = 37 };
    uint8_t leaves[N][32];
    const uint8_t *ptr[N];
    size_t len[N];
    for (int i = 0; i < N; i++) {
        memset(leaves[i], i, 32);
        ptr[i] = leaves[i], len[i] = 32;
    }
    for (uint64_t n = 0; n <= N; n++) {
        uint8_t a[32], b[32];
        wai_merkle_root(leaves, n, a);
        wai_merkle_root_of(0, ptr, len, n, b);
        CHECK_MSG(memcmp(a, b, 32) == 0, "%llu leaves: the two forms differ", (unsigned long long)n);
    }
    /* By hand for three leaves: node(node(leaf 0, leaf 1), leaf 2). */
    uint8_t pre[65], h0[32], h1[32], h2[32], n01[32], want[32], got[32];
    for (int i = 0; i < 3; i++) {
        pre[0] = 0x00;
        memcpy(pre + 1, leaves[i], 32);
        blake3_of(pre, 33, i == 0 ? h0 : i == 1 ? h1 : h2);
    }
    pre[0] = 0x01, memcpy(pre + 1, h0, 32), memcpy(pre + 33, h1, 32);
    blake3_of(pre, 65, n01);
    pre[0] = 0x01, memcpy(pre + 1, n01, 32), memcpy(pre + 33, h2, 32);
    blake3_of(pre, 65, want);
    wai_merkle_root(leaves, 3, got);
    CHECK(memcmp(got, want, 32) == 0);
    /* No leaf: BLAKE3 of nothing (the official vector). */
    char h[65];
    wai_merkle_root(leaves, 0, got);
    hex32(got, h);
    CHECK(strcmp(h, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262") == 0);
}

/* §15.1's frame and clip hashes against their preimages, little-endian. */
static void test_commitments(void) {
    const uint8_t rgb[6] = {1, 2, 3, 250, 251, 252};
    uint8_t pre[128], want[32], got[32];
    size_t n = 0;
    memcpy(pre, "wai:video-rframe", 16), n = 16;
    pre[n++] = 0x01;
    const uint8_t i7[8] = {7, 0, 0, 0, 0, 0, 0, 0};
    memcpy(pre + n, i7, 8), n += 8;
    memcpy(pre + n, rgb, 6), n += 6;
    blake3_of(pre, n, want);
    wai_frame_hash(WAI_TAG_RFRAME, 7, rgb, 6, got);
    CHECK(memcmp(got, want, 32) == 0);
    wai_frame_hash(WAI_TAG_SFRAME, 7, rgb, 6, got);
    CHECK_MSG(memcmp(got, want, 32) != 0, "the source tag is another domain");

    uint8_t frames[2][32];
    memset(frames[0], 0xaa, 32), memset(frames[1], 0x55, 32);
    static uint8_t cpre[256];
    n = 0;
    memcpy(cpre, "wai:video-clip", 14), n = 14;
    cpre[n++] = 0x01;
    const uint8_t hw[8] = {16, 0, 0, 0, 24, 0, 0, 0}, count[8] = {2, 0, 0, 0, 0, 0, 0, 0};
    memcpy(cpre + n, hw, 8), n += 8;
    memcpy(cpre + n, count, 8), n += 8;
    for (int i = 0; i < 2; i++) {
        const uint8_t idx[8] = {(uint8_t)i, 0, 0, 0, 0, 0, 0, 0};
        memcpy(cpre + n, idx, 8), n += 8;
        memcpy(cpre + n, frames[i], 32), n += 32;
    }
    blake3_of(cpre, n, want);
    wai_clip_hash(WAI_TAG_CLIP, 16, 24, 2, frames, got);
    CHECK(memcmp(got, want, 32) == 0);

    CHECK(wai_work_pixel_ops(3, 16, 24) == 3456);
    CHECK(wai_work_pixel_ops(UINT64_C(1) << 62, 2, 2) == UINT64_MAX);
    CHECK(wai_work_pixel_ops(UINT64_MAX, UINT32_MAX, UINT32_MAX) == UINT64_MAX);
    CHECK(wai_work_pixel_ops(0, 16, 24) == 0);
}

void suite_commitments(void) {
    harness_run("commitments_rfc6962_shape", test_rfc6962_shape);
    harness_run("commitments_blake3_tree", test_blake3_tree);
    harness_run("commitments_preimages", test_commitments);
}
