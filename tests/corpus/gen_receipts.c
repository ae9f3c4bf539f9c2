/* Receipts of wai.video.int_motion (integer-payloads §15) as files, each
 * with what `wai receipt verify` must say of it, in receipts/index.txt:
 *
 *   NAME EXIT STATUS FAULT ARGS
 *
 * EXIT is verify's exit status, STATUS and FAULT what it prints (ok - for
 * a receipt it accepts), ARGS what verify is given beside the receipt:
 * "-" (nothing: consistency alone), "clip" (clip.wiv1: re-derived), "clip+source"
 * (clip.wiv1 --source source.y4m), "broken" (broken.wiv1), "pubkey"
 * (--pubkey key.pub).
 *
 * A small gray clip (R = G = B, so source.y4m is a Cmono Y4M whose frames
 * the tool reads back exactly) and its WIV1, receipts sealed with a fixed
 * Ed25519 key (its seed is BLAKE3 of a fixed text; Ed25519 signs
 * deterministically, so the files are the same at every run): every class,
 * a parent, both kinds; then one receipt per refusal of the reader (§15.2),
 * per consistency fault (§15.1, §15.3: re-signed with the same key, so only
 * the fault is wrong) and per re-derivation fault. */
#include "gen_receipts.h"

#if defined(WAI_HAVE_ED25519)

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/receiptgen.h"
#include "gen_io.h"
#include "receipt/commitments.h"
#include "wai/wai_ed25519.h"
#include "wai/wai_hash.h"

#define H 16
#define W 24
#define N 3

typedef struct state {
    const char *root;
    FILE *index;
    wai_context *ctx;
    uint8_t *rgb, *payload;
    size_t rgb_len, payload_len;
    wai_ed25519_key key, other;
    wai_receipt_signer signer, stranger;
} state;

static void index_line(state *s, const char *name, int exit_status, const char *status,
                       const char *fault, const char *args) {
    fprintf(s->index, "%s %d %s %s %s\n", name, exit_status, status, fault, args);
}

static char *json_of(state *s, const wai_receipt *r) {
    char *json;
    size_t len;
    if (wai_receipt_write_json(s->ctx, r, &json, &len) != WAI_ok) gen_die("receipt json");
    char *copy = malloc(len + 1);
    if (!copy) gen_die("memory");
    memcpy(copy, json, len + 1);
    wai_receipt_json_free(s->ctx, json);
    return copy;
}

static void put_text(state *s, const char *name, const char *text) {
    char rel[256];
    snprintf(rel, sizeof rel, "receipts/%s", name);
    gen_put(s->root, rel, text, strlen(text));
}

static void put_receipt(state *s, const char *name, const wai_receipt *r, int exit_status,
                        const char *status, const char *fault, const char *args) {
    char *json = json_of(s, r);
    put_text(s, name, json);
    free(json);
    index_line(s, name, exit_status, status, fault, args);
}

static wai_receipt *seal(state *s, wai_receipt_kind kind, const wai_energy *e,
                         const uint8_t *parent) {
    wai_receipt_seal_options o;
    wai_receipt_seal_options_default(&o);
    if (e) o.energy = *e;
    o.parent = parent;
    o.search = 2;
    wai_receipt *r = NULL;
    wai_status st = WAI_ok;
    if (kind == WAI_RECEIPT_DECODE) {
        st = wai_receipt_seal_decode(s->ctx, s->payload, s->payload_len, &o, &s->signer, &r);
        /* A decode receipt's figure comes from its meter: set it and sign again. */
        if (st == WAI_ok && e) {
            rg_fields(r)->energy = *e;
            if (rg_reseal(r, &s->signer, 0) != 0) gen_die("reseal");
        }
    } else {
        st = wai_receipt_seal_encode(s->ctx, s->payload, s->payload_len, s->rgb, s->rgb_len, &o,
                                     &s->signer, &r);
    }
    if (st != WAI_ok) gen_die("seal");
    return r;
}

