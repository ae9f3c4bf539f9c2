/* The convolutions on oneDNN (Debian's libdnnl-dev, its C API): each
 * operator's primitive made at its first run and kept in the graph (op->
 * backend), in the layouts oneDNN prefers for it, with reorders from and to
 * the run's NCHW buffers; a constant filter is reordered once. A shape
 * oneDNN takes no primitive for is NotSupportedError, remembered, and runs
 * on the reference. oneDNN's CPU runtime here is OpenMP: the calling
 * thread's OpenMP thread count is set to the context's (omp_set_num_threads
 * acts on the caller's own data environment, not a global). oneDNN
 * allocates its own workspaces; what libwai keeps goes through the
 * context's allocator. */
#include <stdint.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#if defined(__linux__)
#include <dlfcn.h>
#endif

#include "common/alloc.h"
#include "webnn/ml.h"

typedef struct engine {
    dnnl_engine_t engine;
    dnnl_stream_t stream;
} engine;

typedef struct conv_state {
    int failed;                 /* no primitive for this shape: the reference runs */
    dnnl_primitive_t prim;
    /* user (plain) and primitive memories; the prim ones NULL where the
     * formats agree */
    dnnl_memory_t src_user, src_prim, wei_user, wei_prim, dst_user, dst_prim, bias;
    dnnl_primitive_t src_reorder, wei_reorder, dst_reorder;
    int weights_ready;          /* a constant filter already reordered */
} conv_state;

int wai_ml_dnnl_available(void) { return 1; }

int wai_ml_dnnl_op_runs(const void *backend) {
    const conv_state *s = backend;
    return s && !s->failed;
}

static engine *engine_of(wai_ml_context *c) {
    if (c->dnnl) return c->dnnl;
    engine *e = wai_alloc_zeroed(c->alloc, 1, sizeof *e);
    if (!e) return NULL;
    if (dnnl_engine_create(&e->engine, dnnl_cpu, 0) != dnnl_success ||
        dnnl_stream_create(&e->stream, e->engine, dnnl_stream_default_flags) != dnnl_success) {
        if (e->engine) dnnl_engine_destroy(e->engine);
        wai_free(c->alloc, e);
        return NULL;
    }
    c->dnnl = e;
    return e;
}

void wai_ml_dnnl_context_free(wai_ml_context *c) {
    engine *e = c->dnnl;
    if (!e) return;
    dnnl_stream_destroy(e->stream);
    dnnl_engine_destroy(e->engine);
    wai_free(c->alloc, e);
    c->dnnl = NULL;
}

void wai_ml_dnnl_op_free(const wai_allocator *alloc, void *backend) {
    conv_state *s = backend;
    if (!s) return;
    dnnl_primitive_t prims[] = {s->prim, s->src_reorder, s->wei_reorder, s->dst_reorder};
    dnnl_memory_t mems[] = {s->src_user, s->src_prim, s->wei_user, s->wei_prim,
                            s->dst_user, s->dst_prim, s->bias};
    for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
        if (prims[i]) dnnl_primitive_destroy(prims[i]);
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        if (mems[i]) dnnl_memory_destroy(mems[i]);
    wai_free(alloc, s);
}

