/* SPDX-License-Identifier: BSD-2-Clause */
/* Receipts end to end (src/receipt, integer-payloads §15): sealing, the
 * JSON form and its strict reader, consistency and re-derivation, each
 * refusal by its fault, and tampering of every field three ways (the text
 * alone, the receipt hash recomputed, and re-signed by another key). The
 * signer is the toy one of gen/receiptgen.h: Ed25519 itself is
 * libwai_ed25519's, tested where it is built (test_ed25519.c). */
#include <stdlib.h>
#include <string.h>

#include "gen/receiptgen.h"
#include "harness.h"
#include "receipt/commitments.h"
#include "receipt/receipt.h"
#include "wai/wai_receipt.h"

typedef struct fixture {
    wai_context *ctx;
    uint8_t *rgb, *payload;
    size_t rgb_len, payload_len;
    wai_receipt_signer signer, attacker;
    wai_receipt_verifier verifier;
} fixture;

static const uint8_t key_a[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t key_b[32] = {0xee, 0xee, 0xee};

static int fixture_open(fixture *f) {
    memset(f, 0, sizeof *f);
    if (wai_context_create(NULL, &f->ctx) != WAI_ok) return 0;
    if (rg_make_clip(3, 16, 24, 3, &f->rgb, &f->rgb_len, &f->payload, &f->payload_len) != 0) return 0;
    rg_toy_signer(key_a, "sink-a", &f->signer);
    rg_toy_signer(key_b, "attacker", &f->attacker);
    rg_toy_verifier(&f->verifier);
    return 1;
}

static void fixture_close(fixture *f) {
    wai_context_destroy(f->ctx);
    free(f->rgb);
    free(f->payload);
}

/* A fixed meter: what a RAPL meter would give. */
typedef struct fixed_meter {
    wai_energy e;
    int begun, ended;
} fixed_meter;
static void fm_begin(void *o) { ((fixed_meter *)o)->begun++; }
static void fm_end(void *o, wai_energy *out) {
    fixed_meter *m = o;
    m->ended++;
    *out = m->e;
}

static wai_receipt *seal(fixture *f, wai_receipt_kind kind, const wai_energy *e) {
    wai_receipt_seal_options o;
    wai_receipt_seal_options_default(&o);
    fixed_meter m = {{0}, 0, 0};
    wai_energy_meter hooks = {fm_begin, fm_end, &m};
    if (e) m.e = *e;
    o.meter = &hooks;
    if (e) o.energy = *e;
    o.search = 2;
    wai_receipt *r = NULL;
    wai_status st = kind == WAI_RECEIPT_DECODE
                        ? wai_receipt_seal_decode(f->ctx, f->payload, f->payload_len, &o, &f->signer, &r)
                        : wai_receipt_seal_encode(f->ctx, f->payload, f->payload_len, f->rgb,
                                                  f->rgb_len, &o, &f->signer, &r);
    CHECK_MSG(st == WAI_ok, "seal: %s", wai_status_name(st));
    if (kind == WAI_RECEIPT_DECODE) CHECK(m.begun == 1 && m.ended == 1);
    return r;
}

static char *to_json(fixture *f, const wai_receipt *r) {
    char *json = NULL;
    size_t len;
    CHECK(wai_receipt_write_json(f->ctx, r, &json, &len) == WAI_ok);
    char *copy = json ? malloc(len + 1) : NULL;
    if (copy) memcpy(copy, json, len + 1);
    wai_receipt_json_free(f->ctx, json);
    return copy;
}

static wai_status read(fixture *f, const char *json, wai_receipt **r, wai_receipt_problem *p) {
    return wai_receipt_read_json(f->ctx, json, strlen(json), r, p);
}

static const wai_energy counter = {1234567, WAI_ENERGY_ON_CHIP_COUNTER, 50000, 8000, WAI_FILTERING_UNKNOWN, NULL, 0};
static const wai_energy instrument = {900, WAI_ENERGY_CALIBRATED_INSTRUMENT, 400000, 100, 0, "lab \"7\"\n", 9};

/* Seal, write, read back: the same fields and the same text; consistent
 * and re-derived. */
static void roundtrip(fixture *f, wai_receipt_kind kind, const wai_energy *e) {
    wai_receipt *r = seal(f, kind, e);
    if (!r) return;
    const wai_receipt_info *a = wai_receipt_view(r);
    CHECK(a->n_frames == 3 && a->h == 16 && a->w == 24);
    CHECK(a->work_pixel_ops == 3ull * 16 * 24 * 3);
    char *json = to_json(f, r);
    wai_receipt *back = NULL;
    wai_receipt_problem p;
    wai_status st = read(f, json, &back, &p);
    CHECK_MSG(st == WAI_ok, "read back: %s %s", wai_status_name(st), wai_receipt_fault_name(p.fault));
    if (back) {
        char *again = to_json(f, back);
        CHECK_MSG(again && !strcmp(json, again), "the JSON form round-trips byte for byte");
        free(again);
        const wai_receipt_info *b = wai_receipt_view(back);
        CHECK(!memcmp(a->receipt_hash, b->receipt_hash, 32) && !memcmp(a->sig, b->sig, 64));
        CHECK(wai_receipt_check(back, &f->verifier, NULL, &p) == WAI_ok);
        st = wai_receipt_rederive(f->ctx, back, f->payload, f->payload_len, f->rgb, f->rgb_len,
                                  &f->verifier, NULL, &p);
        CHECK_MSG(st == WAI_ok, "re-derived: %s %s", wai_status_name(st), wai_receipt_fault_name(p.fault));
    }
    wai_receipt_destroy(back);
    free(json);
    wai_receipt_destroy(r);
}

static void test_roundtrip(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    wai_energy model = {77, WAI_ENERGY_MODEL_BASED, 0, 0, 0, NULL, 0};
    wai_energy shunt = {77, WAI_ENERGY_HW_SHUNT, 0, 0, 0, NULL, 0};
    for (int k = 0; k < 2; k++) {
        roundtrip(&f, (wai_receipt_kind)k, NULL);
        roundtrip(&f, (wai_receipt_kind)k, &counter);
        roundtrip(&f, (wai_receipt_kind)k, &instrument);
        roundtrip(&f, (wai_receipt_kind)k, &model);
    }
    roundtrip(&f, WAI_RECEIPT_DECODE, &shunt);
    fixture_close(&f);
}

/* The commitments of a sealed decode receipt, from the decode itself. */
static void test_seal_commitments(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    wai_receipt *r = seal(&f, WAI_RECEIPT_DECODE, NULL);
    wai_receipt *e = seal(&f, WAI_RECEIPT_ENCODE, NULL);
    if (r && e) {
        const wai_receipt_info *a = wai_receipt_view(r), *b = wai_receipt_view(e);
        uint8_t h[32];
        wai_blake3_oneshot(f.payload, f.payload_len, h);
        CHECK(!memcmp(h, a->codestream_hash, 32) && !memcmp(h, b->codestream_hash, 32));
        /* The source frames hash under their own tag. */
        size_t frame = 16 * 24 * 3;
        for (int i = 0; i < 3; i++) {
            wai_frame_hash(WAI_TAG_SFRAME, (uint64_t)i, f.rgb + i * frame, frame, h);
            CHECK(!memcmp(h, b->frames[i], 32));
        }
        wai_clip_hash(WAI_TAG_CLIP, 16, 24, 3, a->frames, h);
        CHECK(!memcmp(h, a->clip_hash, 32));
        wai_merkle_root(a->frames, 3, h);
        CHECK(!memcmp(h, a->merkle_root, 32));
        CHECK(b->block == 8 && b->search == 2 && b->q == 3 && b->mv_precision == 1);
        /* q 3 is lossy: the sse is the decode's error, above 0. */
        CHECK(b->sse > 0);
        CHECK(!strcmp(a->signer_id, "sink-a") && a->signer_id_len == 6);
    }
    wai_receipt_destroy(r);
    wai_receipt_destroy(e);
    fixture_close(&f);
}

/* The figure rules: the unmetered marker, a class for a figure, the
 * evidence's floor, and no legacy class in an encode receipt. */
static void test_energy_rules(void) {
    wai_energy e = {0};
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    e.cls = WAI_ENERGY_ESTIMATOR;
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_CLASS);
    e.joules_micro = 1;
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    e.cls = WAI_ENERGY_UNMETERED;
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_CLASS);
    e.cls = (wai_energy_class)6;
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_CLASS);
    /* 288676 = 1 × 288676 = 2 × 144338: at the floor; one below is under. */
    wai_energy c = {288676, WAI_ENERGY_ON_CHIP_COUNTER, 1, 10, 0, NULL, 0};
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    c.joules_micro = 288675;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_FLOOR);
    c.joules_micro = 144338, c.relative_ppm = 2;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    c.joules_micro = 144337;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_FLOOR);
    /* No wrap: the largest figures pass, a 0 ppm never does. */
    c.joules_micro = UINT64_MAX, c.relative_ppm = UINT32_MAX;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    c.relative_ppm = 0;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_FLOOR);
    c.cls = WAI_ENERGY_CALIBRATED_INSTRUMENT;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_FLOOR);
    c.relative_ppm = 1, c.cls = WAI_ENERGY_ON_CHIP_COUNTER, c.filtering = 3;
    CHECK(wai_receipt_energy_fault(&c, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_ENERGY_CLASS);
    /* The floor binds only classes that declare an uncertainty. */
    wai_energy m = {1, WAI_ENERGY_MODEL_BASED, 0, 0, 0, NULL, 0};
    CHECK(wai_receipt_energy_fault(&m, WAI_RECEIPT_ENCODE) == WAI_RECEIPT_FAULT_NONE);
    m.cls = WAI_ENERGY_HW_SHUNT;
    CHECK(wai_receipt_energy_fault(&m, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    CHECK(wai_receipt_energy_fault(&m, WAI_RECEIPT_ENCODE) == WAI_RECEIPT_FAULT_LEGACY_CLASS);
}

/* A seal refuses a figure that does not cohere, a payload that does not
 * decode, and a source of another size. */
static void test_seal_refusals(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    wai_receipt_seal_options o;
    wai_receipt_seal_options_default(&o);
    wai_receipt *r = NULL;
    o.energy.cls = WAI_ENERGY_HW_SHUNT, o.energy.joules_micro = 5;
    CHECK(wai_receipt_seal_encode(f.ctx, f.payload, f.payload_len, f.rgb, f.rgb_len, &o, &f.signer,
                                  &r) == WAI_invalid_argument && !r);
    o.energy.cls = WAI_ENERGY_UNMETERED;
    CHECK(wai_receipt_seal_encode(f.ctx, f.payload, f.payload_len, f.rgb, f.rgb_len - 3, &o,
                                  &f.signer, &r) == WAI_geometry_mismatch && !r);
    o.energy.joules_micro = 0;
    f.payload[0] ^= 1;
    CHECK(wai_receipt_seal_decode(f.ctx, f.payload, f.payload_len, &o, &f.signer, &r) == WAI_bad_magic);
    f.payload[0] ^= 1;
    o.max_cost = 10;
    CHECK(wai_receipt_seal_decode(f.ctx, f.payload, f.payload_len, &o, &f.signer, &r) == WAI_cost_over_limit);
    o.max_cost = UINT64_MAX;
    wai_receipt_signer bad = f.signer;
    bad.id = "\xff", bad.id_len = 1;   /* no UTF-8 */
    CHECK(wai_receipt_seal_decode(f.ctx, f.payload, f.payload_len, &o, &bad, &r) == WAI_invalid_argument);
    o.reserved[0] = 1;
    CHECK(wai_receipt_seal_decode(f.ctx, f.payload, f.payload_len, &o, &f.signer, &r) == WAI_invalid_argument);
    fixture_close(&f);
}

/* The reader refuses each inconsistency of §15.2 with its fault. */
typedef struct edit {
    const char *member, *value;
    int add;
    wai_receipt_fault fault;
    const char *named;   /* the member the problem names */
} edit;

static void check_edits(fixture *f, const char *json, const edit *e, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *t = rg_json_edit(json, e[i].member, e[i].value, e[i].add);
        if (!CHECK_MSG(t, "edit %s", e[i].member)) continue;
        wai_receipt *r = NULL;
        wai_receipt_problem p;
        wai_status st = read(f, t, &r, &p);
        CHECK_MSG(st == WAI_receipt_refused && !r && p.fault == e[i].fault &&
                      (!e[i].named || (p.member && !strcmp(p.member, e[i].named))),
                  "%s = %s: %s %s (%s), want %s", e[i].member, e[i].value ? e[i].value : "(removed)",
                  wai_status_name(st), wai_receipt_fault_name(p.fault), p.member ? p.member : "-",
                  wai_receipt_fault_name(e[i].fault));
        wai_receipt_destroy(r);
        free(t);
    }
}

#define HASH0 "\"0000000000000000000000000000000000000000000000000000000000000000\""

static void test_reader_refusals(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    wai_receipt *r = seal(&f, WAI_RECEIPT_DECODE, &counter);
    char *json = r ? to_json(&f, r) : NULL;
    if (!json) return;
    static const edit decode_edits[] = {
        {"profile", "\"wai.video.int_motion/receipt2\"", 0, WAI_RECEIPT_FAULT_PROFILE, "profile"},
        {"profile", NULL, 0, WAI_RECEIPT_FAULT_PROFILE, "profile"},
        {"profile", "7", 0, WAI_RECEIPT_FAULT_PROFILE, "profile"},
        {"h", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "h"},
        {"frames", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "frames"},
        {"receipt_hash", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "receipt_hash"},
        {"energy_counter_filtering", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "energy_counter_filtering"},
        {"energy_provenance", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "energy_provenance"},
        {"uj_per_kilopixel_op", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "uj_per_kilopixel_op"},
        {"sse", "1", 1, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, "sse"},
        {"extra", "1", 1, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, NULL},
        {"energy_calibration_ref", "\"x\"", 1, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, "energy_calibration_ref"},
        /* a class's evidence with another class's label */
        {"energy_provenance", "\"Estimator\"", 0, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, NULL},
        {"energy_provenance", "\"CalibratedInstrument\"", 0, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, "energy_counter_filtering"},
        {"energy_provenance", "\"onchipcounter\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_provenance"},
        {"energy_provenance", "4", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_provenance"},
        {"codestream_hash", "\"ABCD\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "codestream_hash"},
        {"codestream_hash", "\"085111DEBFE957262B8F604942000D4B0CD536D732BBF01792D42AD783548DF9\"", 0,
         WAI_RECEIPT_FAULT_MEMBER_FORM, "codestream_hash"},
        {"clip_hash", "null", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "clip_hash"},
        {"h", "16.0", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "h"},
        {"h", "1.6e1", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "h"},
        {"h", "-0", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "h"},
        {"h", "-16", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "h"},
        {"w", "4294967296", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "w"},
        {"w", "\"24\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "w"},
        {"frames", "{}", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "frames"},
        {"frames", "[1]", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "frames"},
        {"work_pixel_ops", "18446744073709551616", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "work_pixel_ops"},
        {"joules_micro", "true", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "joules_micro"},
        {"energy_uncertainty", "{\"relative_ppm\": 50000}", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_uncertainty"},
        {"energy_uncertainty", "{\"relative_ppm\": 50000, \"window_us\": 8000, \"x\": 1}", 0,
         WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_uncertainty"},
        {"energy_uncertainty", "{\"relative_ppm\": 4294967296, \"window_us\": 8000}", 0,
         WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_uncertainty"},
        {"energy_uncertainty", "[50000, 8000]", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_uncertainty"},
        {"energy_counter_filtering", "\"on\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_counter_filtering"},
        {"energy_counter_filtering", "2", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_counter_filtering"},
        {"parent_receipt_hash", "\"\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "parent_receipt_hash"},
        {"signer_pubkey", HASH0 "", 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash"},
        {"signer_id", "5", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "signer_id"},
        {"sig", HASH0, 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "sig"},
        {"uj_per_kilopixel_op", "\"1.000000\"", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "uj_per_kilopixel_op"},
        {"uj_per_kilopixel_op", "null", 0, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, "uj_per_kilopixel_op"},
        /* 1234567 × 1000 / 3456 = 357224.2476851852...: six digits, no other spelling */
        {"uj_per_kilopixel_op", "357224.24768518", 0, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, NULL},
        {"uj_per_kilopixel_op", "357224.247686", 0, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, NULL},
        {"uj_per_kilopixel_op", "3.57224247685e5", 0, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, NULL},
        {"joules_micro", "1234568", 0, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, NULL},
        {"receipt_hash", HASH0, 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash"},
        {"merkle_root", HASH0, 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash"},
        {"parent_receipt_hash", HASH0, 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, NULL},
        {"signer_id", "\"sink-b\"", 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, NULL},
        {"signer_id", "\"sink-\\u0061\"", 0, WAI_RECEIPT_FAULT_NONE, NULL},   /* the same id, escaped */
    };
    /* The last edit is no refusal: an escaped spelling of the same id. */
    size_t n = sizeof decode_edits / sizeof decode_edits[0];
    check_edits(&f, json, decode_edits, n - 1);
    char *same = rg_json_edit(json, "signer_id", "\"sink-\\u0061\"", 0);
    wai_receipt *back = NULL;
    CHECK(same && read(&f, same, &back, NULL) == WAI_ok);
    wai_receipt_destroy(back);
    free(same);
    CHECK(strstr(json, "\"uj_per_kilopixel_op\": 357224.247685,") != NULL);
    /* Whole-text refusals: no JSON, a member twice, no object. */
    const char *texts[] = {"", "[]", "{\"profile\": \"wai.video.int_motion/receipt\"", "\xef\xbb\xbf{}"};
    wai_receipt_fault want[] = {WAI_RECEIPT_FAULT_JSON, WAI_RECEIPT_FAULT_PROFILE,
                                WAI_RECEIPT_FAULT_JSON, WAI_RECEIPT_FAULT_JSON};
    for (size_t i = 0; i < 4; i++) {
        wai_receipt_problem p;
        CHECK(read(&f, texts[i], &back, &p) == WAI_receipt_refused && p.fault == want[i]);
    }
    char *twice = rg_json_edit(json, "h", "16", 1);
    wai_receipt_problem p;
    CHECK(twice && read(&f, twice, &back, &p) == WAI_receipt_refused && p.fault == WAI_RECEIPT_FAULT_JSON);
    free(twice);
    free(json);
    wai_receipt_destroy(r);

    /* An encode receipt's own members. */
    r = seal(&f, WAI_RECEIPT_ENCODE, &instrument);
    json = r ? to_json(&f, r) : NULL;
    static const edit encode_edits[] = {
        {"sse", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "sse"},
        {"source_frames", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "source_frames"},
        {"energy_calibration_ref", NULL, 0, WAI_RECEIPT_FAULT_MEMBER_MISSING, "energy_calibration_ref"},
        {"merkle_root", HASH0, 1, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, "merkle_root"},
        {"uj_per_kilopixel_op", "null", 1, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, "uj_per_kilopixel_op"},
        {"mv_precision", "256", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "mv_precision"},
        {"block", "8.5", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "block"},
        {"energy_calibration_ref", "null", 0, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_calibration_ref"},
        {"sse", "0", 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash"},
        {"search", "3", 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash"},
        {"energy_calibration_ref", "\"lab 8\"", 0, WAI_RECEIPT_FAULT_RECEIPT_HASH, NULL},
        {"profile", "\"wai.video.int_motion/receipt\"", 0, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, NULL},
    };
    if (json) check_edits(&f, json, encode_edits, sizeof encode_edits / sizeof encode_edits[0]);
    free(json);
    wai_receipt_destroy(r);
    fixture_close(&f);
}

/* Tampering of every field: the receipt hash then fails (the text alone);
 * recomputed, the signature fails; re-signed by another key, a check finds
 * each field that the frames or the payload fix, and the signer pin finds
 * the rest. */
typedef enum field {
    F_CODESTREAM, F_CLIP, F_H, F_W, F_FRAME, F_MERKLE, F_WORK, F_JOULES, F_CLASS, F_PPM, F_WINDOW,
    F_FILTERING, F_PARENT, F_ID, F_BLOCK, F_SEARCH, F_MV, F_Q, F_SSE, N_FIELDS
} field;

static const char *const field_names[N_FIELDS] = {
    "codestream_hash", "clip_hash", "h", "w", "frames", "merkle_root", "work_pixel_ops",
    "joules_micro", "class", "relative_ppm", "window_us", "filtering", "parent", "signer_id",
    "block", "search", "mv_precision", "q", "sse"};

static int tamper(wai_receipt *r, field fl) {
    wai_receipt_info *f = rg_fields(r);
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    switch (fl) {
    case F_CODESTREAM: f->codestream_hash[5] ^= 1; return 1;
    case F_CLIP: f->clip_hash[0] ^= 0x80; return 1;
    case F_H: f->h += 1; return 1;
    case F_W: f->w -= 1; return 1;
    case F_FRAME: rg_frames(r)[1][31] ^= 1; return 1;
    case F_MERKLE: f->merkle_root[9] ^= 4; return !enc;
    case F_WORK: f->work_pixel_ops += 3; return 1;
    case F_JOULES: f->energy.joules_micro += 1000; return 1;
    case F_CLASS: f->energy.cls = WAI_ENERGY_ESTIMATOR; return 1;
    case F_PPM: f->energy.relative_ppm -= 1; return 1;
    case F_WINDOW: f->energy.window_us += 1; return 1;
    case F_FILTERING: f->energy.filtering = WAI_FILTERING_ON; return 1;
    case F_PARENT: f->has_parent = 1, f->parent[0] = 9; return 1;
    case F_ID: f->signer_id = "sink-A"; return 1;
    case F_BLOCK: f->block = 16; return enc;
    case F_SEARCH: f->search = 7; return enc;
    case F_MV: f->mv_precision = 2; return enc;
    case F_Q: f->q = 4; return enc;
    case F_SSE: f->sse += 1; return enc;
    default: return 0;
    }
}

/* What a rehashed (how 1) or re-signed (how 2) copy's check finds: what
 * the frames fix, else the signature, else only the signer pin. */
static wai_receipt_fault check_fault(field fl, int enc, int how) {
    switch (fl) {
    case F_CLIP: case F_H: case F_W: return WAI_RECEIPT_FAULT_CLIP_HASH;
    case F_FRAME: return enc ? WAI_RECEIPT_FAULT_CLIP_HASH : WAI_RECEIPT_FAULT_MERKLE_ROOT;
    case F_MERKLE: return WAI_RECEIPT_FAULT_MERKLE_ROOT;
    case F_WORK: return WAI_RECEIPT_FAULT_WORK;
    default: return how == 1 ? WAI_RECEIPT_FAULT_SIGNATURE : WAI_RECEIPT_FAULT_SIGNER;
    }
}

/* Re-derivation comes first ("re-derived ... and then consistent"): what
 * the payload and source fix, else the check's fault. */
static wai_receipt_fault rederive_fault(field fl, int enc, int how) {
    switch (fl) {
    case F_CODESTREAM: return WAI_RECEIPT_FAULT_CODESTREAM_HASH;
    case F_H: case F_W: return WAI_RECEIPT_FAULT_GEOMETRY;
    case F_FRAME: return WAI_RECEIPT_FAULT_FRAME_HASH;
    case F_BLOCK: case F_MV: case F_Q: return WAI_RECEIPT_FAULT_PARAMETERS;
    case F_SSE: return WAI_RECEIPT_FAULT_SSE;
    default: return check_fault(fl, enc, how);
    }
}

static void test_tampering(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    for (int k = 0; k < 2; k++) {
        for (int fl = 0; fl < N_FIELDS; fl++) {
            for (int how = 0; how < 3; how++) {
                wai_receipt *r = seal(&f, (wai_receipt_kind)k, &counter);
                if (!r) continue;
                if (!tamper(r, (field)fl)) {
                    wai_receipt_destroy(r);
                    continue;
                }
                wai_receipt_problem p;
                wai_status st;
                const char *what = how == 0 ? "text" : how == 1 ? "rehashed" : "re-signed";
                if (how == 0) {
                    /* The text alone: the reader's receipt hash (or, for a
                     * figure, the derived figure first) refuses it. */
                    char *json = to_json(&f, r);
                    wai_receipt *back = NULL;
                    st = json ? read(&f, json, &back, &p) : WAI_out_of_memory;
                    CHECK_MSG(st == WAI_receipt_refused &&
                                  (p.fault == WAI_RECEIPT_FAULT_RECEIPT_HASH ||
                                   p.fault == WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP),
                              "%s %s, %s: %s", k ? "encode" : "decode", field_names[fl], what,
                              wai_receipt_fault_name(p.fault));
                    wai_receipt_destroy(back);
                    free(json);
                } else {
                    CHECK(rg_reseal(r, &f.attacker, how == 1) == 0);
                    wai_receipt_check_options o;
                    wai_receipt_check_options_default(&o);
                    o.signer = key_a;
                    wai_receipt_fault want = check_fault((field)fl, k, how);
                    st = wai_receipt_check(r, &f.verifier, &o, &p);
                    CHECK_MSG(st == WAI_receipt_inconsistent && p.fault == want,
                              "%s %s, %s, check: %s %s, want %s", k ? "encode" : "decode",
                              field_names[fl], what, wai_status_name(st),
                              wai_receipt_fault_name(p.fault), wai_receipt_fault_name(want));
                    want = rederive_fault((field)fl, k, how);
                    st = wai_receipt_rederive(f.ctx, r, f.payload, f.payload_len, f.rgb, f.rgb_len,
                                              &f.verifier, &o, &p);
                    CHECK_MSG(st != WAI_ok && p.fault == want, "%s %s, %s, re-derive: %s %s, want %s",
                              k ? "encode" : "decode", field_names[fl], what, wai_status_name(st),
                              wai_receipt_fault_name(p.fault), wai_receipt_fault_name(want));
                }
                wai_receipt_destroy(r);
            }
        }
    }
    fixture_close(&f);
}

/* Re-derivation's own faults: another payload, one that does not decode,
 * another source, and a consistent forgery of the frames. */
static void test_rederive_faults(void) {
    fixture f;
    if (!CHECK(fixture_open(&f))) return;
    wai_receipt *d = seal(&f, WAI_RECEIPT_DECODE, NULL), *e = seal(&f, WAI_RECEIPT_ENCODE, NULL);
    wai_receipt_problem p;
    if (d && e) {
        uint8_t *other = malloc(f.payload_len);
        memcpy(other, f.payload, f.payload_len);
        other[f.payload_len - 1] ^= 1;
        CHECK(wai_receipt_rederive(f.ctx, d, other, f.payload_len, NULL, 0, &f.verifier, NULL, &p) ==
                  WAI_receipt_not_rederived && p.fault == WAI_RECEIPT_FAULT_CODESTREAM_HASH);
        /* A receipt of a payload that does not decode: sealed by hand. */
        wai_receipt_info *fi = rg_fields(d);
        wai_blake3_oneshot(other, f.payload_len, fi->codestream_hash);
        CHECK(rg_reseal(d, &f.signer, 0) == 0);
        wai_status st = wai_receipt_rederive(f.ctx, d, other, f.payload_len, NULL, 0, &f.verifier, NULL, &p);
        CHECK_MSG(st == WAI_receipt_not_rederived && p.fault == WAI_RECEIPT_FAULT_PAYLOAD_REFUSED &&
                      p.status != WAI_ok,
                  "%s %s", wai_status_name(st), wai_receipt_fault_name(p.fault));
        char text[256];
        size_t n = 0;
        CHECK(wai_receipt_problem_text(&p, text, sizeof text, &n) == WAI_ok && n > 0 &&
              strstr(text, wai_status_name(p.status)));
        free(other);
        /* An encode receipt against another source: its size, then a frame. */
        CHECK(wai_receipt_rederive(f.ctx, e, f.payload, f.payload_len, f.rgb, f.rgb_len - 1,
                                   &f.verifier, NULL, &p) == WAI_receipt_not_rederived &&
              p.fault == WAI_RECEIPT_FAULT_SOURCE);
        f.rgb[16 * 24 * 3 * 2 + 5] ^= 1;
        CHECK(wai_receipt_rederive(f.ctx, e, f.payload, f.payload_len, f.rgb, f.rgb_len,
                                   &f.verifier, NULL, &p) == WAI_receipt_not_rederived &&
              p.fault == WAI_RECEIPT_FAULT_FRAME_HASH && p.index == 2);
        f.rgb[16 * 24 * 3 * 2 + 5] ^= 1;
        /* A forged frame with its clip hash and root made to match, signed:
         * consistent, but not re-derived (frame 1). */
        wai_receipt *g = seal(&f, WAI_RECEIPT_DECODE, NULL);
        if (g) {
            wai_receipt_info *gi = rg_fields(g);
            rg_frames(g)[1][0] ^= 1;
            wai_clip_hash(WAI_TAG_CLIP, gi->h, gi->w, gi->n_frames, gi->frames, gi->clip_hash);
            wai_merkle_root(gi->frames, gi->n_frames, gi->merkle_root);
            CHECK(rg_reseal(g, &f.signer, 0) == 0);
            CHECK(wai_receipt_check(g, &f.verifier, NULL, &p) == WAI_ok);
            CHECK(wai_receipt_rederive(f.ctx, g, f.payload, f.payload_len, NULL, 0, &f.verifier,
                                       NULL, &p) == WAI_receipt_not_rederived &&
                  p.fault == WAI_RECEIPT_FAULT_FRAME_HASH && p.index == 1);
            /* Another frame count, all recomputed: the geometry. */
            gi->n_frames = 2;
            wai_clip_hash(WAI_TAG_CLIP, gi->h, gi->w, 2, gi->frames, gi->clip_hash);
            wai_merkle_root(gi->frames, 2, gi->merkle_root);
            gi->work_pixel_ops = wai_work_pixel_ops(2, gi->h, gi->w);
            CHECK(rg_reseal(g, &f.signer, 0) == 0);
            CHECK(wai_receipt_rederive(f.ctx, g, f.payload, f.payload_len, NULL, 0, &f.verifier,
                                       NULL, &p) == WAI_receipt_not_rederived &&
                  p.fault == WAI_RECEIPT_FAULT_GEOMETRY);
            gi->n_frames = 3;
        }
        wai_receipt_destroy(g);
    }
    wai_receipt_destroy(d);
    wai_receipt_destroy(e);
    fixture_close(&f);
}

/* Every fault has a name and a sentence; the names are distinct. */
static void test_fault_names(void) {
    for (int a = 0; a <= WAI_RECEIPT_FAULT_SSE; a++) {
        const char *n = wai_receipt_fault_name((wai_receipt_fault)a);
        if (!CHECK_MSG(n, "fault %d has a name", a)) continue;
        for (int b = 0; b < a; b++) CHECK(strcmp(n, wai_receipt_fault_name((wai_receipt_fault)b)));
        wai_receipt_problem p = {(wai_receipt_fault)a, NULL, 0, WAI_ok};
        /* Too small: the length it needs, and an empty string. */
        char text[8];
        size_t need = 0;
        CHECK(wai_receipt_problem_text(&p, text, sizeof text, &need) == WAI_invalid_argument &&
              need > 7 && text[0] == '\0');
        char whole[256];
        CHECK(wai_receipt_problem_text(&p, whole, sizeof whole, NULL) == WAI_ok &&
              strlen(whole) == need);
    }
    CHECK(wai_receipt_fault_name((wai_receipt_fault)(WAI_RECEIPT_FAULT_SSE + 1)) == NULL);
    CHECK(!strcmp(wai_energy_class_label(WAI_ENERGY_ON_CHIP_COUNTER), "OnChipCounter"));
    CHECK(wai_energy_class_label(WAI_ENERGY_UNMETERED) == NULL);
}

void suite_receipt(void) {
    harness_run("receipt_roundtrip", test_roundtrip);
    harness_run("receipt_seal_commitments", test_seal_commitments);
    harness_run("receipt_energy_rules", test_energy_rules);
    harness_run("receipt_seal_refusals", test_seal_refusals);
    harness_run("receipt_reader_refusals", test_reader_refusals);
    harness_run("receipt_tampering", test_tampering);
    harness_run("receipt_rederive_faults", test_rederive_faults);
    harness_run("receipt_fault_names", test_fault_names);
}
