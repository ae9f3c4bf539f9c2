/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON forms' shared readers and writers (json_form.h). */
#include "write/json_form.h"

#include <string.h>

#include "common/alloc.h"
#include "common/reader.h"
#include "formats/whm1.h"

wai_status wai_jf_int_value(const wai_json_value *v, int64_t lo, int64_t hi, int64_t *out) {
    if (wai_json_type_of(v) != WAI_JSON_NUMBER || !wai_json_is_integer(v))
        return WAI_payload_malformed;
    int64_t x;
    if (!wai_json_get_i64(v, &x) || x < lo || x > hi) return WAI_field_range;
    *out = x;
    return WAI_ok;
}

wai_status wai_jf_int(const wai_json_value *obj, const char *name, int required, int64_t lo,
                      int64_t hi, int64_t dflt, int64_t *out) {
    const wai_json_value *v = wai_json_object_get(obj, name);
    if (!v) {
        *out = dflt;
        return required ? WAI_payload_malformed : WAI_ok;
    }
    return wai_jf_int_value(v, lo, hi, out);
}

wai_status wai_jf_u32_array(const wai_allocator *a, const wai_json_value *obj, const char *name,
                            uint32_t **out, uint32_t *n) {
    *out = NULL;
    *n = 0;
    const wai_json_value *v = wai_json_object_get(obj, name);
    if (!v || wai_json_type_of(v) != WAI_JSON_ARRAY) return WAI_payload_malformed;
    const size_t len = wai_json_array_len(v);
    if (len > UINT32_MAX) return WAI_field_range;
    uint32_t *t = wai_alloc_array(a, len ? len : 1, sizeof *t);
    if (!t) return WAI_out_of_memory;
    for (size_t i = 0; i < len; i++) {
        int64_t x;
        wai_status st = wai_jf_int_value(wai_json_array_at(v, i), 0, UINT32_MAX, &x);
        if (st != WAI_ok) {
            wai_free(a, t);
            return st;
        }
        t[i] = (uint32_t)x;
    }
    *out = t;
    *n = (uint32_t)len;
    return WAI_ok;
}

wai_status wai_jf_int_array(const wai_allocator *a, const wai_json_value *obj, const char *name,
                            int64_t lo, int64_t hi, int64_t **out, size_t *n) {
    *out = NULL;
    *n = 0;
    const wai_json_value *v = wai_json_object_get(obj, name);
    if (!v || wai_json_type_of(v) != WAI_JSON_ARRAY) return WAI_payload_malformed;
    const size_t len = wai_json_array_len(v);
    int64_t *x = wai_alloc_array(a, len ? len : 1, sizeof *x);
    if (!x) return WAI_out_of_memory;
    for (size_t i = 0; i < len; i++) {
        wai_status st = wai_jf_int_value(wai_json_array_at(v, i), lo, hi, &x[i]);
        if (st != WAI_ok) {
            wai_free(a, x);
            return st;
        }
    }
    *out = x;
    *n = len;
    return WAI_ok;
}

wai_status wai_jf_tables(const wai_allocator *a, const wai_json_value *obj, const char *name,
                         uint32_t **flat, uint32_t **lengths, size_t *n_tables) {
    *flat = NULL;
    *lengths = NULL;
    *n_tables = 0;
    const wai_json_value *v = wai_json_object_get(obj, name);
    if (!v || wai_json_type_of(v) != WAI_JSON_ARRAY) return WAI_payload_malformed;
    const size_t n = wai_json_array_len(v);
    size_t total = 0;
    for (size_t k = 0; k < n; k++) {
        const wai_json_value *t = wai_json_array_at(v, k);
        if (wai_json_type_of(t) != WAI_JSON_ARRAY) return WAI_payload_malformed;
        total += wai_json_array_len(t);   /* bounded by the text's length */
    }
    uint32_t *f = wai_alloc_array(a, total ? total : 1, sizeof *f);
    uint32_t *l = wai_alloc_array(a, n ? n : 1, sizeof *l);
    if (!f || !l) {
        wai_free(a, f), wai_free(a, l);
        return WAI_out_of_memory;
    }
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        const wai_json_value *t = wai_json_array_at(v, k);
        const size_t len = wai_json_array_len(t);
        if (len > 0xFFFF) {
            wai_free(a, f), wai_free(a, l);
            return WAI_field_range;   /* no table length field holds it */
        }
        l[k] = (uint32_t)len;
        for (size_t i = 0; i < len; i++) {
            int64_t x;
            wai_status st = wai_jf_int_value(wai_json_array_at(t, i), 0, UINT32_MAX, &x);
            if (st != WAI_ok) {
                wai_free(a, f), wai_free(a, l);
                return st;
            }
            f[at++] = (uint32_t)x;
        }
    }
    *flat = f;
    *lengths = l;
    *n_tables = n;
    return WAI_ok;
}

