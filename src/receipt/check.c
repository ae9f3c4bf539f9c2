/* SPDX-License-Identifier: BSD-2-Clause */
/* A receipt's consistency (§15.1, §15.3) and its re-derivation from a
 * payload and, for an encode receipt, a source. Each check is in the
 * order §15 lists it; the first that fails is the answer. */
#include <string.h>

#include "common/alloc.h"
#include "receipt/commitments.h"
#include "receipt/receipt.h"
#include "wai/wai_backend.h"

static wai_status inconsistent(wai_receipt_problem *p, wai_receipt_fault f, const char *member) {
    return wai_receipt_fail(p, WAI_receipt_inconsistent, f, member, 0, WAI_ok);
}

static int options_valid(const wai_receipt_check_options *o) {
    for (size_t i = 0; i < sizeof o->reserved; i++)
        if (o->reserved[i]) return 0;
    return 1;
}

wai_status wai_receipt_check(const wai_receipt *r, const wai_receipt_verifier *v,
                             const wai_receipt_check_options *o, wai_receipt_problem *p) {
    wai_receipt_check_options dflt;
    if (!o) {
        wai_receipt_check_options_default(&dflt);
        o = &dflt;
    }
    if (!r || !v || !v->verify || !options_valid(o)) return WAI_invalid_argument;
    wai_receipt_fail(p, WAI_ok, WAI_RECEIPT_FAULT_NONE, NULL, 0, WAI_ok);
    const wai_receipt_info *f = &r->info;
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    /* The frames are numbered 0 upwards by construction: frame i is
     * frames[i], in the JSON form as in the signing payload. */
    uint8_t h[32];
    if (!enc) {
        wai_merkle_root(f->frames, f->n_frames, h);
        if (memcmp(h, f->merkle_root, 32)) return inconsistent(p, WAI_RECEIPT_FAULT_MERKLE_ROOT, "merkle_root");
    }
    wai_clip_hash(enc ? WAI_TAG_SOURCE : WAI_TAG_CLIP, f->h, f->w, f->n_frames, f->frames, h);
    if (memcmp(h, f->clip_hash, 32))
        return inconsistent(p, WAI_RECEIPT_FAULT_CLIP_HASH, enc ? "source_hash" : "clip_hash");
    if (f->work_pixel_ops != wai_work_pixel_ops(f->n_frames, f->h, f->w))
        return inconsistent(p, WAI_RECEIPT_FAULT_WORK, "work_pixel_ops");
    wai_receipt_fault ef = wai_receipt_energy_fault(&f->energy, f->kind);
    if (ef != WAI_RECEIPT_FAULT_NONE) return inconsistent(p, ef, "energy_provenance");
    uint8_t *payload;
    size_t len;
    wai_status st = wai_receipt_payload(r, &payload, &len);
    if (st != WAI_ok) return st;
    int ok = v->verify(v->opaque, f->signer_pubkey, payload, len, f->sig) == 1;
    wai_free(&r->a, payload);
    if (!ok) return inconsistent(p, WAI_RECEIPT_FAULT_SIGNATURE, "sig");
    if (o->signer && memcmp(o->signer, f->signer_pubkey, 32))
        return inconsistent(p, WAI_RECEIPT_FAULT_SIGNER, "signer_pubkey");
    return WAI_ok;
}

/* What a re-derivation's frame visit compares. */
typedef struct rederiving {
    const wai_receipt_info *f;
    const uint8_t *source;       /* encode: the source frames */
    size_t frame_bytes;
    uint64_t sse;
    uint64_t first_bad;          /* the first frame whose hash differs, or UINT64_MAX */
} rederiving;

static wai_status compare_decoded(void *opaque, uint64_t i, const uint8_t *rgb, size_t len) {
    rederiving *s = opaque;
    uint8_t h[32];
    wai_frame_hash(WAI_TAG_RFRAME, i, rgb, len, h);
    if (s->first_bad == UINT64_MAX && (i >= s->f->n_frames || memcmp(h, s->f->frames[i], 32)))
        s->first_bad = i;
    return WAI_ok;
}

static wai_status add_error(void *opaque, uint64_t i, const uint8_t *rgb, size_t len) {
    rederiving *s = opaque;
    s->sse += wai_receipt_sse(s->source + (size_t)i * s->frame_bytes, rgb, len);
    return WAI_ok;
}

