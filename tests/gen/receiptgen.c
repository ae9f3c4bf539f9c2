/* SPDX-License-Identifier: BSD-2-Clause */
/* The receipt tests' kit (receiptgen.h). */
#include "gen/receiptgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "receipt/receipt.h"
#include "receipt/signing.h"
#include "wai/wai_hash.h"
#include "wai/wai_write.h"

static void toy_sig(const uint8_t pubkey[32], const uint8_t *msg, size_t len, uint8_t sig[64]) {
    wai_blake3 b;
    wai_blake3_init(&b);
    wai_blake3_update(&b, "toy-sig", 7);
    wai_blake3_update(&b, pubkey, 32);
    wai_blake3_update(&b, msg, len);
    wai_blake3_final(&b, sig, 64);
}

static int toy_sign(void *opaque, const uint8_t *msg, size_t len, uint8_t sig[64]) {
    toy_sig(opaque, msg, len, sig);
    return 0;
}

static int toy_verify(void *opaque, const uint8_t pubkey[32], const uint8_t *msg, size_t len,
                      const uint8_t sig[64]) {
    (void)opaque;
    uint8_t want[64];
    toy_sig(pubkey, msg, len, want);
    return memcmp(want, sig, 64) == 0;
}

void rg_toy_signer(const uint8_t pubkey[32], const char *id, wai_receipt_signer *s) {
    memset(s, 0, sizeof *s);
    memcpy(s->pubkey, pubkey, 32);
    s->id = id;
    s->id_len = strlen(id);
    s->sign = toy_sign;
    s->opaque = s->pubkey;
}

void rg_toy_verifier(wai_receipt_verifier *v) {
    v->verify = toy_verify;
    v->opaque = NULL;
}

int rg_make_clip(uint32_t n, uint32_t h, uint32_t w, uint32_t q, uint8_t **rgb, size_t *rgb_len,
                 uint8_t **payload, size_t *payload_len) {
    size_t frame = (size_t)h * w * 3;
    uint8_t *b = malloc(frame * n);
    const uint8_t **frames = malloc(n * sizeof *frames);
    if (!b || !frames) {
        free(b);
        free(frames);
        return -1;
    }
    for (uint32_t f = 0; f < n; f++) {
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                memset(b + f * frame + ((size_t)y * w + x) * 3, (int)((x * 9 + y * 5 + f * 3) % 200 + 20), 3);
        frames[f] = b + f * frame;
    }
    wai_motion_encode_params p;
    wai_motion_encode_params_default(&p);
    p.q = q;
    p.block = 8;
    p.search = 2;
    /* The search the committed files were made with (before the rate term):
     * their vectors are fixtures, not the encoder's best. */
    p.sad_search = 1;
    wai_motion_encode_result r;
    wai_status st = wai_motion_encode(NULL, frames, n, h, w, &p, &r);
    free(frames);
    if (st != WAI_ok) {
        free(b);
        return -1;
    }
    *payload = malloc(r.payload_len);
    if (*payload) memcpy(*payload, r.payload, r.payload_len);
    *payload_len = r.payload_len;
    wai_motion_encode_result_free(NULL, &r);
    *rgb = b;
    *rgb_len = frame * n;
    return *payload ? 0 : -1;
}

/* The span of a top-level member's value in a receipt as json_write.c lays
 * it out ("  \"name\": VALUE,\n" or without the comma, last): [*v0, *v1),
 * and the line's span [*l0, *l1). */
static int find_member(const char *json, const char *name, size_t *l0, size_t *l1, size_t *v0,
                       size_t *v1) {
    char key[96];
    snprintf(key, sizeof key, "\n  \"%s\": ", name);
    const char *k = strstr(json, key);
    if (!k) return 0;
    const char *v = k + strlen(key), *e = v;
    int depth = 0, in_string = 0;
    for (; *e; e++) {
        if (in_string) {
            if (*e == '\\' && e[1]) e++;
            else if (*e == '"') in_string = 0;
            continue;
        }
        if (*e == '"') in_string = 1;
        else if (*e == '[' || *e == '{') depth++;
        else if (*e == ']' || *e == '}') {
            if (depth == 0) break;
            depth--;
        } else if ((*e == ',' || *e == '\n') && depth == 0) break;
    }
    *l0 = (size_t)(k - json) + 1;
    *v0 = (size_t)(v - json);
    *v1 = (size_t)(e - json);
    *l1 = *e == ',' ? *v1 + 2 : *v1 + 1;   /* the comma and the newline */
    return 1;
}

char *rg_json_edit(const char *json, const char *name, const char *value, int add) {
    size_t n = strlen(json), vlen = value ? strlen(value) : 0;
    char *out = malloc(n + strlen(name) + vlen + 32);
    if (!out) return NULL;
    size_t l0, l1, v0, v1;
    if (add) {
        /* Before the last member, whose line starts after the last ",\n". */
        const char *last = json + n;
        while (last > json && !(last[0] == '\n' && last[-1] == ',')) last--;
        size_t at = (size_t)(last - json) + 1;
        int k = snprintf(out, n + strlen(name) + vlen + 32, "%.*s  \"%s\": %s,\n%s", (int)at, json,
                         name, value, json + at);
        (void)k;
        return out;
    }
    if (!find_member(json, name, &l0, &l1, &v0, &v1)) {
        free(out);
        return NULL;
    }
    if (value) {
        memcpy(out, json, v0);
        memcpy(out + v0, value, vlen);
        strcpy(out + v0 + vlen, json + v1);
    } else {
        /* Removing the last member takes the comma before it too. */
        int last = json[v1] != ',';
        size_t cut = last ? l0 - 2 : l0;
        memcpy(out, json, cut);
        strcpy(out + cut, last ? json + l1 - 1 : json + l1);
    }
    return out;
}

wai_receipt_info *rg_fields(wai_receipt *r) { return &r->info; }

uint8_t (*rg_frames(wai_receipt *r))[32] { return r->frames; }

int rg_reseal(wai_receipt *r, const wai_receipt_signer *s, int rehash_only) {
    if (!rehash_only) {
        memcpy(r->info.signer_pubkey, s->pubkey, 32);
        r->info.signer_id = s->id;
        r->info.signer_id_len = s->id_len;
        return wai_receipt_sign(r, s) == WAI_ok ? 0 : -1;
    }
    uint8_t *payload;
    size_t len;
    if (wai_receipt_payload(r, &payload, &len) != WAI_ok) return -1;
    wai_receipt_hash(r->info.kind, payload, len, r->info.sig, r->info.receipt_hash);
    wai_free(&r->a, payload);
    return 0;
}