wai_status wai_jf_model_afrac(const wai_allocator *a, const uint8_t *model, size_t len, int dims,
                              uint32_t *afrac) {
    if (!model) return WAI_set_incomplete;
    wai_model m;
    wai_status st = wai_model_parse(a, model, len, dims, &m);
    if (st == WAI_ok) *afrac = m.afrac;
    wai_model_free(a, &m);
    return st == WAI_ok ? WAI_ok : st == WAI_out_of_memory ? st : WAI_model_mismatch;
}

wai_status wai_jf_model_check(const wai_allocator *a, const uint8_t *model, size_t len, int dims,
                              uint32_t afrac, uint8_t **out, size_t *out_len) {
    uint32_t model_afrac = 0;
    wai_status st = wai_jf_model_afrac(a, model, len, dims, &model_afrac);
    if (st == WAI_ok && model_afrac != afrac) st = WAI_model_mismatch;
    if (st != WAI_ok) {
        wai_free(a, *out);
        *out = NULL;
        *out_len = 0;
    }
    return st;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Canonical base64: groups of four, '=' only to pad the last, and the
 * padded group's unused bits zero (so each byte string has one spelling). */
static int b64_decode(const char *s, size_t n, uint8_t *out, size_t *len) {
    if (n % 4) return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4) {
        const int last = i + 4 == n;
        const int pad = last ? (s[i + 3] == '=') + (s[i + 2] == '=' && s[i + 3] == '=') : 0;
        int v[4];
        for (int j = 0; j < 4 - pad; j++)
            if ((v[j] = b64_value(s[i + j])) < 0) return 0;
        if (pad == 2) {
            if (v[1] & 15) return 0;
            out[k++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
        } else if (pad == 1) {
            if (v[2] & 3) return 0;
            out[k++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
            out[k++] = (uint8_t)((v[1] & 15) << 4 | v[2] >> 2);
        } else {
            out[k++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
            out[k++] = (uint8_t)((v[1] & 15) << 4 | v[2] >> 2);
            out[k++] = (uint8_t)((v[2] & 3) << 6 | v[3]);
        }
    }
    *len = k;
    return 1;
}

wai_status wai_jf_bytes(const wai_allocator *a, const wai_json_value *obj, const char *name,
                        uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    const wai_json_value *v = wai_json_object_get(obj, name);
    if (!v || wai_json_type_of(v) != WAI_JSON_STRING) return WAI_payload_malformed;
    size_t n;
    const char *s = wai_json_string(v, &n);
    uint8_t *b = wai_alloc(a, n / 4 * 3 + 1);
    if (!b) return WAI_out_of_memory;
    if (!b64_decode(s, n, b, len)) {
        wai_free(a, b);
        return WAI_payload_malformed;
    }
    *out = b;
    return WAI_ok;
}

void wai_jf_put_b64(wai_text *t, const uint8_t *b, size_t n) {
    wai_text_printf(t, "\"");
    char group[5] = {0};
    for (size_t i = 0; i < n; i += 3) {
        const uint32_t x = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) |
                           (i + 2 < n ? b[i + 2] : 0);
        group[0] = B64[x >> 18];
        group[1] = B64[(x >> 12) & 63];
        group[2] = i + 1 < n ? B64[(x >> 6) & 63] : '=';
        group[3] = i + 2 < n ? B64[x & 63] : '=';
        wai_text_printf(t, "%s", group);
    }
    wai_text_printf(t, "\"");
}

void wai_jf_put_table(wai_text *t, const uint8_t *le_u32, uint32_t n) {
    wai_text_printf(t, "[");
    for (uint32_t i = 0; i < n; i++)
        wai_text_printf(t, "%s%u", i ? ", " : "", (unsigned)wai_load_u32le(le_u32 + 4 * (size_t)i));
    wai_text_printf(t, "]");
}

void wai_jf_put_ints(wai_text *t, const uint8_t *le, size_t n, int stride) {
    wai_text_printf(t, "[");
    for (size_t i = 0; i < n; i++) {
        if (stride == 8)
            wai_text_printf(t, "%s%lld", i ? ", " : "",
                            (long long)wai_i64_from_u64(wai_load_u64le(le + 8 * i)));
        else
            wai_text_printf(t, "%s%ld", i ? ", " : "",
                            (long)wai_i32_from_u32(wai_load_u32le(le + 4 * i)));
    }
    wai_text_printf(t, "]");
}

wai_status wai_jf_render(const wai_allocator *a, void (*emit)(wai_text *t, const void *ctx),
                         const void *ctx, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    wai_text t;
    wai_text_init(&t, NULL, 0);
    emit(&t, ctx);
    const size_t need = t.len;
    char *buf = wai_alloc(a, need + 1);
    if (!buf) return WAI_out_of_memory;
    wai_text_init(&t, buf, need + 1);
    emit(&t, ctx);
    *out = buf;
    *len = need;
    return WAI_ok;
}
