/* SPDX-License-Identifier: BSD-2-Clause */
/* The convolutions on oneDNN (Debian's libdnnl-dev, its C API): each
 * operator's primitive made at its first run and kept in the graph (op->
 * backend), in the layouts oneDNN prefers for it, with reorders from and to
 * the run's NCHW buffers; a constant filter is reordered once. A shape
 * oneDNN takes no primitive for is NotSupportedError, remembered, and runs
 * on the reference. oneDNN's CPU runtime here is OpenMP: the calling
 * thread's OpenMP thread count is set to the context's (omp_set_num_threads
 * acts on the caller's own data environment, not a global). The memories
 * in the primitive's layouts and the scratchpads (oneDNN's user mode) are
 * libwai's, counted in the graph's held bytes before they are allocated
 * (its limit: a decode's max_memory): a reordered filter kept with its op,
 * the rest in the graph's scratch, which its operators share in turn.
 * What oneDNN still allocates itself is its primitives and their code. */
#include <stdint.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#if defined(__linux__)
#include <dlfcn.h>
#endif

#include "common/alloc.h"
#include "webnn/dnnl_deconv_gemm.h"
#include "webnn/ml.h"

typedef struct engine {
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    uint32_t block; /* nChw{block}c, once asked (block_of) */
    int block_asked;
} engine;

typedef struct conv_state {
    int failed;                 /* no primitive for this shape: the reference runs */
    dnnl_primitive_t prim;
    /* user (plain) and primitive memories; the prim ones NULL where the
     * formats agree */
    dnnl_memory_t src_user, src_prim, wei_user, wei_prim, dst_user, dst_prim, bias;
    dnnl_primitive_t src_reorder, wei_reorder, dst_reorder;
    int weights_ready;          /* a constant filter already reordered */
    int fused;                  /* the epilogue runs as post-ops */
    dnnl_memory_t others[WAI_ML_MAX_EPILOGUE]; /* binary post-ops' second operands */
    int other_arg[WAI_ML_MAX_EPILOGUE];
    int gemm;                   /* a transposed one of few outputs: sgemm and scatter */
    int made;                   /* the primitive and its memories are made (make) */
    wai_ml_block filter; /* in the primitive's layout, kept between runs */
    /* In the graph's scratch, from these offsets for a run: the src and
     * dst in the primitive's layouts, and one scratchpad that the
     * convolution and its reorders share (they run in turn), seen by each
     * through a memory of its own descriptor (pad[0] the convolution's,
     * pad[1..3] the src, weights and dst reorders'). */
    size_t src_at, dst_at, pad_at, scratch_bytes;
    dnnl_memory_t pad[4];
} conv_state;

int wai_ml_dnnl_available(void) { return 1; }

int wai_ml_dnnl_op_runs(const void *backend) {
    const conv_state *s = backend;
    return s && !s->failed;
}

int wai_ml_dnnl_op_fused(const void *backend) {
    const conv_state *s = backend;
    return s && !s->failed && s->fused;
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

/* Undoes make: oneDNN's objects and libwai's buffers go, and the graph
 * (where one is given) stops counting them. */
static void unmake(const wai_allocator *alloc, wai_ml_graph *g, conv_state *s) {
    dnnl_primitive_t prims[] = {s->prim, s->src_reorder, s->wei_reorder, s->dst_reorder};
    dnnl_memory_t mems[] = {s->src_user, s->src_prim, s->wei_user, s->wei_prim, s->dst_user,
                            s->dst_prim, s->bias, s->pad[0], s->pad[1], s->pad[2], s->pad[3]};
    for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
        if (prims[i]) dnnl_primitive_destroy(prims[i]);
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        if (mems[i]) dnnl_memory_destroy(mems[i]);
    for (int i = 0; i < WAI_ML_MAX_EPILOGUE; i++)
        if (s->others[i]) dnnl_memory_destroy(s->others[i]);
    wai_ml_graph_drop(g, alloc, &s->filter);
    const int gemm = s->gemm;
    memset(s, 0, sizeof *s);
    s->gemm = gemm;
}

void wai_ml_dnnl_op_free(const wai_allocator *alloc, void *backend) {
    conv_state *s = backend;
    if (!s) return;
    unmake(alloc, NULL, s);
    wai_free(alloc, s);
}

/* An attribute asking for the scratchpad in user mode (libwai allocates
 * it); NULL when oneDNN makes none. */
static dnnl_primitive_attr_t user_pad_attr(void) {
    dnnl_primitive_attr_t attr;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success) return NULL;
    if (dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success) {
        dnnl_primitive_attr_destroy(attr);
        return NULL;
    }
    return attr;
}

