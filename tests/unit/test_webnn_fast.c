/* SPDX-License-Identifier: BSD-2-Clause */
/* The native WebNN's fast paths against its reference: the element-wise
 * kernels bit for bit (specials included, over the worker pool), and the
 * run plan (src/webnn/run_plan.c): convolutions absorbing their epilogues,
 * activations kept in oneDNN's blocked layout, the arena's reuse, and the
 * reference convolution reading and writing blocked activations where
 * oneDNN takes no primitive. Graphs run on the best and the reference
 * kernels, and agree within float32's rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_ml.h"
#include "webnn/ml.h"

static uint64_t g_rng = 0x666173746e6e;

static float frnd(void) {
    return (float)((double)(harness_rand(&g_rng) >> 11) / 9007199254740992.0 * 2 - 1);
}

/* Random values, one in eight a special: zeros, infinities, NaN,
 * subnormals, the largest and smallest normals. */
static float value(void) {
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -3e-39f,
                                     3.4e38f, -1.17549435e-38f, 1.0f, -1.0f, 0.5f};
    uint64_t r = harness_rand(&g_rng);
    if (r % 8 == 0) return specials[(r >> 8) % (sizeof specials / sizeof *specials)];
    float m = frnd();
    return ldexpf(m, (int)((r >> 16) % 40) - 20);
}

static int same_bits(float a, float b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    uint32_t x, y;
    memcpy(&x, &a, 4), memcpy(&y, &b, 4);
    return x == y;
}

typedef struct fixture {
    wai_context *ctx;
    wai_ml_context *best, *ref;
} fixture;

static int open_fixture(fixture *f, unsigned threads) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads;
    memset(f, 0, sizeof *f);
    if (wai_context_create(&s, &f->ctx) != WAI_ok) return 0;
    wai_ml_context_options o;
    wai_ml_context_options_default(&o);
    if (wai_ml_create_context(f->ctx, &o, &f->best) != WAI_ok) return 0;
    o.kernels = WAI_ML_KERNELS_REFERENCE;
    return wai_ml_create_context(f->ctx, &o, &f->ref) == WAI_ok;
}

static void close_fixture(fixture *f) {
    if (f->best) wai_ml_context_destroy(f->best);
    if (f->ref) wai_ml_context_destroy(f->ref);
    if (f->ctx) wai_context_destroy(f->ctx);
}

/* ---- element-wise kernels, bit for bit ------------------------------------------ */

/* One operator on n values (a or b of one value where *_one), through the
 * fast kernel and the reference; every output bit the same. */
static int elementwise_case(const wai_ml_context *c, const wai_ml_op *op, size_t n, int a_one,
                            int b_one, const char *what) {
    const int binary = op->kind == WAI_ML_OP_BINARY;
    float *a = malloc(4 * n), *b = malloc(4 * n), *fast = malloc(4 * n), *ref = malloc(4 * n);
    for (size_t i = 0; i < n; i++) a[i] = value(), b[i] = value();
    wai_ml_operand_descriptor out = {WAI_ML_FLOAT32, 2, {2, (uint32_t)(n / 2)}};
    wai_ml_operand_descriptor one = {WAI_ML_FLOAT32, 1, {1}};
    const wai_ml_operand_descriptor *ds[2] = {a_one ? &one : &out, b_one ? &one : &out};
    const float *in[2] = {a, b};
    wai_ml_kernel_args k = {(wai_ml_context *)c, (wai_ml_op *)op, 0, in, ds, fast, &out, &c->exec,
                            0, 0, NULL, NULL, 0, NULL, NULL};
    int took = binary ? wai_ml_fast_binary(&k) : wai_ml_fast_unary(&k);
    k.out = ref;
    if (binary) wai_ml_ref_binary(&k);
    else wai_ml_ref_unary(&k);
    size_t bad = n;
    for (size_t i = 0; took && i < n && bad == n; i++)
        if (!same_bits(fast[i], ref[i])) bad = i;
    int ok = CHECK_MSG(took, "%s: the fast kernel did not take it", what) &&
             CHECK_MSG(bad == n, "%s: value %zu: fast %.9g, reference %.9g (a %.9g, b %.9g)", what,
                       bad, bad < n ? fast[bad] : 0, bad < n ? ref[bad] : 0,
                       bad < n ? a[a_one ? 0 : bad] : 0, bad < n ? b[b_one ? 0 : bad] : 0);
    free(a), free(b), free(fast), free(ref);
    return ok;
}

