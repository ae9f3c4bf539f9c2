/* SPDX-License-Identifier: BSD-2-Clause */
/* What the picture encoders' unit tests share (encode_util.h). */
#include "encode_util.h"

#include <stdlib.h>

uint8_t *encode_picture(uint32_t h, uint32_t w) {
    uint8_t *p = malloc((size_t)h * w * 3);
    for (uint32_t y = 0; p && y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *px = p + ((size_t)y * w + x) * 3;
            px[0] = (uint8_t)(40 + 4 * x);
            px[1] = (uint8_t)(200 - 3 * y);
            px[2] = (uint8_t)(x > y ? 220 : 30);
        }
    return p;
}

wai_context *encode_context(unsigned threads, wai_allocator *a) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads;
    if (a) s.allocator = *a;
    wai_context *ctx = NULL;
    CHECK(wai_context_create(&s, &ctx) == WAI_ok);
    return ctx;
}
