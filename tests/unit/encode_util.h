/* SPDX-License-Identifier: BSD-2-Clause */
/* What the picture encoders' unit tests share (test_hyper_encode.c,
 * test_mlic_encode.c): a picture to code, a context, and the refusals of
 * their arguments. */
#ifndef WAI_TESTS_UNIT_ENCODE_UTIL_H
#define WAI_TESTS_UNIT_ENCODE_UTIL_H

#include <stdint.h>

#include "harness.h"
#include "wai/wai_set.h"

/* A smooth h x w picture with an edge: something for a codec to spend bits
 * on (free() it). */
uint8_t *encode_picture(uint32_t h, uint32_t w);

/* A context of threads on allocator a (NULL: libc's); NULL, a failed
 * check, when it cannot be made. */
wai_context *encode_context(unsigned threads, wai_allocator *a);

#endif
