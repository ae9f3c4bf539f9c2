/* SPDX-License-Identifier: BSD-2-Clause */
/* The native WebNN's convolutions on random cases of every option and
 * layout: the fastest kernels (oneDNN where the build has it) and the C
 * reference, each held to a float64 evaluation of the definition written
 * here, within the bound of a float32 sum: for each output,
 *     |got - exact| <= (taps + 2) * 2^-24 * sum |w * x| + 2^-126.
 * (docs/webnn.md, "Accuracy".) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_ml.h"
#include "webnn/ml.h"

static uint64_t g_rng = 0x7765626e6e;

static uint32_t rnd(uint32_t n) { return (uint32_t)(harness_rand(&g_rng) % n); }
static float frnd(void) { return (float)((double)(harness_rand(&g_rng) >> 11) / 9007199254740992.0 * 2 - 1); }

typedef struct conv_case {
    int transposed;
    uint32_t n, c, h, w, o, kh, kw, groups;
    uint32_t pad[4], stride[2], dil[2], opad[2], osz[2];
    int has_osz, has_bias, input_layout, filter_layout;
} conv_case;

/* A random case the builder must take. */
static void pick(conv_case *k, int transposed) {
    memset(k, 0, sizeof *k);
    k->transposed = transposed;
    k->groups = rnd(3) == 0 ? 1 + rnd(3) : 1;
    k->n = 1 + rnd(2);
    k->c = k->groups * (1 + rnd(4));
    k->o = k->groups * (1 + rnd(4));
    k->kh = 1 + rnd(5), k->kw = 1 + rnd(5);
    k->h = 1 + rnd(9), k->w = 1 + rnd(9);
    for (int i = 0; i < 2; i++) {
        k->stride[i] = 1 + rnd(3);
        k->dil[i] = 1 + rnd(2);
    }
    for (int i = 0; i < 4; i++) k->pad[i] = rnd(3);
    k->has_bias = rnd(2);
    k->input_layout = (int)rnd(2);
    k->filter_layout = (int)rnd(transposed ? 3 : 4);
    if (!transposed) {
        /* The dilated filter must fit the padded input. */
        k->h += (k->kh - 1) * k->dil[0];
        k->w += (k->kw - 1) * k->dil[1];
        return;
    }
    for (int i = 0; i < 2; i++) k->opad[i] = rnd(k->stride[i]);
    k->has_osz = rnd(3) == 0;
    for (int i = 0; i < 2; i++) {
        int64_t in = i ? k->w : k->h, kk = i ? k->kw : k->kh;
        int64_t calc = (in - 1) * k->stride[i] + (kk - 1) * k->dil[i] + 1 - k->pad[2 * i] -
                       k->pad[2 * i + 1];
        if (calc < 1) {
            /* Too much padding for this size: drop it. */
            k->pad[2 * i] = k->pad[2 * i + 1] = 0;
            calc = (in - 1) * k->stride[i] + (kk - 1) * k->dil[i] + 1;
        }
        k->osz[i] = (uint32_t)calc + rnd(k->stride[i]);
    }
}

/* Element (a, b, c, d) of a canonical tensor in a layout given as the
 * canonical axis each stored axis holds. */
static size_t at(const uint32_t *dims, const int *order, const uint32_t idx[4]) {
    size_t off = 0;
    for (int i = 0; i < 4; i++) off = off * dims[order[i]] + idx[order[i]];
    return off;
}

/* Canonical axes: input (n, c, h, w); conv2d filter (o, i, h, w); transposed
 * filter (i, o, h, w). Each layout's stored order of those axes. */
static const int NCHW[4] = {0, 1, 2, 3}, NHWC[4] = {0, 2, 3, 1};
static const int *conv_filter_order(int l) {
    static const int oihw[4] = {0, 1, 2, 3}, hwio[4] = {2, 3, 1, 0}, ohwi[4] = {0, 2, 3, 1},
                     ihwo[4] = {1, 2, 3, 0};
    return l == 1 ? hwio : l == 2 ? ohwi : l == 3 ? ihwo : oihw;
}
static const int *convt_filter_order(int l) {
    static const int iohw[4] = {0, 1, 2, 3}, hwoi[4] = {2, 3, 1, 0}, ohwi[4] = {1, 2, 3, 0};
    return l == 1 ? hwoi : l == 2 ? ohwi : iohw;
}

