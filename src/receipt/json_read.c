/* SPDX-License-Identifier: BSD-2-Clause */
/* The strict reader of a receipt's JSON form (§15.2; §15.3 for an encode
 * receipt): RFC 8259 with no member named twice (common/json.c), exactly
 * the members the receipt's class writes, each of its form, then the
 * derived figure and the receipt hash. Consistency is wai_receipt_check's. */
#include <string.h>

#include "common/alloc.h"
#include "common/json.h"
#include "receipt/receipt.h"
#include "receipt/signing.h"
#include "wai/wai_backend.h"

/* Every member a receipt may have, each once, so a problem can name one
 * that outlives the document. */
static const char *const all_members[] = {
    "profile", "codestream_hash", "clip_hash", "source_hash", "h", "w", "frames",
    "source_frames", "merkle_root", "block", "search", "mv_precision", "q", "sse",
    "work_pixel_ops", "joules_micro", "uj_per_kilopixel_op", "energy_provenance",
    "energy_uncertainty", "energy_counter_filtering", "energy_calibration_ref",
    "parent_receipt_hash", "signer_pubkey", "signer_id", "sig", "receipt_hash",
};
#define N_ALL (sizeof all_members / sizeof all_members[0])

static const char *known_name(const char *key, size_t len) {
    for (size_t i = 0; i < N_ALL; i++)
        if (strlen(all_members[i]) == len && !memcmp(all_members[i], key, len)) return all_members[i];
    return NULL;
}

/* The members a receipt of kind and class writes, in §15.2's order. */
static size_t expected_members(wai_receipt_kind kind, wai_energy_class cls, const char **out) {
    size_t n = 0;
    int enc = kind == WAI_RECEIPT_ENCODE;
    out[n++] = "profile";
    out[n++] = "codestream_hash";
    out[n++] = enc ? "source_hash" : "clip_hash";
    out[n++] = "h";
    out[n++] = "w";
    out[n++] = enc ? "source_frames" : "frames";
    if (enc) {
        out[n++] = "block";
        out[n++] = "search";
        out[n++] = "mv_precision";
        out[n++] = "q";
        out[n++] = "sse";
    } else {
        out[n++] = "merkle_root";
    }
    out[n++] = "work_pixel_ops";
    out[n++] = "joules_micro";
    if (!enc) out[n++] = "uj_per_kilopixel_op";
    out[n++] = "energy_provenance";
    if (cls == WAI_ENERGY_ON_CHIP_COUNTER || cls == WAI_ENERGY_CALIBRATED_INSTRUMENT)
        out[n++] = "energy_uncertainty";
    if (cls == WAI_ENERGY_ON_CHIP_COUNTER) out[n++] = "energy_counter_filtering";
    if (cls == WAI_ENERGY_CALIBRATED_INSTRUMENT) out[n++] = "energy_calibration_ref";
    out[n++] = "parent_receipt_hash";
    out[n++] = "signer_pubkey";
    out[n++] = "signer_id";
    out[n++] = "sig";
    out[n++] = "receipt_hash";
    return n;
}

static wai_status refuse(wai_receipt_problem *p, wai_receipt_fault f, const char *member) {
    return wai_receipt_fail(p, WAI_receipt_refused, f, member, 0, WAI_ok);
}

