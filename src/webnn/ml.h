/* SPDX-License-Identifier: BSD-2-Clause */
/* The native WebNN's internals (include/wai/wai_webnn.h is the API): what a
 * builder records, what a graph keeps, and the kernels a graph runs.
 *
 * A builder records operands and operators in creation order, which is a
 * topological order (an operator can only take operands that exist). Build
 * keeps the operators the outputs reach, in that order, with the constants
 * they read converted to float32. A run computes every operator into a
 * float32 buffer of its output (float16 outputs rounded to float16 after
 * each operator), freeing each buffer after its last reader. This is the
 * one folder of the library that computes in floating point. */
#ifndef WAI_WEBNN_ML_H
#define WAI_WEBNN_ML_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_backend.h"
#include "wai/wai_ml.h"

/* A latent program's members in a set (latent_program.c reads them, backend.c
 * builds their graph): the graph description and its float32 weights. */
#define WAI_WEBNN_PROGRAM_MEMBER "decoder.webnn.json"
#define WAI_WEBNN_WEIGHTS_MEMBER "decoder.f32"

/* How a context's kernels run: through the wai_context's allocator and
 * threads, which libwai lends by its public API (include/wai/wai_backend.h),
 * so libwai_webnn reaches nothing inside libwai. */
typedef struct wai_ml_exec {
    const wai_allocator *alloc;
    const wai_context *ctx;     /* NULL: one thread */
} wai_ml_exec;

static inline unsigned wai_ml_threads(const wai_ml_exec *ex) {
    return ex && ex->ctx ? wai_context_threads(ex->ctx) : 1;
}

static inline void wai_ml_parallel(const wai_ml_exec *ex, unsigned n,
                                   void (*fn)(void *arg, unsigned i), void *arg) {
    if (ex && ex->ctx) {
        wai_context_parallel(ex->ctx, n, fn, arg);
        return;
    }
    for (unsigned i = 0; i < n; i++) fn(arg, i);
}

/* ---- errors ---------------------------------------------------------------- */

