/* SPDX-License-Identifier: BSD-2-Clause */
/* See bmshj_tiny.h. */
#include "gen/bmshj_tiny.h"

#include <stdio.h>
#include <string.h>

#include "wai/wai_write.h"

const int32_t tiny_symbols[TINY_SYMBOLS] = {0, 1, -2, 2, 9, -1, 0, -7};
const float tiny_medians[TINY_M] = {0.25f, -0.5f};
const uint32_t tiny_cdf[7] = {0, 4096, 12288, 45056, 53248, 61440, 65536};

uint32_t tiny_bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

void tiny_tables(char *out, size_t n, const char *kind, int channels, uint32_t median1_bits) {
    char row[128];
    const uint32_t *c = tiny_cdf;
    snprintf(row, sizeof row, "[%u, %u, %u, %u, %u, %u, %u]", c[0], c[1], c[2], c[3], c[4], c[5],
             c[6]);
    snprintf(out, n,
             "{\"kind\": \"%s\", \"channels\": %d, \"cdfs\": [%s, %s], "
             "\"offsets\": [-2, -2], "
             "\"medians\": [%u, %u], \"macs_per_position\": %d, "
             "\"working_bytes_per_position\": %d}",
             kind, channels, row, row, tiny_bits_of(tiny_medians[0]), median1_bits, TINY_MACS_PP,
             TINY_WORK_PP);
}

void tiny_program(char *out, size_t n, int in_channels, const char *activation) {
    snprintf(out, n,
             "{\"kind\": \"wai-webnn-graph/1\", "
             "\"inputs\": {\"y\": {\"dataType\": \"float32\", \"shape\": [1, %d, "
             "1, 1]}}, "
             "\"constants\": {\"w\": {\"dataType\": \"float32\", \"shape\": [%d, "
             "3, 16, 16], "
             "\"offset\": 0}, \"b\": {\"dataType\": \"float32\", \"shape\": [3], "
             "\"offset\": %d}}, "
             "\"operators\": [{\"name\": \"convTranspose2d\", \"arguments\": "
             "[{\"input\": \"y\"}, "
             "{\"filter\": \"w\"}, {\"options\": {\"strides\": [16, 16], "
             "\"bias\": \"b\"}}], "
             "\"outputs\": \"t\"}, {\"name\": \"%s\", \"arguments\": "
             "[{\"input\": \"t\"}], "
             "\"outputs\": \"x\"}], \"outputs\": {\"x\": \"x\"}}",
             in_channels, in_channels, TINY_M * 3 * TINY_K * TINY_K * 4, activation);
}

void tiny_weights(float w[TINY_WEIGHTS]) {
    uint64_t x = 0xb18f;
    for (size_t i = 0; i < TINY_WEIGHTS; i++) {
        /* splitmix64 */
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        w[i] = (float)((double)(z >> 11) / 9007199254740992.0 - 0.5);
    }
}

size_t tiny_payload(uint8_t *p, uint32_t m, const uint8_t *stream, size_t slen) {
    memcpy(p, "B18F\x01\0\0\0", 8);
    const uint32_t f[6] = {TINY_H, TINY_W, m, TINY_LH, TINY_LW, (uint32_t)slen};
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 4; b++) p[8 + 4 * i + b] = (uint8_t)(f[i] >> (8 * b));
    if (slen) memcpy(p + 32, stream, slen);
    return 32 + slen;
}

size_t tiny_encoded_payload(uint8_t *p, size_t cap) {
    const uint32_t *cdfs[2] = {tiny_cdf, tiny_cdf};
    const size_t lens[2] = {7, 7};
    const int32_t offs[2] = {-2, -2};
    uint32_t table_of[TINY_SYMBOLS];
    for (int i = 0; i < TINY_SYMBOLS; i++) table_of[i] = (uint32_t)(i / (TINY_LH * TINY_LW));
    uint8_t *stream;
    size_t slen, n = 0;
    if (wai_rans_encode_symbols_tables(NULL, 2, cdfs, lens, offs, table_of, tiny_symbols,
                                       TINY_SYMBOLS, &stream, &slen) != WAI_ok)
        return 0;
    if (32 + slen <= cap) n = tiny_payload(p, TINY_M, stream, slen);
    wai_write_free(NULL, stream);
    return n;
}
