/* SPDX-License-Identifier: BSD-2-Clause */
#include "formats/wia1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

/* §5's field rules, in the order it lists them: afrac, then sr, n_ch,
 * lat_len and t_out, then cdf_len (reading R5: a table length is a header
 * rule). */
static wai_status check_fields(const wai_wia1 *a) {
    if (a->afrac < 1 || a->afrac > WAI_WIA1_AFRAC_MAX) return WAI_field_range;
    if (a->sr < 1 || a->n_ch < 1 || a->lat_len < 1 || a->t_out < 1) return WAI_field_range;
    if (a->cdf_len < 3 || a->cdf_len > WAI_CDF_MAX_LEN_T4097) return WAI_field_range;
    return WAI_ok;
}

/* §7's caps in §5's order: the latent n_ch·lat_len, then t_out (reading R4). */
static wai_status check_caps(const wai_wia1 *a) {
    if (wai_sat_mul(a->n_ch, a->lat_len) > WAI_CAP_ELEMENTS) return WAI_too_large;
    if (a->t_out > WAI_CAP_ELEMENTS) return WAI_too_large;
    return WAI_ok;
}

/* Steps 1-6 past wai_parse_begin's framing and reserved fields: field
 * rules, caps. */
static wai_status parse_header(const uint8_t *data, wai_wia1 *out) {
    wai_status st;
    out->afrac = data[5];
    wai_load_u32s(data + 8, (uint32_t *const[]){&out->sr, &out->n_ch, &out->lat_len, &out->t_out},
                  4);
    out->offset = wai_i32_from_u32(wai_load_u32le(data + 24));
    out->cdf_len = wai_load_u16le(data + 28);
    if ((st = check_fields(out)) != WAI_ok) return st;
    return check_caps(out);
}

static uint32_t cdf_len_of(const void *a, uint32_t k) {
    (void)k;
    return ((const wai_wia1 *)a)->cdf_len;
}

wai_status wai_wia1_parse(const uint8_t *data, size_t len, wai_wia1 *out) {
    wai_reader r;
    wai_status st =
        wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIA1, WAI_WIA1_HEADER_BYTES,
                        WAI_RESERVED(6, 2) | WAI_RESERVED(30, 2));
    if (st == WAI_ok) st = parse_header(data, out);
    if (st != WAI_ok) return st;
    /* Medians: present; no rule of their own (reading N2). n_ch is capped,
     * so 8·n_ch fits. */
    if ((st = wai_read_span(&r, 8 * (uint64_t)out->n_ch, &out->medians)) != WAI_ok) return st;
    /* §2 step 7: one table per channel, each cdf_len entries. */
    return wai_read_tables_then_stream(&r, out->n_ch, cdf_len_of, out, &out->tables, &out->stream);
}

void wai_wia1_describe(const wai_wia1 *a, wai_text *t) {
    wai_text_printf(t,
                    "{\"afrac\": %u, \"sr\": %u, \"n_ch\": %u, \"lat_len\": %u, \"t_out\": %u, "
                    "\"offset\": %d, \"cdf_len\": %u, \"stream_bytes\": %llu}",
                    a->afrac, a->sr, a->n_ch, a->lat_len, a->t_out, a->offset, a->cdf_len,
                    (unsigned long long)a->stream.len);
}