/* source.y4m: the gray frames as Cmono (Y = R = G = B). */
static void put_source(state *s) {
    char head[64];
    int n = snprintf(head, sizeof head, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 Cmono\n", W, H);
    size_t len = (size_t)n + N * (6 + (size_t)H * W);
    uint8_t *b = malloc(len), *p = b;
    if (!b) gen_die("memory");
    memcpy(p, head, (size_t)n);
    p += n;
    for (int f = 0; f < N; f++) {
        memcpy(p, "FRAME\n", 6);
        p += 6;
        for (size_t i = 0; i < (size_t)H * W; i++) *p++ = s->rgb[(size_t)f * H * W * 3 + 3 * i];
    }
    gen_put(s->root, "receipts/source.y4m", b, len);
    free(b);
}

static const wai_energy counter = {1234567, WAI_ENERGY_ON_CHIP_COUNTER, 50250, 8000,
                                   WAI_FILTERING_UNKNOWN, NULL, 0};
static const wai_energy instrument = {90000, WAI_ENERGY_CALIBRATED_INSTRUMENT, 20000, 1500000, 0,
                                      "lab-cal-2026-014", 16};
static const wai_energy shunt = {5000, WAI_ENERGY_HW_SHUNT, 0, 0, 0, NULL, 0};
static const wai_energy estimator = {4200, WAI_ENERGY_ESTIMATOR, 0, 0, 0, NULL, 0};

/* Text edits of a good receipt, each refused by the reader. */
static void reader_refusals(state *s, const char *decode_json, const char *encode_json) {
    static const struct {
        const char *name, *member, *value;
        int add, encode;
        const char *fault;
    } e[] = {
        {"refused_profile.json", "profile", "\"wai.video.int_motion/receipt/2\"", 0, 0, "profile"},
        {"refused_missing_merkle_root.json", "merkle_root", NULL, 0, 0, "member_missing"},
        {"refused_missing_evidence.json", "energy_uncertainty", NULL, 0, 0, "member_missing"},
        {"refused_missing_sse.json", "sse", NULL, 0, 1, "member_missing"},
        {"refused_unknown_member.json", "comment", "\"hello\"", 1, 0, "member_unknown"},
        {"refused_evidence_of_other_class.json", "energy_calibration_ref", "\"x\"", 1, 0, "member_unknown"},
        {"refused_merkle_in_encode.json", "merkle_root", "\"" "00000000000000000000000000000000"
         "00000000000000000000000000000000" "\"", 1, 1, "member_unknown"},
        {"refused_uppercase_hex.json", "codestream_hash", "\"" "ABABABABABABABABABABABABABABABAB"
         "ABABABABABABABABABABABABABABABAB" "\"", 0, 0, "member_form"},
        {"refused_short_hash.json", "clip_hash", "\"abcd\"", 0, 0, "member_form"},
        {"refused_h_not_integer.json", "h", "16.0", 0, 0, "member_form"},
        {"refused_h_exponent.json", "h", "1.6e1", 0, 0, "member_form"},
        {"refused_h_negative_zero.json", "h", "-0", 0, 0, "member_form"},
        {"refused_w_past_u32.json", "w", "4294967296", 0, 0, "member_form"},
        {"refused_frames_not_array.json", "frames", "\"none\"", 0, 0, "member_form"},
        {"refused_provenance_label.json", "energy_provenance", "\"onchipcounter\"", 0, 0, "member_form"},
        {"refused_filtering_label.json", "energy_counter_filtering", "\"Enabled\"", 0, 0, "member_form"},
        {"refused_uncertainty_form.json", "energy_uncertainty", "{\"relative_ppm\": 50250}", 0, 0, "member_form"},
        {"refused_mv_precision_range.json", "mv_precision", "256", 0, 1, "member_form"},
        {"refused_signer_id_type.json", "signer_id", "null", 0, 0, "member_form"},
        {"refused_uj_digits.json", "uj_per_kilopixel_op", "357224.24768518", 0, 0, "uj_per_kilopixel_op"},
        {"refused_uj_null.json", "uj_per_kilopixel_op", "null", 0, 0, "uj_per_kilopixel_op"},
        {"refused_joules_changed.json", "joules_micro", "1234568", 0, 0, "uj_per_kilopixel_op"},
        {"refused_receipt_hash.json", "receipt_hash", "\"" "00000000000000000000000000000000"
         "00000000000000000000000000000000" "\"", 0, 0, "receipt_hash"},
        {"refused_signer_id_changed.json", "signer_id", "\"someone else\"", 0, 0, "receipt_hash"},
        {"refused_sse_changed.json", "sse", "0", 0, 1, "receipt_hash"},
        {"refused_duplicate_member.json", "h", "16", 1, 0, "json"},
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        char *t = rg_json_edit(e[i].encode ? encode_json : decode_json, e[i].member, e[i].value, e[i].add);
        if (!t) gen_die(e[i].name);
        put_text(s, e[i].name, t);
        free(t);
        index_line(s, e[i].name, 1, "receipt_refused", e[i].fault, "-");
    }
    /* Not JSON at all: the text cut short. */
    size_t n = strlen(decode_json);
    char *cut = malloc(n);
    if (!cut) gen_die("memory");
    memcpy(cut, decode_json, n - 3);
    cut[n - 3] = '\0';
    put_text(s, "refused_not_json.json", cut);
    free(cut);
    index_line(s, "refused_not_json.json", 1, "receipt_refused", "json", "-");
}

/* A receipt changed, then re-signed with the same key: valid signature,
 * the one fault. */
static void resigned(state *s, const char *name, wai_receipt_kind kind, const wai_energy *e,
                     void (*change)(wai_receipt *r), const wai_receipt_signer *by,
                     const char *status, const char *fault, const char *args) {
    wai_receipt *r = seal(s, kind, e, NULL);
    change(r);
    if (rg_reseal(r, by ? by : &s->signer, 0) != 0) gen_die("reseal");
    put_receipt(s, name, r, 1, status, fault, args);
    wai_receipt_destroy(r);
}

static void ch_merkle(wai_receipt *r) { rg_fields(r)->merkle_root[0] ^= 1; }
static void ch_clip(wai_receipt *r) { rg_fields(r)->clip_hash[31] ^= 1; }
static void ch_work(wai_receipt *r) { rg_fields(r)->work_pixel_ops *= 2; }
static void ch_class(wai_receipt *r) { rg_fields(r)->energy.cls = WAI_ENERGY_UNMETERED; }
static void ch_floor(wai_receipt *r) {
    rg_fields(r)->energy.joules_micro = 5;    /* 5 × 50250 = 251250 < 288676 */
}
static void ch_legacy(wai_receipt *r) {
    wai_energy *e = &rg_fields(r)->energy;
    e->cls = WAI_ENERGY_HW_SHUNT, e->joules_micro = 5000;
}
static void ch_none(wai_receipt *r) { (void)r; }
static void ch_codestream(wai_receipt *r) { rg_fields(r)->codestream_hash[7] ^= 1; }
static void recommit(wai_receipt *r) {
    wai_receipt_info *f = rg_fields(r);
    int enc = f->kind == WAI_RECEIPT_ENCODE;
    wai_clip_hash(enc ? WAI_TAG_SOURCE : WAI_TAG_CLIP, f->h, f->w, f->n_frames, f->frames, f->clip_hash);
    if (!enc) wai_merkle_root(f->frames, f->n_frames, f->merkle_root);
    f->work_pixel_ops = wai_work_pixel_ops(f->n_frames, f->h, f->w);
}
static void ch_frame(wai_receipt *r) {
    rg_frames(r)[2][0] ^= 1;
    recommit(r);
}
static void ch_geometry(wai_receipt *r) {
    rg_fields(r)->n_frames = 2;
    recommit(r);
}
static void ch_q(wai_receipt *r) { rg_fields(r)->q += 1; }
static void ch_sse(wai_receipt *r) { rg_fields(r)->sse += 1; }

static void consistency(state *s) {
    resigned(s, "inconsistent_merkle_root.json", WAI_RECEIPT_DECODE, NULL, ch_merkle, NULL,
             "receipt_inconsistent", "merkle_root", "-");
    resigned(s, "inconsistent_clip_hash.json", WAI_RECEIPT_DECODE, NULL, ch_clip, NULL,
             "receipt_inconsistent", "clip_hash", "-");
    resigned(s, "inconsistent_source_hash.json", WAI_RECEIPT_ENCODE, NULL, ch_clip, NULL,
             "receipt_inconsistent", "clip_hash", "-");
    resigned(s, "inconsistent_work.json", WAI_RECEIPT_DECODE, NULL, ch_work, NULL,
             "receipt_inconsistent", "work_pixel_ops", "-");
    resigned(s, "inconsistent_figure_without_class.json", WAI_RECEIPT_DECODE, &estimator, ch_class,
             NULL, "receipt_inconsistent", "energy_class", "-");
    resigned(s, "inconsistent_energy_floor.json", WAI_RECEIPT_DECODE, &counter, ch_floor, NULL,
             "receipt_inconsistent", "energy_floor", "-");
    resigned(s, "inconsistent_legacy_class.json", WAI_RECEIPT_ENCODE, NULL, ch_legacy, NULL,
             "receipt_inconsistent", "legacy_class", "-");
    resigned(s, "inconsistent_signer.json", WAI_RECEIPT_DECODE, NULL, ch_none, &s->stranger,
             "receipt_inconsistent", "signer", "pubkey");
    /* The signature of another payload: one bit of sig, the hash recomputed. */
    wai_receipt *r = seal(s, WAI_RECEIPT_DECODE, NULL, NULL);
    rg_fields(r)->sig[10] ^= 0x20;
    if (rg_reseal(r, &s->signer, 1) != 0) gen_die("rehash");
    put_receipt(s, "inconsistent_signature.json", r, 1, "receipt_inconsistent", "signature", "-");
    wai_receipt_destroy(r);
}

static void rederivation(state *s) {
    resigned(s, "underived_codestream_hash.json", WAI_RECEIPT_DECODE, NULL, ch_codestream, NULL,
             "receipt_not_rederived", "codestream_hash", "clip");
    resigned(s, "underived_frame_hash.json", WAI_RECEIPT_DECODE, NULL, ch_frame, NULL,
             "receipt_not_rederived", "frame_hash", "clip");
    resigned(s, "underived_geometry.json", WAI_RECEIPT_DECODE, NULL, ch_geometry, NULL,
             "receipt_not_rederived", "geometry", "clip");
    resigned(s, "underived_parameters.json", WAI_RECEIPT_ENCODE, NULL, ch_q, NULL,
             "receipt_not_rederived", "parameters", "clip+source");
    resigned(s, "underived_sse.json", WAI_RECEIPT_ENCODE, NULL, ch_sse, NULL,
             "receipt_not_rederived", "sse", "clip+source");
    resigned(s, "underived_source_frame.json", WAI_RECEIPT_ENCODE, NULL, ch_frame, NULL,
             "receipt_not_rederived", "frame_hash", "clip+source");
    /* A receipt of a payload that does not decode (trailing bytes). */
    uint8_t *broken = malloc(s->payload_len + 1);
    if (!broken) gen_die("memory");
    memcpy(broken, s->payload, s->payload_len);
    broken[s->payload_len] = 0;
    gen_put(s->root, "receipts/broken.wiv1", broken, s->payload_len + 1);
    wai_receipt *r = seal(s, WAI_RECEIPT_DECODE, NULL, NULL);
    wai_blake3_oneshot(broken, s->payload_len + 1, rg_fields(r)->codestream_hash);
    if (rg_reseal(r, &s->signer, 0) != 0) gen_die("reseal");
    put_receipt(s, "underived_payload_refused.json", r, 1, "receipt_not_rederived",
                "payload_refused", "broken");
    wai_receipt_destroy(r);
    free(broken);
}

void gen_receipts(const char *outdir) {
    state s;
    memset(&s, 0, sizeof s);
    s.root = outdir;
    gen_mkdir(outdir, "receipts");
    char path[1024];
    snprintf(path, sizeof path, "%s/receipts/index.txt", outdir);
    if (!(s.index = fopen(path, "w"))) gen_die(path);
    fprintf(s.index, "# Written by tests/corpus/gen_receipts.c; see its header for the columns.\n");
    if (wai_context_create(NULL, &s.ctx) != WAI_ok) gen_die("context");
    if (rg_make_clip(N, H, W, 3, &s.rgb, &s.rgb_len, &s.payload, &s.payload_len) != 0) gen_die("clip");
    gen_put(outdir, "receipts/clip.wiv1", s.payload, s.payload_len);
    put_source(&s);
    uint8_t seed[32];
    const char *text = "libwai receipt corpus key 1";
    wai_blake3_oneshot(text, strlen(text), seed);
    if (wai_ed25519_key_from_seed(&s.key, seed) != 0) gen_die("ed25519");
    seed[0] ^= 1;
    if (wai_ed25519_key_from_seed(&s.other, seed) != 0) gen_die("ed25519");
    wai_ed25519_signer(&s.key, "libwai-corpus", 13, &s.signer);
    wai_ed25519_signer(&s.other, "libwai-corpus", 13, &s.stranger);
    char pub[66];
    for (int i = 0; i < 32; i++) snprintf(pub + 2 * i, 3, "%02x", s.key.pubkey[i]);
    pub[64] = '\n', pub[65] = '\0';
    put_text(&s, "key.pub", pub);

    wai_receipt *d = seal(&s, WAI_RECEIPT_DECODE, NULL, NULL);
    put_receipt(&s, "decode.json", d, 0, "ok", "-", "clip");
    wai_receipt *dc = seal(&s, WAI_RECEIPT_DECODE, &counter, wai_receipt_view(d)->receipt_hash);
    put_receipt(&s, "decode_counter_parent.json", dc, 0, "ok", "-", "clip");
    wai_receipt *di = seal(&s, WAI_RECEIPT_DECODE, &instrument, NULL);
    put_receipt(&s, "decode_instrument.json", di, 0, "ok", "-", "-");
    wai_receipt *ds = seal(&s, WAI_RECEIPT_DECODE, &shunt, NULL);
    put_receipt(&s, "decode_legacy_shunt.json", ds, 0, "ok", "-", "pubkey");
    wai_receipt *e = seal(&s, WAI_RECEIPT_ENCODE, NULL, NULL);
    put_receipt(&s, "encode.json", e, 0, "ok", "-", "clip+source");
    wai_receipt *ee = seal(&s, WAI_RECEIPT_ENCODE, &estimator, NULL);
    put_receipt(&s, "encode_estimator.json", ee, 0, "ok", "-", "clip+source");

    char *dj = json_of(&s, dc), *ej = json_of(&s, e);
    reader_refusals(&s, dj, ej);
    free(dj);
    free(ej);
    consistency(&s);
    rederivation(&s);
    wai_receipt *list[] = {d, dc, di, ds, e, ee};
    for (size_t i = 0; i < 6; i++) wai_receipt_destroy(list[i]);
    wai_ed25519_key_wipe(&s.key);
    wai_ed25519_key_wipe(&s.other);
    wai_context_destroy(s.ctx);
    free(s.rgb);
    free(s.payload);
    if (fclose(s.index) != 0) gen_die("receipts index");
}

#else

void gen_receipts(const char *outdir) { (void)outdir; }

#endif
