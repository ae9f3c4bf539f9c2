/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer target for the receipts' strict JSON reader (src/receipt,
 * integer-payloads §15.2): read; a receipt read writes back to a text that
 * reads as the same receipt (its receipt hash and fields), and its check
 * runs to an answer. The verifier accepts nothing: the signature is
 * libsodium's to judge, the rest is what is fuzzed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_context.h"
#include "wai/wai_receipt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok) {
    if (!ok) abort();
}

static int refuse_all(void *opaque, const uint8_t pk[32], const uint8_t *msg, size_t len,
                      const uint8_t sig[64]) {
    (void)opaque, (void)pk, (void)msg, (void)len, (void)sig;
    return 0;
}

static int same(const wai_receipt_info *a, const wai_receipt_info *b) {
    if (a->kind != b->kind || a->n_frames != b->n_frames || a->h != b->h || a->w != b->w ||
        a->energy.joules_micro != b->energy.joules_micro || a->energy.cls != b->energy.cls ||
        a->signer_id_len != b->signer_id_len || a->has_parent != b->has_parent)
        return 0;
    if (a->n_frames && memcmp(a->frames, b->frames, 32 * (size_t)a->n_frames)) return 0;
    return !memcmp(a->receipt_hash, b->receipt_hash, 32) && !memcmp(a->sig, b->sig, 64) &&
           !memcmp(a->signer_id, b->signer_id, a->signer_id_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    wai_context *ctx;
    if (fuzz_context(1, &ctx) != WAI_ok) return 0;
    wai_receipt *r = NULL;
    wai_receipt_problem p;
    wai_status st = wai_receipt_read_json(ctx, (const char *)data, size, &r, &p);
    require((st == WAI_ok) == (r != NULL));
    require(st == WAI_ok || st == WAI_receipt_refused || st == WAI_out_of_memory);
    require(st != WAI_receipt_refused || wai_receipt_fault_name(p.fault));
    if (r) {
        char *json;
        size_t len;
        if (wai_receipt_write_json(ctx, r, &json, &len) == WAI_ok) {
            wai_receipt *back = NULL;
            require(wai_receipt_read_json(ctx, json, len, &back, &p) == WAI_ok);
            require(same(wai_receipt_view(r), wai_receipt_view(back)));
            wai_receipt_destroy(back);
            wai_receipt_json_free(ctx, json);
        }
        wai_receipt_verifier v = {refuse_all, NULL};
        st = wai_receipt_check(r, &v, NULL, &p);
        require(st == WAI_receipt_inconsistent || st == WAI_out_of_memory);
        char text[200];
        wai_receipt_problem_text(&p, text, sizeof text, NULL);
        wai_receipt_destroy(r);
    }
    wai_context_destroy(ctx);
    return 0;
}
