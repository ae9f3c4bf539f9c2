/* SPDX-License-Identifier: BSD-2-Clause */
/* BLAKE3 hash mode (the BLAKE3 specification, O'Connor, Aumasson, Neves,
 * Wilcox-O'Hearn, 2020), portable C, any output length.
 *
 * Input is split into 1024-byte chunks of 64-byte blocks; each chunk's
 * chaining value is a leaf of a binary tree whose parents are compressions of
 * two child values. The tree is built left to right with a stack of subtree
 * values: after chunk number n (counting from 1) is finished, one merge is
 * done per trailing zero bit of n. A chunk, or its last block, is only
 * finished once more input is known to follow, because the very last node
 * must be compressed with ROOT instead (and possibly many times, for
 * extendable output). */
#include "wai/wai_hash.h"

#include <string.h>

#define CHUNK_LEN 1024
#define BLOCK_LEN 64

/* Domain-separation flags (spec §2.1). */
#define CHUNK_START (1u << 0)
#define CHUNK_END (1u << 1)
#define PARENT (1u << 2)
#define ROOT (1u << 3)

/* Same constants as SHA-256's initial hash value (spec §2.2). */
static const uint32_t IV[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

/* Message word order for each of the 7 rounds: the spec's permutation
 * applied r times. Indexing through a constant table instead of permuting the
 * words lets the compiler resolve every index at compile time once the
 * rounds are unrolled. */
static const uint8_t SCHED[7][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8},
    {3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1},
    {10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6},
    {12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4},
    {9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7},
    {11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13},
};

static uint32_t load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void store_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* n is one of 7, 8, 12, 16, so both shifts are defined. */
#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

#define G(a, b, c, d, mx, my)             \
    do {                                  \
        v[a] = v[a] + v[b] + (mx);        \
        v[d] = ROTR(v[d] ^ v[a], 16);     \
        v[c] = v[c] + v[d];               \
        v[b] = ROTR(v[b] ^ v[c], 12);     \
        v[a] = v[a] + v[b] + (my);        \
        v[d] = ROTR(v[d] ^ v[a], 8);      \
        v[c] = v[c] + v[d];               \
        v[b] = ROTR(v[b] ^ v[c], 7);      \
    } while (0)

#define ROUND(r)                                                  \
    do {                                                          \
        G(0, 4, 8, 12, m[SCHED[r][0]], m[SCHED[r][1]]);           \
        G(1, 5, 9, 13, m[SCHED[r][2]], m[SCHED[r][3]]);           \
        G(2, 6, 10, 14, m[SCHED[r][4]], m[SCHED[r][5]]);          \
        G(3, 7, 11, 15, m[SCHED[r][6]], m[SCHED[r][7]]);          \
        G(0, 5, 10, 15, m[SCHED[r][8]], m[SCHED[r][9]]);          \
        G(1, 6, 11, 12, m[SCHED[r][10]], m[SCHED[r][11]]);        \
        G(2, 7, 8, 13, m[SCHED[r][12]], m[SCHED[r][13]]);         \
        G(3, 4, 9, 14, m[SCHED[r][14]], m[SCHED[r][15]]);         \
    } while (0)

/* The compression function (spec §2.2) on message words msg; leaves the
 * 16-word state in out, before the feed-forward, for the callers to finish
 * as they need. The work happens on local copies: through the pointers the
 * compiler would have to assume out may alias msg and keep everything in
 * memory. */
static void compress_core(uint32_t out[16], const uint32_t cv[8], const uint32_t msg[16],
                          uint64_t counter, uint32_t block_len, uint32_t flags) {
    uint32_t m[16], v[16];
    memcpy(m, msg, sizeof m);
    memcpy(v, cv, 8 * sizeof *v);
    memcpy(v + 8, IV, 4 * sizeof *v);
    v[12] = (uint32_t)counter;
    v[13] = (uint32_t)(counter >> 32);
    v[14] = block_len;
    v[15] = flags;
    ROUND(0);
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    memcpy(out, v, sizeof v);
}

static void load_block(uint32_t m[16], const uint8_t *block) {
    for (int i = 0; i < 16; i++) m[i] = load_le32(block + 4 * i);
}

