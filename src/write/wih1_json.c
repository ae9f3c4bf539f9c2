/* SPDX-License-Identifier: BSD-2-Clause */
/* WIH1's JSON form (integer-payloads §10: the fields of cond_bitstream.json,
 * the streams as they are; docs/json-forms.md). */
#include "write/json_forms.h"

#include "common/alloc.h"
#include "write/json_form.h"
#include "write/payloads.h"

wai_status wai_wih1_from_json(const wai_allocator *a, const wai_json_value *root, uint8_t **out,
                              size_t *out_len) {
    static const char *const dims[6] = {"m", "sh", "sw", "n_z", "zh", "zw"};
    int64_t d[6];
    for (int i = 0; i < 6; i++) {
        wai_status st = wai_jf_int(root, dims[i], 1, 0, UINT32_MAX, 0, &d[i]);
        if (st != WAI_ok) return st;
    }
    wai_wih1_parts p = {(uint32_t)d[0], (uint32_t)d[1], (uint32_t)d[2], (uint32_t)d[3],
                        (uint32_t)d[4], (uint32_t)d[5], NULL, 0, NULL, 0};
    uint8_t *z = NULL, *y = NULL;
    wai_status st = wai_jf_bytes(a, root, "z_stream", &z, &p.z_len);
    if (st == WAI_ok) st = wai_jf_bytes(a, root, "y_stream", &y, &p.y_len);
    p.z_stream = z, p.y_stream = y;
    if (st == WAI_ok) st = wai_wih1_write(a, &p, out, out_len);
    wai_free(a, z);
    wai_free(a, y);
    return st;
}

void wai_wih1_emit_json(wai_text *t, const wai_wih1 *h, int indent) {
    wai_text_printf(t,
                    "{\n%*s\"m\": %u, \"sh\": %u, \"sw\": %u, \"n_z\": %u, \"zh\": %u, \"zw\": %u,\n"
                    "%*s\"z_stream\": ",
                    indent + 2, "", h->m, h->sh, h->sw, h->n_z, h->zh, h->zw, indent + 2, "");
    wai_jf_put_b64(t, h->z_stream.bytes, h->z_stream.len);
    wai_text_printf(t, ",\n%*s\"y_stream\": ", indent + 2, "");
    wai_jf_put_b64(t, h->y_stream.bytes, h->y_stream.len);
    wai_text_printf(t, "\n%*s}", indent, "");
}
