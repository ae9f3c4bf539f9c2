/* SPDX-License-Identifier: BSD-2-Clause */
#include "formats/wis1.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"

/* §6's header field rules, in the order it lists them: afrac, the
 * dimensions (c, sh, sw, s, attr), n_gaussians in 1..=s·s. */
static wai_status check_fields(const wai_wis1 *v) {
    if (v->afrac < 1 || v->afrac > WAI_WIS1_AFRAC_MAX) return WAI_field_range;
    if (v->c < 1 || v->sh < 1 || v->sw < 1 || v->s < 1 || v->attr < 1) return WAI_field_range;
    if (v->n_gaussians < 1 || v->n_gaussians > (uint64_t)v->s * v->s) return WAI_field_range;
    return WAI_ok;
}

/* §7's caps in §6's order: the latent c·sh·sw, then the attributes attr·s·s. */
static wai_status check_caps(const wai_wis1 *v) {
    if (wai_sat_mul3(v->c, v->sh, v->sw) > WAI_CAP_ELEMENTS) return WAI_too_large;
    if (wai_sat_mul3(v->attr, v->s, v->s) > WAI_CAP_ELEMENTS) return WAI_too_large;
    return WAI_ok;
}

static int length_valid(uint32_t n) { return n >= 3 && n <= WAI_CDF_MAX_LEN_T4097; }

/* The ranges and the table lengths are sections, not header fields: §2
 * puts their rules at step 7, after the caps, each section present as a
 * whole before its entries are checked (field_range). */
static wai_status read_ranges(wai_reader *r, wai_wis1 *out) {
    wai_status st = wai_read_span(r, 8 * (uint64_t)out->attr, &out->ranges);
    if (st != WAI_ok) return st;
    for (uint32_t i = 0; i < out->attr; i++) {
        uint32_t lo, hi;
        wai_wis1_range(out, i, &lo, &hi);
        if (!wai_f32_range_valid(lo, hi)) return WAI_field_range;
    }
    return WAI_ok;
}

static wai_status read_lengths(wai_reader *r, wai_wis1 *out) {
    wai_status st = wai_read_span(r, 2 * (uint64_t)out->c, &out->lengths);
    if (st != WAI_ok) return st;
    uint64_t sum = 0; /* at most 4097·2^26: fits */
    for (uint32_t k = 0; k < out->c; k++) {
        uint32_t n = wai_wis1_length(out, k);
        if (!length_valid(n)) return WAI_field_range;
        sum += n;
    }
    out->table_entries = sum;
    return WAI_ok;
}

/* Steps 1-6 past wai_parse_begin's framing and reserved field: field
 * rules, caps. */
static wai_status parse_header(const uint8_t *data, wai_wis1 *out) {
    wai_status st;
    out->afrac = data[5];
    wai_load_u32s(data + 8,
                  (uint32_t *const[]){&out->c, &out->sh, &out->sw, &out->s, &out->attr,
                                      &out->n_gaussians},
                  6);
    if ((st = check_fields(out)) != WAI_ok) return st;
    return check_caps(out);
}

static uint32_t length_of(const void *v, uint32_t k) { return wai_wis1_length(v, k); }

wai_status wai_wis1_parse(const uint8_t *data, size_t len, wai_wis1 *out) {
    wai_reader r;
    wai_status st = wai_parse_begin(&r, data, len, out, sizeof *out, WAI_FORMAT_WIS1,
                                    WAI_WIS1_HEADER_BYTES, WAI_RESERVED(6, 2));
    if (st == WAI_ok) st = parse_header(data, out);
    if (st != WAI_ok) return st;
    if ((st = read_ranges(&r, out)) != WAI_ok) return st;
    if ((st = read_lengths(&r, out)) != WAI_ok) return st;
    /* Offsets (any i32) and medians (reading N2) have no rule: present. */
    if ((st = wai_read_span(&r, 4 * (uint64_t)out->c, &out->offsets)) != WAI_ok) return st;
    if ((st = wai_read_span(&r, 8 * (uint64_t)out->c, &out->medians)) != WAI_ok) return st;
    /* One table per channel, of its own length (§2 step 7). */
    return wai_read_tables_then_stream(&r, out->c, length_of, out, &out->tables, &out->stream);
}

void wai_wis1_describe(const wai_wis1 *s, wai_text *t) {
    wai_text_printf(t,
                    "{\"afrac\": %u, \"c\": %u, \"sh\": %u, \"sw\": %u, \"s\": %u, "
                    "\"attr\": %u, \"n_gaussians\": %u, \"table_entries\": %llu, "
                    "\"stream_bytes\": %llu}",
                    s->afrac, s->c, s->sh, s->sw, s->s, s->attr, s->n_gaussians,
                    (unsigned long long)s->table_entries, (unsigned long long)s->stream.len);
}

/* The public read of the presentation data a decode does not output. */
wai_status wai_splat_presentation(const uint8_t *data, size_t len, wai_splat_info *info,
                                  uint32_t *ranges, size_t max_planes) {
    if (!info || (!data && len) || (!ranges && max_planes)) return WAI_invalid_argument;
    memset(info, 0, sizeof *info);
    wai_wis1 s;
    wai_status st = wai_wis1_parse(data, len, &s);
    if (st != WAI_ok) return st;
    info->side = s.s;
    info->planes = s.attr;
    info->n_gaussians = s.n_gaussians;
    for (uint32_t i = 0; i < s.attr && i < max_planes; i++)
        wai_wis1_range(&s, i, &ranges[2 * (size_t)i], &ranges[2 * (size_t)i + 1]);
    return WAI_ok;
}
