/* SPDX-License-Identifier: BSD-2-Clause */
/* A program outside the tree that uses the installed libwai and
 * libwai_write: a status name, the version, and a lossless clip encoded by
 * libwai_write and decoded back by libwai. */
#include <stdio.h>
#include <string.h>

#include <wai/wai.h>
#include <wai/wai_decode.h>
#include <wai/wai_write.h>

enum { H = 5, W = 7, N = 2 };

static int round_trip(void) {
    static uint8_t frames[N][H * W * 3];
    const uint8_t *fp[N];
    for (int f = 0; f < N; f++) {
        for (int i = 0; i < H * W * 3; i++) frames[f][i] = (uint8_t)(i * 7 + f * 13);
        fp[f] = frames[f];
    }
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.block = 4;
    wai_motion_encode_result r;
    if (wai_motion_encode(NULL, fp, N, H, W, &p, &r) != WAI_ok) return 1;
    wai_context *ctx = NULL;
    wai_decoder *dec = NULL;
    int bad = wai_context_create(NULL, &ctx) != WAI_ok || wai_decoder_create(ctx, NULL, &dec) != WAI_ok ||
              wai_decoder_send(dec, r.payload, r.payload_len, NULL) != WAI_ok;
    for (int f = 0; !bad && f < N; f++) {
        wai_output o;
        bad = wai_decoder_receive(dec, &o) != WAI_ok || o.size != sizeof frames[f] ||
              memcmp(o.data, frames[f], o.size) != 0;
    }
    printf("consumer: %u-byte clip encoded and decoded %s\n", (unsigned)r.payload_len,
           bad ? "WRONG" : "exactly");
    wai_decoder_destroy(dec);
    wai_context_destroy(ctx);
    wai_motion_encode_result_free(NULL, &r);
    return bad;
}

int main(void) {
    const char *name = wai_status_name(WAI_stream_exhausted);
    if (!name || strcmp(name, "stream_exhausted") != 0) {
        printf("wai_status_name(WAI_stream_exhausted) = %s\n", name ? name : "(null)");
        return 1;
    }
    if (wai_version_number() != WAI_VERSION_NUMBER || strcmp(wai_version(), WAI_VERSION_STRING)) {
        printf("linked libwai %s (%u), headers %s\n", wai_version(), wai_version_number(),
               WAI_VERSION_STRING);
        return 1;
    }
    printf("consumer ok: %s (libwai %s)\n", name, wai_version());
    return round_trip();
}