static void test_elementwise_bits(void) {
    fixture f;
    if (!CHECK(open_fixture(&f, 2))) return close_fixture(&f);
    /* 2 * 20000 values: more than one share, so both threads compute. */
    const size_t n = 40000;
    static const struct { int sub; const char *name; } bin[] = {
        {WAI_ML_ADD, "add"}, {WAI_ML_SUB, "sub"}, {WAI_ML_MUL, "mul"},
        {WAI_ML_DIV, "div"}, {WAI_ML_MAX, "max"}, {WAI_ML_MIN, "min"}};
    for (size_t i = 0; i < sizeof bin / sizeof *bin; i++)
        for (int form = 0; form < 3; form++) {
            wai_ml_op op = {0};
            op.kind = WAI_ML_OP_BINARY, op.sub = bin[i].sub;
            char what[64];
            snprintf(what, sizeof what, "%s (%s)", bin[i].name,
                     form == 0 ? "same shape" : form == 1 ? "a one value" : "b one value");
            elementwise_case(f.best, &op, n, form == 1, form == 2, what);
        }
    static const struct { int sub; const char *name; } un[] = {
        {WAI_ML_ABS, "abs"}, {WAI_ML_NEG, "neg"}, {WAI_ML_SQRT, "sqrt"},
        {WAI_ML_RELU, "relu"}, {WAI_ML_IDENTITY, "identity"}};
    for (size_t i = 0; i < sizeof un / sizeof *un; i++) {
        wai_ml_op op = {0};
        op.kind = WAI_ML_OP_UNARY, op.sub = un[i].sub;
        elementwise_case(f.best, &op, n, 0, 0, un[i].name);
    }
    wai_ml_op leaky = {0};
    leaky.kind = WAI_ML_OP_LEAKY_RELU, leaky.a.alpha = 0.01f;
    elementwise_case(f.best, &leaky, n, 0, 0, "leakyRelu");
    wai_ml_op clamp = {0};
    clamp.kind = WAI_ML_OP_CLAMP, clamp.a.clamp.lo = -0.25f, clamp.a.clamp.hi = 3.0f;
    elementwise_case(f.best, &clamp, n, 0, 0, "clamp");
    /* What the fast kernels leave to the reference. */
    wai_ml_op pw = {0}, ex = {0};
    pw.kind = WAI_ML_OP_BINARY, pw.sub = WAI_ML_POW;
    ex.kind = WAI_ML_OP_UNARY, ex.sub = WAI_ML_EXP;
    wai_ml_operand_descriptor d = {WAI_ML_FLOAT32, 1, {4}}, d2 = {WAI_ML_FLOAT32, 2, {2, 2}};
    wai_ml_operand_descriptor col = {WAI_ML_FLOAT32, 2, {2, 1}};
    float v[4] = {1, 2, 3, 4}, o[4];
    const float *in[2] = {v, v};
    const wai_ml_operand_descriptor *ds[2] = {&d, &d}, *bc[2] = {&d2, &col};
    wai_ml_kernel_args k = {f.best, &pw, 0, in, ds, o, &d, &f.best->exec, 0, 0, NULL, NULL, 0, NULL, NULL};
    CHECK(!wai_ml_fast_binary(&k));
    k.op = &ex;
    CHECK(!wai_ml_fast_unary(&k));
    wai_ml_op add = {0};
    add.kind = WAI_ML_OP_BINARY, add.sub = WAI_ML_ADD;
    k.op = &add, k.in_d = bc, k.out_d = &d2;
    CHECK(!wai_ml_fast_binary(&k)); /* a broadcast column reads positions */
    close_fixture(&f);
}