/* The scratchpad descriptor a primitive descriptor asks for (of size 0
 * where it needs none). */
static dnnl_memory_desc_t pad_md_of(const_dnnl_primitive_desc_t pd) {
    dnnl_memory_desc_t md;
    const dnnl_memory_desc_t *q = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    if (q) md = *q;
    else memset(&md, 0, sizeof md);
    return md;
}

/* The caller's OpenMP threads for oneDNN's parallel regions. */
static void set_threads(const wai_ml_exec *ex) {
#if defined(__linux__)
    typedef void (*set_fn)(int);
    set_fn f = (set_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (f) f((int)wai_ml_threads(ex));
#else
    (void)ex;
#endif
}

/* Operand i's (0 src, 1 weights, 2 dst) memories: a plain one (user
 * layout) and, where the primitive wants another format, its own memory
 * (the filter's in a buffer of its own, src's and dst's in the graph's
 * scratch at each run: *bytes their size, NULL for the filter) and the
 * reorder between them (src and weights: user -> prim; dst: prim ->
 * user), whose scratchpad descriptor goes to *pad. */
static wai_status memories(engine *e, const wai_ml_kernel_args *k, conv_state *s, int i,
                           const dnnl_memory_desc_t *user_md, const dnnl_memory_desc_t *prim_md,
                           dnnl_memory_desc_t *pad, size_t *bytes) {
    dnnl_memory_t *user = i == 0 ? &s->src_user : i == 1 ? &s->wei_user : &s->dst_user;
    dnnl_memory_t *prim = i == 0 ? &s->src_prim : i == 1 ? &s->wei_prim : &s->dst_prim;
    dnnl_primitive_t *reorder = i == 0 ? &s->src_reorder : i == 1 ? &s->wei_reorder : &s->dst_reorder;
    if (dnnl_memory_create(user, user_md, e->engine, DNNL_MEMORY_NONE) != dnnl_success)
        return WAI_NotSupportedError;
    if (dnnl_memory_desc_equal(user_md, prim_md)) return WAI_ok;
    wai_status st = WAI_ok;
    void *data = DNNL_MEMORY_NONE;
    if (i == 1) {
        if ((st = wai_ml_graph_keep(k->graph, k->context->alloc, dnnl_memory_desc_get_size(prim_md),
                                    &s->filter)) != WAI_ok)
            return st;
        data = s->filter.at;
    } else {
        *bytes = dnnl_memory_desc_get_size(prim_md);
    }
    if (dnnl_memory_create(prim, prim_md, e->engine, data) != dnnl_success)
        return WAI_NotSupportedError;
    dnnl_primitive_desc_t rpd;
    const dnnl_memory_desc_t *from = i < 2 ? user_md : prim_md, *to = i < 2 ? prim_md : user_md;
    dnnl_primitive_attr_t attr = user_pad_attr();
    if (!attr) return WAI_NotSupportedError;
    dnnl_status_t ds = dnnl_reorder_primitive_desc_create(&rpd, from, e->engine, to, e->engine, attr);
    dnnl_primitive_attr_destroy(attr);
    if (ds != dnnl_success) return WAI_NotSupportedError;
    *pad = pad_md_of(rpd);
    ds = dnnl_primitive_create(reorder, rpd);
    dnnl_primitive_desc_destroy(rpd);
    return ds == dnnl_success ? WAI_ok : WAI_NotSupportedError;
}

/* Bytes rounded up to oneDNN's 64-byte alignment; 0 past SIZE_MAX. */
static size_t aligned(size_t bytes) { return bytes > SIZE_MAX - 63 ? 0 : (bytes + 63) & ~(size_t)63; }

/* The op's part of the graph's scratch: src and dst in the primitive's
 * layouts (src_bytes, dst_bytes) and the largest scratchpad its
 * primitives ask for, with a memory for each that asks; the scratch grown
 * to it now, so a limit it passes stops the first run here. */
static wai_status scratch_plan(engine *e, const wai_ml_kernel_args *k, conv_state *s,
                               size_t src_bytes, size_t dst_bytes, const dnnl_memory_desc_t pads[4]) {
    size_t pad = 0;
    for (int i = 0; i < 4; i++)
        if (dnnl_memory_desc_get_size(&pads[i]) > pad) pad = dnnl_memory_desc_get_size(&pads[i]);
    const size_t a = aligned(src_bytes), b = aligned(dst_bytes);
    if ((src_bytes && !a) || (dst_bytes && !b) || b > SIZE_MAX - a || pad > SIZE_MAX - a - b)
        return WAI_cost_over_limit;
    s->src_at = 0, s->dst_at = a, s->pad_at = a + b, s->scratch_bytes = a + b + pad;
    for (int i = 0; i < 4; i++)
        if (dnnl_memory_desc_get_size(&pads[i]) &&
            dnnl_memory_create(&s->pad[i], &pads[i], e->engine, DNNL_MEMORY_NONE) != dnnl_success)
            return WAI_NotSupportedError;
    wai_status st = WAI_ok;
    return !s->scratch_bytes || wai_ml_graph_scratch(k->graph, s->scratch_bytes, &st) ? WAI_ok : st;
}

/* Points the op's memories in the graph's scratch at it for this run. */
static wai_status scratch_bind(const wai_ml_kernel_args *k, conv_state *s) {
    if (!s->scratch_bytes) return WAI_ok;
    wai_status st = WAI_ok;
    char *base = wai_ml_graph_scratch(k->graph, s->scratch_bytes, &st);
    if (!base) return st;
    int ok = 1;
    if (s->src_prim) ok &= dnnl_memory_set_data_handle(s->src_prim, base + s->src_at) == dnnl_success;
    if (s->dst_prim) ok &= dnnl_memory_set_data_handle(s->dst_prim, base + s->dst_at) == dnnl_success;
    for (int i = 0; i < 4; i++)
        if (s->pad[i])
            ok &= dnnl_memory_set_data_handle(s->pad[i], base + s->pad_at) == dnnl_success;
    return ok ? WAI_ok : WAI_OperationError;
}

/* An activation's memory descriptor: NCHW, or nChw{B}c. */
static void activation_md(dnnl_memory_desc_t *md, const dnnl_dims_t dims, uint32_t B) {
    dnnl_format_tag_t tag = B == 16 ? dnnl_nChw16c : B == 8 ? dnnl_nChw8c : dnnl_nchw;
    dnnl_memory_desc_init_by_tag(md, 4, dims, dnnl_f32, tag);
}

/* The channel block of oneDNN's direct convolutions on the instruction
 * set it runs (one 512-bit register of floats with AVX-512, a 256-bit one
 * before). Asking a probe primitive does not tell: small convolutions
 * choose other layouts (NHWC, or NCHW for a 1 x 1 as a matrix product). */
static uint32_t block_of(engine *e) {
    if (e->block_asked) return e->block;
    e->block_asked = 1;
    const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    if ((isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core) e->block = 16;
    else if ((isa & dnnl_cpu_isa_sse41) == dnnl_cpu_isa_sse41) e->block = 8;
    return e->block;
}

uint32_t wai_ml_dnnl_block(wai_ml_context *c) {
    engine *e = engine_of(c);
    return e ? block_of(e) : 0;
}

/* The epilogue as post-ops on attr (src1 of a binary entry in the
 * layout of the convolution's result, value_md); 0 where one has none. */
static int post_ops(const wai_ml_kernel_args *k, const dnnl_memory_desc_t *value_md,
                    dnnl_primitive_attr_t attr) {
    dnnl_post_ops_t po;
    if (dnnl_post_ops_create(&po) != dnnl_success) return 0;
    int ok = 1;
    for (uint32_t i = 0; ok && i < k->n_epilogue; i++) {
        const wai_ml_op *x = k->epilogue[i];
        dnnl_status_t st = dnnl_unimplemented;
        switch (x->kind) {
        case WAI_ML_OP_CLAMP:
            st = dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_clip_v2, x->a.clamp.lo,
                                              x->a.clamp.hi);
            break;
        case WAI_ML_OP_UNARY: {
            dnnl_alg_kind_t alg = x->sub == WAI_ML_RELU   ? dnnl_eltwise_relu
                                  : x->sub == WAI_ML_SQRT ? dnnl_eltwise_sqrt
                                                          : dnnl_eltwise_abs;
            st = dnnl_post_ops_append_eltwise(po, 1.0f, alg, 0.0f, 0.0f);
            break;
        }
        default: {
            dnnl_alg_kind_t alg = x->sub == WAI_ML_ADD   ? dnnl_binary_add
                                  : x->sub == WAI_ML_MUL ? dnnl_binary_mul
                                  : x->sub == WAI_ML_SUB ? dnnl_binary_sub
                                                         : dnnl_binary_div;
            st = dnnl_post_ops_append_binary(po, alg, value_md);
        }
        }
        ok = st == dnnl_success;
    }
    ok = ok && dnnl_primitive_attr_set_post_ops(attr, po) == dnnl_success;
    dnnl_post_ops_destroy(po);
    return ok;
}

/* The primitive of k's convolution (transposed or not), its memories,
 * reorders and scratchpad: NotSupportedError when oneDNN has none for it,
 * cost_over_limit or out_of_memory for the buffers (the caller unmakes). */
static wai_status make(engine *e, const wai_ml_kernel_args *k, int transposed, conv_state *s) {
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
        if (pad_r[i] < 0) return WAI_NotSupportedError;
    }
    dnnl_memory_desc_t src_u, dst_u, wei_u, bias_md, src_any, dst_any, wei_any;
    activation_md(&src_u, src, k->src_block);
    activation_md(&dst_u, dst, k->dst_block);
    dnnl_memory_desc_init_by_tag(&wei_u, wei_n, wei, dnnl_f32, wei_tag);
    dnnl_memory_desc_init_by_tag(&wei_any, wei_n, wei, dnnl_f32, dnnl_format_tag_any);
    dnnl_dims_t bias_dims = {ys[1]};
    dnnl_memory_desc_init_by_tag(&bias_md, 1, bias_dims, dnnl_f32, dnnl_a);
    const dnnl_memory_desc_t *bias = a->has_bias ? &bias_md : NULL;
    dnnl_primitive_desc_t pd = NULL;
    /* First a blocked activation as the primitive's own format (oneDNN
     * then picks an implementation that reads or writes it directly), then
     * the formats of oneDNN's choosing; each with the epilogue as post-ops,
     * then without (the run applies it after). */
    const int fixed = k->src_block || k->dst_block;
    for (int pass = fixed ? 0 : 1; !pd && pass < 2; pass++) {
        dnnl_memory_desc_init_by_tag(&src_any, 4, src, dnnl_f32, dnnl_format_tag_any);
        dnnl_memory_desc_init_by_tag(&dst_any, 4, dst, dnnl_f32, dnnl_format_tag_any);
        if (pass == 0 && k->src_block) src_any = src_u;
        if (pass == 0 && k->dst_block) dst_any = dst_u;
        dnnl_status_t st;
        dnnl_deconvolution_desc_t dd;
        dnnl_convolution_desc_t cd;
        const void *desc = transposed ? (const void *)&dd : (const void *)&cd;
        if (transposed)
            st = dnnl_dilated_deconvolution_forward_desc_init(&dd, dnnl_forward_inference,
                                                              dnnl_deconvolution_direct, &src_any,
                                                              &wei_any, bias, &dst_any, strides,
                                                              dil, pad_l, pad_r);
        else
            st = dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference,
                                                            dnnl_convolution_direct, &src_any,
                                                            &wei_any, bias, &dst_any, strides, dil,
                                                            pad_l, pad_r);
        if (st != dnnl_success) continue;
        dnnl_primitive_attr_t attr;
        if (k->n_epilogue && (attr = user_pad_attr())) {
            if (post_ops(k, &dst_u, attr) &&
                dnnl_primitive_desc_create(&pd, desc, attr, e->engine, NULL) == dnnl_success)
                s->fused = 1;
            dnnl_primitive_attr_destroy(attr);
        }
        if (!pd && (attr = user_pad_attr())) {
            if (dnnl_primitive_desc_create(&pd, desc, attr, e->engine, NULL) != dnnl_success)
                pd = NULL;
            dnnl_primitive_attr_destroy(attr);
        }
    }
    if (!pd) return WAI_NotSupportedError;
    for (uint32_t i = 0; s->fused && i < k->n_epilogue; i++) {
        if (k->epilogue[i]->kind != WAI_ML_OP_BINARY) continue;
        s->other_arg[i] = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1;
        if (dnnl_memory_create(&s->others[i], &dst_u, e->engine, DNNL_MEMORY_NONE) !=
            dnnl_success) {
            dnnl_primitive_desc_destroy(pd);
            return WAI_NotSupportedError;
        }
    }
    const dnnl_memory_desc_t *src_p = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    const dnnl_memory_desc_t *wei_p = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    const dnnl_memory_desc_t *dst_p = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    dnnl_memory_desc_t pads[4];
    memset(pads, 0, sizeof pads);
    pads[0] = pad_md_of(pd);
    wai_status st = dnnl_primitive_create(&s->prim, pd) == dnnl_success ? WAI_ok
                                                                       : WAI_NotSupportedError;
    size_t src_bytes = 0, dst_bytes = 0;
    if (st == WAI_ok) st = memories(e, k, s, 0, &src_u, src_p, &pads[1], &src_bytes);
    if (st == WAI_ok) st = memories(e, k, s, 1, &wei_u, wei_p, &pads[2], NULL);
    if (st == WAI_ok) st = memories(e, k, s, 2, &dst_u, dst_p, &pads[3], &dst_bytes);
    if (st == WAI_ok && a->has_bias &&
        dnnl_memory_create(&s->bias, &bias_md, e->engine, DNNL_MEMORY_NONE) != dnnl_success)
        st = WAI_NotSupportedError;
    if (st == WAI_ok) st = scratch_plan(e, k, s, src_bytes, dst_bytes, pads);
    dnnl_primitive_desc_destroy(pd);
    return st;
}

