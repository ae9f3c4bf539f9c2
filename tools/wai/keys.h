/* SPDX-License-Identifier: BSD-2-Clause */
/* Key files of `wai keygen`, `wai receipt` and `wai encode --receipt`: a
 * secret key file holds its Ed25519 seed, a public key file its key, each
 * as 64 lowercase hexadecimal digits and a newline (docs/receipts.md). */
#ifndef WAI_TOOLS_KEYS_H
#define WAI_TOOLS_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* 1 and out[32] from 64 hexadecimal digits, surrounded by whitespace or
 * not; 0 otherwise. */
int keys_parse_hex32(const char *s, size_t n, uint8_t out[32]);

/* Reads a key file (at most 4 KiB) into out[32]; 0, or prints
 * "wai COMMAND: PATH: reason" and returns -1. */
int keys_read(const char *command, const char *path, uint8_t out[32]);

/* A public key: a file, or 64 hexadecimal digits given as they are. */
int keys_read_public(const char *command, const char *arg, uint8_t out[32]);

#endif