/* ---- graphs --------------------------------------------------------------------- */

static wai_ml_operand *constant(wai_ml_graph_builder *b, uint32_t rank, const uint32_t *shape,
                                float scale, float offset) {
    wai_ml_operand_descriptor d = {WAI_ML_FLOAT32, rank, {0}};
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++) d.shape[i] = shape[i], n *= shape[i];
    float *v = malloc(4 * n);
    for (size_t i = 0; i < n; i++) v[i] = offset + scale * frnd();
    wai_ml_operand *o = NULL;
    if (wai_ml_constant(b, &d, v, 4 * n, &o) != WAI_ok) o = NULL;
    free(v);
    return o;
}

/* conv2d of kernel k x k, "same" padding, with bias. */
static wai_ml_operand *conv(wai_ml_graph_builder *b, const wai_ml_operand *x, uint32_t cin,
                            uint32_t cout, uint32_t k, float scale) {
    const uint32_t ws[4] = {cout, cin, k, k}, bs[1] = {cout}, p = k / 2;
    const uint32_t pad[4] = {p, p, p, p};
    wai_ml_conv2d_options o;
    wai_ml_conv2d_options_default(&o);
    o.padding = pad, o.padding_size = 4;
    o.bias = constant(b, 1, bs, 0.1f, 0.0f);
    wai_ml_operand *y = NULL;
    if (wai_ml_conv2d(b, x, constant(b, 4, ws, scale, 0.0f), &o, &y) != WAI_ok) return NULL;
    return y;
}

/* bmshj2018's transposed convolution: 5 x 5, stride 2, padding 2, output
 * padding 1 (or padding 0 with output padding 1: oneDNN has no primitive
 * for an ending padding below zero, so the reference runs it). */
static wai_ml_operand *deconv(wai_ml_graph_builder *b, const wai_ml_operand *x, uint32_t cin,
                              uint32_t cout, int unpadded) {
    const uint32_t ws[4] = {cin, cout, 5, 5}, bs[1] = {cout};
    const uint32_t pad[4] = {2, 2, 2, 2}, none[4] = {0, 0, 0, 0}, st[2] = {2, 2}, op[2] = {1, 1};
    wai_ml_conv_transpose2d_options o;
    wai_ml_conv_transpose2d_options_default(&o);
    o.padding = unpadded ? none : pad, o.padding_size = 4, o.strides = st, o.strides_size = 2;
    o.output_padding = op, o.output_padding_size = 2;
    o.bias = constant(b, 1, bs, 0.1f, 0.0f);
    wai_ml_operand *y = NULL;
    if (wai_ml_conv_transpose2d(b, x, constant(b, 4, ws, 0.05f, 0.0f), &o, &y) != WAI_ok)
        return NULL;
    return y;
}

static wai_ml_operand *binary(wai_ml_graph_builder *b, wai_ml_binary_op op, const wai_ml_operand *x,
                              const wai_ml_operand *y) {
    wai_ml_operand *o = NULL;
    return wai_ml_binary(b, op, x, y, NULL, &o) == WAI_ok ? o : NULL;
}

static wai_ml_operand *unary(wai_ml_graph_builder *b, wai_ml_unary_op op, const wai_ml_operand *x) {
    wai_ml_operand *o = NULL;
    return wai_ml_unary(b, op, x, NULL, &o) == WAI_ok ? o : NULL;
}

/* The inverse GDN as the set tool writes it: x * sqrt(conv1x1(x * x)). */
static wai_ml_operand *igdn(wai_ml_graph_builder *b, const wai_ml_operand *x, uint32_t ch) {
    const uint32_t gs[4] = {ch, ch, 1, 1}, bs[1] = {ch};
    wai_ml_conv2d_options o;
    wai_ml_conv2d_options_default(&o);
    o.bias = constant(b, 1, bs, 0.1f, 1.0f);
    wai_ml_operand *n = NULL;
    if (wai_ml_conv2d(b, binary(b, WAI_ML_MUL, x, x), constant(b, 4, gs, 0.05f, 0.06f), &o, &n) !=
        WAI_ok)
        return NULL;
    return binary(b, WAI_ML_MUL, x, unary(b, WAI_ML_SQRT, n));
}

