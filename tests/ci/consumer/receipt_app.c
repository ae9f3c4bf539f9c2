/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_receipt alone (beside libwai): a decode receipt of a WIV1 clip,
 * sealed with a stand-in signer (no cryptography: a program's own Ed25519
 * plugs in the same way), written as JSON, read back and re-derived from
 * the payload. */
#include <stdio.h>
#include <string.h>
#include <wai/wai_receipt.h>

/* The stand-in signature: the message's length and first bytes, repeated. */
static void stand_in(const uint8_t *msg, size_t len, uint8_t sig[64]) {
    for (size_t i = 0; i < 64; i++) sig[i] = (uint8_t)(len + (len ? msg[i % len] : 0) + i);
}
static int sign(void *opaque, const uint8_t *msg, size_t len, uint8_t sig[64]) {
    (void)opaque;
    stand_in(msg, len, sig);
    return 0; /* signed */
}
static int verify(void *opaque, const uint8_t pubkey[32], const uint8_t *msg, size_t len,
                  const uint8_t sig[64]) {
    uint8_t want[64];
    (void)opaque, (void)pubkey;
    stand_in(msg, len, want);
    return memcmp(want, sig, 64) == 0;
}

int main(int argc, char **argv) {
    static unsigned char buf[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    wai_context *ctx = NULL;
    wai_receipt *r = NULL, *back = NULL;
    char *json = NULL;
    size_t json_len = 0;
    wai_receipt_signer signer = {{0}, "consumer", 8, sign, NULL};
    const wai_receipt_verifier verifier = {verify, NULL};
    wai_receipt_problem p;
    wai_status st = wai_context_create(NULL, &ctx);
    if (st == WAI_ok) st = wai_receipt_seal_decode(ctx, buf, n, NULL, &signer, &r);
    if (st == WAI_ok) st = wai_receipt_write_json(ctx, r, &json, &json_len);
    if (st == WAI_ok) st = wai_receipt_read_json(ctx, json, json_len, &back, &p);
    if (st == WAI_ok) st = wai_receipt_rederive(ctx, back, buf, n, NULL, 0, &verifier, NULL, &p);
    printf("%s: receipt %s, %llu frames, %zu bytes of JSON\n", argc > 1 ? argv[1] : "(none)",
           wai_status_name(st), back ? (unsigned long long)wai_receipt_view(back)->n_frames : 0ull,
           json_len);
    wai_receipt_json_free(ctx, json);
    wai_receipt_destroy(r);
    wai_receipt_destroy(back);
    wai_context_destroy(ctx);
    return st != WAI_ok;
}
