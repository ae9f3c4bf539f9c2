/* SPDX-License-Identifier: BSD-2-Clause */
/* A receipt as libwai holds it (include/wai/wai_receipt.h), and what its
 * parts share: sealing (seal.c), the JSON form (json_write.c, json_read.c)
 * and the checks (check.c). */
#ifndef WAI_RECEIPT_RECEIPT_H
#define WAI_RECEIPT_RECEIPT_H

#include "wai/wai_receipt.h"

struct wai_receipt {
    wai_allocator a;
    wai_receipt_info info;      /* its pointers point at the members below */
    uint8_t (*frames)[32];      /* n_frames hashes */
    char *signer_id;            /* NUL-terminated copies */
    char *calibration_ref;
};

#define WAI_RECEIPT_PROFILE_DECODE "wai.video.int_motion/receipt"
#define WAI_RECEIPT_PROFILE_ENCODE "wai.video.int_motion/encode-receipt"

/* uj_per_kilopixel_op as §15.2 spells it ("null" when unmetered or of no
 * work) into out; returns its length. */
size_t wai_receipt_uj_text(const wai_receipt_info *f, char out[64]);

/* §15.1's resolution floor: relative_ppm × joules_micro reaches it. */
#define WAI_ENERGY_FLOOR 288676u

/* A receipt of n_frames frame hashes (zeroed) from a; NULL when out of
 * memory. */
wai_receipt *wai_receipt_alloc(const wai_allocator *a, wai_receipt_kind kind, uint64_t n_frames);

/* Copies the signer id and the calibration reference into r (NULL with
 * length 0 is empty): out_of_memory or invalid_argument (past 2^32 - 1
 * bytes). */
wai_status wai_receipt_set_strings(wai_receipt *r, const char *signer_id, size_t signer_id_len,
                                   const char *calibration_ref, size_t calibration_ref_len);

/* The signing payload of r into *out (from r's allocator; *len its length). */
wai_status wai_receipt_payload(const wai_receipt *r, uint8_t **out, size_t *len);

/* The figure and class (§15.1, §15.3: no legacy class in an encode
 * receipt): NONE, or the fault. */
wai_receipt_fault wai_receipt_energy_fault(const wai_energy *e, wai_receipt_kind kind);

/* Signs r's payload and writes sig and receipt_hash. */
wai_status wai_receipt_sign(wai_receipt *r, const wai_receipt_signer *s);

/* Σ (a − b)² over n samples; at most 255² · 2^26 for a clip (the WIV1
 * caps), so a clip's sum cannot wrap u64. */
uint64_t wai_receipt_sse(const uint8_t *a, const uint8_t *b, size_t n);

/* Called with each decoded frame, in order: a status other than WAI_ok
 * stops the decode with it. */
typedef wai_status (*wai_receipt_frame_fn)(void *opaque, uint64_t i, const uint8_t *rgb,
                                           size_t len);

/* What a receipt reads of a WIV1 clip's header. */
typedef struct wai_receipt_clip {
    uint32_t h, w, n_frames;
    uint32_t block, mv_precision, q;
} wai_receipt_clip;

/* The header of payload as wai.video.int_motion's parse reads it (the
 * public wai_payload_header_json), so a payload of another format is
 * refused with the code the decode gives; a its JSON's allocator. */
wai_status wai_receipt_clip_header(const wai_allocator *a, const uint8_t *payload, size_t len,
                                   wai_receipt_clip *out);

/* Decodes payload through wai.video.int_motion under the limits, the
 * meter (when not NULL) running around the decode and writing *energy,
 * then hands each frame to visit. (Its callers read the header first,
 * wai_receipt_clip_header.) */
wai_status wai_receipt_decode_clip(wai_context *ctx, const uint8_t *payload, size_t len,
                                   uint64_t max_cost, uint64_t max_memory,
                                   const wai_energy_meter *meter, wai_energy *energy,
                                   wai_receipt_frame_fn visit, void *opaque);

/* Sets *p (when not NULL) and returns st. */
wai_status wai_receipt_fail(wai_receipt_problem *p, wai_status st, wai_receipt_fault f,
                            const char *member, uint64_t index, wai_status payload_status);

#endif