/* A graph of one input "x" of shape xs, made by make(), on both contexts:
 * the best kernels' graph (kept in *best_graph for the caller's checks of
 * its plan; destroyed by close) and the outputs within float32 rounding of
 * the reference's. */
typedef wai_ml_operand *(*make_fn)(wai_ml_graph_builder *b, wai_ml_operand *x);

typedef struct ran {
    wai_ml_graph *graph; /* the best kernels' */
    size_t n_out;
    int ok;
} ran;

static ran run_both_named(fixture *f, const wai_ml_operand_descriptor *xd, make_fn make, int reps,
                          const char *name) {
    ran r = {NULL, 0, 1};
    size_t nx = (size_t)wai_ml_elements(xd);
    float *x = malloc(4 * nx), *outs[2] = {NULL, NULL};
    for (size_t i = 0; i < nx; i++) x[i] = frnd();
    for (int kk = 0; kk < 2 && r.ok; kk++) {
        wai_ml_context *c = kk ? f->ref : f->best;
        uint64_t keep = g_rng; /* the same constants in both graphs */
        wai_ml_graph_builder *b;
        wai_ml_operand *xi = NULL, *y = NULL;
        if (!CHECK(wai_ml_graph_builder_create(c, &b) == WAI_ok)) return r.ok = 0, r;
        if (wai_ml_input(b, "x", xd, &xi) == WAI_ok) y = make(b, xi);
        wai_ml_named_operand out[1] = {{"y", y}};
        wai_ml_graph *g = NULL;
        r.ok = CHECK_MSG(y && wai_ml_build(b, out, 1, &g) == WAI_ok, "build: %s",
                         wai_ml_error_message(c));
        wai_ml_graph_builder_destroy(b);
        if (kk == 0) g_rng = keep;
        if (!r.ok) break;
        const wai_ml_operand_descriptor *yd;
        wai_ml_graph_output_at(g, 0, &yd);
        r.n_out = (size_t)wai_ml_elements(yd);
        outs[kk] = malloc(4 * r.n_out);
        wai_ml_tensor *tx = NULL, *ty = NULL;
        wai_ml_tensor_descriptor txd = {*xd, 0, 1}, tyd = {*yd, 1, 0};
        wai_status st = wai_ml_create_tensor(c, &txd, &tx);
        if (st == WAI_ok) st = wai_ml_create_tensor(c, &tyd, &ty);
        if (st == WAI_ok) st = wai_ml_write_tensor(c, tx, x, 4 * nx);
        wai_ml_named_tensor in[1] = {{"x", tx}}, o[1] = {{"y", ty}};
        for (int i = 0; i < reps && st == WAI_ok; i++) {
            st = wai_ml_dispatch(c, g, in, 1, o, 1);
            float *again = i ? malloc(4 * r.n_out) : outs[kk];
            if (st == WAI_ok) st = wai_ml_read_tensor(c, ty, again, 4 * r.n_out);
            if (i) {
                r.ok &= CHECK_MSG(memcmp(again, outs[kk], 4 * r.n_out) == 0,
                                  "run %d of a graph differs from its first", i + 1);
                free(again);
            }
        }
        r.ok &= CHECK_MSG(st == WAI_ok, "run: %s: %s", wai_status_name(st), wai_ml_error_message(c));
        wai_ml_tensor_destroy(tx), wai_ml_tensor_destroy(ty);
        if (kk == 0) r.graph = g;
        else wai_ml_graph_destroy(g);
    }
    for (size_t i = 0; r.ok && i < r.n_out; i++) {
        const double a = outs[0][i], e = outs[1][i];
        if (!(fabs(a - e) <= 1e-4 * (1 + fabs(e)))) {
            r.ok = CHECK_MSG(0, "%s: output %zu: best %.9g, reference %.9g", name, i, a, e);
        }
    }
    free(x), free(outs[0]), free(outs[1]);
    return r;
}

