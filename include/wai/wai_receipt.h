/* SPDX-License-Identifier: BSD-2-Clause */
/* Receipts of wai.video.int_motion (integer-payloads §15; docs/receipts.md):
 * a sink's signed statement of what a WIV1 payload (keyframe 0) decodes to
 * (a decode receipt, §15.1), or an encoder's of the payload it wrote from a
 * source (an encode receipt, §15.3); their JSON form (§15.2) and its strict
 * reader; their consistency and their re-derivation from a payload.
 *
 * libwai_receipt, a library beside the decoder core (wai_receipt.pc),
 * built on libwai's public decoder: a receipt's frames are a decode's.
 * It holds no Ed25519 of its own: a signer or a verifier plugs in
 * (include/wai/wai_ed25519.h gives libsodium's, in libwai_ed25519). */
#ifndef WAI_WAI_RECEIPT_H
#define WAI_WAI_RECEIPT_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"

#ifdef __cplusplus
extern "C" {
#endif

/* WAI_RECEIPT_API marks what libwai_receipt exports. A Windows program
 * importing its DLL defines WAI_RECEIPT_DLL. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WAI_BUILDING_RECEIPT_LIBRARY)
#define WAI_RECEIPT_API __declspec(dllexport)
#elif defined(WAI_RECEIPT_DLL)
#define WAI_RECEIPT_API __declspec(dllimport)
#else
#define WAI_RECEIPT_API
#endif
#elif defined(__GNUC__)
#define WAI_RECEIPT_API __attribute__((visibility("default")))
#else
#define WAI_RECEIPT_API
#endif

/* The acquisition classes of an energy figure (energy-measurement §2), by
 * their §15.1 tags. */
typedef enum wai_energy_class {
    WAI_ENERGY_UNMETERED = 0,            /* with joules_micro 0: the unmetered marker */
    WAI_ENERGY_HW_SHUNT = 1,             /* legacy; never an encode receipt's */
    WAI_ENERGY_MODEL_BASED = 2,
    WAI_ENERGY_ESTIMATOR = 3,
    WAI_ENERGY_ON_CHIP_COUNTER = 4,      /* evidence: ppm, window, filtering */
    WAI_ENERGY_CALIBRATED_INSTRUMENT = 5 /* evidence: ppm, window, calibration_ref */
} wai_energy_class;

/* The filtering state of an on-chip counter (class 4). */
typedef enum wai_energy_filtering {
    WAI_FILTERING_UNKNOWN = 0,
    WAI_FILTERING_OFF = 1,
    WAI_FILTERING_ON = 2
} wai_energy_filtering;

typedef struct wai_energy {
    uint64_t joules_micro;          /* 0 with WAI_ENERGY_UNMETERED */
    wai_energy_class cls;
    uint32_t relative_ppm;          /* classes 4 and 5 */
    uint64_t window_us;             /* classes 4 and 5 */
    uint8_t filtering;              /* class 4: a wai_energy_filtering */
    const char *calibration_ref;    /* class 5: UTF-8, calibration_ref_len bytes */
    size_t calibration_ref_len;
} wai_energy;

/* The class's label in the JSON form (energy_provenance: "HwShunt",
 * "ModelBased", "Estimator", "OnChipCounter", "CalibratedInstrument"), NULL
 * for the unmetered marker or a value that is no class. */
WAI_RECEIPT_API const char *wai_energy_class_label(wai_energy_class c);

typedef enum wai_receipt_kind { WAI_RECEIPT_DECODE = 0, WAI_RECEIPT_ENCODE = 1 } wai_receipt_kind;

/* A receipt's fields. frames holds the decoded frames' hashes (a decode
 * receipt) or the source frames' (an encode receipt), n_frames of them, in
 * order (frame i is frames[i]); clip_hash is clip_hash or source_hash;
 * merkle_root is a decode receipt's alone; block to sse an encode
 * receipt's alone. */
typedef struct wai_receipt_info {
    wai_receipt_kind kind;
    uint8_t codestream_hash[32], clip_hash[32], merkle_root[32];
    uint32_t h, w;
    uint64_t n_frames;
    const uint8_t (*frames)[32];
    uint32_t block, search, q;
    uint8_t mv_precision;
    uint64_t sse;
    uint64_t work_pixel_ops;
    wai_energy energy;
    int has_parent;
    uint8_t parent[32];
    uint8_t signer_pubkey[32];
    const char *signer_id;          /* UTF-8, signer_id_len bytes */
    size_t signer_id_len;
    uint8_t sig[64];
    uint8_t receipt_hash[32];
} wai_receipt_info;

typedef struct wai_receipt wai_receipt;

/* ---- Ed25519, plugged in ------------------------------------------------ */

/* Signs with one key. sign returns 0 and the signature of msg, or nonzero
 * when it cannot. */
typedef struct wai_receipt_signer {
    uint8_t pubkey[32];
    const char *id;                 /* signer_id: UTF-8, id_len bytes */
    size_t id_len;
    int (*sign)(void *opaque, const uint8_t *msg, size_t len, uint8_t sig[64]);
    void *opaque;
} wai_receipt_signer;

/* Verifies strictly (SPEC §7 Signatures): verify returns 1 when sig is
 * pubkey's signature of msg, 0 otherwise. */
typedef struct wai_receipt_verifier {
    int (*verify)(void *opaque, const uint8_t pubkey[32], const uint8_t *msg, size_t len,
                  const uint8_t sig[64]);
    void *opaque;
} wai_receipt_verifier;

/* ---- what was wrong ----------------------------------------------------- */

typedef enum wai_receipt_fault {
    WAI_RECEIPT_FAULT_NONE = 0,
    /* the JSON form (§15.2), refused by the reader: WAI_receipt_refused */
    WAI_RECEIPT_FAULT_JSON,              /* not RFC 8259, or a member named twice */
    WAI_RECEIPT_FAULT_PROFILE,           /* no object, or no profile this reads */
    WAI_RECEIPT_FAULT_MEMBER_MISSING,    /* member: the one the class writes and it lacks */
    WAI_RECEIPT_FAULT_MEMBER_UNKNOWN,    /* member: one the class does not write */
    WAI_RECEIPT_FAULT_MEMBER_FORM,       /* member: not of its form */
    WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, /* not the receipt's own, as §15.2 spells it */
    WAI_RECEIPT_FAULT_RECEIPT_HASH,      /* not the receipt's hash */
    /* consistency (§15.1, §15.3): WAI_receipt_inconsistent */
    WAI_RECEIPT_FAULT_MERKLE_ROOT,       /* not the frames' root */
    WAI_RECEIPT_FAULT_CLIP_HASH,         /* clip_hash (source_hash) not the frames' */
    WAI_RECEIPT_FAULT_WORK,              /* work_pixel_ops not frames × h × w × 3 */
    WAI_RECEIPT_FAULT_ENERGY_CLASS,      /* a figure and class that do not cohere */
    WAI_RECEIPT_FAULT_ENERGY_FLOOR,      /* relative_ppm × joules_micro under 288676 */
    WAI_RECEIPT_FAULT_LEGACY_CLASS,      /* HwShunt in an encode receipt */
    WAI_RECEIPT_FAULT_SIGNATURE,         /* sig does not verify */
    WAI_RECEIPT_FAULT_SIGNER,            /* not the signer the caller requires */
    /* re-derivation: WAI_receipt_not_rederived */
    WAI_RECEIPT_FAULT_CODESTREAM_HASH,   /* the payload is another */
    WAI_RECEIPT_FAULT_PAYLOAD_REFUSED,   /* status: the decode's refusal */
    WAI_RECEIPT_FAULT_GEOMETRY,          /* h, w or the number of frames */
    WAI_RECEIPT_FAULT_PARAMETERS,        /* block, mv_precision or q */
    WAI_RECEIPT_FAULT_FRAME_HASH,        /* index: the first frame whose hash differs */
    WAI_RECEIPT_FAULT_SOURCE,            /* the source is not n_frames frames of h × w */
    WAI_RECEIPT_FAULT_SSE                /* the decode's error against the source differs */
} wai_receipt_fault;

typedef struct wai_receipt_problem {
    wai_receipt_fault fault;
    const char *member;        /* the JSON member concerned, or NULL */
    uint64_t index;            /* FRAME_HASH: the frame */
    wai_status status;         /* PAYLOAD_REFUSED: the decode's status */
} wai_receipt_problem;

/* "merkle_root", "signature", ... ("none" for WAI_RECEIPT_FAULT_NONE). */
WAI_RECEIPT_API const char *wai_receipt_fault_name(wai_receipt_fault f);

/* One sentence saying what p found, into buf by the API's rule for text
 * (include/wai/wai.h): *len its length, WAI_invalid_argument when it does
 * not fit. */
WAI_RECEIPT_API wai_status wai_receipt_problem_text(const wai_receipt_problem *p, char *buf,
                                                    size_t size, size_t *len);

/* ---- sealing ------------------------------------------------------------ */

/* Measures the energy of what runs between begin and end: end writes the
 * figure and its class, or the unmetered marker. */
typedef struct wai_energy_meter {
    void (*begin)(void *opaque);
    void (*end)(void *opaque, wai_energy *out);
    void *opaque;
} wai_energy_meter;

typedef struct wai_receipt_seal_options {
    const uint8_t *parent;           /* the receipt hash before it (32 bytes), or NULL */
    const wai_energy_meter *meter;   /* a decode receipt: run around the decode; NULL:
                                      * unmetered */
    wai_energy energy;               /* an encode receipt: the encoder's figure */
    uint32_t search;                 /* an encode receipt: the motion search's radius */
    uint64_t max_cost, max_memory;   /* the decode's limits (wai_decoder_config) */
    uint8_t reserved[32];            /* zero */
} wai_receipt_seal_options;

/* Zero, no parent, unmetered, no limits. */
WAI_RECEIPT_API void wai_receipt_seal_options_default(wai_receipt_seal_options *o);

/* A decode receipt of payload: decodes it (refused: the decode's status),
 * hashes its frames and signs. A figure the meter gives that does not
 * cohere is invalid_argument. */
WAI_RECEIPT_API wai_status wai_receipt_seal_decode(wai_context *ctx, const uint8_t *payload,
                                                   size_t len, const wai_receipt_seal_options *o,
                                                   const wai_receipt_signer *signer,
                                                   wai_receipt **out);

/* An encode receipt of payload, written from source (n_frames RGB8 frames
 * of the payload's h × w, source_len bytes): reads its parameters, decodes
 * it for its error against the source, and signs. A source of another size
 * is geometry_mismatch. */
WAI_RECEIPT_API wai_status wai_receipt_seal_encode(wai_context *ctx, const uint8_t *payload,
                                                   size_t len, const uint8_t *source,
                                                   size_t source_len,
                                                   const wai_receipt_seal_options *o,
                                                   const wai_receipt_signer *signer,
                                                   wai_receipt **out);

WAI_RECEIPT_API void wai_receipt_destroy(wai_receipt *r);

/* The receipt's fields; valid while r lives. */
WAI_RECEIPT_API const wai_receipt_info *wai_receipt_view(const wai_receipt *r);

/* ---- the JSON form (§15.2) ---------------------------------------------- */

/* The receipt's JSON form, members in §15.2's order, one a line: *json
 * from the context's allocator (wai_receipt_json_free), NUL-terminated,
 * *len without the NUL. */
WAI_RECEIPT_API wai_status wai_receipt_write_json(const wai_context *ctx, const wai_receipt *r,
                                                  char **json, size_t *len);
WAI_RECEIPT_API void wai_receipt_json_free(const wai_context *ctx, char *json);

/* Reads a JSON form strictly (§15.2): refused, WAI_receipt_refused and *p
 * says why. A receipt read is neither checked for consistency nor for its
 * signature (wai_receipt_check). */
WAI_RECEIPT_API wai_status wai_receipt_read_json(wai_context *ctx, const char *json, size_t len,
                                                 wai_receipt **out, wai_receipt_problem *p);

/* ---- verification ------------------------------------------------------- */

typedef struct wai_receipt_check_options {
    const uint8_t *signer;           /* the public key the signer must have, or NULL */
    uint64_t max_cost, max_memory;   /* re-derivation's decode limits */
    uint8_t reserved[32];            /* zero */
} wai_receipt_check_options;

WAI_RECEIPT_API void wai_receipt_check_options_default(wai_receipt_check_options *o);

/* Consistency (§15.1; §15.3 for an encode receipt), the signature last:
 * WAI_ok, or WAI_receipt_inconsistent and *p says why. */
WAI_RECEIPT_API wai_status wai_receipt_check(const wai_receipt *r, const wai_receipt_verifier *v,
                                             const wai_receipt_check_options *o,
                                             wai_receipt_problem *p);

/* Re-derivation from payload (and, for an encode receipt, source: its
 * frames as wai_receipt_seal_encode takes them), then consistency:
 * WAI_ok, WAI_receipt_not_rederived or WAI_receipt_inconsistent, and *p
 * says why. */
WAI_RECEIPT_API wai_status wai_receipt_rederive(wai_context *ctx, const wai_receipt *r,
                                                const uint8_t *payload, size_t len,
                                                const uint8_t *source, size_t source_len,
                                                const wai_receipt_verifier *v,
                                                const wai_receipt_check_options *o,
                                                wai_receipt_problem *p);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_RECEIPT_H */
