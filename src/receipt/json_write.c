/* SPDX-License-Identifier: BSD-2-Clause */
/* A receipt's JSON form (§15.2; §15.3 for an encode receipt), members in
 * the spec's order, one a line. */
#include <string.h>

#include "common/alloc.h"
#include "common/binary64.h"
#include "common/text.h"
#include "receipt/receipt.h"
#include "wai/wai_backend.h"
#include "wai/wai_hash.h"

/* Lowercase hex (wai_hex), 32 bytes at a time. */
static void put_hex(wai_text *t, const uint8_t *b, size_t n) {
    char chunk[65];
    while (n) {
        size_t k = n < 32 ? n : 32;
        wai_hex(b, k, chunk);
        wai_text_printf(t, "%s", chunk);
        b += k;
        n -= k;
    }
}

static void member_hex(wai_text *t, const char *name, const uint8_t *b, size_t n) {
    wai_text_printf(t, "  \"%s\": \"", name);
    put_hex(t, b, n);
    wai_text_printf(t, "\",\n");
}

static void member_u64(wai_text *t, const char *name, uint64_t v) {
    wai_text_printf(t, "  \"%s\": %llu,\n", name, (unsigned long long)v);
}

static void member_frames(wai_text *t, const char *name, const wai_receipt_info *f) {
    wai_text_printf(t, "  \"%s\": [", name);
    for (uint64_t i = 0; i < f->n_frames; i++) {
        wai_text_printf(t, "%s\n    \"", i ? "," : "");
        put_hex(t, f->frames[i], 32);
        wai_text_printf(t, "\"");
    }
    wai_text_printf(t, "%s],\n", f->n_frames ? "\n  " : "");
}

static const char *const filtering_labels[] = {"Unknown", "Off", "On"};

/* energy_provenance and the class's evidence. */
static void member_energy(wai_text *t, const wai_energy *e) {
    const char *label = wai_energy_class_label(e->cls);
    if (label) wai_text_printf(t, "  \"energy_provenance\": \"%s\",\n", label);
    else wai_text_printf(t, "  \"energy_provenance\": null,\n");
    if (e->cls != WAI_ENERGY_ON_CHIP_COUNTER && e->cls != WAI_ENERGY_CALIBRATED_INSTRUMENT) return;
    wai_text_printf(t, "  \"energy_uncertainty\": {\"relative_ppm\": %lu, \"window_us\": %llu},\n",
                    (unsigned long)e->relative_ppm, (unsigned long long)e->window_us);
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER) {
        wai_text_printf(t, "  \"energy_counter_filtering\": \"%s\",\n",
                        filtering_labels[e->filtering <= WAI_FILTERING_ON ? e->filtering : 0]);
    } else {
        wai_text_printf(t, "  \"energy_calibration_ref\": ");
        wai_text_json_string(t, e->calibration_ref, e->calibration_ref_len);
        wai_text_printf(t, ",\n");
    }
}

/* §15.2: null when unmetered or of no work; else joules_micro × 1000 /
 * work_pixel_ops in binary64, six digits after the point. */
size_t wai_receipt_uj_text(const wai_receipt_info *f, char out[64]) {
    if (f->energy.cls == WAI_ENERGY_UNMETERED || f->work_pixel_ops == 0) {
        memcpy(out, "null", 5);
        return 4;
    }
    return wai_binary64_muldiv_text(f->energy.joules_micro, 1000, f->work_pixel_ops, out);
}

static void emit(wai_text *t, const wai_receipt_info *f) {
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    wai_text_printf(t, "{\n  \"profile\": \"%s\",\n",
                    enc ? WAI_RECEIPT_PROFILE_ENCODE : WAI_RECEIPT_PROFILE_DECODE);
    member_hex(t, "codestream_hash", f->codestream_hash, 32);
    member_hex(t, enc ? "source_hash" : "clip_hash", f->clip_hash, 32);
    member_u64(t, "h", f->h);
    member_u64(t, "w", f->w);
    member_frames(t, enc ? "source_frames" : "frames", f);
    if (enc) {
        member_u64(t, "block", f->block);
        member_u64(t, "search", f->search);
        member_u64(t, "mv_precision", f->mv_precision);
        member_u64(t, "q", f->q);
        member_u64(t, "sse", f->sse);
    } else {
        member_hex(t, "merkle_root", f->merkle_root, 32);
    }
    member_u64(t, "work_pixel_ops", f->work_pixel_ops);
    member_u64(t, "joules_micro", f->energy.joules_micro);
    if (!enc) {
        char uj[64];
        wai_receipt_uj_text(f, uj);
        wai_text_printf(t, "  \"uj_per_kilopixel_op\": %s,\n", uj);
    }
    member_energy(t, &f->energy);
    if (f->has_parent) member_hex(t, "parent_receipt_hash", f->parent, 32);
    else wai_text_printf(t, "  \"parent_receipt_hash\": null,\n");
    member_hex(t, "signer_pubkey", f->signer_pubkey, 32);
    wai_text_printf(t, "  \"signer_id\": ");
    wai_text_json_string(t, f->signer_id, f->signer_id_len);
    wai_text_printf(t, ",\n");
    member_hex(t, "sig", f->sig, 64);
    wai_text_printf(t, "  \"receipt_hash\": \"");
    put_hex(t, f->receipt_hash, 32);
    wai_text_printf(t, "\"\n}\n");
}

wai_status wai_receipt_write_json(const wai_context *ctx, const wai_receipt *r, char **json,
                                  size_t *len) {
    if (!ctx || !r || !json || !len) return WAI_invalid_argument;
    *json = NULL;
    *len = 0;
    wai_text t;
    wai_text_init(&t, NULL, 0);
    emit(&t, &r->info);
    size_t need = t.len;
    char *buf = need < SIZE_MAX ? wai_alloc(wai_context_allocator(ctx), need + 1) : NULL;
    if (!buf) return WAI_out_of_memory;
    wai_text_init(&t, buf, need + 1);
    emit(&t, &r->info);
    *json = buf;
    *len = need;
    return WAI_ok;
}

void wai_receipt_json_free(const wai_context *ctx, char *json) {
    if (ctx) wai_free(wai_context_allocator(ctx), json);
}