#define run_both(f, xd, make, reps) run_both_named(f, xd, make, reps, #make)

/* Operand ids of a graph's operators, in order, for the plan's checks. */
static const wai_ml_op *op_at(const wai_ml_graph *g, uint32_t i) {
    return i < g->n_ops ? &g->ops[i] : NULL;
}

static int fast_kernels(void) { return wai_ml_dnnl_available(); }

/* The synthesis shape in small: deconv, IGDN, deconv, IGDN, deconv to 3. */
static wai_ml_operand *make_synthesis(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *t = igdn(b, deconv(b, x, 32, 32, 0), 32);
    t = igdn(b, deconv(b, t, 32, 32, 0), 32);
    return deconv(b, t, 32, 3, 0);
}

static void test_plan_synthesis(void) {
    fixture f;
    if (!CHECK(open_fixture(&f, 2))) return close_fixture(&f);
    const wai_ml_operand_descriptor xd = {WAI_ML_FLOAT32, 4, {1, 32, 5, 7}};
    ran r = run_both(&f, &xd, make_synthesis, 2);
    const wai_ml_graph *g = r.graph;
    if (r.ok && g) {
        /* deconv, mul, conv, [sqrt, mul], deconv, mul, conv, [sqrt, mul], deconv */
        CHECK(g->n_ops == 11);
        const int fast = fast_kernels();
        for (uint32_t i = 0; i < g->n_ops; i++) {
            const wai_ml_op *op = op_at(g, i);
            const int absorbed = i == 3 || i == 4 || i == 8 || i == 9;
            CHECK_MSG(op->fused_away == (fast && absorbed), "op %u fused_away %d", i,
                      op->fused_away);
        }
        if (fast) {
            const wai_ml_op *gamma = op_at(g, 2);
            CHECK(gamma->n_epilogue == 2 && gamma->result == op_at(g, 4)->output);
            CHECK_MSG(wai_ml_dnnl_op_fused(gamma->backend), "oneDNN took the epilogue as post-ops");
            /* Every activation between the input and the output blocked. */
            CHECK(g->block == 8 || g->block == 16);
            for (uint32_t i = 0; i + 1 < g->n_ops; i++) {
                const wai_ml_op *op = op_at(g, i);
                if (!op->fused_away)
                    CHECK_MSG(g->blocked[op->result], "op %u's result is blocked", i);
            }
            CHECK(!g->blocked[op_at(g, 10)->output]);
        } else {
            for (uint32_t i = 0; i < g->n_operands; i++) CHECK(!g->blocked[i]);
        }
    }
    close_fixture(&f);
}

/* What keeps a convolution's readers out of its epilogue, and groups out
 * of the blocked layout. */
static wai_ml_operand *make_two_readers(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *c = conv(b, x, 16, 16, 3, 0.1f);
    return binary(b, WAI_ML_ADD, unary(b, WAI_ML_RELU, c), unary(b, WAI_ML_ABS, c));
}

static wai_ml_operand *make_late_operand(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *c = conv(b, x, 16, 16, 3, 0.1f);
    wai_ml_operand *late = unary(b, WAI_ML_RELU, x); /* made after the convolution */
    return binary(b, WAI_ML_ADD, c, late);
}

static wai_ml_operand *make_sub_second(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *c = conv(b, x, 16, 16, 3, 0.1f);
    return binary(b, WAI_ML_SUB, x, c); /* x - conv: the value is not first */
}

static wai_ml_operand *make_broadcast(wai_ml_graph_builder *b, wai_ml_operand *x) {
    const uint32_t s[4] = {1, 16, 1, 1};
    return binary(b, WAI_ML_MUL, conv(b, x, 16, 16, 3, 0.1f), constant(b, 4, s, 1.0f, 0.0f));
}