/* The caller's OpenMP threads for oneDNN's parallel regions. */
static void set_threads(const wai_exec *ex) {
#if defined(__linux__)
    typedef void (*set_fn)(int);
    set_fn f = (set_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (f) f((int)wai_exec_threads(ex));
#else
    (void)ex;
#endif
}

/* A plain memory (user layout) and, where the primitive wants another
 * format, its own memory and the reorder between them (to: user -> prim;
 * else prim -> user). */
static int memories(engine *e, const dnnl_memory_desc_t *user_md, const dnnl_memory_desc_t *prim_md,
                    int to_prim, dnnl_memory_t *user, dnnl_memory_t *prim, dnnl_primitive_t *reorder) {
    if (dnnl_memory_create(user, user_md, e->engine, DNNL_MEMORY_NONE) != dnnl_success) return 0;
    if (dnnl_memory_desc_equal(user_md, prim_md)) return 1;
    if (dnnl_memory_create(prim, prim_md, e->engine, DNNL_MEMORY_ALLOCATE) != dnnl_success)
        return 0;
    dnnl_primitive_desc_t rpd;
    const dnnl_memory_desc_t *from = to_prim ? user_md : prim_md, *to = to_prim ? prim_md : user_md;
    if (dnnl_reorder_primitive_desc_create(&rpd, from, e->engine, to, e->engine, NULL) !=
        dnnl_success)
        return 0;
    dnnl_status_t st = dnnl_primitive_create(reorder, rpd);
    dnnl_primitive_desc_destroy(rpd);
    return st == dnnl_success;
}

/* The primitive of k's convolution (transposed or not), its memories and
 * reorders; 0 when oneDNN has none for it. */
static int make(engine *e, const wai_ml_kernel_args *k, int transposed, conv_state *s) {
    const wai_ml_conv_attrs *a = &k->op->a.conv;
    const uint32_t *xs = k->in_d[0]->shape, *ws = k->in_d[1]->shape, *ys = k->out_d->shape;
    const int64_t G = a->groups;
    dnnl_dims_t src = {xs[0], xs[1], xs[2], xs[3]}, dst = {ys[0], ys[1], ys[2], ys[3]};
    dnnl_dims_t wei;
    int wei_n;
    dnnl_format_tag_t wei_tag;
    /* The run's filter: OIHW [O, I/G, kh, kw] (conv2d) or IOHW [I, O/G, kh,
     * kw] (transposed); oneDNN's dims are (G,) O, I, kh, kw either way. */
    if (!transposed) {
        if (G == 1) {
            wei_n = 4, wei[0] = ws[0], wei[1] = ws[1], wei[2] = ws[2], wei[3] = ws[3];
            wei_tag = dnnl_oihw;
        } else {
            wei_n = 5, wei[0] = G, wei[1] = ws[0] / G, wei[2] = ws[1], wei[3] = ws[2], wei[4] = ws[3];
            wei_tag = dnnl_goihw;
        }
    } else {
        if (G == 1) {
            wei_n = 4, wei[0] = ws[1], wei[1] = ws[0], wei[2] = ws[2], wei[3] = ws[3];
            wei_tag = dnnl_iohw;
        } else {
            wei_n = 5, wei[0] = G, wei[1] = ws[1], wei[2] = ws[0] / G, wei[3] = ws[2], wei[4] = ws[3];
            wei_tag = dnnl_giohw;
        }
    }
    const int64_t kh = ws[2], kw = ws[3];
    dnnl_dims_t strides = {a->strides[0], a->strides[1]};
    dnnl_dims_t dil = {a->dilations[0] - 1, a->dilations[1] - 1};
    dnnl_dims_t pad_l = {a->padding[0], a->padding[2]}, pad_r;
    /* A convolution's ending padding is the option's (oneDNN floors as the
     * spec does); a transposed one's is what gives the builder's output
     * size (its outputPadding or outputSizes), which oneDNN takes only when
     * it is not negative. */
    for (int i = 0; i < 2; i++) {
        const int64_t in = xs[2 + i], out = ys[2 + i], kk = i ? kw : kh;
        const int64_t eff = (kk - 1) * a->dilations[i] + 1;
        pad_r[i] = transposed ? (in - 1) * a->strides[i] + eff - pad_l[i] - out
                              : a->padding[2 * i + 1];
        if (pad_r[i] < 0) return 0;
    }
    dnnl_memory_desc_t src_u, dst_u, wei_u, bias_md, src_any, dst_any, wei_any;
    dnnl_memory_desc_init_by_tag(&src_u, 4, src, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_init_by_tag(&dst_u, 4, dst, dnnl_f32, dnnl_nchw);
    dnnl_memory_desc_init_by_tag(&wei_u, wei_n, wei, dnnl_f32, wei_tag);
    dnnl_memory_desc_init_by_tag(&src_any, 4, src, dnnl_f32, dnnl_format_tag_any);
    dnnl_memory_desc_init_by_tag(&dst_any, 4, dst, dnnl_f32, dnnl_format_tag_any);
    dnnl_memory_desc_init_by_tag(&wei_any, wei_n, wei, dnnl_f32, dnnl_format_tag_any);
    dnnl_dims_t bias_dims = {ys[1]};
    dnnl_memory_desc_init_by_tag(&bias_md, 1, bias_dims, dnnl_f32, dnnl_a);
    const dnnl_memory_desc_t *bias = a->has_bias ? &bias_md : NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t st;
    if (transposed) {
        dnnl_deconvolution_desc_t d;
        st = dnnl_dilated_deconvolution_forward_desc_init(&d, dnnl_forward_inference,
                                                          dnnl_deconvolution_direct, &src_any,
                                                          &wei_any, bias, &dst_any, strides, dil,
                                                          pad_l, pad_r);
        if (st == dnnl_success) st = dnnl_primitive_desc_create(&pd, &d, NULL, e->engine, NULL);
    } else {
        dnnl_convolution_desc_t d;
        st = dnnl_dilated_convolution_forward_desc_init(&d, dnnl_forward_inference,
                                                        dnnl_convolution_direct, &src_any,
                                                        &wei_any, bias, &dst_any, strides, dil,
                                                        pad_l, pad_r);
        if (st == dnnl_success) st = dnnl_primitive_desc_create(&pd, &d, NULL, e->engine, NULL);
    }
    if (st != dnnl_success) return 0;
    const dnnl_memory_desc_t *src_p = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    const dnnl_memory_desc_t *wei_p = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    const dnnl_memory_desc_t *dst_p = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    int ok = dnnl_primitive_create(&s->prim, pd) == dnnl_success &&
             memories(e, &src_u, src_p, 1, &s->src_user, &s->src_prim, &s->src_reorder) &&
             memories(e, &wei_u, wei_p, 1, &s->wei_user, &s->wei_prim, &s->wei_reorder) &&
             memories(e, &dst_u, dst_p, 0, &s->dst_user, &s->dst_prim, &s->dst_reorder) &&
             (!a->has_bias ||
              dnnl_memory_create(&s->bias, &bias_md, e->engine, DNNL_MEMORY_NONE) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    return ok;
}

static int reorder(engine *e, dnnl_primitive_t r, dnnl_memory_t from, dnnl_memory_t to) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    return dnnl_primitive_execute(r, e->stream, 2, args) == dnnl_success;
}

static wai_status run(const wai_ml_kernel_args *k, int transposed) {
    engine *e = engine_of(k->context);
    if (!e) return WAI_NotSupportedError;
    conv_state *s = k->op->backend;
    if (!s) {
        if (!(s = wai_alloc_zeroed(k->context->alloc, 1, sizeof *s))) return WAI_out_of_memory;
        k->op->backend = s;
        if (!make(e, k, transposed, s)) s->failed = 1;
    }
    if (s->failed) return WAI_NotSupportedError;
    set_threads(k->exec);
    int ok = dnnl_memory_set_data_handle(s->src_user, (void *)(uintptr_t)k->in[0]) == dnnl_success &&
             dnnl_memory_set_data_handle(s->dst_user, k->out) == dnnl_success;
    if (ok && s->bias)
        ok = dnnl_memory_set_data_handle(s->bias, (void *)(uintptr_t)k->in[2]) == dnnl_success;
    if (ok && s->src_reorder) ok = reorder(e, s->src_reorder, s->src_user, s->src_prim);
    if (ok && (!s->weights_ready || !k->filter_constant)) {
        ok = dnnl_memory_set_data_handle(s->wei_user, (void *)(uintptr_t)k->in[1]) == dnnl_success;
        if (ok && s->wei_reorder) ok = reorder(e, s->wei_reorder, s->wei_user, s->wei_prim);
        s->weights_ready = ok && s->wei_reorder != NULL;
    }
    if (ok) {
        dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, s->src_prim ? s->src_prim : s->src_user},
                                   {DNNL_ARG_WEIGHTS, s->wei_prim ? s->wei_prim : s->wei_user},
                                   {DNNL_ARG_DST, s->dst_prim ? s->dst_prim : s->dst_user},
                                   {DNNL_ARG_BIAS, s->bias}};
        ok = dnnl_primitive_execute(s->prim, e->stream, s->bias ? 4 : 3, args) == dnnl_success;
    }
    if (ok && s->dst_reorder) ok = reorder(e, s->dst_reorder, s->dst_prim, s->dst_user);
    if (ok) ok = dnnl_stream_wait(e->stream) == dnnl_success;
    return ok ? WAI_ok : WAI_OperationError;
}

wai_status wai_ml_dnnl_conv2d(const wai_ml_kernel_args *k) { return run(k, 0); }

wai_status wai_ml_dnnl_conv_transpose2d(const wai_ml_kernel_args *k) { return run(k, 1); }
