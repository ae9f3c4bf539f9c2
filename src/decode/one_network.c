/* See one_network.h. */
#include "decode/one_network.h"

#include "common/alloc.h"
#include "common/checked.h"

void wai_one_network_cost(uint64_t n_lat, const wai_plan *p, uint64_t output_bytes, wai_cost *c) {
    c->output_bytes = output_bytes;
    c->entropy_steps = n_lat;
    c->macs = p->macs;
    c->working_bytes = wai_sat_add(wai_sat_add(wai_sat_mul(8, wai_sat_add(n_lat, p->out_elems)),
                                               p->work_bytes),
                                   output_bytes);
}

wai_status wai_one_network_run(const wai_exec *ex, const wai_kernels *k, const wai_net *net,
                               const wai_plan *p, size_t n_lat, const wai_one_network *f,
                               uint8_t *out) {
    const wai_allocator *a = ex->alloc;
    int64_t *lat = wai_alloc_array(a, n_lat, 8);
    int64_t *y = wai_alloc_array(a, (size_t)p->out_elems, 8);
    wai_status st = WAI_out_of_memory;
    if (lat && y && (st = f->latent(f->arg, a, lat)) == WAI_ok &&
        (st = wai_network_run_ex(ex, k, &net->model, &net->sums, p, lat, y)) == WAI_ok)
        st = f->finish(f->arg, y, out);
    wai_free(a, y);
    wai_free(a, lat);
    return st;
}