static wai_status not_rederived(wai_receipt_problem *p, wai_receipt_fault f, const char *member,
                                uint64_t index, wai_status payload_status) {
    return wai_receipt_fail(p, WAI_receipt_not_rederived, f, member, index, payload_status);
}

/* A decode's refusal is the payload's; the library's own failures
 * (out_of_memory) are the call's. */
static wai_status refused(wai_receipt_problem *p, wai_status st) {
    if (wai_status_kind_of(st) == WAI_KIND_LIBRARY) return st;
    return not_rederived(p, WAI_RECEIPT_FAULT_PAYLOAD_REFUSED, NULL, 0, st);
}

/* §15.3: the payload reads as a keyframe-0 WIV1 of the receipt's geometry
 * and parameters, and each source frame hashes to its own. */
static wai_status check_encode_inputs(const wai_receipt_info *f, const wai_receipt_clip *v,
                                      const uint8_t *source, size_t source_len,
                                      wai_receipt_problem *p) {
    if (v->h != f->h || v->w != f->w || v->n_frames != f->n_frames)
        return not_rederived(p, WAI_RECEIPT_FAULT_GEOMETRY, NULL, 0, WAI_ok);
    if (v->block != f->block || v->mv_precision != f->mv_precision || v->q != f->q)
        return not_rederived(p, WAI_RECEIPT_FAULT_PARAMETERS, NULL, 0, WAI_ok);
    size_t frame_bytes = (size_t)f->h * f->w * 3;
    if (!source || source_len % frame_bytes || source_len / frame_bytes != f->n_frames)
        return not_rederived(p, WAI_RECEIPT_FAULT_SOURCE, NULL, 0, WAI_ok);
    for (uint64_t i = 0; i < f->n_frames; i++) {
        uint8_t h[32];
        wai_frame_hash(WAI_TAG_SFRAME, i, source + (size_t)i * frame_bytes, frame_bytes, h);
        if (memcmp(h, f->frames[i], 32))
            return not_rederived(p, WAI_RECEIPT_FAULT_FRAME_HASH, "source_frames", i, WAI_ok);
    }
    return WAI_ok;
}

wai_status wai_receipt_rederive(wai_context *ctx, const wai_receipt *r, const uint8_t *payload,
                                size_t len, const uint8_t *source, size_t source_len,
                                const wai_receipt_verifier *v, const wai_receipt_check_options *o,
                                wai_receipt_problem *p) {
    wai_receipt_check_options dflt;
    if (!o) {
        wai_receipt_check_options_default(&dflt);
        o = &dflt;
    }
    if (!ctx || !r || (!payload && len) || !options_valid(o)) return WAI_invalid_argument;
    wai_receipt_fail(p, WAI_ok, WAI_RECEIPT_FAULT_NONE, NULL, 0, WAI_ok);
    const wai_receipt_info *f = &r->info;
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    uint8_t h[32];
    wai_blake3_oneshot(payload, len, h);
    if (memcmp(h, f->codestream_hash, 32))
        return not_rederived(p, WAI_RECEIPT_FAULT_CODESTREAM_HASH, "codestream_hash", 0, WAI_ok);
    /* The header first (the decode's own parse, so its refusal is the
     * decode's code). */
    wai_receipt_clip wv;
    wai_status st = wai_receipt_clip_header(wai_context_allocator(ctx), payload, len, &wv);
    if (st != WAI_ok) return refused(p, st);
    if (enc && (st = check_encode_inputs(f, &wv, source, source_len, p)) != WAI_ok) return st;
    rederiving s = {f, source, (size_t)f->h * f->w * 3, 0, UINT64_MAX};
    st = wai_receipt_decode_clip(ctx, payload, len, o->max_cost, o->max_memory, NULL, NULL,
                                 enc ? add_error : compare_decoded, &s);
    if (st != WAI_ok) return refused(p, st);
    if (enc) {
        if (s.sse != f->sse) return not_rederived(p, WAI_RECEIPT_FAULT_SSE, "sse", 0, WAI_ok);
    } else {
        if (wv.h != f->h || wv.w != f->w || wv.n_frames != f->n_frames)
            return not_rederived(p, WAI_RECEIPT_FAULT_GEOMETRY, NULL, 0, WAI_ok);
        if (s.first_bad != UINT64_MAX)
            return not_rederived(p, WAI_RECEIPT_FAULT_FRAME_HASH, "frames", s.first_bad, WAI_ok);
    }
    return wai_receipt_check(r, v, o, p);
}
