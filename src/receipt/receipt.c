/* SPDX-License-Identifier: BSD-2-Clause */
/* The receipt object, its energy rules and its signature (receipt.h). */
#include "receipt/receipt.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/json.h"
#include "common/text.h"
#include "receipt/signing.h"

wai_receipt *wai_receipt_alloc(const wai_allocator *a, wai_receipt_kind kind, uint64_t n_frames) {
    if (!wai_fits_size(n_frames)) return NULL;
    wai_receipt *r = wai_alloc_zeroed(a, 1, sizeof *r);
    if (!r) return NULL;
    r->a = *a;
    /* One hash at least, so a receipt of no frame still has an array. */
    r->frames = wai_alloc_zeroed(a, n_frames ? (size_t)n_frames : 1, 32);
    if (!r->frames) {
        wai_free(a, r);
        return NULL;
    }
    r->info.kind = kind;
    r->info.n_frames = n_frames;
    r->info.frames = (const uint8_t(*)[32])r->frames;
    r->info.signer_id = "";
    r->info.energy.calibration_ref = "";
    return r;
}

void wai_receipt_destroy(wai_receipt *r) {
    if (!r) return;
    wai_allocator a = r->a;
    wai_free(&a, r->frames);
    wai_free(&a, r->signer_id);
    wai_free(&a, r->calibration_ref);
    wai_free(&a, r);
}

const wai_receipt_info *wai_receipt_view(const wai_receipt *r) { return r ? &r->info : NULL; }

static wai_status copy_string(const wai_allocator *a, const char *s, size_t n, char **out) {
    if (!wai_fits_u32(n) || (n && !s) || (n && !wai_utf8_valid(s, n))) return WAI_invalid_argument;
    char *c = wai_alloc(a, n + 1);
    if (!c) return WAI_out_of_memory;
    if (n) memcpy(c, s, n);
    c[n] = '\0';
    *out = c;
    return WAI_ok;
}

wai_status wai_receipt_set_strings(wai_receipt *r, const char *signer_id, size_t signer_id_len,
                                   const char *calibration_ref, size_t calibration_ref_len) {
    wai_status st = copy_string(&r->a, signer_id, signer_id_len, &r->signer_id);
    if (st == WAI_ok) st = copy_string(&r->a, calibration_ref, calibration_ref_len, &r->calibration_ref);
    if (st != WAI_ok) return st;
    r->info.signer_id = r->signer_id;
    r->info.signer_id_len = signer_id_len;
    r->info.energy.calibration_ref = r->calibration_ref;
    r->info.energy.calibration_ref_len = calibration_ref_len;
    return WAI_ok;
}

wai_status wai_receipt_payload(const wai_receipt *r, uint8_t **out, size_t *len) {
    size_t n = wai_receipt_signing_payload(&r->info, NULL, 0);
    if (n == 0) return WAI_invalid_argument;
    uint8_t *b = wai_alloc(&r->a, n);
    if (!b) return WAI_out_of_memory;
    wai_receipt_signing_payload(&r->info, b, n);
    *out = b;
    *len = n;
    return WAI_ok;
}

uint64_t wai_receipt_sse(const uint8_t *a, const uint8_t *b, size_t n) {
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        int d = (int)a[k] - (int)b[k];
        sum += (uint64_t)(d * d);
    }
    return sum;
}

static int has_evidence(wai_energy_class c) {
    return c == WAI_ENERGY_ON_CHIP_COUNTER || c == WAI_ENERGY_CALIBRATED_INSTRUMENT;
}

wai_receipt_fault wai_receipt_energy_fault(const wai_energy *e, wai_receipt_kind kind) {
    if ((unsigned)e->cls > WAI_ENERGY_CALIBRATED_INSTRUMENT) return WAI_RECEIPT_FAULT_ENERGY_CLASS;
    /* 0 with no class (the unmetered marker), or a figure with a class. */
    if ((e->joules_micro == 0) != (e->cls == WAI_ENERGY_UNMETERED))
        return WAI_RECEIPT_FAULT_ENERGY_CLASS;
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER && e->filtering > WAI_FILTERING_ON)
        return WAI_RECEIPT_FAULT_ENERGY_CLASS;
    /* relative_ppm × joules_micro >= 288676, without the product (u32 × u64
     * may pass 2^64): joules_micro >= ceil(288676 / relative_ppm). */
    if (has_evidence(e->cls) &&
        (e->relative_ppm == 0 ||
         e->joules_micro < wai_ceil_div(WAI_ENERGY_FLOOR, e->relative_ppm)))
        return WAI_RECEIPT_FAULT_ENERGY_FLOOR;
    /* energy-measurement §2.6: a profile defined after the hardware class
     * was refined never carries the legacy class. */
    if (kind == WAI_RECEIPT_ENCODE && e->cls == WAI_ENERGY_HW_SHUNT)
        return WAI_RECEIPT_FAULT_LEGACY_CLASS;
    return WAI_RECEIPT_FAULT_NONE;
}

wai_status wai_receipt_sign(wai_receipt *r, const wai_receipt_signer *s) {
    if (!s || !s->sign) return WAI_invalid_argument;
    uint8_t *payload;
    size_t len;
    wai_status st = wai_receipt_payload(r, &payload, &len);
    if (st != WAI_ok) return st;
    if (s->sign(s->opaque, payload, len, r->info.sig) != 0) st = WAI_invalid_argument;
    else wai_receipt_hash(r->info.kind, payload, len, r->info.sig, r->info.receipt_hash);
    wai_free(&r->a, payload);
    return st;
}

