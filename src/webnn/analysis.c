/* SPDX-License-Identifier: BSD-2-Clause */
/* A learned image codec's analysis on the native WebNN (the float half of
 * the WIH1 encoder, src/write/hyper_encode.c; docs/hyperprior.md): the
 * picture as the program's input, its two latents out as integers at
 * 2^afrac (include/wai/wai_webnn.h). Bytes in, integers out, so everything
 * after it (the hyper-latent's symbols, h_s, the latent's symbols, the
 * streams) is integer arithmetic. */
#include <math.h>
#include <string.h>

#include "common/alloc.h"
#include "webnn/ml.h"

#define LATENT_LIMIT 1099511627776.0 /* 2^40 */

/* round(v * 2^afrac), ties to even; -1 for a value out of range. v is
 * float32 and the scale a power of two, so the product is exact in double. */
static int fixed(float v, uint32_t afrac, int64_t *out) {
    double t = ldexp((double)v, (int)afrac);
    if (!(t > -LATENT_LIMIT && t < LATENT_LIMIT)) return -1; /* NaN too */
    double f = floor(t), r = t - f;
    if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    *out = (int64_t)f;
    return 0;
}

/* A WebNN status as the encoder's: memory (out_of_memory, or createTensor's
 * UnknownError, which the native WebNN gives for nothing else) passes up as
 * out_of_memory, anything else is `other`. */
static wai_status mapped(wai_status st, wai_status other) {
    return st == WAI_out_of_memory || st == WAI_UnknownError ? WAI_out_of_memory : other;
}

static const wai_ml_operand_descriptor *output_named(const wai_ml_graph *g, const char *name) {
    for (size_t i = 0; i < wai_ml_graph_output_count(g); i++) {
        const wai_ml_operand_descriptor *d;
        const char *n = wai_ml_graph_output_at(g, i, &d);
        if (n && strcmp(n, name) == 0) return d;
    }
    return NULL;
}

static int latent_shape(const wai_ml_operand_descriptor *d, wai_webnn_analysis_latent *l) {
    if (!d || d->data_type != WAI_ML_FLOAT32 || d->rank != 4 || d->shape[0] != 1 ||
        d->shape[1] == 0 || d->shape[2] == 0 || d->shape[3] == 0)
        return -1;
    l->c = d->shape[1];
    l->h = d->shape[2];
    l->w = d->shape[3];
    return 0;
}

/* A latent's values from its tensor, scaled, into l->data. */
static wai_status read_latent(wai_context *ctx, wai_ml_context *c, const wai_ml_tensor *t,
                              uint32_t afrac, wai_webnn_analysis_latent *l) {
    const wai_allocator *a = wai_context_allocator(ctx);
    size_t n = (size_t)l->c * l->h * l->w;
    float *v = wai_alloc_array(a, n, sizeof *v);
    l->data = wai_alloc_array(a, n, sizeof *l->data);
    wai_status st = v && l->data ? WAI_ok : WAI_out_of_memory;
    if (st == WAI_ok && wai_ml_read_tensor(c, t, v, n * sizeof *v) != WAI_ok)
        st = WAI_dispatch_backend_failed;
    for (size_t i = 0; st == WAI_ok && i < n; i++)
        if (fixed(v[i], afrac, &l->data[i]) != 0) st = WAI_field_range;
    wai_free(a, v);
    if (st != WAI_ok) {
        wai_free(a, l->data);
        l->data = NULL;
    }
    return st;
}

wai_status wai_webnn_analysis(wai_context *ctx, const wai_webnn_analysis_args *g, wai_webnn_analysis_latent *y,
                                 wai_webnn_analysis_latent *z) {
    const wai_allocator *a = wai_context_allocator(ctx);
    memset(y, 0, sizeof *y);
    memset(z, 0, sizeof *z);
    const size_t hw = (size_t)g->height * g->width, n_in = 3 * hw;
    float *x = wai_alloc_array(a, n_in, sizeof *x);
    wai_ml_context *c = NULL;
    wai_ml_graph *graph = NULL;
    wai_ml_tensor *tin = NULL, *ty = NULL, *tz = NULL;
    wai_status st = x ? WAI_ok : WAI_out_of_memory;
    if (st != WAI_ok) goto done;
    /* Planar [3, h, w] from interleaved bytes; v / 255 in float32. */
    for (size_t i = 0; i < hw; i++)
        for (size_t ch = 0; ch < 3; ch++) x[ch * hw + i] = (float)g->rgb[3 * i + ch] / 255.0f;
    if ((st = wai_ml_create_context(ctx, NULL, &c)) != WAI_ok) {
        st = mapped(st, WAI_dispatch_backend_failed);
        goto done;
    }
    const wai_ml_named_descriptor in = {"x", {WAI_ML_FLOAT32, 4, {1, 3, g->height, g->width}}};
    st = wai_ml_graph_from_json(c, g->program, g->program_len, g->weights, g->weights_len, &in, 1,
                                &graph);
    if (st != WAI_ok) {
        st = mapped(st, WAI_model_mismatch);
        goto done;
    }
    const wai_ml_operand_descriptor *dy = output_named(graph, "y"), *dz = output_named(graph, "z");
    if (wai_ml_graph_input_count(graph) != 1 || wai_ml_graph_output_count(graph) != 2 ||
        latent_shape(dy, y) != 0 || latent_shape(dz, z) != 0) {
        st = WAI_model_mismatch;
        goto done;
    }
    const wai_ml_tensor_descriptor tin_d = {in.desc, 0, 1}, ty_d = {*dy, 1, 0}, tz_d = {*dz, 1, 0};
    if ((st = wai_ml_create_tensor(c, &tin_d, &tin)) != WAI_ok ||
        (st = wai_ml_create_tensor(c, &ty_d, &ty)) != WAI_ok ||
        (st = wai_ml_create_tensor(c, &tz_d, &tz)) != WAI_ok ||
        (st = wai_ml_write_tensor(c, tin, x, n_in * sizeof *x)) != WAI_ok) {
        st = mapped(st, WAI_dispatch_backend_failed);
        goto done;
    }
    wai_free(a, x);
    x = NULL;
    const wai_ml_named_tensor ins[1] = {{"x", tin}}, outs[2] = {{"y", ty}, {"z", tz}};
    if ((st = wai_ml_dispatch(c, graph, ins, 1, outs, 2)) != WAI_ok) {
        st = mapped(st, WAI_dispatch_backend_failed);
        goto done;
    }
    if ((st = read_latent(ctx, c, ty, g->afrac, y)) == WAI_ok)
        st = read_latent(ctx, c, tz, g->afrac, z);
done:
    if (st != WAI_ok) {
        wai_free(a, y->data);
        wai_free(a, z->data);
        memset(y, 0, sizeof *y);
        memset(z, 0, sizeof *z);
    }
    wai_ml_context_destroy(c); /* its graph and tensors too */
    wai_free(a, x);
    return st;
}