/* Records the failure's message on c and returns st. */
wai_status wai_ml_fail(wai_ml_context *c, wai_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- shapes ---------------------------------------------------------------- */

/* The element count of d (a scalar has one); 0 when it leaves 2^53. */
uint64_t wai_ml_elements(const wai_ml_operand_descriptor *d);

/* The spec's "checking dimensions": a known type, rank at most
 * WAI_ML_MAX_RANK, every dimension and the element count valid dimensions
 * (in 1 .. 2^31 - 1 here), the byte length addressable. */
int wai_ml_dimensions_ok(const wai_ml_operand_descriptor *d);

/* Bidirectional broadcasting (numpy): 1 and *out, or 0 (failure). */
int wai_ml_broadcast(const wai_ml_operand_descriptor *a, const wai_ml_operand_descriptor *b,
                     wai_ml_operand_descriptor *out);

int wai_ml_descriptor_equal(const wai_ml_operand_descriptor *a,
                            const wai_ml_operand_descriptor *b);

/* ---- operators --------------------------------------------------------------- */

typedef enum wai_ml_op_kind {
    WAI_ML_OP_CONV2D,
    WAI_ML_OP_CONV_TRANSPOSE2D,
    WAI_ML_OP_BINARY,
    WAI_ML_OP_UNARY,
    WAI_ML_OP_LEAKY_RELU,
    WAI_ML_OP_CLAMP,
    WAI_ML_OP_CONCAT,
    WAI_ML_OP_RESHAPE,
    WAI_ML_OP_SLICE,
    WAI_ML_OP_TRANSPOSE,
    WAI_ML_OP_PAD,
    WAI_ML_OP_REDUCE,
    WAI_ML_OP_GEMM,
    WAI_ML_OP_MATMUL
} wai_ml_op_kind;

/* A convolution's attributes, defaults applied and checked. */
typedef struct wai_ml_conv_attrs {
    uint32_t padding[4], strides[2], dilations[2], groups;
    int input_layout;  /* wai_ml_input_operand_layout */
    int filter_layout; /* conv2d's or convTranspose2d's enum */
    int has_bias;
} wai_ml_conv_attrs;

typedef struct wai_ml_op {
    wai_ml_op_kind kind;
    int sub;              /* the binary, unary or reduce operation */
    uint32_t *inputs;     /* operand ids */
    uint32_t n_inputs;
    uint32_t output;      /* operand id */
    void *backend;        /* a graph's: the fast kernel's state kept between runs */
    /* The run plan's (run_plan.c): a convolution may absorb the element-wise
     * operators that alone read its value (its epilogue, op indices in
     * order); an absorbed operator is not run on its own. result is the
     * operand the op's run writes: its output, or its epilogue's last. */
    uint8_t fused_away, n_epilogue;
    uint32_t epilogue[4];
    uint32_t result;
    union {
        wai_ml_conv_attrs conv;
        float alpha;                      /* leakyRelu */
        struct { float lo, hi; } clamp;
        uint32_t axis;                    /* concat */
        struct { uint32_t starts[WAI_ML_MAX_RANK], strides[WAI_ML_MAX_RANK]; } slice;
        uint32_t permutation[WAI_ML_MAX_RANK];
        struct {
            uint32_t begin[WAI_ML_MAX_RANK], end[WAI_ML_MAX_RANK];
            int mode;
            float value;
        } pad;
        struct { uint32_t axes; int keep; } reduce; /* axes: a bit per axis */
        struct { float alpha, beta; uint8_t a_transpose, b_transpose, has_c; } gemm;
    } a;
} wai_ml_op;

/* ---- the builder's records ------------------------------------------------- */

typedef enum wai_ml_operand_kind {
    WAI_ML_INPUT,
    WAI_ML_CONSTANT,
    WAI_ML_COMPUTED
} wai_ml_operand_kind;

struct wai_ml_operand {
    wai_ml_graph_builder *builder;
    uint32_t id;
    wai_ml_operand_descriptor desc;
    wai_ml_operand_kind kind;
    char *name;            /* an input's */
    float *values;         /* a constant's, as float32 (the builder's; the graph's once built) */
    uint32_t producer;     /* the operator computing it (COMPUTED) */
};

/* What every builder method does first (the spec's "can not build" and
 * "validating operand" steps): InvalidStateError once built, TypeError for
 * an operand of another builder (NULL entries are skipped). what names the
 * call in messages. */
wai_status wai_ml_builder_check(wai_ml_graph_builder *b, const char *what,
                                const wai_ml_operand *const *operands, size_t n);

/* An operation's start: its name for messages into what (64 bytes: "op" or
 * "op 'label'"), its n operands checked (wai_ml_builder_check), and the
 * builder's context. */
wai_status wai_ml_begin(wai_ml_graph_builder *b, const char *op, const char *label,
                        const wai_ml_operand *const *operands, size_t n, char what[64],
                        wai_ml_context **c);

/* The context a builder was made for. */
wai_ml_context *wai_ml_builder_context(const wai_ml_graph_builder *b);

/* Records op (its kind, sub and attributes; inputs and output are set
 * here) over inputs, with a new operand of desc as its output. */
wai_status wai_ml_builder_add(wai_ml_graph_builder *b, const wai_ml_op *op,
                              const wai_ml_operand *const *inputs, uint32_t n_inputs,
                              const wai_ml_operand_descriptor *desc, wai_ml_operand **out);

/* "conv2d" or "conv2d 'label'", for messages, in buf. */
const char *wai_ml_what(char *buf, size_t size, const char *op, const char *label);

/* ---- contexts and tensors ----------------------------------------------------- */

struct wai_ml_kernel_args;

/* The kernels a context computes with, chosen once when it is made (its
 * options' kernels): each entry a fast kernel, or NULL where the reference
 * computes (the reference's own entry points are the ref_*.c functions).
 * A convolution entry may still answer WAI_NotSupportedError for one
 * operator (the reference then runs it); an element-wise one answers 0. */
typedef struct wai_ml_kernel_table {
    wai_status (*conv2d)(const struct wai_ml_kernel_args *k);
    wai_status (*conv_transpose2d)(const struct wai_ml_kernel_args *k);
    int (*binary)(const struct wai_ml_kernel_args *k);
    int (*unary)(const struct wai_ml_kernel_args *k);
} wai_ml_kernel_table;

/* The table of a context's kernels option. */
void wai_ml_kernel_table_init(wai_ml_kernel_table *t, wai_ml_kernels kernels);

struct wai_ml_context {
    wai_context *ctx;
    const wai_allocator *alloc;
    wai_ml_exec exec;
    wai_ml_kernels kernels;
    wai_ml_kernel_table table;
    char message[256];
    wai_ml_tensor *tensors; /* every live tensor, freed with the context */
    wai_ml_graph *graphs;   /* likewise */
    void *dnnl;             /* oneDNN's engine and stream, made at first use */
    wai_ml_lost_fn on_lost; /* MLContext.lost's callback, or NULL */
    void *on_lost_user;
};

struct wai_ml_tensor {
    wai_ml_context *context;
    wai_ml_tensor_descriptor desc;
    int constant, destroyed;
    uint8_t *data;
    size_t bytes;
    wai_ml_tensor *next;    /* the context's list */
};

/* ---- graphs ------------------------------------------------------------------- */

typedef struct wai_ml_io {
    char *name;
    uint32_t operand;
} wai_ml_io;

/* Memory a graph keeps, 64-byte aligned (oneDNN's alignment): the
 * allocation (to free), its aligned start and the bytes it counts in the
 * graph (wai_ml_graph_keep, wai_ml_graph_drop). */
typedef struct {
    void *alloc, *at;
    uint64_t held;
} wai_ml_block;

struct wai_ml_graph {
    wai_ml_context *context;
    int destroyed;
    uint32_t n_operands;
    wai_ml_operand_descriptor *descs; /* [n_operands] */
    float **constants;                /* [n_operands]: a constant's values, or NULL */
    wai_ml_op *ops;                   /* the operators to run, in order */
    uint32_t n_ops;
    uint32_t *last_use;               /* [n_operands]: the last op reading it, or UINT32_MAX */
    wai_ml_io *inputs, *outputs;      /* sorted by name */
    uint32_t n_inputs, n_outputs;
    wai_ml_graph *next;     /* the context's list */
    /* The run plan (run_plan.c): which computed operands live in oneDNN's
     * channel-blocked layout nChw{block}c, and where each computed operand
     * lives in the graph's arena of activations. */
    uint32_t block;                   /* the blocked layout's channels; 0: all plain */
    uint8_t *blocked;                 /* [n_operands] */
    size_t *offset;                   /* [n_operands]: in floats, or WAI_ML_NOWHERE */
    size_t arena_floats;
    float *arena;                     /* made at the first run, kept for the next */
    /* Memory beside the constants and arena, counted before it is
     * allocated (graph_memory.c): what the kernels keep between runs (a
     * filter in oneDNN's layout, the shared scratch below), and a run's
     * temporaries while they live. limit bounds the sum with the
     * constants and arena: a decode's max_memory sets it (backend.c);
     * UINT64_MAX otherwise. */
    uint64_t held, temp, limit;
    /* The operators' shared scratch (wai_ml_graph_scratch) and its
     * usable bytes. */
    wai_ml_block scratch;
    size_t scratch_bytes;
};

#define WAI_ML_NOWHERE SIZE_MAX
#define WAI_ML_MAX_EPILOGUE 4

/* The graph's run plan, made once its operators are known (build): the
 * epilogues (where the context computes on oneDNN), the layouts, the arena.
 * 0 on out of memory. */
int wai_ml_plan(wai_ml_graph *g);

/* Computes g: inputs[i] holds input i's float32 values (in g->inputs'
 * order), outputs[i] receives output i's. */
wai_status wai_ml_graph_run(wai_ml_graph *g, const float *const *inputs, float *const *outputs);

/* ---- kernels ------------------------------------------------------------------ */

/* One operator on float32 buffers: in[i] with descs in_d[i], out with
 * out_d. Canonical layouts are the run's business (run.c). */
typedef struct wai_ml_kernel_args {
    wai_ml_context *context;
    wai_ml_op *op;        /* op->backend: the fast kernel's own */
    int filter_constant;  /* a convolution's filter is a constant (the same every run) */
    const float *const *in;
    const wai_ml_operand_descriptor *const *in_d;
    float *out;
    const wai_ml_operand_descriptor *out_d;
    const wai_ml_exec *exec;
    /* A convolution's, from the plan: the channel block of its input and
     * output where they are blocked (0: plain NCHW), and the epilogue the
     * fast kernel may apply as it writes out (epilogue_other[i]: the other
     * operand of a binary entry); it sets *epilogue_done when it did. */
    uint32_t src_block, dst_block;
    const wai_ml_op *const *epilogue;
    const float *const *epilogue_other;
    uint32_t n_epilogue;
    int *epilogue_done;
    /* The graph run: what a kernel keeps or borrows counts against its
     * limit (NULL outside a graph: nothing counted). */
    wai_ml_graph *graph;
} wai_ml_kernel_args;

/* The reference kernels (ref_*.c): plain loops, every sum in double. */
wai_status wai_ml_ref_conv2d(const wai_ml_kernel_args *k);
wai_status wai_ml_ref_conv_transpose2d(const wai_ml_kernel_args *k);
void wai_ml_ref_binary(const wai_ml_kernel_args *k);
void wai_ml_ref_unary(const wai_ml_kernel_args *k);
void wai_ml_ref_concat(const wai_ml_kernel_args *k);
void wai_ml_ref_slice(const wai_ml_kernel_args *k);
void wai_ml_ref_transpose(const wai_ml_kernel_args *k);
/* out = in with its axes permuted: out axis i is in's axis perm[i]. */
void wai_ml_permute(const float *in, const wai_ml_operand_descriptor *d, const uint32_t *perm,
                    float *out);
void wai_ml_ref_pad(const wai_ml_kernel_args *k);
void wai_ml_ref_reduce(const wai_ml_kernel_args *k);
void wai_ml_ref_gemm(const wai_ml_kernel_args *k);
void wai_ml_ref_matmul(const wai_ml_kernel_args *k);

/* The fast element-wise kernels (fast_elementwise.c): contiguous loops over
 * the context's threads for the operations float arithmetic gives
 * correctly rounded (add, sub, mul, div, max, min; abs, neg, sqrt, relu,
 * identity, leakyRelu, clamp), equal bit for bit to the reference's double
 * then float. A binary operation's operands must be of the output's shape,
 * or one a single value. 0 when they do not apply (the reference runs);
 * out may be an input. */
int wai_ml_fast_binary(const wai_ml_kernel_args *k);
int wai_ml_fast_unary(const wai_ml_kernel_args *k);
/* An element-wise operator as a convolution's epilogue, in place on v
 * (n values): other is the binary's other operand. */
void wai_ml_epilogue_apply(const wai_ml_exec *ex, const wai_ml_op *op, const float *other,
                           float *v, size_t n, int value_first);

/* nChw{B}c from NCHW and back, for a shape d whose channels B divides. */
void wai_ml_to_blocked(const float *in, const wai_ml_operand_descriptor *d, uint32_t B, float *out);
void wai_ml_from_blocked(const float *in, const wai_ml_operand_descriptor *d, uint32_t B,
                         float *out);

/* The oneDNN convolutions (dnnl_conv.c, where the build found oneDNN):
 * WAI_NotSupportedError when this build has none, so the run takes the
 * reference. */
int wai_ml_dnnl_available(void);
/* The channel block of the layout oneDNN's convolutions take on this CPU
 * (16 with AVX-512, 8 before), 0 where a build has no oneDNN. */
uint32_t wai_ml_dnnl_block(wai_ml_context *c);
wai_status wai_ml_dnnl_conv2d(const wai_ml_kernel_args *k);
wai_status wai_ml_dnnl_conv_transpose2d(const wai_ml_kernel_args *k);
/* Frees an op's backend state, and a context's engine (both safe on NULL). */
void wai_ml_dnnl_op_free(const wai_allocator *alloc, void *backend);
void wai_ml_dnnl_context_free(wai_ml_context *c);
/* 1 when an op's state says oneDNN computes it, and its epilogue as
 * post-ops (for tests). */
int wai_ml_dnnl_op_runs(const void *backend);
int wai_ml_dnnl_op_fused(const void *backend);

/* ---- graph descriptions (graph_json.c) ------------------------------------------ */

struct wai_json_value;

/* The graph of a parsed description. strict: every member known (the
 * public reader); otherwise members it does not read are ignored (the
 * conformance cases carry their expectations beside the graph). The
 * outputs: the description's "outputs" member, or else output_names (each
 * an operator's output, named by itself). max_bytes: as below. */
wai_status wai_ml_graph_from_description(wai_ml_context *c, const struct wai_json_value *root,
                                         const uint8_t *weights, size_t weights_len,
                                         const wai_ml_named_descriptor *inputs, size_t n_inputs,
                                         int strict, const char *const *output_names,
                                         size_t n_output_names, uint64_t max_bytes,
                                         wai_ml_graph **out);

/* wai_ml_graph_from_json with a ceiling on the constants: their float32
 * values (what the graph holds) and an inline one's bytes while it is
 * written out stay within max_bytes, checked before each is allocated;
 * past it, cost_over_limit with nothing more allocated (a float decode's
 * max_memory, src/webnn/backend.c). */
wai_status wai_ml_graph_from_json_within(wai_ml_context *c, const uint8_t *json, size_t json_len,
                                         const uint8_t *weights, size_t weights_len,
                                         const wai_ml_named_descriptor *inputs, size_t n_inputs,
                                         uint64_t max_bytes, wai_ml_graph **out);

/* What a built graph holds: its constants, its arena of activations
 * (counted before: the first run makes it), and what its kernels keep
 * between runs (counted as they make it). */
uint64_t wai_ml_graph_bytes(const wai_ml_graph *g);

/* Counts `bytes` that g keeps from now on (an operator's state) or, with
 * take, holds for a while (a temporary, given back with give): 1, or 0
 * with nothing counted where it would pass g's limit. A NULL g (a kernel
 * called outside a graph) counts nothing and always fits. */
int wai_ml_graph_hold(wai_ml_graph *g, uint64_t bytes);
void wai_ml_graph_unhold(wai_ml_graph *g, uint64_t bytes);
int wai_ml_graph_take(wai_ml_graph *g, uint64_t bytes);
void wai_ml_graph_give(wai_ml_graph *g, uint64_t bytes);

/* Allocates `bytes` into *b, 64-byte aligned, counted as held in g (a
 * NULL g counts nothing) before it is allocated: WAI_ok, cost_over_limit
 * or out_of_memory, with *b empty on failure. drop frees *b and uncounts
 * it (an empty *b is nothing to drop). */
wai_status wai_ml_graph_keep(wai_ml_graph *g, const wai_allocator *a, size_t bytes, wai_ml_block *b);
void wai_ml_graph_drop(wai_ml_graph *g, const wai_allocator *a, wai_ml_block *b);

/* The scratch g's operators share in turn (one runs at a time, and none
 * keeps anything in it from one run of its own to the next): at least
 * `bytes`, 64-byte aligned, grown where smaller (counted as held; its
 * contents then go). NULL with *st cost_over_limit or out_of_memory, or
 * OperationError for a NULL g (the scratch lives in its graph). */
void *wai_ml_graph_scratch(wai_ml_graph *g, size_t bytes, wai_status *st);

/* ---- numbers ------------------------------------------------------------------ */

/* float16 (binary16) bits from a float (round to nearest, ties to even,
 * overflow to infinity, NaN kept NaN), and back. */
uint16_t wai_ml_f16_from_f32(float f);
float wai_ml_f32_from_f16(uint16_t h);

/* Decimal JSON number text to double, correctly rounded by the C library
 * whatever the locale's decimal point. 0 when the text is not a number. */
int wai_ml_number_from_text(const char *text, size_t len, double *out);

#endif
