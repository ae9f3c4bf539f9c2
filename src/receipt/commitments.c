/* SPDX-License-Identifier: BSD-2-Clause */
/* The receipts' commitments (commitments.h). */
#include "receipt/commitments.h"

#include <string.h>

#include "common/checked.h"
#include "common/reader.h"

static void put_u32(wai_blake3 *b, uint32_t v) {
    uint8_t x[4];
    wai_store_u32le(x, v);
    wai_blake3_update(b, x, 4);
}

static void put_u64(wai_blake3 *b, uint64_t v) {
    uint8_t x[8];
    wai_store_u64le(x, v);
    wai_blake3_update(b, x, 8);
}

static void open_tag(wai_blake3 *b, const char *tag) {
    static const uint8_t version = 0x01;
    wai_blake3_init(b);
    wai_blake3_update(b, tag, strlen(tag));
    wai_blake3_update(b, &version, 1);
}

void wai_frame_hash(const char *tag, uint64_t i, const uint8_t *rgb, size_t len, uint8_t out[32]) {
    wai_blake3 b;
    open_tag(&b, tag);
    put_u64(&b, i);
    wai_blake3_update(&b, rgb, len);
    wai_blake3_final(&b, out, 32);
}

void wai_clip_hash(const char *tag, uint32_t h, uint32_t w, uint64_t n, const uint8_t (*frames)[32],
                   uint8_t out[32]) {
    wai_blake3 b;
    open_tag(&b, tag);
    put_u32(&b, h);
    put_u32(&b, w);
    put_u64(&b, n);
    for (uint64_t i = 0; i < n; i++) {
        put_u64(&b, i);
        wai_blake3_update(&b, frames[i], 32);
    }
    wai_blake3_final(&b, out, 32);
}

/* One hash of the tree: BLAKE3, or SHA-256 for RFC 6962's own vectors. */
typedef struct tree_hash {
    int sha256;
    wai_blake3 b3;
    wai_sha256 s2;
} tree_hash;

static void th_init(tree_hash *t, int sha256) {
    t->sha256 = sha256;
    if (sha256) wai_sha256_init(&t->s2);
    else wai_blake3_init(&t->b3);
}

static void th_update(tree_hash *t, const void *p, size_t n) {
    if (t->sha256) wai_sha256_update(&t->s2, p, n);
    else wai_blake3_update(&t->b3, p, n);
}

static void th_final(tree_hash *t, uint8_t out[32]) {
    if (t->sha256) wai_sha256_final(&t->s2, out);
    else wai_blake3_final(&t->b3, out, 32);
}

/* The leaves: n byte strings (ptrs and lens), or n hashes of 32 bytes in a
 * row (flat). */
typedef struct leaf_list {
    const uint8_t *const *ptrs;
    const size_t *lens;
    const uint8_t *flat;
} leaf_list;

/* The root of leaves [at, at + n), n >= 1 (the recursion is log2 n deep). */
static void subtree(int sha256, const leaf_list *l, uint64_t at, uint64_t n, uint8_t out[32]) {
    tree_hash t;
    th_init(&t, sha256);
    if (n == 1) {
        static const uint8_t leaf_prefix = 0x00;
        th_update(&t, &leaf_prefix, 1);
        if (l->ptrs) th_update(&t, l->ptrs[at], l->lens[at]);
        else th_update(&t, l->flat + 32 * at, 32);
    } else {
        uint64_t k = 1;
        while (k * 2 < n) k *= 2;   /* the largest power of two under n */
        uint8_t left[32], right[32];
        subtree(sha256, l, at, k, left);
        subtree(sha256, l, at + k, n - k, right);
        static const uint8_t node_prefix = 0x01;
        th_update(&t, &node_prefix, 1);
        th_update(&t, left, 32);
        th_update(&t, right, 32);
    }
    th_final(&t, out);
}

static void root(int sha256, const leaf_list *l, uint64_t n, uint8_t out[32]) {
    if (n > 0) {
        subtree(sha256, l, 0, n, out);
        return;
    }
    tree_hash t;   /* no leaf: the hash of the empty string */
    th_init(&t, sha256);
    th_final(&t, out);
}

void wai_merkle_root_of(int sha256, const uint8_t *const *leaf, const size_t *len, uint64_t n,
                        uint8_t out[32]) {
    const leaf_list l = {leaf, len, NULL};
    root(sha256, &l, n, out);
}

void wai_merkle_root(const uint8_t (*leaves)[32], uint64_t n, uint8_t out[32]) {
    const leaf_list l = {NULL, NULL, n ? leaves[0] : NULL};
    root(0, &l, n, out);
}

uint64_t wai_work_pixel_ops(uint64_t frames, uint32_t h, uint32_t w) {
    return wai_sat_mul(wai_sat_mul3(frames, h, w), 3);
}
