/* SPDX-License-Identifier: BSD-2-Clause */
/* Signing payloads and receipt hashes (signing.h). One writer sizes and
 * fills: with no room it only counts. */
#include "receipt/signing.h"

#include <string.h>

#include "common/checked.h"
#include "wai/wai_hash.h"

typedef struct writer {
    uint8_t *out;
    size_t cap, len;
} writer;

static void put(writer *w, const void *p, size_t n) {
    if (n == 0) return;
    if (w->out && w->len + n <= w->cap) memcpy(w->out + w->len, p, n);
    w->len += n;
}

static void put_be(writer *w, uint64_t v, int bytes) {
    uint8_t b[8];
    for (int i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    put(w, b, (size_t)bytes);
}

/* §15.1's class encoding: the tag, then the evidence classes 4 and 5 carry. */
static void put_class(writer *w, const wai_energy *e) {
    put_be(w, (uint64_t)e->cls, 1);
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER || e->cls == WAI_ENERGY_CALIBRATED_INSTRUMENT) {
        put_be(w, e->relative_ppm, 4);
        put_be(w, e->window_us, 8);
    }
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER) put_be(w, e->filtering, 1);
    if (e->cls == WAI_ENERGY_CALIBRATED_INSTRUMENT) {
        put_be(w, e->calibration_ref_len, 4);
        put(w, e->calibration_ref, e->calibration_ref_len);
    }
}

size_t wai_receipt_signing_payload(const wai_receipt_info *r, uint8_t *out, size_t cap) {
    if (!wai_fits_u32(r->signer_id_len) || !wai_fits_u32(r->energy.calibration_ref_len)) return 0;
    writer w = {out, cap, 0};
    const int enc = r->kind == WAI_RECEIPT_ENCODE;
    const char *tag = enc ? "wai:video-encode-receipt" : "wai:video-receipt";
    put(&w, tag, strlen(tag));
    put_be(&w, 0x01, 1);
    put(&w, r->codestream_hash, 32);
    put(&w, r->clip_hash, 32);
    put_be(&w, r->h, 4);
    put_be(&w, r->w, 4);
    if (!enc) put(&w, r->merkle_root, 32);
    put_be(&w, r->n_frames, 8);
    if (enc) {
        put_be(&w, r->block, 4);
        put_be(&w, r->search, 4);
        put_be(&w, r->mv_precision, 1);
        put_be(&w, r->q, 4);
        put_be(&w, r->sse, 8);
    }
    put_be(&w, r->work_pixel_ops, 8);
    put_be(&w, r->energy.joules_micro, 8);
    put_class(&w, &r->energy);
    put_be(&w, r->has_parent ? 1 : 0, 1);
    if (r->has_parent) put(&w, r->parent, 32);
    for (uint64_t i = 0; i < r->n_frames; i++) {
        put_be(&w, i, 8);
        put(&w, r->frames[i], 32);
    }
    put(&w, r->signer_pubkey, 32);
    put_be(&w, r->signer_id_len, 4);
    put(&w, r->signer_id, r->signer_id_len);
    return w.len;
}

void wai_receipt_hash(wai_receipt_kind kind, const uint8_t *payload, size_t len,
                      const uint8_t sig[64], uint8_t out[32]) {
    const char *tag = kind == WAI_RECEIPT_ENCODE ? "wai:video-encode-receipt-id"
                                                 : "wai:video-receipt-id";
    static const uint8_t version = 0x01;
    wai_blake3 b;
    wai_blake3_init(&b);
    wai_blake3_update(&b, tag, strlen(tag));
    wai_blake3_update(&b, &version, 1);
    wai_blake3_update(&b, payload, len);
    wai_blake3_update(&b, sig, 64);
    wai_blake3_final(&b, out, 32);
}
