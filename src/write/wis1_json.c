/* SPDX-License-Identifier: BSD-2-Clause */
/* WIS1's JSON form (integer-payloads §10; docs/json-forms.md): the ranges
 * lo and hi must each be a binary32 value, carried exactly, read from the
 * JSON text in integer arithmetic (write/decimal32.h); an export writes
 * each as the shortest decimal of the binary32 widened to binary64. afrac
 * is carried and must be the model's (g_s.whm). */
#include "write/json_forms.h"

#include "common/alloc.h"
#include "write/decimal32.h"
#include "write/json_form.h"
#include "write/payloads.h"

/* attr pairs [lo, hi] as binary32 bit patterns. */
static wai_status read_ranges(const wai_json_value *v, uint32_t attr, uint32_t *out) {
    for (uint32_t i = 0; i < attr; i++) {
        const wai_json_value *pair = wai_json_array_at(v, i);
        if (wai_json_type_of(pair) != WAI_JSON_ARRAY || wai_json_array_len(pair) != 2)
            return WAI_payload_malformed;
        for (size_t j = 0; j < 2; j++) {
            const wai_json_value *x = wai_json_array_at(pair, j);
            if (wai_json_type_of(x) != WAI_JSON_NUMBER) return WAI_payload_malformed;
            size_t len;
            const char *text = wai_json_number_text(x, &len);
            if (wai_decimal32_read(text, len, &out[2 * i + j]) != WAI_DECIMAL32_OK)
                return WAI_field_range;   /* no value, or no binary32 one */
        }
    }
    return WAI_ok;
}

wai_status wai_wis1_from_json(const wai_allocator *a, const wai_json_value *root,
                              const wai_form_inputs *in, uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    static const char *const dims[6] = {"c", "sh", "sw", "s", "attr", "n_gaussians"};
    int64_t afrac, d[6];
    wai_status st = wai_jf_int(root, "afrac", 1, 0, 255, 0, &afrac);
    for (int i = 0; i < 6 && st == WAI_ok; i++)
        st = wai_jf_int(root, dims[i], 1, 0, UINT32_MAX, 0, &d[i]);
    if (st != WAI_ok) return st;
    const wai_json_value *ranges = wai_json_object_get(root, "ranges");
    if (!ranges || wai_json_type_of(ranges) != WAI_JSON_ARRAY) return WAI_payload_malformed;
    uint32_t *cdfs = NULL, *lengths = NULL, *rbits = NULL;
    int64_t *offsets = NULL, *medians = NULL;
    uint8_t *stream = NULL;
    uint16_t *len16 = NULL;
    int32_t *off32 = NULL;
    size_t n_tables = 0, n_off = 0, n_med = 0, stream_len = 0;
    const size_t n_ranges = wai_json_array_len(ranges);
    if ((st = wai_jf_tables(a, root, "cdfs", &cdfs, &lengths, &n_tables)) != WAI_ok ||
        (st = wai_jf_int_array(a, root, "offsets", INT32_MIN, INT32_MAX, &offsets, &n_off)) !=
            WAI_ok ||
        (st = wai_jf_int_array(a, root, "medians", INT64_MIN, INT64_MAX, &medians, &n_med)) !=
            WAI_ok ||
        (st = wai_jf_bytes(a, root, "stream", &stream, &stream_len)) != WAI_ok)
        goto done;
    /* One range pair per plane; one table, offset and median per channel. */
    st = WAI_field_range;
    if (n_ranges != (uint64_t)d[4] || n_tables != (uint64_t)d[0] || n_off != n_tables ||
        n_med != n_tables)
        goto done;
    /* Sized by the text's own arrays, which the reader has already held. */
    rbits = wai_alloc_array(a, n_ranges ? 2 * n_ranges : 1, sizeof *rbits);
    len16 = wai_alloc_array(a, n_tables ? n_tables : 1, sizeof *len16);
    off32 = wai_alloc_array(a, n_tables ? n_tables : 1, sizeof *off32);
    if (!rbits || !len16 || !off32) {
        st = WAI_out_of_memory;
        goto done;
    }
    if ((st = read_ranges(ranges, (uint32_t)n_ranges, rbits)) != WAI_ok) goto done;
    for (size_t k = 0; k < n_tables; k++) len16[k] = (uint16_t)lengths[k], off32[k] = (int32_t)offsets[k];
    const wai_wis1_parts p = {(uint8_t)afrac, (uint32_t)d[0], (uint32_t)d[1], (uint32_t)d[2],
                              (uint32_t)d[3], (uint32_t)d[4], (uint32_t)d[5], rbits, len16, off32,
                              medians, cdfs, stream, stream_len};
    if ((st = wai_wis1_write(a, &p, out, out_len)) != WAI_ok) goto done;
    st = wai_jf_model_check(a, in->model, in->model_len, 2, p.afrac, out, out_len);
done:
    wai_free(a, cdfs), wai_free(a, lengths), wai_free(a, rbits), wai_free(a, offsets);
    wai_free(a, medians), wai_free(a, stream), wai_free(a, len16), wai_free(a, off32);
    return st;
}

void wai_wis1_emit_json(wai_text *t, const wai_wis1 *v) {
    wai_text_printf(t,
                    "{\n  \"afrac\": %u, \"c\": %u, \"sh\": %u, \"sw\": %u, \"s\": %u, "
                    "\"attr\": %u, \"n_gaussians\": %u,\n  \"ranges\": [",
                    v->afrac, v->c, v->sh, v->sw, v->s, v->attr, v->n_gaussians);
    for (uint32_t i = 0; i < v->attr; i++) {
        uint32_t lo, hi;
        wai_wis1_range(v, i, &lo, &hi);
        char a[48], b[48];
        wai_binary32_shortest(lo, a);
        wai_binary32_shortest(hi, b);
        wai_text_printf(t, "%s[%s, %s]", i ? ", " : "", a, b);
    }
    wai_text_printf(t, "],\n  \"offsets\": ");
    wai_jf_put_ints(t, v->offsets, v->c, 4);
    wai_text_printf(t, ",\n  \"medians\": ");
    wai_jf_put_ints(t, v->medians, v->c, 8);
    wai_text_printf(t, ",\n  \"cdfs\": [");
    const uint8_t *table = v->tables;
    for (uint32_t k = 0; k < v->c; k++) {
        const uint32_t n = wai_wis1_length(v, k);
        wai_text_printf(t, "%s\n    ", k ? "," : "");
        wai_jf_put_table(t, table, n);
        table += 4 * (size_t)n;
    }
    wai_text_printf(t, "],\n  \"stream\": ");
    wai_jf_put_b64(t, v->stream.bytes, v->stream.len);
    wai_text_printf(t, "\n}\n");
}
