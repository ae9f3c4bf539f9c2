/* WIS1 decode against a loaded set: §6's steps in §7's order of checks. */
#include "decode/int_splat.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "decode/latent.h"
#include "ops/layers.h"

wai_status wai_wis1_prepare(const wai_allocator *a, const wai_loaded_set *l, const wai_wis1 *v,
                            wai_plan *p) {
    memset(p, 0, sizeof *p);
    if (v->afrac != l->afrac) return WAI_model_mismatch;
    wai_status st = wai_plan_model(a, &l->g_s.model, v->c, v->sh, v->sw, p);
    if (st == WAI_ok && (p->out_c != v->attr || p->out_h != v->s || p->out_w != v->s))
        st = WAI_geometry_mismatch;
    if (st != WAI_ok) wai_plan_free(a, p);
    return st;
}

void wai_wis1_cost(const wai_wis1 *v, const wai_plan *p, wai_cost *c) {
    uint64_t lat = wai_sat_mul3(v->c, v->sh, v->sw);
    c->output_bytes = wai_sat_mul3(v->attr, v->s, v->s);
    c->entropy_steps = lat;
    c->macs = p->macs;
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, wai_sat_add(lat, p->out_elems)),
                                               p->work_bytes),
                                   c->output_bytes);
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

wai_status wai_wis1_decode(const wai_exec *ex, const wai_kernels *k, const wai_loaded_set *l,
                           const wai_wis1 *v, const wai_plan *p, uint8_t *planes) {
    const wai_allocator *a = ex->alloc;
    int64_t *lat = wai_alloc_array(a, (size_t)v->c * v->sh * v->sw, 8);
    int64_t *out = wai_alloc_array(a, (size_t)p->out_elems, 8);
    wai_status st = WAI_out_of_memory;
    if (!lat || !out) goto done;
    if ((st = decode_latent(a, v, lat)) != WAI_ok) goto done;
    if ((st = wai_network_run_ex(ex, k, &l->g_s.model, &l->g_s.sums, p, lat, out)) != WAI_ok)
        goto done;
    for (uint64_t i = 0; i < p->out_elems; i++) planes[i] = wai_rgb8_step(out[i], v->afrac);
done:
    wai_free(a, out);
    wai_free(a, lat);
    return st;
}
