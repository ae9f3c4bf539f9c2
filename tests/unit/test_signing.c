/* SPDX-License-Identifier: BSD-2-Clause */
/* The receipts' signing payloads and receipt hashes (src/receipt/signing.c,
 * integer-payloads §15.1, §15.3): each payload against the bytes written
 * out here from §15's text (big-endian, in its order), for a decode and an
 * encode receipt and every class's evidence, sizing against filling, and
 * the receipt hash against its preimage. */
#include <string.h>

#include "harness.h"
#include "receipt/signing.h"
#include "wai/wai_hash.h"

typedef struct buf {
    uint8_t b[2048];
    size_t n;
} buf;

static void add(buf *x, const void *p, size_t n) {
    if (n) memcpy(x->b + x->n, p, n);
    x->n += n;
}

static void be(buf *x, uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) x->b[x->n++] = (uint8_t)(v >> (8 * i));
}

static void fill(uint8_t *p, size_t n, uint8_t v) {
    memset(p, v, n);
}

static uint8_t frames[3][32];

static wai_receipt_info base(wai_receipt_kind kind) {
    wai_receipt_info r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    fill(r.codestream_hash, 32, 0xc0);
    fill(r.clip_hash, 32, 0xc1);
    fill(r.merkle_root, 32, 0xc2);
    r.h = 16, r.w = 24, r.n_frames = 3, r.frames = frames;
    r.block = 8, r.search = 2, r.q = 3, r.mv_precision = 2, r.sse = 0x0102030405060708u;
    r.work_pixel_ops = 3456;
    fill(r.signer_pubkey, 32, 0xd0);
    r.signer_id = "libwai-test", r.signer_id_len = 11;
    return r;
}

/* §15's text, written out. */
static void expected(const wai_receipt_info *r, buf *x) {
    x->n = 0;
    const int enc = r->kind == WAI_RECEIPT_ENCODE;
    if (enc) add(x, "wai:video-encode-receipt", 24);
    else add(x, "wai:video-receipt", 17);
    be(x, 1, 1);
    add(x, r->codestream_hash, 32);
    add(x, r->clip_hash, 32);
    be(x, r->h, 4), be(x, r->w, 4);
    if (!enc) add(x, r->merkle_root, 32);
    be(x, r->n_frames, 8);
    if (enc) be(x, r->block, 4), be(x, r->search, 4), be(x, r->mv_precision, 1), be(x, r->q, 4),
        be(x, r->sse, 8);
    be(x, r->work_pixel_ops, 8);
    be(x, r->energy.joules_micro, 8);
    be(x, (uint64_t)r->energy.cls, 1);
    if (r->energy.cls == 4) be(x, r->energy.relative_ppm, 4), be(x, r->energy.window_us, 8),
        be(x, r->energy.filtering, 1);
    if (r->energy.cls == 5) {
        be(x, r->energy.relative_ppm, 4), be(x, r->energy.window_us, 8);
        be(x, r->energy.calibration_ref_len, 4);
        add(x, r->energy.calibration_ref, r->energy.calibration_ref_len);
    }
    if (r->has_parent) be(x, 1, 1), add(x, r->parent, 32);
    else be(x, 0, 1);
    for (uint64_t i = 0; i < r->n_frames; i++) be(x, i, 8), add(x, r->frames[i], 32);
    add(x, r->signer_pubkey, 32);
    be(x, r->signer_id_len, 4);
    add(x, r->signer_id, r->signer_id_len);
}

static void check_one(const wai_receipt_info *r, const char *what) {
    static buf want;
    static uint8_t got[2048];
    expected(r, &want);
    const size_t size = wai_receipt_signing_payload(r, NULL, 0);
    const size_t n = wai_receipt_signing_payload(r, got, sizeof got);
    CHECK_MSG(size == want.n && n == want.n && memcmp(got, want.b, n) == 0, "%s: the payload", what);
}

static void test_payloads(void) {
    for (int i = 0; i < 3; i++) fill(frames[i], 32, (uint8_t)(0xa0 + i));
    for (int k = 0; k < 2; k++) {
        const wai_receipt_kind kind = k ? WAI_RECEIPT_ENCODE : WAI_RECEIPT_DECODE;
        wai_receipt_info r = base(kind);
        check_one(&r, "unmetered");
        r.energy = (wai_energy){5000, WAI_ENERGY_ESTIMATOR, 0, 0, 0, NULL, 0};
        check_one(&r, "estimator");
        r.energy = (wai_energy){5000, WAI_ENERGY_ON_CHIP_COUNTER, 60000, 1000000, 2, NULL, 0};
        check_one(&r, "on-chip counter");
        r.energy = (wai_energy){5000, WAI_ENERGY_CALIBRATED_INSTRUMENT, 1000, 250000, 0, "lab-7", 5};
        r.has_parent = 1;
        fill(r.parent, 32, 0xee);
        check_one(&r, "calibrated instrument, with a parent");
        r.signer_id_len = 0, r.signer_id = NULL, r.n_frames = 0;
        check_one(&r, "no frame, no signer id");
    }
    /* A decode receipt's is not an encode receipt's. */
    wai_receipt_info d = base(WAI_RECEIPT_DECODE), e = base(WAI_RECEIPT_ENCODE);
    CHECK(wai_receipt_signing_payload(&d, NULL, 0) != wai_receipt_signing_payload(&e, NULL, 0));
    /* A length field that cannot hold the signer id. */
    if (sizeof(size_t) > 4) {
        d.signer_id_len = (size_t)UINT32_MAX + 1;
        CHECK(wai_receipt_signing_payload(&d, NULL, 0) == 0);
    }
}

static void test_receipt_hash(void) {
    for (int i = 0; i < 3; i++) fill(frames[i], 32, (uint8_t)(0xa0 + i));
    wai_receipt_info r = base(WAI_RECEIPT_DECODE);
    static uint8_t payload[2048], pre[4096];
    const size_t n = wai_receipt_signing_payload(&r, payload, sizeof payload);
    uint8_t sig[64], got[32], want[32];
    fill(sig, 64, 0x5a);
    size_t m = 0;
    memcpy(pre, "wai:video-receipt-id", 20), m = 20;
    pre[m++] = 0x01;
    memcpy(pre + m, payload, n), m += n;
    memcpy(pre + m, sig, 64), m += 64;
    wai_blake3 b;
    wai_blake3_init(&b);
    wai_blake3_update(&b, pre, m);
    wai_blake3_final(&b, want, 32);
    wai_receipt_hash(WAI_RECEIPT_DECODE, payload, n, sig, got);
    CHECK(memcmp(got, want, 32) == 0);
    wai_receipt_hash(WAI_RECEIPT_ENCODE, payload, n, sig, got);
    CHECK_MSG(memcmp(got, want, 32) != 0, "the encode receipt's id is another domain");
    sig[63] ^= 1;
    wai_receipt_hash(WAI_RECEIPT_DECODE, payload, n, sig, got);
    CHECK_MSG(memcmp(got, want, 32) != 0, "the signature is hashed");
}

void suite_signing(void) {
    harness_run("signing_payloads", test_payloads);
    harness_run("signing_receipt_hash", test_receipt_hash);
}