/* The exact outputs (float64) and each output's sum of |w x|, canonical NCHW. */
static void exact(const conv_case *k, const float *x, const uint32_t *xd, const float *wt,
                  const uint32_t *wd, const int *wo, const float *bias, const uint32_t *yd,
                  double *y, double *mag) {
    const uint32_t cg = k->c / k->groups, og = k->o / k->groups;
    size_t ny = (size_t)yd[0] * yd[1] * yd[2] * yd[3];
    for (size_t i = 0; i < ny; i++) y[i] = 0, mag[i] = 0;
    for (uint32_t n = 0; n < k->n; n++)
        for (uint32_t o = 0; o < k->o; o++)
            for (uint32_t oy = 0; oy < yd[2]; oy++)
                for (uint32_t ox = 0; ox < yd[3]; ox++) {
                    const size_t yi = (((size_t)n * yd[1] + o) * yd[2] + oy) * yd[3] + ox;
                    double s = bias ? bias[o] : 0, m = bias ? fabs(bias[o]) : 0;
                    const uint32_t g = o / og;
                    for (uint32_t ci = 0; ci < cg; ci++)
                        for (uint32_t ky = 0; ky < k->kh; ky++)
                            for (uint32_t kx = 0; kx < k->kw; kx++) {
                                int64_t iy, ix;
                                uint32_t widx[4];
                                const uint32_t c = g * cg + ci;
                                if (!k->transposed) {
                                    iy = (int64_t)oy * k->stride[0] + (int64_t)ky * k->dil[0] - k->pad[0];
                                    ix = (int64_t)ox * k->stride[1] + (int64_t)kx * k->dil[1] - k->pad[2];
                                    widx[0] = o, widx[1] = ci, widx[2] = ky, widx[3] = kx;
                                } else {
                                    /* oy = iy * s + ky * d - pad: iy back from oy. */
                                    int64_t ty = (int64_t)oy + k->pad[0] - (int64_t)ky * k->dil[0];
                                    int64_t tx = (int64_t)ox + k->pad[2] - (int64_t)kx * k->dil[1];
                                    if (ty < 0 || tx < 0 || ty % k->stride[0] || tx % k->stride[1]) continue;
                                    iy = ty / k->stride[0], ix = tx / k->stride[1];
                                    widx[0] = c, widx[1] = o - g * og, widx[2] = ky, widx[3] = kx;
                                }
                                if (iy < 0 || ix < 0 || iy >= k->h || ix >= k->w) continue;
                                const uint32_t xidx[4] = {n, c, (uint32_t)iy, (uint32_t)ix};
                                double t = (double)x[at(xd, k->input_layout ? NHWC : NCHW, xidx)] *
                                           wt[at(wd, wo, widx)];
                                s += t, m += fabs(t);
                            }
                    y[yi] = s, mag[yi] = m;
                }
}

