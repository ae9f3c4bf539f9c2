/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: receipts sealed from a payload and verified back
 * (integer-payloads §15, wai_receipt.h): seal, the JSON form written and
 * read, the consistency check and re-derivation from the payload, with a
 * stand-in signature (a BLAKE3 keyed by nothing: libsodium's Ed25519 is
 * libsodium's to fuzz) and a meter that counts.
 *
 * Input: byte 0 the parent's presence and the meter's figure, the rest a
 * wai.video.int_motion clip.
 *
 * Invariants: a clip that decodes seals; its receipt written and read back
 * is the same receipt, consistent, its signature the stand-in's, and
 * re-derived from the same clip; from the clip with a byte changed it is
 * not re-derived (or the changed clip does not decode). A clip that does
 * not decode is refused with its decode's status. */
#include <stdlib.h>
#include <string.h>

#include "wai/wai_decode.h"
#include "wai/wai_hash.h"
#include "wai/wai_receipt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) __builtin_trap();
}

/* The stand-in signature: BLAKE3 of the message, 64 bytes. */
static int sign(void *opaque, const uint8_t *msg, size_t len, uint8_t sig[64]) {
    (void)opaque;
    wai_blake3 h;
    wai_blake3_init(&h);
    wai_blake3_update(&h, msg, len);
    wai_blake3_final(&h, sig, 64);
    return 1;
}

static int verify(void *opaque, const uint8_t pk[32], const uint8_t *msg, size_t len,
                  const uint8_t sig[64]) {
    (void)opaque, (void)pk;
    uint8_t want[64];
    sign(NULL, msg, len, want);
    return memcmp(want, sig, 64) == 0;
}

/* A meter that reports a figure that coheres: 5 J over a window. */
static void begin(void *opaque) { (void)opaque; }
static void end(void *opaque, wai_energy *out) {
    const uint8_t *mode = opaque;
    memset(out, 0, sizeof *out);
    if (*mode & 2) {
        out->joules_micro = 5000000;
        out->cls = WAI_ENERGY_ON_CHIP_COUNTER;
        out->relative_ppm = 100000;
        out->window_us = 1000;
        out->filtering = WAI_FILTERING_UNKNOWN;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > (1u << 16)) return 0;
    const uint8_t mode = data[0];
    const uint8_t *clip = data + 1;
    size_t len = size - 1;
    wai_settings st;
    wai_settings_default(&st);
    st.n_threads = 1;
    wai_context *ctx;
    if (wai_context_create(&st, &ctx) != WAI_ok) return 0;
    wai_receipt_signer signer = {{7}, "fuzz", 4, sign, NULL};
    wai_receipt_verifier verifier = {verify, NULL};
    wai_energy_meter meter = {begin, end, (void *)&mode};
    wai_receipt_seal_options so;
    wai_receipt_seal_options_default(&so);
    uint8_t parent[32] = {1, 2, 3};
    if (mode & 1) so.parent = parent;
    so.meter = &meter;
    so.max_cost = (uint64_t)1 << 22;
    so.max_memory = (uint64_t)1 << 26;
    wai_receipt *r = NULL;
    wai_status s = wai_receipt_seal_decode(ctx, clip, len, &so, &signer, &r);
    if (s != WAI_ok) {
        require(!r && wai_status_kind_of(s) != WAI_KIND_OK);
        wai_context_destroy(ctx);
        return 0;
    }
    char *json = NULL;
    size_t jl = 0;
    require(wai_receipt_write_json(ctx, r, &json, &jl) == WAI_ok);
    wai_receipt *back = NULL;
    wai_receipt_problem p;
    require(wai_receipt_read_json(ctx, json, jl, &back, &p) == WAI_ok);
    require(memcmp(wai_receipt_view(back)->receipt_hash, wai_receipt_view(r)->receipt_hash, 32) == 0);
    wai_receipt_check_options co;
    wai_receipt_check_options_default(&co);
    co.max_cost = so.max_cost;
    co.max_memory = so.max_memory;
    require(wai_receipt_check(back, &verifier, &co, &p) == WAI_ok);
    require(wai_receipt_rederive(ctx, back, clip, len, NULL, 0, &verifier, &co, &p) == WAI_ok);
    if (len > 0) {
        uint8_t *other = malloc(len);
        require(other != NULL);
        memcpy(other, clip, len);
        other[(mode >> 2) % len] ^= 0x01;
        require(wai_receipt_rederive(ctx, back, other, len, NULL, 0, &verifier, &co, &p) != WAI_ok);
        free(other);
    }
    wai_receipt_json_free(ctx, json);
    wai_receipt_destroy(back);
    wai_receipt_destroy(r);
    wai_context_destroy(ctx);
    return 0;
}