static wai_ml_operand *make_chain(wai_ml_graph_builder *b, wai_ml_operand *x) {
    /* p = conv(x); conv(p), then relu, add p, clamp, relu: four absorbed;
     * the abs after them is past the chain's limit, and leakyRelu is never
     * absorbed (docs/webnn.md, "Fast paths"). */
    wai_ml_operand *p = conv(b, x, 16, 16, 1, 0.3f);
    wai_ml_operand *c = unary(b, WAI_ML_RELU, conv(b, p, 16, 16, 3, 0.2f));
    c = binary(b, WAI_ML_ADD, p, c);
    wai_ml_clamp_options co = {1, -0.5, 1, 0.75, NULL};
    wai_ml_operand *cl = NULL, *lr = NULL;
    if (wai_ml_clamp(b, c, &co, &cl) != WAI_ok) return NULL;
    c = unary(b, WAI_ML_ABS, unary(b, WAI_ML_RELU, cl));
    wai_ml_leaky_relu_options lo = {0.125, NULL};
    if (wai_ml_leaky_relu(b, c, &lo, &lr) != WAI_ok) return NULL;
    return conv(b, lr, 16, 16, 1, 0.2f);
}

static wai_ml_operand *make_reshape(wai_ml_graph_builder *b, wai_ml_operand *x) {
    const uint32_t s[4] = {1, 16, 12, 8};
    wai_ml_operand *r = NULL, *c = conv(b, x, 16, 16, 3, 0.1f);
    if (wai_ml_reshape(b, unary(b, WAI_ML_SQRT, unary(b, WAI_ML_ABS, c)), s, 4, NULL, &r) !=
        WAI_ok)
        return NULL;
    return conv(b, r, 16, 16, 1, 0.1f);
}

static wai_ml_operand *make_odd_channels(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *c = conv(b, x, 16, 12, 3, 0.1f); /* blocks of 8 or 16 do not divide 12 */
    return conv(b, binary(b, WAI_ML_MUL, c, c), 12, 16, 1, 0.1f);
}

static void test_plan_rules(void) {
    fixture f;
    if (!CHECK(open_fixture(&f, 1))) return close_fixture(&f);
    const wai_ml_operand_descriptor xd = {WAI_ML_FLOAT32, 4, {1, 16, 8, 12}};
    const int fast = fast_kernels();
    ran r = run_both(&f, &xd, make_two_readers, 1);
    if (r.ok) CHECK_MSG(r.graph->ops[0].n_epilogue == 0, "a value read twice stays");
    r = run_both(&f, &xd, make_late_operand, 1);
    if (r.ok) CHECK_MSG(r.graph->ops[0].n_epilogue == 0, "an operand made later stays");
    r = run_both(&f, &xd, make_sub_second, 1);
    if (r.ok) CHECK_MSG(r.graph->ops[0].n_epilogue == 0, "x - conv stays");
    r = run_both(&f, &xd, make_broadcast, 1);
    if (r.ok) CHECK_MSG(r.graph->ops[0].n_epilogue == 0, "a broadcast operand stays");
    r = run_both(&f, &xd, make_chain, 1);
    if (r.ok && fast) {
        const wai_ml_graph *g = r.graph;
        CHECK_MSG(g->ops[1].n_epilogue == 4, "four absorbed, not %u", g->ops[1].n_epilogue);
        CHECK(!g->ops[6].fused_away && !g->ops[7].fused_away);
        CHECK(wai_ml_dnnl_op_fused(g->ops[1].backend));
        CHECK(g->blocked[g->ops[0].output] && g->blocked[g->ops[1].result] &&
              g->blocked[g->ops[7].output]);
    }
    r = run_both(&f, &xd, make_reshape, 1);
    if (r.ok && fast) {
        const wai_ml_graph *g = r.graph;
        CHECK(g->ops[0].n_epilogue == 2);
        CHECK_MSG(!g->blocked[g->ops[0].result], "a reshape's input is plain");
    }
    r = run_both(&f, &xd, make_odd_channels, 1);
    if (r.ok) CHECK_MSG(!r.graph->blocked[r.graph->ops[0].output], "12 channels stay plain");
    close_fixture(&f);
}

