/* SPDX-License-Identifier: BSD-2-Clause */
/* A tiny wai.neural.bmshj2018 set and payload (test support): two
 * channels, a 24 x 20 picture (a 2 x 2 latent), and a synthesis of one
 * transposed convolution (16 x 16, stride 16, iohw) with a bias and an
 * activation, so a float64 reference is a few lines. The unit tests decode
 * it (tests/unit/test_bmshj2018.c); the fuzz targets decode against it. */
#ifndef WAI_TESTS_GEN_BMSHJ_TINY_H
#define WAI_TESTS_GEN_BMSHJ_TINY_H

#include <stddef.h>
#include <stdint.h>

#define TINY_M 2
#define TINY_H 20
#define TINY_W 24
#define TINY_LH 2
#define TINY_LW 2
#define TINY_K 16
#define TINY_SYMBOLS (TINY_M * TINY_LH * TINY_LW)
#define TINY_WEIGHTS (TINY_M * 3 * TINY_K * TINY_K + 3) /* the filter, then the bias */
#define TINY_MACS_PP 123
#define TINY_WORK_PP 4567

/* The symbols (9 and -7 through the escape), the medians, and the one
 * table both channels use: values -2 .. 2 direct, the escape last. */
extern const int32_t tiny_symbols[TINY_SYMBOLS];
extern const float tiny_medians[TINY_M];
extern const uint32_t tiny_cdf[7];

uint32_t tiny_bits_of(float f);

/* cdfs_q3.json with these kind, channels and second median's bits. */
void tiny_tables(char *out, size_t n, const char *kind, int channels, uint32_t median1_bits);
/* decoder.webnn.json: x = activation(convTranspose2d(y, w) + b), its input
 * of in_channels channels. */
void tiny_program(char *out, size_t n, int in_channels, const char *activation);
/* decoder.f32's values, from a fixed seed, in [-0.5, 0.5). */
void tiny_weights(float w[TINY_WEIGHTS]);
/* A B18F of m channels around a stream; its length. */
size_t tiny_payload(uint8_t *p, uint32_t m, const uint8_t *stream, size_t slen);
/* The payload of tiny_symbols, coded with libwai's rANS encoder, into p
 * (cap bytes); its length, 0 when it does not fit or the encoder fails. */
size_t tiny_encoded_payload(uint8_t *p, size_t cap);

#endif
