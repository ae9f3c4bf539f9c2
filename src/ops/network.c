/* The network runner (see network.h): one allocation per buffer for the
 * whole run, each layer through the kernel table, the output copied out
 * only after the last layer has run. */
#include "ops/network.h"

#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "ops/bounds.h"
#include "ops/layers_fast.h"

const wai_kernels wai_kernels_ref = {
    wai_conv2d_ref, wai_conv_t2d_ref, wai_conv_t1d_ref,
    wai_igdn_ref,   wai_relu_ref,     wai_leaky_ref,
};

/* The fast kernels where there are any; tests/unit/test_layers_diff.c and
 * test_network.c hold them to the reference. */
const wai_kernels wai_kernels_fast = {
    wai_conv2d_fast, wai_conv_t2d_fast, wai_conv_t1d_ref,
    wai_igdn_fast,   wai_relu_ref,      wai_leaky_ref,
};

/* The plan, the sums and the model describe the same network: same layer
 * count and kinds, sums of the count each kind reads, sizes that the
 * planner's cap (2^26) keeps addressable. */
static int consistent(const wai_model *m, const wai_sums *s, const wai_plan *p) {
    if (p->dims != m->dims || (m->dims != 1 && m->dims != 2) || p->n_layers != m->n_layers ||
        s->n_layers != m->n_layers || (m->n_layers > 0 && (!p->layers || !s->layers || !m->layers)))
        return 0;
    if (!wai_fits_size(p->out_elems)) return 0;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        const wai_layer *l = &m->layers[i];
        const wai_plan_layer *pl = &p->layers[i];
        const wai_layer_sums *ls = &s->layers[i];
        uint32_t need = wai_layer_param_sum_count(l);
        if (pl->kind != l->kind || ls->n != need || (need > 0 && !ls->sums) ||
            !wai_fits_size(pl->in_elems) || !wai_fits_size(pl->out_elems) ||
            !wai_fits_size(pl->uncropped_elems))
            return 0;
        /* A 1-D network has no convolution (WAM1 has no such tag) and
         * runs on one row. */
        if (m->dims == 1 && (l->kind == WAI_LAYER_CONV || pl->in_h != 1 || pl->out_h != 1))
            return 0;
    }
    return 1;
}

/* One layer from x (the plan's in shape) into y (its out shape). */
static wai_status run_layer(const wai_kernels *k, const wai_model *m, const wai_layer *l,
                            const wai_plan_layer *pl, const uint64_t *sums, const int64_t *x,
                            int64_t *scratch, int64_t *y) {
    switch (l->kind) {
    case WAI_LAYER_CONV:
        return k->conv2d(l, sums, m->shift, x, pl->in_h, pl->in_w, y, pl->out_h, pl->out_w);
    case WAI_LAYER_CONV_T:
        if (m->dims == 1)
            return k->conv_t1d(l, sums, m->shift, x, pl->in_w, scratch, y, pl->out_w);
        return k->conv_t2d(l, sums, m->shift, x, pl->in_h, pl->in_w, scratch, y, pl->out_h,
                           pl->out_w);
    case WAI_LAYER_IGDN:
        return k->igdn(l, sums, m->gf, m->afrac, x, (size_t)pl->in_h * pl->in_w, y);
    case WAI_LAYER_RELU:
        return k->relu(x, (size_t)pl->in_elems, y);
    case WAI_LAYER_LEAKY:
        return k->leaky(l, x, (size_t)pl->in_elems, y);
    }
    return WAI_invalid_argument;
}

wai_status wai_network_run(const wai_allocator *a, const wai_kernels *k, const wai_model *m,
                           const wai_sums *s, const wai_plan *p, const int64_t *input,
                           int64_t *output) {
    if (!k) k = &wai_kernels_ref;
    if (!consistent(m, s, p)) return WAI_invalid_argument;
    if (m->n_layers == 0) {
        if (p->out_elems) memcpy(output, input, (size_t)p->out_elems * sizeof *output);
        return WAI_ok;
    }

    /* Layer 0 reads the caller's input in place, so the buffers need hold
     * only layer outputs. */
    uint64_t act = 0, plane = 0;
    for (uint32_t i = 0; i < p->n_layers; i++) {
        if (p->layers[i].out_elems > act) act = p->layers[i].out_elems;
        if (p->layers[i].uncropped_elems > plane) plane = p->layers[i].uncropped_elems;
    }
    wai_status st = WAI_out_of_memory;
    int64_t *buf[2] = {NULL, NULL};
    int64_t *scratch = NULL;
    buf[0] = wai_alloc_array(a, (size_t)act, sizeof(int64_t));
    if (m->n_layers > 1) buf[1] = wai_alloc_array(a, (size_t)act, sizeof(int64_t));
    if (plane > 0) scratch = wai_alloc_array(a, (size_t)plane, sizeof(int64_t));
    if ((act > 0 && !buf[0]) || (act > 0 && m->n_layers > 1 && !buf[1]) ||
        (plane > 0 && !scratch))
        goto done;

    const int64_t *x = input;
    for (uint32_t i = 0; i < m->n_layers; i++) {
        int64_t *y = buf[i & 1];
        st = run_layer(k, m, &m->layers[i], &p->layers[i], s->layers[i].sums, x, scratch, y);
        if (st != WAI_ok) goto done;
        x = y;
    }
    if (p->out_elems) memcpy(output, x, (size_t)p->out_elems * sizeof *output);
    st = WAI_ok;
done:
    wai_free(a, scratch);
    wai_free(a, buf[1]);
    wai_free(a, buf[0]);
    return st;
}