/* A transposed convolution oneDNN takes no primitive for (an output padding
 * past its ending padding), between blocked activations and with an
 * absorbed relu: the reference runs it on NCHW copies, then the epilogue. */
static wai_ml_operand *make_fallback(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *c = unary(b, WAI_ML_RELU, conv(b, x, 16, 16, 1, 0.3f));
    c = unary(b, WAI_ML_RELU, deconv(b, c, 16, 16, 1));
    return conv(b, c, 16, 16, 1, 0.3f);
}

static void test_plan_fallback(void) {
    fixture f;
    if (!CHECK(open_fixture(&f, 2))) return close_fixture(&f);
    const wai_ml_operand_descriptor xd = {WAI_ML_FLOAT32, 4, {1, 16, 6, 5}};
    ran r = run_both(&f, &xd, make_fallback, 2);
    if (r.ok && fast_kernels()) {
        const wai_ml_graph *g = r.graph;
        const wai_ml_op *dc = &g->ops[2];
        CHECK(dc->kind == WAI_ML_OP_CONV_TRANSPOSE2D && dc->n_epilogue == 1);
        CHECK_MSG(!wai_ml_dnnl_op_runs(dc->backend), "the reference ran the transposed one");
        CHECK(g->blocked[dc->result] && g->blocked[dc->inputs[0]]);
    }
    close_fixture(&f);
}

/* Blocked layouts both ways, and the arena reusing what is dead. */
static wai_ml_operand *make_relus(wai_ml_graph_builder *b, wai_ml_operand *x) {
    wai_ml_operand *v = x;
    for (int i = 0; i < 6 && v; i++) v = unary(b, i % 2 ? WAI_ML_ABS : WAI_ML_RELU, v);
    return v;
}

static void test_layout_and_arena(void) {
    const wai_ml_operand_descriptor d = {WAI_ML_FLOAT32, 4, {2, 32, 3, 5}};
    const size_t n = 2 * 32 * 3 * 5;
    float in[2 * 32 * 3 * 5], bl[2 * 32 * 3 * 5], back[2 * 32 * 3 * 5];
    for (size_t i = 0; i < n; i++) in[i] = (float)i;
    for (uint32_t B = 8; B <= 16; B += 8) {
        wai_ml_to_blocked(in, &d, B, bl);
        /* (n 1, c 21, h 2, w 3): block 21 / B, lane 21 % B. */
        const size_t plain = ((1 * 32 + 21) * 3 + 2) * 5 + 3;
        const size_t at = ((1 * (32 / B) + 21 / B) * 15 + 2 * 5 + 3) * B + 21 % B;
        CHECK(bl[at] == in[plain]);
        wai_ml_from_blocked(bl, &d, B, back);
        CHECK(memcmp(in, back, sizeof in) == 0);
    }
    fixture f;
    if (!CHECK(open_fixture(&f, 1))) return close_fixture(&f);
    const wai_ml_operand_descriptor xd = {WAI_ML_FLOAT32, 4, {1, 16, 32, 32}};
    ran r = run_both(&f, &xd, make_relus, 3);
    if (r.ok) {
        /* Six values of 16384 floats, two alive at a time. */
        CHECK_MSG(r.graph->arena_floats <= 2 * 16384, "arena of %zu floats",
                  r.graph->arena_floats);
    }
    close_fixture(&f);
}

void suite_webnn_fast(void) {
    harness_run("webnn_fast_elementwise_bits", test_elementwise_bits);
    harness_run("webnn_plan_synthesis", test_plan_synthesis);
    harness_run("webnn_plan_rules", test_plan_rules);
    harness_run("webnn_plan_fallback", test_plan_fallback);
    harness_run("webnn_layout_and_arena", test_layout_and_arena);
}