static int run_case(wai_ml_context *ctxs[2], const conv_case *k, char *why, size_t wsize) {
    const uint32_t cg = k->c / k->groups, og = k->o / k->groups;
    /* Canonical dims and the stored shapes. */
    uint32_t xd[4] = {k->n, k->c, k->h, k->w};
    uint32_t wd[4];
    if (!k->transposed) wd[0] = k->o, wd[1] = cg;
    else wd[0] = k->c, wd[1] = og;
    wd[2] = k->kh, wd[3] = k->kw;
    const int *xo = k->input_layout ? NHWC : NCHW;
    const int *wo = k->transposed ? convt_filter_order(k->filter_layout) : conv_filter_order(k->filter_layout);
    wai_ml_operand_descriptor xdesc = {WAI_ML_FLOAT32, 4, {0}}, wdesc = {WAI_ML_FLOAT32, 4, {0}},
                              bdesc = {WAI_ML_FLOAT32, 1, {k->o}};
    for (int i = 0; i < 4; i++) xdesc.shape[i] = xd[xo[i]], wdesc.shape[i] = wd[wo[i]];
    size_t nx = (size_t)k->n * k->c * k->h * k->w, nw = (size_t)wd[0] * wd[1] * wd[2] * wd[3];
    float *x = malloc(4 * nx), *wt = malloc(4 * nw), bias[16];
    for (size_t i = 0; i < nx; i++) x[i] = frnd();
    for (size_t i = 0; i < nw; i++) wt[i] = frnd();
    for (uint32_t i = 0; i < k->o; i++) bias[i] = frnd();
    int ok = 1;
    for (int kk = 0; kk < 2 && ok; kk++) {
        wai_ml_context *c = ctxs[kk];
        wai_ml_graph_builder *b;
        wai_ml_operand *xi, *wc, *bc = NULL, *y = NULL;
        wai_status st = wai_ml_graph_builder_create(c, &b);
        if (st == WAI_ok) st = wai_ml_input(b, "x", &xdesc, &xi);
        if (st == WAI_ok) st = wai_ml_constant(b, &wdesc, wt, 4 * nw, &wc);
        if (st == WAI_ok && k->has_bias) st = wai_ml_constant(b, &bdesc, bias, 4 * k->o, &bc);
        if (st == WAI_ok && !k->transposed) {
            wai_ml_conv2d_options o;
            wai_ml_conv2d_options_default(&o);
            o.padding = k->pad, o.padding_size = 4, o.strides = k->stride, o.strides_size = 2;
            o.dilations = k->dil, o.dilations_size = 2, o.groups = k->groups;
            o.input_layout = (wai_ml_input_operand_layout)k->input_layout;
            o.filter_layout = (wai_ml_conv2d_filter_operand_layout)k->filter_layout;
            o.bias = bc;
            st = wai_ml_conv2d(b, xi, wc, &o, &y);
        } else if (st == WAI_ok) {
            wai_ml_conv_transpose2d_options o;
            wai_ml_conv_transpose2d_options_default(&o);
            o.padding = k->pad, o.padding_size = 4, o.strides = k->stride, o.strides_size = 2;
            o.dilations = k->dil, o.dilations_size = 2, o.groups = k->groups;
            if (k->has_osz) o.output_sizes = k->osz, o.output_sizes_size = 2;
            else o.output_padding = k->opad, o.output_padding_size = 2;
            o.input_layout = (wai_ml_input_operand_layout)k->input_layout;
            o.filter_layout = (wai_ml_conv_transpose2d_filter_operand_layout)k->filter_layout;
            o.bias = bc;
            st = wai_ml_conv_transpose2d(b, xi, wc, &o, &y);
        }
        wai_ml_graph *g = NULL;
        wai_ml_named_operand outs[1] = {{"y", y}};
        if (st == WAI_ok) st = wai_ml_build(b, outs, 1, &g);
        wai_ml_graph_builder_destroy(b);
        if (st != WAI_ok) {
            snprintf(why, wsize, "build: %s: %s", wai_status_name(st), wai_ml_error_message(c));
            ok = 0;
            break;
        }
        const wai_ml_operand_descriptor *yd_stored;
        wai_ml_graph_output_at(g, 0, &yd_stored);
        uint32_t yd[4];
        for (int i = 0; i < 4; i++) yd[xo[i]] = yd_stored->shape[i];
        size_t ny = (size_t)yd[0] * yd[1] * yd[2] * yd[3];
        float *got = malloc(4 * ny);
        double *want = malloc(8 * ny), *mag = malloc(8 * ny);
        wai_ml_tensor *tx = NULL, *ty = NULL;
        wai_ml_tensor_descriptor txd = {xdesc, 0, 1}, tyd = {*yd_stored, 1, 0};
        st = wai_ml_create_tensor(c, &txd, &tx);
        if (st == WAI_ok) st = wai_ml_create_tensor(c, &tyd, &ty);
        if (st == WAI_ok) st = wai_ml_write_tensor(c, tx, x, 4 * nx);
        wai_ml_named_tensor in[1] = {{"x", tx}}, out[1] = {{"y", ty}};
        if (st == WAI_ok) st = wai_ml_dispatch(c, g, in, 1, out, 1);
        if (st == WAI_ok) st = wai_ml_read_tensor(c, ty, got, 4 * ny);
        if (st != WAI_ok) {
            snprintf(why, wsize, "run: %s", wai_status_name(st));
            ok = 0;
        }
        /* The fast context ran oneDNN where the build has it, on every
         * convolution and every transposed one whose output needs no
         * negative ending padding (one whose outputPadding is larger than
         * its ending padding runs on the reference). */
        int dnnl_takes = 1;
        for (int i = 0; k->transposed && i < 2; i++) {
            int64_t isz = i ? k->w : k->h, kk2 = i ? k->kw : k->kh, osz = i ? yd[3] : yd[2];
            if ((isz - 1) * k->stride[i] + (kk2 - 1) * k->dil[i] + 1 - k->pad[2 * i] - osz < 0)
                dnnl_takes = 0;
        }
        if (ok && kk == 0 && dnnl_takes && wai_ml_dnnl_available() &&
            !wai_ml_dnnl_op_runs(g->ops[0].backend)) {
            snprintf(why, wsize, "oneDNN took no primitive for this case");
            ok = 0;
        }
        exact(k, x, xd, wt, wd, wo, k->has_bias ? bias : NULL, yd, want, mag);
        const uint32_t taps = cg * k->kh * k->kw;
        for (uint32_t n = 0; ok && n < yd[0]; n++)
            for (uint32_t o = 0; ok && o < yd[1]; o++)
                for (uint32_t p = 0; ok && p < yd[2] * yd[3]; p++) {
                    const uint32_t idx[4] = {n, o, p / yd[3], p % yd[3]};
                    const size_t ci = (((size_t)n * yd[1] + o) * yd[2] + idx[2]) * yd[3] + idx[3];
                    double g64 = got[at(yd, xo, idx)];
                    double bound = (taps + 2) * ldexp(mag[ci], -24) + ldexp(1, -126);
                    if (fabs(g64 - want[ci]) > bound) {
                        snprintf(why, wsize, "%s kernels: output %zu: %.9g, exact %.9g (bound %.3g)",
                                 kk ? "reference" : "best", ci, g64, want[ci], bound);
                        ok = 0;
                    }
                }
        free(got), free(want), free(mag);
        wai_ml_tensor_destroy(tx), wai_ml_tensor_destroy(ty);
        wai_ml_graph_destroy(g);
    }
    free(x), free(wt);
    return ok;
}

