/* WIA1 decode against a loaded set: §5's steps in §7's order of checks. */
#include "decode/int_audio.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/reader.h"
#include "decode/latent.h"
#include "ops/layers.h"

/* The synthesis's output length on lat_len - 1 samples, 0 when that is no
 * input or the geometry leaves no output (reading N9). Only a shorter input
 * than the one that planned, so no cap can fire; out_of_memory passes up. */
static wai_status shorter_length(const wai_allocator *a, const wai_loaded_set *l,
                                 const wai_wia1 *v, uint64_t *len) {
    *len = 0;
    if (v->lat_len <= 1) return WAI_ok;
    wai_plan q;
    wai_status st = wai_plan_model(a, &l->g_s.model, v->n_ch, 1, v->lat_len - 1, &q);
    if (st == WAI_ok) *len = q.out_w;
    wai_plan_free(a, &q);
    return st == WAI_out_of_memory ? st : WAI_ok;
}

wai_status wai_wia1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wia1 *v,
                            wai_plan *p) {
    memset(p, 0, sizeof *p);
    if (v->afrac != l->afrac) return WAI_model_mismatch;
    wai_status st = wai_plan_model(a, &l->g_s.model, v->n_ch, 1, v->lat_len, p);
    if (st != WAI_ok) return st;
    uint64_t shorter = 0;
    if (p->out_c != 1) st = WAI_model_mismatch;
    else if (p->out_w < v->t_out) st = WAI_geometry_mismatch;
    else if ((st = shorter_length(a, l, v, &shorter)) == WAI_ok && shorter >= v->t_out)
        st = WAI_geometry_mismatch;
    if (st != WAI_ok) wai_plan_free(a, p);
    return st;
}

void wai_wia1_cost(const wai_wia1 *v, const wai_plan *p, wai_cost *c) {
    uint64_t lat = wai_sat_mul(v->n_ch, v->lat_len);
    c->output_bytes = wai_sat_mul(2, v->t_out);
    c->entropy_steps = lat;
    c->macs = p->macs;
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, wai_sat_add(lat, p->out_elems)),
                                               p->work_bytes),
                                   c->output_bytes);
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

wai_status wai_wia1_decode(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                           const wai_wia1 *v, const wai_plan *p, uint8_t *pcm) {
    const wai_allocator *a = ex->alloc;
    int64_t *lat = wai_alloc_array(a, (size_t)v->n_ch * v->lat_len, 8);
    int64_t *out = wai_alloc_array(a, (size_t)p->out_elems, 8);
    wai_status st = WAI_out_of_memory;
    if (!lat || !out) goto done;
    if ((st = decode_latent(a, v, lat)) != WAI_ok) goto done;
    if ((st = wai_network_run_ex(ex, k, &l->g_s.model, &l->g_s.sums, p, lat, out)) != WAI_ok)
        goto done;
    for (uint32_t i = 0; i < v->t_out; i++) {
        int16_t s;
        if ((st = wai_pcm_step(out[i], v->afrac, &s)) != WAI_ok) goto done;
        wai_store_u16le(pcm + 2 * (size_t)i, (uint16_t)s);
    }
done:
    wai_free(a, out);
    wai_free(a, lat);
    return st;
}
