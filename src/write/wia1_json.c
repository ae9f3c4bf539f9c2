/* SPDX-License-Identifier: BSD-2-Clause */
/* WIA1's JSON form (integer-payloads §10; docs/json-forms.md): sr is the
 * export's sample_rate, in audio.json (the form does not carry it); lo is
 * the symbol offset; every channel's table must have the first table's
 * length; afrac is carried and must be the model's (model.wam). */
#include "write/json_forms.h"

#include "common/alloc.h"
#include "write/json_form.h"
#include "write/payloads.h"

/* audio.json's sample_rate. */
static wai_status sample_rate(const wai_allocator *a, const uint8_t *text, size_t len,
                              uint32_t *sr) {
    if (!text) return WAI_invalid_argument;
    wai_json_doc *doc = NULL;
    if (wai_json_parse(a, text, len, &doc, NULL) != WAI_JSON_OK) return WAI_payload_malformed;
    const wai_json_value *root = wai_json_root(doc);
    int64_t v = 0;
    wai_status st = wai_json_type_of(root) == WAI_JSON_OBJECT
                        ? wai_jf_int(root, "sample_rate", 1, 0, UINT32_MAX, 0, &v)
                        : WAI_payload_malformed;
    wai_json_free(doc);
    *sr = (uint32_t)v;
    return st;
}

wai_status wai_wia1_from_json(const wai_allocator *a, const wai_json_value *root,
                              const wai_form_inputs *in, uint8_t **out, size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    int64_t afrac, n_ch, lat_len, t_out, lo;
    wai_status st;
    if ((st = wai_jf_int(root, "afrac", 1, 0, 255, 0, &afrac)) != WAI_ok ||
        (st = wai_jf_int(root, "n_ch", 1, 0, UINT32_MAX, 0, &n_ch)) != WAI_ok ||
        (st = wai_jf_int(root, "lat_len", 1, 0, UINT32_MAX, 0, &lat_len)) != WAI_ok ||
        (st = wai_jf_int(root, "t_out", 1, 0, UINT32_MAX, 0, &t_out)) != WAI_ok ||
        (st = wai_jf_int(root, "lo", 1, INT32_MIN, INT32_MAX, 0, &lo)) != WAI_ok)
        return st;
    uint32_t *cdfs = NULL, *lengths = NULL;
    int64_t *medians = NULL;
    uint8_t *stream = NULL;
    size_t n_tables = 0, n_medians = 0;
    wai_wia1_parts p = {(uint8_t)afrac, 0, (uint32_t)n_ch, (uint32_t)lat_len, (uint32_t)t_out,
                        (int32_t)lo, 0, NULL, NULL, NULL, 0};
    if ((st = wai_jf_tables(a, root, "cdfs", &cdfs, &lengths, &n_tables)) != WAI_ok ||
        (st = wai_jf_int_array(a, root, "medians", INT64_MIN, INT64_MAX, &medians, &n_medians)) !=
            WAI_ok ||
        (st = wai_jf_bytes(a, root, "stream", &stream, &p.stream_len)) != WAI_ok)
        goto done;
    /* One table and one median per channel, every table the first's length. */
    st = WAI_field_range;
    if (n_tables != p.n_ch || n_medians != p.n_ch) goto done;
    p.cdf_len = n_tables ? lengths[0] : 0;
    for (size_t k = 1; k < n_tables; k++)
        if (lengths[k] != p.cdf_len) goto done;
    if ((st = sample_rate(a, in->audio_json, in->audio_json_len, &p.sr)) != WAI_ok) goto done;
    p.medians = medians, p.cdfs = cdfs, p.stream = stream;
    if ((st = wai_wia1_write(a, &p, out, out_len)) != WAI_ok) goto done;
    st = wai_jf_model_check(a, in->model, in->model_len, 1, p.afrac, out, out_len);
done:
    wai_free(a, cdfs), wai_free(a, lengths), wai_free(a, medians), wai_free(a, stream);
    return st;
}

void wai_wia1_emit_json(wai_text *t, const wai_wia1 *v) {
    wai_text_printf(t,
                    "{\n  \"afrac\": %u, \"n_ch\": %u, \"lat_len\": %u, \"t_out\": %u, \"lo\": %d,\n"
                    "  \"medians\": ",
                    v->afrac, v->n_ch, v->lat_len, v->t_out, (int)v->offset);
    wai_jf_put_ints(t, v->medians, v->n_ch, 8);
    wai_text_printf(t, ",\n  \"cdfs\": [");
    for (uint32_t k = 0; k < v->n_ch; k++) {
        wai_text_printf(t, "%s\n    ", k ? "," : "");
        wai_jf_put_table(t, v->tables + 4 * (size_t)k * v->cdf_len, v->cdf_len);
    }
    wai_text_printf(t, "],\n  \"stream\": ");
    wai_jf_put_b64(t, v->stream.bytes, v->stream.len);
    wai_text_printf(t, "\n}\n");
}