static void test_random_convolutions(void) {
    wai_context *ctx;
    CHECK(wai_context_create(NULL, &ctx) == WAI_ok);
    wai_ml_context *c[2];
    wai_ml_context_options o;
    wai_ml_context_options_default(&o);
    CHECK(wai_ml_create_context(ctx, &o, &c[0]) == WAI_ok);
    o.kernels = WAI_ML_KERNELS_REFERENCE;
    CHECK(wai_ml_create_context(ctx, &o, &c[1]) == WAI_ok);
    int bad = 0, n = 0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 300 && bad < 5; i++, n++) {
            conv_case k;
            pick(&k, t);
            char why[256] = "";
            int ok = run_case(c, &k, why, sizeof why);
            bad += !CHECK_MSG(ok, "%s case %d (c %u o %u g %u k %ux%u in %ux%u s %u,%u d %u,%u "
                                  "pad %u,%u,%u,%u layouts %d/%d%s): %s",
                              t ? "convTranspose2d" : "conv2d", i, k.c, k.o, k.groups, k.kh, k.kw,
                              k.h, k.w, k.stride[0], k.stride[1], k.dil[0], k.dil[1], k.pad[0],
                              k.pad[1], k.pad[2], k.pad[3], k.input_layout, k.filter_layout,
                              k.has_osz ? " outputSizes" : "", why);
        }
    printf("webnn kernels: %d random convolutions against float64 (oneDNN %s)\n", n,
           wai_ml_dnnl_available() ? "in the build" : "not in the build");
    wai_ml_context_destroy(c[0]);
    wai_ml_context_destroy(c[1]);
    wai_context_destroy(ctx);
}

void suite_webnn_kernels(void) {
    harness_run("webnn_kernels_random_convolutions", test_random_convolutions);
}
