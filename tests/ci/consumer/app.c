/* SPDX-License-Identifier: BSD-2-Clause */
/* The README's first program: decode a WIV1 clip with libwai alone. */
#include <stdio.h>
#include <wai/wai_decode.h>

int main(int argc, char **argv) {
    static unsigned char buf[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    wai_context *ctx = NULL;
    wai_decoder *d = NULL;
    wai_output o = {0};
    unsigned frames = 0, w = 0, h = 0;
    wai_status st = wai_context_create(NULL, &ctx);
    if (st == WAI_ok) st = wai_decoder_create(ctx, NULL, &d);
    if (st == WAI_ok) st = wai_decoder_send(d, buf, n, NULL);
    for (; st == WAI_ok && wai_decoder_receive(d, &o) == WAI_ok && o.kind; frames++)
        w = o.width, h = o.height;
    printf("%s: %s, %u frames of %ux%u\n", argv[1], wai_status_name(st), frames, w, h);
    wai_decoder_destroy(d);
    wai_context_destroy(ctx);
    return st != WAI_ok || !frames;
}