static int reorder(engine *e, dnnl_primitive_t r, dnnl_memory_t from, dnnl_memory_t to,
                   dnnl_memory_t pad) {
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}, {DNNL_ARG_SCRATCHPAD, pad}};
    return dnnl_primitive_execute(r, e->stream, pad ? 3 : 2, args) == dnnl_success;
}

static wai_status run(const wai_ml_kernel_args *k, int transposed) {
    engine *e = engine_of(k->context);
    if (!e) return WAI_NotSupportedError;
    conv_state *s = k->op->backend;
    if (!s) {
        if (!wai_ml_graph_hold(k->graph, sizeof *s)) return WAI_cost_over_limit;
        if (!(s = wai_alloc_zeroed(k->context->alloc, 1, sizeof *s))) {
            wai_ml_graph_unhold(k->graph, sizeof *s);
            return WAI_out_of_memory;
        }
        k->op->backend = s;
        s->gemm = transposed && wai_ml_deconv_gemm_takes(k, block_of(e));
    }
    /* Before make: a primitive's scratchpad is sized for the threads it
     * may run on when it is made. */
    set_threads(k->exec);
    if (!s->gemm && !s->made && !s->failed) {
        /* Over the limit or out of memory, nothing stays: the next run
         * tries again; a shape oneDNN refuses is remembered. */
        const wai_status st = make(e, k, transposed, s);
        if (st != WAI_ok) {
            unmake(k->context->alloc, k->graph, s);
            if (st == WAI_cost_over_limit || st == WAI_out_of_memory) return st;
            s->failed = 1;
        }
        s->made = st == WAI_ok;
    }
    if (s->failed) return WAI_NotSupportedError;
    if (s->gemm) return wai_ml_deconv_gemm(k);
    const wai_status bound = scratch_bind(k, s);
    if (bound != WAI_ok) return bound;
    int ok = dnnl_memory_set_data_handle(s->src_user, (void *)(uintptr_t)k->in[0]) == dnnl_success &&
             dnnl_memory_set_data_handle(s->dst_user, k->out) == dnnl_success;
    if (ok && s->bias)
        ok = dnnl_memory_set_data_handle(s->bias, (void *)(uintptr_t)k->in[2]) == dnnl_success;
    if (ok && s->src_reorder) ok = reorder(e, s->src_reorder, s->src_user, s->src_prim, s->pad[1]);
    if (ok && (!s->weights_ready || !k->filter_constant)) {
        ok = dnnl_memory_set_data_handle(s->wei_user, (void *)(uintptr_t)k->in[1]) == dnnl_success;
        if (ok && s->wei_reorder)
            ok = reorder(e, s->wei_reorder, s->wei_user, s->wei_prim, s->pad[2]);
        s->weights_ready = ok && s->wei_reorder != NULL;
    }
    if (ok) {
        dnnl_exec_arg_t args[5 + WAI_ML_MAX_EPILOGUE] = {
            {DNNL_ARG_SRC, s->src_prim ? s->src_prim : s->src_user},
            {DNNL_ARG_WEIGHTS, s->wei_prim ? s->wei_prim : s->wei_user},
            {DNNL_ARG_DST, s->dst_prim ? s->dst_prim : s->dst_user}};
        int n = 3;
        if (s->bias) args[n++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, s->bias};
        if (s->pad[0]) args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, s->pad[0]};
        for (uint32_t i = 0; ok && s->fused && i < k->n_epilogue; i++) {
            if (!s->others[i]) continue;
            ok = dnnl_memory_set_data_handle(s->others[i],
                                             (void *)(uintptr_t)k->epilogue_other[i]) ==
                 dnnl_success;
            args[n++] = (dnnl_exec_arg_t){s->other_arg[i], s->others[i]};
        }
        ok = ok && dnnl_primitive_execute(s->prim, e->stream, n, args) == dnnl_success;
    }
    if (ok && s->dst_reorder) ok = reorder(e, s->dst_reorder, s->dst_prim, s->dst_user, s->pad[3]);
    if (ok) ok = dnnl_stream_wait(e->stream) == dnnl_success;
    if (ok && k->epilogue_done) *k->epilogue_done = s->fused;
    return ok ? WAI_ok : WAI_OperationError;
}

wai_status wai_ml_dnnl_conv2d(const wai_ml_kernel_args *k) { return run(k, 0); }

wai_status wai_ml_dnnl_conv_transpose2d(const wai_ml_kernel_args *k) { return run(k, 1); }