static int string_is(const wai_json_value *v, const char *s) {
    size_t n;
    const char *t = wai_json_type_of(v) == WAI_JSON_STRING ? wai_json_string(v, &n) : NULL;
    return t && n == strlen(s) && !memcmp(t, s, n);
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Lowercase hexadecimal of exactly n bytes. */
static int read_hex(const wai_json_value *v, uint8_t *out, size_t n) {
    size_t len;
    const char *s = wai_json_type_of(v) == WAI_JSON_STRING ? wai_json_string(v, &len) : NULL;
    if (!s || len != 2 * n) return 0;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

/* An integer in plain decimal (no sign, fraction or exponent) up to max. */
static int read_uint(const wai_json_value *v, uint64_t max, uint64_t *out) {
    size_t len;
    if (wai_json_type_of(v) != WAI_JSON_NUMBER || !wai_json_is_integer(v)) return 0;
    const char *text = wai_json_number_text(v, &len);
    if (!text || len == 0 || text[0] == '-') return 0;
    return wai_json_get_u64(v, out) && *out <= max;
}

typedef struct reading {
    const wai_json_value *obj;
    wai_receipt_problem *p;
    const char *bad;         /* the member whose form failed */
} reading;

static const wai_json_value *get(const reading *rd, const char *name) {
    return wai_json_object_get(rd->obj, name);
}

static int hex_member(reading *rd, const char *name, uint8_t *out, size_t n) {
    if (read_hex(get(rd, name), out, n)) return 1;
    rd->bad = name;
    return 0;
}

static int uint_member(reading *rd, const char *name, uint64_t max, uint64_t *out) {
    if (read_uint(get(rd, name), max, out)) return 1;
    rd->bad = name;
    return 0;
}

static int u32_member(reading *rd, const char *name, uint32_t *out) {
    uint64_t v;
    if (!uint_member(rd, name, UINT32_MAX, &v)) return 0;
    *out = (uint32_t)v;
    return 1;
}

/* energy_provenance: null (unmetered) or a class's label. */
static int read_class(const wai_json_value *v, wai_energy_class *out) {
    if (wai_json_type_of(v) == WAI_JSON_NULL) {
        *out = WAI_ENERGY_UNMETERED;
        return 1;
    }
    for (int c = WAI_ENERGY_HW_SHUNT; c <= WAI_ENERGY_CALIBRATED_INSTRUMENT; c++) {
        if (string_is(v, wai_energy_class_label((wai_energy_class)c))) {
            *out = (wai_energy_class)c;
            return 1;
        }
    }
    return 0;
}

/* The class's evidence: energy_uncertainty {"relative_ppm", "window_us"},
 * and energy_counter_filtering or energy_calibration_ref. */
static int read_evidence(reading *rd, wai_energy *e, const char **ref, size_t *ref_len) {
    if (e->cls != WAI_ENERGY_ON_CHIP_COUNTER && e->cls != WAI_ENERGY_CALIBRATED_INSTRUMENT)
        return 1;
    const wai_json_value *u = get(rd, "energy_uncertainty");
    uint64_t ppm, window;
    if (wai_json_type_of(u) != WAI_JSON_OBJECT || wai_json_object_len(u) != 2 ||
        !read_uint(wai_json_object_get(u, "relative_ppm"), UINT32_MAX, &ppm) ||
        !read_uint(wai_json_object_get(u, "window_us"), UINT64_MAX, &window)) {
        rd->bad = "energy_uncertainty";
        return 0;
    }
    e->relative_ppm = (uint32_t)ppm;
    e->window_us = window;
    if (e->cls == WAI_ENERGY_ON_CHIP_COUNTER) {
        static const char *const labels[] = {"Unknown", "Off", "On"};
        const wai_json_value *f = get(rd, "energy_counter_filtering");
        for (uint8_t i = 0; i < 3; i++) {
            if (string_is(f, labels[i])) {
                e->filtering = i;
                return 1;
            }
        }
        rd->bad = "energy_counter_filtering";
        return 0;
    }
    const wai_json_value *c = get(rd, "energy_calibration_ref");
    if (wai_json_type_of(c) != WAI_JSON_STRING) {
        rd->bad = "energy_calibration_ref";
        return 0;
    }
    *ref = wai_json_string(c, ref_len);
    return 1;
}

static int read_frames(reading *rd, const char *name, wai_receipt *r) {
    const wai_json_value *a = get(rd, name);
    for (uint64_t i = 0; i < r->info.n_frames; i++) {
        if (!read_hex(wai_json_array_at(a, (size_t)i), r->frames[i], 32)) {
            rd->bad = name;
            return 0;
        }
    }
    return 1;
}

/* Every member but the frames, the class and the strings, in order. */
static int read_fields(reading *rd, wai_receipt *r) {
    wai_receipt_info *f = &r->info;
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    uint64_t v;
    if (!hex_member(rd, "codestream_hash", f->codestream_hash, 32) ||
        !hex_member(rd, enc ? "source_hash" : "clip_hash", f->clip_hash, 32) ||
        !u32_member(rd, "h", &f->h) || !u32_member(rd, "w", &f->w) ||
        !read_frames(rd, enc ? "source_frames" : "frames", r))
        return 0;
    if (enc) {
        if (!u32_member(rd, "block", &f->block) || !u32_member(rd, "search", &f->search) ||
            !uint_member(rd, "mv_precision", UINT8_MAX, &v))
            return 0;
        f->mv_precision = (uint8_t)v;
        if (!u32_member(rd, "q", &f->q) || !uint_member(rd, "sse", UINT64_MAX, &f->sse)) return 0;
    } else if (!hex_member(rd, "merkle_root", f->merkle_root, 32)) {
        return 0;
    }
    if (!uint_member(rd, "work_pixel_ops", UINT64_MAX, &f->work_pixel_ops) ||
        !uint_member(rd, "joules_micro", UINT64_MAX, &f->energy.joules_micro))
        return 0;
    if (!enc) {
        const wai_json_value *u = get(rd, "uj_per_kilopixel_op");
        wai_json_type t = wai_json_type_of(u);
        if (t != WAI_JSON_NULL && t != WAI_JSON_NUMBER) {
            rd->bad = "uj_per_kilopixel_op";
            return 0;
        }
    }
    const wai_json_value *parent = get(rd, "parent_receipt_hash");
    if (wai_json_type_of(parent) != WAI_JSON_NULL) {
        if (!hex_member(rd, "parent_receipt_hash", f->parent, 32)) return 0;
        f->has_parent = 1;
    }
    if (!hex_member(rd, "signer_pubkey", f->signer_pubkey, 32) ||
        !hex_member(rd, "sig", f->sig, 64) ||
        !hex_member(rd, "receipt_hash", f->receipt_hash, 32))
        return 0;
    if (wai_json_type_of(get(rd, "signer_id")) != WAI_JSON_STRING) {
        rd->bad = "signer_id";
        return 0;
    }
    return 1;
}

/* §15.2's derived figure, spelled as the receipt's own. */
static int uj_matches(const wai_json_value *u, const wai_receipt_info *f) {
    char want[64];
    size_t n = wai_receipt_uj_text(f, want), len;
    if (wai_json_type_of(u) == WAI_JSON_NULL) return !strcmp(want, "null");
    const char *text = wai_json_number_text(u, &len);
    return text && len == n && !memcmp(text, want, n);
}

/* The profile, then the class (which says what else there is), then the
 * member set: each refusal names what it found. */
static wai_status read_shape(reading *rd, wai_receipt_kind *kind, wai_energy_class *cls) {
    const wai_json_value *obj = rd->obj;
    const wai_json_value *profile = wai_json_object_get(obj, "profile");
    if (string_is(profile, WAI_RECEIPT_PROFILE_DECODE)) *kind = WAI_RECEIPT_DECODE;
    else if (string_is(profile, WAI_RECEIPT_PROFILE_ENCODE)) *kind = WAI_RECEIPT_ENCODE;
    else return refuse(rd->p, WAI_RECEIPT_FAULT_PROFILE, "profile");
    const wai_json_value *prov = wai_json_object_get(obj, "energy_provenance");
    if (!prov) return refuse(rd->p, WAI_RECEIPT_FAULT_MEMBER_MISSING, "energy_provenance");
    if (!read_class(prov, cls)) return refuse(rd->p, WAI_RECEIPT_FAULT_MEMBER_FORM, "energy_provenance");
    const char *want[32];
    size_t n_want = expected_members(*kind, *cls, want);
    for (size_t i = 0; i < wai_json_object_len(obj); i++) {
        const char *key;
        size_t key_len;
        wai_json_object_value_at(obj, i, &key, &key_len);
        int expected = 0;
        for (size_t k = 0; k < n_want && !expected; k++)
            expected = strlen(want[k]) == key_len && !memcmp(want[k], key, key_len);
        if (!expected) return refuse(rd->p, WAI_RECEIPT_FAULT_MEMBER_UNKNOWN, known_name(key, key_len));
    }
    for (size_t k = 0; k < n_want; k++)
        if (!wai_json_object_get(obj, want[k]))
            return refuse(rd->p, WAI_RECEIPT_FAULT_MEMBER_MISSING, want[k]);
    const wai_json_value *frames = wai_json_object_get(obj, *kind == WAI_RECEIPT_ENCODE ? "source_frames" : "frames");
    if (wai_json_type_of(frames) != WAI_JSON_ARRAY)
        return refuse(rd->p, WAI_RECEIPT_FAULT_MEMBER_FORM, *kind == WAI_RECEIPT_ENCODE ? "source_frames" : "frames");
    return WAI_ok;
}

static wai_status read_doc(wai_context *ctx, const wai_json_value *obj, wai_receipt **out,
                           wai_receipt_problem *p) {
    reading rd = {obj, p, NULL};
    if (wai_json_type_of(obj) != WAI_JSON_OBJECT) return refuse(p, WAI_RECEIPT_FAULT_PROFILE, NULL);
    wai_receipt_kind kind = WAI_RECEIPT_DECODE;
    wai_energy_class cls = WAI_ENERGY_UNMETERED;
    wai_status st = read_shape(&rd, &kind, &cls);
    if (st != WAI_ok) return st;
    const wai_json_value *frames = get(&rd, kind == WAI_RECEIPT_ENCODE ? "source_frames" : "frames");
    wai_receipt *r = wai_receipt_alloc(wai_context_allocator(ctx), kind, wai_json_array_len(frames));
    if (!r) return WAI_out_of_memory;
    r->info.energy.cls = cls;
    const char *ref = NULL, *id = NULL;
    size_t ref_len = 0, id_len = 0;
    if (!read_fields(&rd, r) || !read_evidence(&rd, &r->info.energy, &ref, &ref_len)) {
        st = refuse(p, WAI_RECEIPT_FAULT_MEMBER_FORM, rd.bad);
    } else {
        id = wai_json_string(get(&rd, "signer_id"), &id_len);
        st = wai_receipt_set_strings(r, id, id_len, ref, ref_len);
        /* A string too long for its u32 length: not of its form. */
        if (st == WAI_invalid_argument) st = refuse(p, WAI_RECEIPT_FAULT_MEMBER_FORM, "signer_id");
    }
    if (st == WAI_ok && kind == WAI_RECEIPT_DECODE && !uj_matches(get(&rd, "uj_per_kilopixel_op"), &r->info))
        st = refuse(p, WAI_RECEIPT_FAULT_UJ_PER_KILOPIXEL_OP, "uj_per_kilopixel_op");
    if (st == WAI_ok) {
        uint8_t *payload, h[32];
        size_t len;
        st = wai_receipt_payload(r, &payload, &len);
        if (st == WAI_invalid_argument) st = refuse(p, WAI_RECEIPT_FAULT_MEMBER_FORM, "signer_id");
        if (st == WAI_ok) {
            wai_receipt_hash(kind, payload, len, r->info.sig, h);
            wai_free(&r->a, payload);
            if (memcmp(h, r->info.receipt_hash, 32))
                st = refuse(p, WAI_RECEIPT_FAULT_RECEIPT_HASH, "receipt_hash");
        }
    }
    if (st != WAI_ok) {
        wai_receipt_destroy(r);
        return st;
    }
    *out = r;
    return WAI_ok;
}

wai_status wai_receipt_read_json(wai_context *ctx, const char *json, size_t len, wai_receipt **out,
                                 wai_receipt_problem *p) {
    if (!ctx || !out || (!json && len)) return WAI_invalid_argument;
    *out = NULL;
    wai_receipt_fail(p, WAI_ok, WAI_RECEIPT_FAULT_NONE, NULL, 0, WAI_ok);
    wai_json_doc *doc;
    wai_json_error e = wai_json_parse(wai_context_allocator(ctx), (const uint8_t *)json, len, &doc, NULL);
    if (e == WAI_JSON_E_NOMEM) return WAI_out_of_memory;
    if (e != WAI_JSON_OK) return refuse(p, WAI_RECEIPT_FAULT_JSON, NULL);
    wai_status st = read_doc(ctx, wai_json_root(doc), out, p);
    wai_json_free(doc);
    return st;
}