/* Compression keeping only the first 8 output words: a new chaining value.
 * cv and out may be the same array. */
static void compress_cv(uint32_t out[8], const uint32_t cv[8], const uint8_t *block,
                        uint64_t counter, uint32_t block_len, uint32_t flags) {
    uint32_t m[16], v[16];
    load_block(m, block);
    compress_core(v, cv, m, counter, block_len, flags);
    for (int i = 0; i < 8; i++) out[i] = v[i] ^ v[i + 8];
}

/* Chaining value of a parent node whose children are left and right. */
static void parent_cv(uint32_t out[8], const uint32_t left[8], const uint32_t right[8],
                      const uint32_t key[8], uint32_t flags) {
    uint32_t m[16], v[16];
    memcpy(m, left, 8 * sizeof(uint32_t));
    memcpy(m + 8, right, 8 * sizeof(uint32_t));
    compress_core(v, key, m, 0, BLOCK_LEN, flags | PARENT);
    for (int i = 0; i < 8; i++) out[i] = v[i] ^ v[i + 8];
}

/* Hashes one whole chunk straight from the input (the bulk path). */
static void chunk_cv(uint32_t out[8], const uint32_t key[8], const uint8_t *chunk,
                     uint64_t counter, uint32_t flags) {
    uint32_t cv[8];
    memcpy(cv, key, sizeof cv);
    compress_cv(cv, cv, chunk, counter, BLOCK_LEN, flags | CHUNK_START);
    for (int i = 1; i < CHUNK_LEN / BLOCK_LEN - 1; i++)
        compress_cv(cv, cv, chunk + BLOCK_LEN * i, counter, BLOCK_LEN, flags);
    compress_cv(out, cv, chunk + CHUNK_LEN - BLOCK_LEN, counter, BLOCK_LEN, flags | CHUNK_END);
}

/* Adds the value of chunk number total_chunks (counting from 1) to the tree:
 * each trailing zero bit of total_chunks means a left sibling on the stack is
 * now complete and can be merged. Called only when more input follows, so
 * nothing merged here can be the root. */
static void push_chunk_cv(wai_blake3 *st, uint32_t cv[8], uint64_t total_chunks) {
    while ((total_chunks & 1) == 0 && st->stack_len > 0) {
        st->stack_len--;
        parent_cv(cv, st->stack[st->stack_len], cv, st->key, st->flags);
        total_chunks >>= 1;
    }
    /* The stack holds at most popcount(chunks) <= 54 entries for any input
     * below 2^64 bytes; the bound check keeps memory safe regardless. */
    if (st->stack_len < WAI_BLAKE3_MAX_DEPTH) {
        memcpy(st->stack[st->stack_len], cv, 8 * sizeof(uint32_t));
        st->stack_len++;
    }
}

static void reset_chunk(wai_blake3 *st) {
    memcpy(st->cv, st->key, sizeof st->cv);
    st->block_len = 0;
    st->blocks_compressed = 0;
}

static size_t chunk_len(const wai_blake3 *st) {
    return (size_t)st->blocks_compressed * BLOCK_LEN + st->block_len;
}

WAI_API void wai_blake3_init(wai_blake3 *st) {
    memset(st, 0, sizeof *st);
    memcpy(st->key, IV, sizeof st->key);
    memcpy(st->cv, IV, sizeof st->cv);
    st->flags = 0; /* hash mode: no keyed or derive-key flag */
}

