/* SPDX-License-Identifier: BSD-2-Clause */
/* WIS1 decode against a loaded set: §6's steps in §7's order of checks. */
#include "decode/int_splat.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "entropy/latents.h"
#include "decode/one_network.h"
#include "formats/wis1.h"
#include "ops/layers.h"

/* In order: the payload's afrac is the model's (model_mismatch); g_s
 * planned on [c, sh, sw] (model_mismatch, too_large); its output [attr, s,
 * s] (geometry_mismatch). */
static wai_status check_and_plan(const wai_allocator *a, const wai_loaded_set *l,
                                 const wai_wis1 *v, wai_plan *p) {
    memset(p, 0, sizeof *p);
    if (v->afrac != l->afrac) return WAI_model_mismatch;
    wai_status st = wai_plan_model(a, &wai_one_network_net(l)->model, v->c, v->sh, v->sw, p);
    if (st == WAI_ok && (p->out_c != v->attr || p->out_h != v->s || p->out_w != v->s))
        st = WAI_geometry_mismatch;
    if (st != WAI_ok) wai_plan_free(a, p);
    return st;
}

static wai_status decode_latent(const wai_allocator *a, const wai_wis1 *v, int64_t *lat) {
    uint16_t *lens = wai_alloc_array(a, v->c, sizeof *lens);
    wai_channel_coding *ch = wai_alloc_array(a, v->c, sizeof *ch);
    wai_payload_tables t;
    memset(&t, 0, sizeof t);
    wai_status st = WAI_out_of_memory;
    if (!lens || !ch) goto done;
    for (uint32_t k = 0; k < v->c; k++) lens[k] = (uint16_t)wai_wis1_length(v, k);
    if ((st = wai_payload_tables_init(a, v->tables, v->c, lens, 0, &t)) != WAI_ok) goto done;
    for (uint32_t k = 0; k < v->c; k++) {
        ch[k].table = &t.tables[k];
        ch[k].offset = wai_wis1_offset(v, k);
        ch[k].median = wai_wis1_median(v, k);
    }
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->stream.bytes, v->stream.len);
    st = wai_decode_channels(&d, ch, v->c, (size_t)v->sh * v->sw, v->afrac, lat);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
done:
    wai_payload_tables_free(a, &t);
    wai_free(a, ch);
    wai_free(a, lens);
    return st;
}

/* The RGB8 step on every element of the planes. */
static wai_status to_planes(const void *arg, const int64_t *y, uint8_t *planes) {
    const wai_wis1 *v = arg;
    uint64_t n = (uint64_t)v->attr * v->s * v->s;
    for (uint64_t i = 0; i < n; i++) planes[i] = wai_rgb8_step(y[i], v->afrac);
    return WAI_ok;
}

/* ---- the codec (decode/codec.h, decode/one_network.h) ------------------------- */

/* The row's one member: a WHM1 network (the synthesis). */
wai_status wai_int_splat_load_set(const wai_allocator *a, const wai_set *set,
                               const char *const *members, wai_loaded_set *l) {
    return wai_one_network_load(a, set, members[0], 2, l);
}

static wai_status parse(const uint8_t *data, size_t len, void *h) {
    return wai_wis1_parse(data, len, h);
}

static wai_status prepare(const wai_allocator *a, const wai_loaded_set *l, const void *h,
                          wai_plan *p) {
    return check_and_plan(a, l, h, p);
}

/* [c, sh, sw] in; attr planes of s x s bytes out. */
static uint64_t shape(const void *h, uint64_t *output_bytes, wai_job *j) {
    const wai_wis1 *v = h;
    *output_bytes = wai_sat_mul3(v->attr, v->s, v->s);
    j->out.width = j->out.height = v->s;
    return wai_sat_mul3(v->c, v->sh, v->sw);
}

static wai_status latent(const void *h, const wai_allocator *a, int64_t *lat) {
    return decode_latent(a, h, lat);
}

static void describe(const void *h, wai_text *t) { wai_wis1_describe(h, t); }

static const wai_one_network_format splat = {sizeof(wai_wis1), parse,     prepare, shape,
                                             latent,           to_planes, describe};
_Static_assert(sizeof(wai_wis1) <= WAI_ONE_NETWORK_HEADER_MAX, "a WIS1 header fits a job");

const wai_codec_ops wai_int_splat_ops = WAI_ONE_NETWORK_OPS(splat);
