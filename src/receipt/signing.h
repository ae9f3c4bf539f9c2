/* The signing payloads and receipt hashes of wai.video.int_motion's
 * receipts (integer-payloads §15.1, §15.3; docs/receipts.md): every
 * integer of a signing payload big-endian, in §15's order. The signature
 * itself is the caller's (Ed25519 over these bytes). */
#ifndef WAI_RECEIPT_SIGNING_H
#define WAI_RECEIPT_SIGNING_H

#include <stddef.h>
#include <stdint.h>

/* The acquisition classes of the energy figure (energy-measurement §2). */
typedef enum wai_energy_class {
    WAI_ENERGY_UNMETERED = 0,
    WAI_ENERGY_HW_SHUNT = 1,       /* legacy; never an encode receipt's */
    WAI_ENERGY_MODEL_BASED = 2,
    WAI_ENERGY_ESTIMATOR = 3,
    WAI_ENERGY_ON_CHIP_COUNTER = 4,
    WAI_ENERGY_CALIBRATED_INSTRUMENT = 5
} wai_energy_class;

typedef struct wai_energy {
    uint64_t joules_micro;          /* 0 with WAI_ENERGY_UNMETERED */
    wai_energy_class cls;
    uint32_t relative_ppm;          /* classes 4 and 5 */
    uint64_t window_us;             /* classes 4 and 5 */
    uint8_t filtering;              /* class 4: 0 Unknown, 1 Off, 2 On */
    const char *calibration_ref;    /* class 5, UTF-8 */
    size_t calibration_ref_len;
} wai_energy;

typedef enum wai_receipt_kind { WAI_RECEIPT_DECODE, WAI_RECEIPT_ENCODE } wai_receipt_kind;

/* One receipt's signed fields. frames holds the decoded frames' hashes (a
 * decode receipt) or the source frames' (an encode receipt); clip_hash is
 * clip_hash or source_hash; merkle_root is a decode receipt's alone; block
 * to sse an encode receipt's alone. */
typedef struct wai_receipt_fields {
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
    const char *signer_id;
    size_t signer_id_len;
} wai_receipt_fields;

/* The signing payload into out (cap bytes; NULL and 0 to size it); returns
 * its length, or 0 when a length field cannot hold signer_id or the
 * calibration reference (past 2^32 - 1 bytes). */
size_t wai_receipt_signing_payload(const wai_receipt_fields *r, uint8_t *out, size_t cap);

/* BLAKE3(wai:video-receipt-id or wai:video-encode-receipt-id, 0x01, the
 * signing payload, sig). */
void wai_receipt_hash(wai_receipt_kind kind, const uint8_t *payload, size_t len,
                      const uint8_t sig[64], uint8_t out[32]);

#endif