wai_status wai_receipt_fail(wai_receipt_problem *p, wai_status st, wai_receipt_fault f,
                            const char *member, uint64_t index, wai_status payload_status) {
    if (p) {
        p->fault = f;
        p->member = member;
        p->index = index;
        p->status = payload_status;
    }
    return st;
}

const char *wai_energy_class_label(wai_energy_class c) {
    switch (c) {
    case WAI_ENERGY_HW_SHUNT: return "HwShunt";
    case WAI_ENERGY_MODEL_BASED: return "ModelBased";
    case WAI_ENERGY_ESTIMATOR: return "Estimator";
    case WAI_ENERGY_ON_CHIP_COUNTER: return "OnChipCounter";
    case WAI_ENERGY_CALIBRATED_INSTRUMENT: return "CalibratedInstrument";
    default: return NULL;
    }
}

/* Each fault's name and the sentence that says it. */
static const struct {
    const char *name, *text;
} faults[] = {
    [WAI_RECEIPT_FAULT_NONE] = {"none", "no fault"},
    [WAI_RECEIPT_FAULT_JSON] = {"json", "the text is not strict JSON (RFC 8259, no member named twice)"},
    [WAI_RECEIPT_FAULT_PROFILE] = {"profile", "the text is not a receipt of a profile this reads"},
    [WAI_RECEIPT_FAULT_MEMBER_MISSING] = {"member_missing", "a member the receipt's class writes is missing"},
    [WAI_RECEIPT_FAULT_MEMBER_UNKNOWN] = {"member_unknown", "a member the receipt's class does not write is present"},
    [WAI_RECEIPT_FAULT_MEMBER_FORM] = {"member_form", "a member is not of its form"},
    [WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP] = {"uj_per_kilopixel_op", "uj_per_kilopixel_op is not the receipt's own figure"},
    [WAI_RECEIPT_FAULT_RECEIPT_HASH] = {"receipt_hash", "receipt_hash is not the receipt's hash"},
    [WAI_RECEIPT_FAULT_MERKLE_ROOT] = {"merkle_root", "merkle_root is not the root over the frame hashes"},
    [WAI_RECEIPT_FAULT_CLIP_HASH] = {"clip_hash", "the clip (or source) hash is not the frames'"},
    [WAI_RECEIPT_FAULT_WORK] = {"work_pixel_ops", "work_pixel_ops is not frames x h x w x 3"},
    [WAI_RECEIPT_FAULT_ENERGY_CLASS] = {"energy_class", "the energy figure and its class do not cohere"},
    [WAI_RECEIPT_FAULT_ENERGY_FLOOR] = {"energy_floor", "relative_ppm x joules_micro is under the resolution floor of 288676"},
    [WAI_RECEIPT_FAULT_LEGACY_CLASS] = {"legacy_class", "an encode receipt's class is the legacy HwShunt"},
    [WAI_RECEIPT_FAULT_SIGNATURE] = {"signature", "the signature does not verify"},
    [WAI_RECEIPT_FAULT_SIGNER] = {"signer", "the receipt is signed by another key than the one required"},
    [WAI_RECEIPT_FAULT_CODESTREAM_HASH] = {"codestream_hash", "the payload is not the one the receipt names (codestream_hash)"},
    [WAI_RECEIPT_FAULT_PAYLOAD_REFUSED] = {"payload_refused", "the payload does not decode"},
    [WAI_RECEIPT_FAULT_GEOMETRY] = {"geometry", "the payload's h, w or number of frames is not the receipt's"},
    [WAI_RECEIPT_FAULT_PARAMETERS] = {"parameters", "the payload's block, mv_precision or q is not the receipt's"},
    [WAI_RECEIPT_FAULT_FRAME_HASH] = {"frame_hash", "a decoded frame does not hash to the receipt's"},
    [WAI_RECEIPT_FAULT_SOURCE] = {"source", "the source is not the receipt's frames of its h x w"},
    [WAI_RECEIPT_FAULT_SSE] = {"sse", "the decode's error against the source is not the receipt's sse"},
};

const char *wai_receipt_fault_name(wai_receipt_fault f) {
    return (unsigned)f < sizeof faults / sizeof faults[0] ? faults[f].name : NULL;
}

wai_status wai_receipt_problem_text(const wai_receipt_problem *p, char *buf, size_t size,
                                    size_t *len) {
    if (len) *len = 0;
    if (!buf && size) return WAI_invalid_argument;
    wai_text t;
    wai_text_init(&t, buf, size);
    unsigned f = p ? (unsigned)p->fault : 0u;
    if (f >= sizeof faults / sizeof faults[0]) {
        wai_text_printf(&t, "unknown fault %u", f);
        return wai_text_result(&t, len);
    }
    wai_text_printf(&t, "%s", faults[f].text);
    if (p && p->member) wai_text_printf(&t, " (%s)", p->member);
    if (f == WAI_RECEIPT_FAULT_FRAME_HASH)
        wai_text_printf(&t, " (frame %llu)", (unsigned long long)p->index);
    if (f == WAI_RECEIPT_FAULT_PAYLOAD_REFUSED) {
        const char *s = wai_status_name(p->status);
        wai_text_printf(&t, " (%s)", s ? s : "unknown status");
    }
    return wai_text_result(&t, len);
}

void wai_receipt_seal_options_default(wai_receipt_seal_options *o) {
    memset(o, 0, sizeof *o);
    o->max_cost = UINT64_MAX;
    o->max_memory = UINT64_MAX;
}

void wai_receipt_check_options_default(wai_receipt_check_options *o) {
    memset(o, 0, sizeof *o);
    o->max_cost = UINT64_MAX;
    o->max_memory = UINT64_MAX;
}
