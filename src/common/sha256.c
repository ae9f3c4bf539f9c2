/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 per FIPS 180-4, plus the lowercase-hex helper shared by both hashes.
 *
 * Whole 64-byte blocks are compressed straight from the caller's buffer; only
 * a partial block at either end of an update goes through st->block. All
 * word loads and stores are explicit big-endian byte shuffles, so the code is
 * the same on every host byte order and never reads through a cast pointer. */
#include "wai/wai_hash.h"

#include <string.h>

/* FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots
 * of the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

/* FIPS 180-4 §5.3.3: the initial hash value. */
static const uint32_t H0[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

static uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* n is in 1..31 at every use, so the shifts are always defined. */
#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

/* One round with the eight working variables renamed instead of shifted:
 * the new `a` lands in h's variable and the new `e` in d's, so the next
 * round is the same macro with the names rotated by one. */
#define RND(a, b, c, d, e, f, g, h, k, w)                                \
    do {                                                                 \
        uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + (k) + (w);         \
        (d) += t1_;                                                      \
        (h) = t1_ + BSIG0(a) + MAJ(a, b, c);                             \
    } while (0)

/* Eight rounds, the names coming back to where they started. */
#define RND8(j, i0, W)                                                   \
    do {                                                                 \
        RND(a, b, c, d, e, f, g, h, K[(j) + (i0) + 0], W((i0) + 0));     \
        RND(h, a, b, c, d, e, f, g, K[(j) + (i0) + 1], W((i0) + 1));     \
        RND(g, h, a, b, c, d, e, f, K[(j) + (i0) + 2], W((i0) + 2));     \
        RND(f, g, h, a, b, c, d, e, K[(j) + (i0) + 3], W((i0) + 3));     \
        RND(e, f, g, h, a, b, c, d, K[(j) + (i0) + 4], W((i0) + 4));     \
        RND(d, e, f, g, h, a, b, c, K[(j) + (i0) + 5], W((i0) + 5));     \
        RND(c, d, e, f, g, h, a, b, K[(j) + (i0) + 6], W((i0) + 6));     \
        RND(b, c, d, e, f, g, h, a, K[(j) + (i0) + 7], W((i0) + 7));     \
    } while (0)

/* Message words: the first 16 straight from the block; after that the
 * §6.2.2 recurrence over a 16-word ring (w[i-16] is the slot overwritten). */
#define W_LOAD(i) (w[i] = load_be32(p + 4 * (i)))
#define W_NEXT(i) \
    (w[(i) & 15] += SSIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] + SSIG0(w[((i) + 1) & 15]))

/* Compresses nblocks consecutive 64-byte blocks into st (FIPS 180-4 §6.2.2). */
static void sha256_blocks(uint32_t st[8], const uint8_t *p, size_t nblocks) {
    while (nblocks--) {
        uint32_t w[16];
        uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
        uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
        RND8(0, 0, W_LOAD);
        RND8(0, 8, W_LOAD);
        for (int j = 16; j < 64; j += 16) {
            RND8(j, 0, W_NEXT);
            RND8(j, 8, W_NEXT);
        }
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        st[5] += f;
        st[6] += g;
        st[7] += h;
        p += 64;
    }
}

WAI_API void wai_sha256_init(wai_sha256 *st) {
    memcpy(st->h, H0, sizeof st->h);
    st->total = 0;
    st->used = 0;
    memset(st->block, 0, sizeof st->block);
}

WAI_API void wai_sha256_update(wai_sha256 *st, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    if (len == 0) return; /* data may be NULL then; memcpy must not see it */
    st->total += (uint64_t)len;
    if (st->used > 0) {
        size_t take = 64 - (size_t)st->used;
        if (take > len) take = len;
        memcpy(st->block + st->used, p, take);
        st->used += (uint32_t)take;
        p += take;
        len -= take;
        if (st->used < 64) return;
        sha256_blocks(st->h, st->block, 1);
        st->used = 0;
    }
    if (len >= 64) {
        size_t n = len / 64;
        sha256_blocks(st->h, p, n);
        p += n * 64;
        len -= n * 64;
    }
    if (len > 0) {
        memcpy(st->block, p, len);
        st->used = (uint32_t)len;
    }
}

WAI_API void wai_sha256_final(wai_sha256 *st, uint8_t out[WAI_SHA256_BYTES]) {
    /* Pads a copy, so *st is left as it was: final may be called again, and
     * more input may follow, the same contract as wai_blake3_final. */
    uint32_t h[8];
    uint8_t block[64];
    /* §5.1.1: a 1 bit, zeros to 56 mod 64, then the bit length big-endian.
     * The length is mod 2^64 bits, as the standard's 64-bit field holds. */
    uint64_t bits = st->total << 3;
    size_t used = st->used;
    memcpy(h, st->h, sizeof h);
    memcpy(block, st->block, used);
    block[used++] = 0x80;
    if (used > 56) {
        memset(block + used, 0, 64 - used);
        sha256_blocks(h, block, 1);
        used = 0;
    }
    memset(block + used, 0, 56 - used);
    store_be32(block + 56, (uint32_t)(bits >> 32));
    store_be32(block + 60, (uint32_t)bits);
    sha256_blocks(h, block, 1);
    for (int i = 0; i < 8; i++) store_be32(out + 4 * i, h[i]);
}

WAI_API void wai_sha256_oneshot(const void *data, size_t len, uint8_t out[WAI_SHA256_BYTES]) {
    wai_sha256 st;
    wai_sha256_init(&st);
    wai_sha256_update(&st, data, len);
    wai_sha256_final(&st, out);
}

WAI_API void wai_hex(const uint8_t *bytes, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}
