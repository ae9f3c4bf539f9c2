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

/* Steps 1-6: framing, reserved field, field rules, caps. */
static wai_status parse_header(wai_reader *r, const uint8_t *data, wai_wis1 *out) {
    wai_status st = wai_parse_framing(r, WAI_FORMAT_WIS1, WAI_WIS1_HEADER_BYTES);
    if (st != WAI_ok) return st;
    if (wai_load_u16le(data + 6) != 0) return WAI_reserved_nonzero;
    out->afrac = data[5];
    out->c = wai_load_u32le(data + 8);
    out->sh = wai_load_u32le(data + 12);
    out->sw = wai_load_u32le(data + 16);
    out->s = wai_load_u32le(data + 20);
    out->attr = wai_load_u32le(data + 24);
    out->n_gaussians = wai_load_u32le(data + 28);
    if ((st = check_fields(out)) != WAI_ok) return st;
    return check_caps(out);
}

wai_status wai_wis1_parse(const uint8_t *data, size_t len, wai_wis1 *out) {
    wai_reader r;
    wai_reader_init(&r, data, len);
    memset(out, 0, sizeof *out);
    wai_status st = parse_header(&r, data, out);
    if (st != WAI_ok) return st;
    r.pos = WAI_WIS1_HEADER_BYTES;
    if ((st = read_ranges(&r, out)) != WAI_ok) return st;
    if ((st = read_lengths(&r, out)) != WAI_ok) return st;
    /* Offsets (any i32) and medians (reading N2) have no rule: present. */
    if ((st = wai_read_span(&r, 4 * (uint64_t)out->c, &out->offsets)) != WAI_ok) return st;
    if ((st = wai_read_span(&r, 8 * (uint64_t)out->c, &out->medians)) != WAI_ok) return st;
    /* One table per channel, table by table (§2 step 7): each present, then
     * checked, before the next. */
    for (uint32_t k = 0; k < out->c; k++) {
        const uint8_t *t;
        if ((st = wai_read_cdf_section(&r, wai_wis1_length(out, k), WAI_CDF_T4097, &t)) != WAI_ok)
            return st;
        if (k == 0) out->tables = t;
    }
    if ((st = wai_read_stream_section(&r, &out->stream)) != WAI_ok) return st;
    return wai_reader_left(&r) ? WAI_trailing : WAI_ok;
}

static void put_header(uint8_t *b, const wai_wis1_parts *p) {
    memcpy(b, "WIS1\x01", 5);
    b[5] = p->afrac;
    wai_store_u16le(b + 6, 0);
    wai_store_u32le(b + 8, p->c);
    wai_store_u32le(b + 12, p->sh);
    wai_store_u32le(b + 16, p->sw);
    wai_store_u32le(b + 20, p->s);
    wai_store_u32le(b + 24, p->attr);
    wai_store_u32le(b + 28, p->n_gaussians);
}

wai_status wai_wis1_write(const wai_allocator *a, const wai_wis1_parts *p, uint8_t **out,
                          size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (p->stream_len > UINT32_MAX) return WAI_stream_length;
    uint8_t header[WAI_WIS1_HEADER_BYTES];
    put_header(header, p);
    /* Steps 1-6 on the header alone (the sections are then "not present"). */
    wai_wis1 v;
    wai_status st = wai_wis1_parse(header, sizeof header, &v);
    if (st != WAI_stream_length) return st == WAI_ok ? WAI_invalid_argument : st;
    /* The first rules of step 7, which the parse of the written bytes would
     * reach first: ranges, then lengths. Checking them here keeps a bad
     * length from sizing the buffer. */
    for (uint32_t i = 0; i < p->attr; i++)
        if (!wai_f32_range_valid(p->ranges[2 * (size_t)i], p->ranges[2 * (size_t)i + 1]))
            return WAI_field_range;
    uint64_t entries = 0;
    for (uint32_t k = 0; k < p->c; k++) {
        if (!length_valid(p->lengths[k])) return WAI_field_range;
        entries += p->lengths[k];
    }
    uint64_t total = WAI_WIS1_HEADER_BYTES + 8 * (uint64_t)p->attr + 14 * (uint64_t)p->c +
                     4 * entries + 4 + (uint64_t)p->stream_len;
    if (!wai_fits_size(total)) return WAI_too_large;
    uint8_t *b = wai_alloc(a, (size_t)total);
    if (!b) return WAI_out_of_memory;
    memcpy(b, header, sizeof header);
    size_t at = WAI_WIS1_HEADER_BYTES;
    for (uint32_t i = 0; i < 2 * p->attr; i++, at += 4) wai_store_u32le(b + at, p->ranges[i]);
    for (uint32_t k = 0; k < p->c; k++, at += 2) wai_store_u16le(b + at, p->lengths[k]);
    for (uint32_t k = 0; k < p->c; k++, at += 4) wai_store_u32le(b + at, (uint32_t)p->offsets[k]);
    for (uint32_t k = 0; k < p->c; k++, at += 8) wai_store_u64le(b + at, (uint64_t)p->medians[k]);
    for (uint64_t i = 0; i < entries; i++, at += 4) wai_store_u32le(b + at, p->cdfs[i]);
    wai_store_u32le(b + at, (uint32_t)p->stream_len);
    if (p->stream_len) memcpy(b + at + 4, p->stream, p->stream_len);
    if ((st = wai_wis1_parse(b, (size_t)total, &v)) != WAI_ok) {
        wai_free(a, b);
        return st;
    }
    *out = b;
    *out_len = (size_t)total;
    return WAI_ok;
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
