/* SPDX-License-Identifier: BSD-2-Clause */
/* WIA1 decode against a loaded set: §5's steps in §7's order of checks. */
#include "decode/int_audio.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"
#include "entropy/latents.h"
#include "decode/one_network.h"
#include "formats/wia1.h"
#include "ops/layers.h"

/* The synthesis's output length on lat_len - 1 samples, 0 when that is no
 * input or the geometry leaves no output (reading N9). Only a shorter input
 * than the one that planned, so no cap can fire; out_of_memory passes up. */
static wai_status shorter_length(const wai_allocator *a, const wai_loaded_set *l,
                                 const wai_wia1 *v, uint64_t *len) {
    *len = 0;
    if (v->lat_len <= 1) return WAI_ok;
    wai_plan q;
    wai_status st = wai_plan_model(a, &wai_one_network_net(l)->model, v->n_ch, 1, v->lat_len - 1, &q);
    if (st == WAI_ok) *len = q.out_w;
    wai_plan_free(a, &q);
    return st == WAI_out_of_memory ? st : WAI_ok;
}

/* In order: the payload's afrac is the model's (model_mismatch); the
 * synthesis planned on [n_ch, lat_len] (model_mismatch, too_large); one
 * output channel (model_mismatch); at least t_out samples, then the
 * synthesis of lat_len - 1 giving fewer than t_out (reading N9: none when
 * lat_len is 1 or a layer leaves no output) (both geometry_mismatch). */
static wai_status check_and_plan(const wai_allocator *a, const wai_loaded_set *l,
                                 const wai_wia1 *v, wai_plan *p) {
    memset(p, 0, sizeof *p);
    if (v->afrac != l->afrac) return WAI_model_mismatch;
    wai_status st = wai_plan_model(a, &wai_one_network_net(l)->model, v->n_ch, 1, v->lat_len, p);
    if (st != WAI_ok) return st;
    uint64_t shorter = 0;
    if (p->out_c != 1) st = WAI_model_mismatch;
    else if (p->out_w < v->t_out) st = WAI_geometry_mismatch;
    else if ((st = shorter_length(a, l, v, &shorter)) == WAI_ok && shorter >= v->t_out)
        st = WAI_geometry_mismatch;
    if (st != WAI_ok) wai_plan_free(a, p);
    return st;
}

static wai_status decode_latent(const wai_allocator *a, const wai_wia1 *v, int64_t *lat) {
    wai_payload_tables t;
    wai_status st = wai_payload_tables_init(a, v->tables, v->n_ch, NULL, v->cdf_len, &t);
    if (st != WAI_ok) return st;
    wai_channel_coding *ch = wai_alloc_array(a, v->n_ch, sizeof *ch);
    if (!ch) {
        wai_payload_tables_free(a, &t);
        return WAI_out_of_memory;
    }
    for (uint32_t k = 0; k < v->n_ch; k++) {
        ch[k].table = &t.tables[k];
        ch[k].offset = v->offset;
        ch[k].median = wai_wia1_median(v, k);
    }
    wai_rans_dec d;
    wai_rans_dec_init(&d, v->stream.bytes, v->stream.len);
    st = wai_decode_channels(&d, ch, v->n_ch, v->lat_len, v->afrac, lat);
    if (st == WAI_ok) st = wai_rans_end_canonical(&d);
    wai_free(a, ch);
    wai_payload_tables_free(a, &t);
    return st;
}

/* The PCM step on the first t_out samples, i16 little-endian. */
static wai_status to_pcm(const void *arg, const int64_t *y, uint8_t *pcm) {
    const wai_wia1 *v = arg;
    for (uint32_t i = 0; i < v->t_out; i++) {
        int16_t s;
        wai_status st = wai_pcm_step(y[i], v->afrac, &s);
        if (st != WAI_ok) return st;
        wai_store_u16le(pcm + 2 * (size_t)i, (uint16_t)s);
    }
    return WAI_ok;
}

/* ---- the codec (decode/codec.h, decode/one_network.h) ------------------------- */

/* The row's one member: a WAM1 network (the synthesis). */
wai_status wai_int_audio_load_set(const wai_allocator *a, const wai_set *set,
                               const char *const *members, wai_loaded_set *l) {
    return wai_one_network_load(a, set, members[0], 1, l);
}

static wai_status parse(const uint8_t *data, size_t len, void *h) {
    return wai_wia1_parse(data, len, h);
}

static wai_status prepare(const wai_allocator *a, const wai_loaded_set *l, const void *h,
                          wai_plan *p) {
    return check_and_plan(a, l, h, p);
}

/* [n_ch, lat_len] in; t_out samples of one channel out, at sr. */
static uint64_t shape(const void *h, uint64_t *output_bytes, wai_job *j) {
    const wai_wia1 *v = h;
    *output_bytes = wai_sat_mul(2, v->t_out);
    j->out.width = v->t_out;
    j->out.height = 1;
    j->out.sample_rate = v->sr;
    return wai_sat_mul(v->n_ch, v->lat_len);
}

static wai_status latent(const void *h, const wai_allocator *a, int64_t *lat) {
    return decode_latent(a, h, lat);
}

static void describe(const void *h, wai_text *t) { wai_wia1_describe(h, t); }

static const wai_one_network_format audio = {sizeof(wai_wia1), parse,  prepare, shape,
                                             latent,           to_pcm, describe};
_Static_assert(sizeof(wai_wia1) <= WAI_ONE_NETWORK_HEADER_MAX, "a WIA1 header fits a job");

const wai_codec_ops wai_int_audio_ops = WAI_ONE_NETWORK_OPS(audio);
