/* SPDX-License-Identifier: BSD-2-Clause */
/* Sealing (include/wai/wai_receipt.h): a decode receipt of what a payload
 * decodes to (§15.1), an encode receipt of a payload and its source
 * (§15.3). Each decodes the payload, fills the fields from what the decode
 * gives, checks the figure and signs. */
#include <string.h>

#include "common/alloc.h"
#include "wai/wai_backend.h"
#include "receipt/commitments.h"
#include "receipt/receipt.h"

/* What a frame visit fills: the receipt's frame hashes, and for an encode
 * receipt the error against the source. */
typedef struct sealing {
    wai_receipt *r;
    const uint8_t *source;     /* encode: n_frames frames of frame_bytes */
    size_t frame_bytes;
    uint64_t sse;
} sealing;

static wai_status hash_decoded(void *opaque, uint64_t i, const uint8_t *rgb, size_t len) {
    sealing *s = opaque;
    if (i >= s->r->info.n_frames) return WAI_invalid_argument;
    wai_frame_hash(WAI_TAG_RFRAME, i, rgb, len, s->r->frames[i]);
    return WAI_ok;
}

static wai_status hash_source(void *opaque, uint64_t i, const uint8_t *rgb, size_t len) {
    sealing *s = opaque;
    if (i >= s->r->info.n_frames || len != s->frame_bytes) return WAI_invalid_argument;
    const uint8_t *src = s->source + (size_t)i * s->frame_bytes;
    wai_frame_hash(WAI_TAG_SFRAME, i, src, len, s->r->frames[i]);
    s->sse += wai_receipt_sse(src, rgb, len);
    return WAI_ok;
}

/* The fields every receipt has once its frames are hashed, then the figure
 * check and the signature. */
static wai_status finish(wai_receipt *r, const wai_energy *e, const wai_receipt_seal_options *o,
                         const wai_receipt_signer *signer) {
    wai_receipt_info *f = &r->info;
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    wai_clip_hash(enc ? WAI_TAG_SOURCE : WAI_TAG_CLIP, f->h, f->w, f->n_frames, f->frames,
                  f->clip_hash);
    if (!enc) wai_merkle_root(f->frames, f->n_frames, f->merkle_root);
    f->work_pixel_ops = wai_work_pixel_ops(f->n_frames, f->h, f->w);
    f->energy = *e;
    if (wai_receipt_energy_fault(e, f->kind) != WAI_RECEIPT_FAULT_NONE) return WAI_invalid_argument;
    wai_status st = wai_receipt_set_strings(r, signer->id, signer->id_len, e->calibration_ref,
                                            e->calibration_ref_len);
    if (st != WAI_ok) return st;
    if (o->parent) {
        f->has_parent = 1;
        memcpy(f->parent, o->parent, 32);
    }
    memcpy(f->signer_pubkey, signer->pubkey, 32);
    return wai_receipt_sign(r, signer);
}

static int options_valid(const wai_receipt_seal_options *o, const wai_receipt_signer *s) {
    for (size_t i = 0; i < sizeof o->reserved; i++)
        if (o->reserved[i]) return 0;
    return s && s->sign && (s->id || s->id_len == 0);
}

static wai_status seal(wai_context *ctx, wai_receipt_kind kind, const uint8_t *payload, size_t len,
                       const uint8_t *source, size_t source_len, const wai_receipt_seal_options *o,
                       const wai_receipt_signer *signer, wai_receipt **out) {
    wai_receipt_seal_options dflt;
    if (!o) {
        wai_receipt_seal_options_default(&dflt);
        o = &dflt;
    }
    if (!ctx || !out || (!payload && len) || !options_valid(o, signer)) return WAI_invalid_argument;
    *out = NULL;
    int enc = kind == WAI_RECEIPT_ENCODE;
    /* The header first: the receipt's size, and an encode receipt's source
     * checked before anything is decoded. */
    wai_receipt_clip v;
    wai_status st = wai_receipt_clip_header(wai_context_allocator(ctx), payload, len, &v);
    if (st != WAI_ok) return st;
    size_t frame_bytes = (size_t)v.h * v.w * 3;
    if (enc && (!source || source_len / frame_bytes != v.n_frames || source_len % frame_bytes))
        return WAI_geometry_mismatch;
    wai_receipt *r = wai_receipt_alloc(wai_context_allocator(ctx), kind, v.n_frames);
    if (!r) return WAI_out_of_memory;
    r->info.h = v.h;
    r->info.w = v.w;
    sealing s = {r, source, frame_bytes, 0};
    wai_energy energy = o->energy;
    if (!enc) memset(&energy, 0, sizeof energy);   /* unmetered unless the meter says */
    st = wai_receipt_decode_clip(ctx, payload, len, o->max_cost, o->max_memory,
                                 enc ? NULL : o->meter, &energy,
                                 enc ? hash_source : hash_decoded, &s);
    if (st == WAI_ok) {
        wai_blake3_oneshot(payload, len, r->info.codestream_hash);
        if (enc) {
            r->info.block = v.block;
            r->info.search = o->search;
            r->info.mv_precision = v.mv_precision;
            r->info.q = v.q;
            r->info.sse = s.sse;
        }
        st = finish(r, &energy, o, signer);
    }
    if (st != WAI_ok) {
        wai_receipt_destroy(r);
        return st;
    }
    *out = r;
    return WAI_ok;
}

wai_status wai_receipt_seal_decode(wai_context *ctx, const uint8_t *payload, size_t len,
                                   const wai_receipt_seal_options *o,
                                   const wai_receipt_signer *signer, wai_receipt **out) {
    return seal(ctx, WAI_RECEIPT_DECODE, payload, len, NULL, 0, o, signer, out);
}

wai_status wai_receipt_seal_encode(wai_context *ctx, const uint8_t *payload, size_t len,
                                   const uint8_t *source, size_t source_len,
                                   const wai_receipt_seal_options *o,
                                   const wai_receipt_signer *signer, wai_receipt **out) {
    return seal(ctx, WAI_RECEIPT_ENCODE, payload, len, source, source_len, o, signer, out);
}