WAI_API void wai_blake3_update(wai_blake3 *st, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    while (len > 0) {
        if (chunk_len(st) == CHUNK_LEN) {
            /* The open chunk is full and more input follows: its last
             * (buffered) block is CHUNK_END but not ROOT. */
            uint32_t cv[8];
            compress_cv(cv, st->cv, st->block, st->chunk_counter, BLOCK_LEN,
                        st->flags | CHUNK_END);
            st->chunk_counter++;
            push_chunk_cv(st, cv, st->chunk_counter);
            reset_chunk(st);
        }
        if (chunk_len(st) == 0) {
            /* Whole chunks straight from the input; strictly more than one
             * chunk must remain, since the last one may be the root. */
            while (len > CHUNK_LEN) {
                uint32_t cv[8];
                chunk_cv(cv, st->key, p, st->chunk_counter, st->flags);
                st->chunk_counter++;
                push_chunk_cv(st, cv, st->chunk_counter);
                p += CHUNK_LEN;
                len -= CHUNK_LEN;
            }
        }
        if (st->block_len == BLOCK_LEN) {
            /* A full buffered block with input after it, inside the chunk
             * (the chunk-full case was handled above): not the last block. */
            uint32_t start = st->blocks_compressed == 0 ? CHUNK_START : 0;
            compress_cv(st->cv, st->cv, st->block, st->chunk_counter, BLOCK_LEN,
                        st->flags | start);
            st->blocks_compressed++;
            st->block_len = 0;
        }
        if (st->block_len == 0) {
            /* Whole blocks straight from the input, keeping back the chunk's
             * final block and the final block of this input. */
            while (len > BLOCK_LEN && st->blocks_compressed < CHUNK_LEN / BLOCK_LEN - 1) {
                uint32_t start = st->blocks_compressed == 0 ? CHUNK_START : 0;
                compress_cv(st->cv, st->cv, p, st->chunk_counter, BLOCK_LEN, st->flags | start);
                st->blocks_compressed++;
                p += BLOCK_LEN;
                len -= BLOCK_LEN;
            }
        }
        size_t take = BLOCK_LEN - (size_t)st->block_len;
        if (take > len) take = len;
        memcpy(st->block + st->block_len, p, take);
        st->block_len = (uint8_t)(st->block_len + take);
        p += take;
        len -= take;
    }
}

WAI_API void wai_blake3_final(const wai_blake3 *st, uint8_t *out, size_t out_len) {
    /* The root node's inputs: (cv, message words, counter, length, flags). The
     * open chunk's last block starts as the candidate; each stacked subtree to
     * its left turns it into a parent, right to left. */
    uint32_t cv[8], m[16], v[16];
    uint8_t block[BLOCK_LEN];
    uint64_t counter = st->chunk_counter;
    uint32_t block_len = st->block_len;
    uint32_t flags = st->flags | CHUNK_END | (st->blocks_compressed == 0 ? CHUNK_START : 0);
    memcpy(cv, st->cv, sizeof cv);
    memset(block, 0, sizeof block);
    memcpy(block, st->block, st->block_len);
    load_block(m, block);
    for (size_t i = st->stack_len; i > 0; i--) {
        uint32_t right[8];
        compress_core(v, cv, m, counter, block_len, flags);
        for (int j = 0; j < 8; j++) right[j] = v[j] ^ v[j + 8];
        memcpy(m, st->stack[i - 1], 8 * sizeof(uint32_t));
        memcpy(m + 8, right, 8 * sizeof(uint32_t));
        memcpy(cv, st->key, sizeof cv);
        counter = 0;
        block_len = BLOCK_LEN;
        flags = st->flags | PARENT;
    }
    /* Extendable output: the root compression repeated with the output block
     * counter t in place of the chunk counter, all 16 words kept (spec §2.6). */
    for (uint64_t t = 0; out_len > 0; t++) {
        uint8_t buf[BLOCK_LEN];
        compress_core(v, cv, m, t, block_len, flags | ROOT);
        for (int j = 0; j < 8; j++) {
            store_le32(buf + 4 * j, v[j] ^ v[j + 8]);
            store_le32(buf + 32 + 4 * j, v[j + 8] ^ cv[j]);
        }
        size_t take = out_len < BLOCK_LEN ? out_len : BLOCK_LEN;
        memcpy(out, buf, take);
        out += take;
        out_len -= take;
    }
}

WAI_API void wai_blake3_oneshot(const void *data, size_t len, uint8_t out[WAI_BLAKE3_BYTES]) {
    wai_blake3 st;
    wai_blake3_init(&st);
    wai_blake3_update(&st, data, len);
    wai_blake3_final(&st, out, WAI_BLAKE3_BYTES);
}
