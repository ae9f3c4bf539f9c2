/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_webnn's graph API (wai_webnn.h is what a player needs of the
 * library: its backend). It is the Web Neural Network API (../shared/spec/webnn.md,
 * the W3C draft) in C, one to one, so a reader of the spec finds each piece:
 *
 *   ML.createContext()           wai_ml_create_context
 *   MLContext                    wai_ml_context (dispatch, createTensor,
 *                                readTensor, writeTensor, destroy)
 *   MLGraphBuilder(context)      wai_ml_graph_builder_create
 *   builder.input / constant     wai_ml_input, wai_ml_constant, ...
 *   builder.<operation>(...)     wai_ml_<operation>(builder, ..., &output)
 *   builder.build(outputs)       wai_ml_build
 *   MLOperand, MLGraph, MLTensor wai_ml_operand, wai_ml_graph, wai_ml_tensor
 *
 * Every call returns a wai_status. The spec's exceptions are statuses of
 * their own, named as the spec names them (WAI_TypeError,
 * WAI_InvalidStateError, WAI_OperationError, WAI_NotSupportedError,
 * WAI_DataError); wai_ml_error_message() says why, in a line. What the spec
 * does asynchronously (build, createTensor, readTensor, dispatch) runs to
 * completion in the call. A dictionary argument is a struct filled by its
 * wai_ml_*_options_default (the IDL's defaults); a sequence<> member is a
 * pointer and a count, NULL for "not given", so a sequence of the wrong
 * size is the spec's TypeError. docs/webnn.md has the readings where the
 * spec's text is silent or contradicts itself.
 *
 * The computation is floating point: this is the float backend the
 * neural dispatch chooses for capabilities registered at tier none; no
 * integer decode ever runs here. Beside the graphs: a latent program's
 * steps for any WebNN (a page's included) and a learned image codec's
 * analysis (libwai_write's hyperprior encoder). */
#ifndef WAI_WAI_ML_H
#define WAI_WAI_ML_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai.h"
#include "wai/wai_backend.h"
#include "wai/wai_webnn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wai_ml_context wai_ml_context;
typedef struct wai_ml_graph_builder wai_ml_graph_builder;
typedef struct wai_ml_operand wai_ml_operand;  /* owned by its builder */
typedef struct wai_ml_graph wai_ml_graph;
typedef struct wai_ml_tensor wai_ml_tensor;

/* ---- MLOperandDescriptor ------------------------------------------------ */

typedef enum wai_ml_operand_data_type {
    WAI_ML_FLOAT32 = 0,
    WAI_ML_FLOAT16,
    WAI_ML_INT32,
    WAI_ML_UINT32,
    WAI_ML_INT64,
    WAI_ML_UINT64,
    WAI_ML_INT8,
    WAI_ML_UINT8
} wai_ml_operand_data_type;

/* The IDL's token ("float32", ...), or NULL; and back (0: not a token). */
WAI_WEBNN_API const char *wai_ml_data_type_name(wai_ml_operand_data_type t);
WAI_WEBNN_API int wai_ml_data_type_from_name(const char *name, wai_ml_operand_data_type *out);

/* The most dimensions an operand has here (the spec leaves the bound to the
 * implementation). */
#define WAI_ML_MAX_RANK 8

typedef struct wai_ml_operand_descriptor {
    wai_ml_operand_data_type data_type;
    uint32_t rank;                     /* 0: a scalar */
    uint32_t shape[WAI_ML_MAX_RANK];
} wai_ml_operand_descriptor;

/* Bytes of one element of t (float16: 2), 0 for no type. */
WAI_WEBNN_API size_t wai_ml_data_type_size(wai_ml_operand_data_type t);

/* ---- ML.createContext() and MLContext ----------------------------------- */

typedef enum wai_ml_power_preference {
    WAI_ML_POWER_DEFAULT = 0,
    WAI_ML_POWER_HIGH_PERFORMANCE,
    WAI_ML_POWER_LOW_POWER
} wai_ml_power_preference;

/* The unit a context computes on. The spec's MLContextOptions no longer
 * names one (it has powerPreference and accelerated); browsers that give
 * WebNN still take a deviceType, and the neural dispatch asks for a unit,
 * so libwai keeps it. This build has the CPU only: a context asked for the
 * GPU or the neural processor is NotSupportedError. */
typedef enum wai_ml_device_type {
    WAI_ML_DEVICE_CPU = 0,
    WAI_ML_DEVICE_GPU,
    WAI_ML_DEVICE_NPU
} wai_ml_device_type;

/* Which CPU kernels compute: the fastest this build has (oneDNN for the
 * convolutions where it was found), or the plain C reference of every
 * operation (tests hold the first to the second and both to float64). */
typedef enum wai_ml_kernels {
    WAI_ML_KERNELS_BEST = 0,
    WAI_ML_KERNELS_REFERENCE
} wai_ml_kernels;

typedef struct wai_ml_context_options {
    wai_ml_power_preference power_preference; /* default "default" */
    int accelerated;                           /* default true */
    wai_ml_device_type device_type;            /* libwai's: default cpu */
    wai_ml_kernels kernels;                    /* libwai's: default best */
    uint8_t reserved[32];                      /* zero */
} wai_ml_context_options;

WAI_WEBNN_API void wai_ml_context_options_default(wai_ml_context_options *o);

/* ML.createContext(options): a context of ctx (its allocator and worker
 * pool compute the graphs). options NULL: the defaults. */
WAI_WEBNN_API wai_status wai_ml_create_context(wai_context *ctx,
                                               const wai_ml_context_options *options,
                                               wai_ml_context **out);
/* MLContext.destroy(): its graphs and tensors can no longer be used, and
 * are freed with it. */
WAI_WEBNN_API void wai_ml_context_destroy(wai_ml_context *c);

/* MLContext.opSupportLimits(): the MLOpSupportLimits dictionary as JSON
 * text into buf (size bytes, NUL-terminated when it fits; *need its length
 * without the NUL, may be NULL): preferredInputLayout, maxTensorByteLength,
 * input, constant, output, and a member per operator this runtime builds
 * with each operand's dataTypes and rankRange. invalid_argument when buf is
 * short (then *need says how long it must be). */
WAI_WEBNN_API wai_status wai_ml_op_support_limits_json(const wai_ml_context *c, char *buf,
                                                       size_t size, size_t *need);

/* MLContext.lost: fn(user, message) runs once when the context is lost.
 * A native context computes on the CPU and is lost only when destroyed
 * (wai_ml_context_destroy calls fn before it frees anything); fn NULL
 * clears it. */
typedef void (*wai_ml_lost_fn)(void *user, const char *message);
WAI_WEBNN_API wai_status wai_ml_context_on_lost(wai_ml_context *c, wai_ml_lost_fn fn, void *user);

/* MLContext.accelerated: 0 here (the CPU computes). */
WAI_WEBNN_API int wai_ml_context_accelerated(const wai_ml_context *c);

/* The last failure's message of a context, builder or graph call made
 * through c (never NULL; "" before any). Valid until the next call on c. */
WAI_WEBNN_API const char *wai_ml_error_message(const wai_ml_context *c);

/* ---- MLTensor ------------------------------------------------------------ */

typedef struct wai_ml_tensor_descriptor {
    wai_ml_operand_descriptor desc;
    int readable;  /* default false */
    int writable;  /* default false */
} wai_ml_tensor_descriptor;

/* createTensor(descriptor): every byte zero. */
WAI_WEBNN_API wai_status wai_ml_create_tensor(wai_ml_context *c, const wai_ml_tensor_descriptor *d,
                                              wai_ml_tensor **out);
/* createConstantTensor(descriptor, data): len must be the descriptor's byte
 * length. */
WAI_WEBNN_API wai_status wai_ml_create_constant_tensor(wai_ml_context *c,
                                                       const wai_ml_operand_descriptor *d,
                                                       const void *data, size_t len,
                                                       wai_ml_tensor **out);
/* writeTensor(tensor, data) and readTensor(tensor, outputData): len must be
 * the tensor's byte length. */
WAI_WEBNN_API wai_status wai_ml_write_tensor(wai_ml_context *c, wai_ml_tensor *t, const void *data,
                                             size_t len);
WAI_WEBNN_API wai_status wai_ml_read_tensor(wai_ml_context *c, const wai_ml_tensor *t, void *out,
                                            size_t len);
WAI_WEBNN_API const wai_ml_operand_descriptor *wai_ml_tensor_descriptor_of(const wai_ml_tensor *t);
/* MLTensor.destroy() (idempotent on a context; NULL is ignored). */
WAI_WEBNN_API void wai_ml_tensor_destroy(wai_ml_tensor *t);

/* One entry of an MLNamedTensors record. */
typedef struct wai_ml_named_tensor {
    const char *name;
    wai_ml_tensor *tensor;
} wai_ml_named_tensor;

/* dispatch(graph, inputs, outputs): the inputs and outputs name exactly the
 * graph's inputs and outputs, each once, with tensors of their descriptors
 * (TypeError otherwise); the graph computes into the outputs before the
 * call returns. */
WAI_WEBNN_API wai_status wai_ml_dispatch(wai_ml_context *c, wai_ml_graph *g,
                                         const wai_ml_named_tensor *inputs, size_t n_inputs,
                                         const wai_ml_named_tensor *outputs, size_t n_outputs);

/* ---- MLGraphBuilder and MLOperand ---------------------------------------- */

WAI_WEBNN_API wai_status wai_ml_graph_builder_create(wai_ml_context *c, wai_ml_graph_builder **out);
/* Frees the builder and its operands (a graph it built lives on). */
WAI_WEBNN_API void wai_ml_graph_builder_destroy(wai_ml_graph_builder *b);

/* MLOperand.dataType and .shape. */
WAI_WEBNN_API const wai_ml_operand_descriptor *
wai_ml_operand_descriptor_of(const wai_ml_operand *o);

/* MLOperatorOptions.label, in every operation's options. */
typedef struct wai_ml_operator_options {
    const char *label;
} wai_ml_operator_options;

WAI_WEBNN_API wai_status wai_ml_input(wai_ml_graph_builder *b, const char *name,
                                      const wai_ml_operand_descriptor *d, wai_ml_operand **out);
/* constant(descriptor, buffer): the bytes are copied. */
WAI_WEBNN_API wai_status wai_ml_constant(wai_ml_graph_builder *b,
                                         const wai_ml_operand_descriptor *d, const void *data,
                                         size_t len, wai_ml_operand **out);
/* constant(dataType, value): a scalar, value cast to the type. */
WAI_WEBNN_API wai_status wai_ml_constant_scalar(wai_ml_graph_builder *b, wai_ml_operand_data_type t,
                                                double value, wai_ml_operand **out);
/* constant(tensor): a constant tensor of the builder's context. */
WAI_WEBNN_API wai_status wai_ml_constant_tensor(wai_ml_graph_builder *b, const wai_ml_tensor *t,
                                                wai_ml_operand **out);

/* One entry of an MLNamedOperands record. */
typedef struct wai_ml_named_operand {
    const char *name;
    const wai_ml_operand *operand;
} wai_ml_named_operand;

/* build(outputs): the graph of every operator the outputs depend on. The
 * builder then can build no more (InvalidStateError). */
WAI_WEBNN_API wai_status wai_ml_build(wai_ml_graph_builder *b, const wai_ml_named_operand *outputs,
                                      size_t n_outputs, wai_ml_graph **out);
/* MLGraph.destroy(). */
WAI_WEBNN_API void wai_ml_graph_destroy(wai_ml_graph *g);

/* The graph's inputs and outputs, in name order: their count, and entry i
 * (NULL past the end). */
WAI_WEBNN_API size_t wai_ml_graph_input_count(const wai_ml_graph *g);
WAI_WEBNN_API size_t wai_ml_graph_output_count(const wai_ml_graph *g);
WAI_WEBNN_API const char *wai_ml_graph_input_at(const wai_ml_graph *g, size_t i,
                                                const wai_ml_operand_descriptor **d);
WAI_WEBNN_API const char *wai_ml_graph_output_at(const wai_ml_graph *g, size_t i,
                                                 const wai_ml_operand_descriptor **d);
/* The operators the graph runs. */
WAI_WEBNN_API size_t wai_ml_graph_operator_count(const wai_ml_graph *g);

/* ---- conv2d ---------------------------------------------------------------- */

typedef enum wai_ml_input_operand_layout { WAI_ML_NCHW = 0, WAI_ML_NHWC } wai_ml_input_operand_layout;

typedef enum wai_ml_conv2d_filter_operand_layout {
    WAI_ML_CONV2D_OIHW = 0,
    WAI_ML_CONV2D_HWIO,
    WAI_ML_CONV2D_OHWI,
    WAI_ML_CONV2D_IHWO
} wai_ml_conv2d_filter_operand_layout;

typedef struct wai_ml_conv2d_options {
    const uint32_t *padding;   /* 4: begin, end height; begin, end width. NULL: 0s */
    size_t padding_size;
    const uint32_t *strides;   /* 2. NULL: 1s */
    size_t strides_size;
    const uint32_t *dilations; /* 2. NULL: 1s */
    size_t dilations_size;
    uint32_t groups;           /* 1 */
    wai_ml_input_operand_layout input_layout;          /* nchw */
    wai_ml_conv2d_filter_operand_layout filter_layout; /* oihw */
    const wai_ml_operand *bias;                        /* NULL */
    const char *label;
} wai_ml_conv2d_options;

WAI_WEBNN_API void wai_ml_conv2d_options_default(wai_ml_conv2d_options *o);
WAI_WEBNN_API wai_status wai_ml_conv2d(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                       const wai_ml_operand *filter, const wai_ml_conv2d_options *o,
                                       wai_ml_operand **out);

/* ---- convTranspose2d ------------------------------------------------------- */

typedef enum wai_ml_conv_transpose2d_filter_operand_layout {
    WAI_ML_CONVT_IOHW = 0,
    WAI_ML_CONVT_HWOI,
    WAI_ML_CONVT_OHWI
} wai_ml_conv_transpose2d_filter_operand_layout;

typedef struct wai_ml_conv_transpose2d_options {
    const uint32_t *padding;        /* 4. NULL: 0s */
    size_t padding_size;
    const uint32_t *strides;        /* 2. NULL: 1s */
    size_t strides_size;
    const uint32_t *dilations;      /* 2. NULL: 1s */
    size_t dilations_size;
    const uint32_t *output_padding; /* 2. NULL: 0s */
    size_t output_padding_size;
    const uint32_t *output_sizes;   /* 2: height, width. NULL: from the rest */
    size_t output_sizes_size;
    uint32_t groups;                /* 1 */
    wai_ml_input_operand_layout input_layout;                     /* nchw */
    wai_ml_conv_transpose2d_filter_operand_layout filter_layout;  /* iohw */
    const wai_ml_operand *bias;                                   /* NULL */
    const char *label;
} wai_ml_conv_transpose2d_options;

WAI_WEBNN_API void wai_ml_conv_transpose2d_options_default(wai_ml_conv_transpose2d_options *o);
WAI_WEBNN_API wai_status wai_ml_conv_transpose2d(wai_ml_graph_builder *b,
                                                 const wai_ml_operand *input,
                                                 const wai_ml_operand *filter,
                                                 const wai_ml_conv_transpose2d_options *o,
                                                 wai_ml_operand **out);

/* ---- element-wise binary (bidirectional broadcasting) ---------------------- */

typedef enum wai_ml_binary_op {
    WAI_ML_ADD = 0,
    WAI_ML_SUB,
    WAI_ML_MUL,
    WAI_ML_DIV,
    WAI_ML_MAX,
    WAI_ML_MIN,
    WAI_ML_POW
} wai_ml_binary_op;

/* o may be NULL (no label). */
WAI_WEBNN_API wai_status wai_ml_binary(wai_ml_graph_builder *b, wai_ml_binary_op op,
                                       const wai_ml_operand *a, const wai_ml_operand *bb,
                                       const wai_ml_operator_options *o, wai_ml_operand **out);
WAI_WEBNN_API wai_status wai_ml_add(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                    const wai_ml_operand *bb, wai_ml_operand **out);
WAI_WEBNN_API wai_status wai_ml_sub(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                    const wai_ml_operand *bb, wai_ml_operand **out);
WAI_WEBNN_API wai_status wai_ml_mul(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                    const wai_ml_operand *bb, wai_ml_operand **out);
WAI_WEBNN_API wai_status wai_ml_div(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                    const wai_ml_operand *bb, wai_ml_operand **out);

/* ---- element-wise unary and activations ------------------------------------ */

typedef enum wai_ml_unary_op {
    WAI_ML_ABS = 0,
    WAI_ML_CEIL,
    WAI_ML_COS,
    WAI_ML_ERF,
    WAI_ML_EXP,
    WAI_ML_FLOOR,
    WAI_ML_IDENTITY,
    WAI_ML_LOG,
    WAI_ML_NEG,
    WAI_ML_RECIPROCAL,
    WAI_ML_ROUND_EVEN,
    WAI_ML_SIN,
    WAI_ML_SIGN,
    WAI_ML_SQRT,
    WAI_ML_TAN,
    WAI_ML_RELU,    /* relu() */
    WAI_ML_SIGMOID, /* sigmoid() */
    WAI_ML_TANH     /* tanh() */
} wai_ml_unary_op;

WAI_WEBNN_API wai_status wai_ml_unary(wai_ml_graph_builder *b, wai_ml_unary_op op,
                                      const wai_ml_operand *input, const wai_ml_operator_options *o,
                                      wai_ml_operand **out);

typedef struct wai_ml_leaky_relu_options {
    double alpha; /* 0.01 */
    const char *label;
} wai_ml_leaky_relu_options;

WAI_WEBNN_API void wai_ml_leaky_relu_options_default(wai_ml_leaky_relu_options *o);
WAI_WEBNN_API wai_status wai_ml_leaky_relu(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                           const wai_ml_leaky_relu_options *o,
                                           wai_ml_operand **out);

typedef struct wai_ml_clamp_options {
    int has_min_value;
    double min_value; /* not given: -Infinity */
    int has_max_value;
    double max_value; /* not given: +Infinity */
    const char *label;
} wai_ml_clamp_options;

WAI_WEBNN_API void wai_ml_clamp_options_default(wai_ml_clamp_options *o);
WAI_WEBNN_API wai_status wai_ml_clamp(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                      const wai_ml_clamp_options *o, wai_ml_operand **out);

/* ---- shape and data movement -------------------------------------------- */

WAI_WEBNN_API wai_status wai_ml_concat(wai_ml_graph_builder *b, const wai_ml_operand *const *inputs,
                                       size_t n_inputs, uint32_t axis,
                                       const wai_ml_operator_options *o, wai_ml_operand **out);

WAI_WEBNN_API wai_status wai_ml_reshape(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                        const uint32_t *new_shape, size_t new_shape_size,
                                        const wai_ml_operator_options *o, wai_ml_operand **out);

typedef struct wai_ml_slice_options {
    const uint32_t *strides; /* rank. NULL: 1s */
    size_t strides_size;
    const char *label;
} wai_ml_slice_options;

WAI_WEBNN_API wai_status wai_ml_slice(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                      const uint32_t *starts, size_t starts_size,
                                      const uint32_t *sizes, size_t sizes_size,
                                      const wai_ml_slice_options *o, wai_ml_operand **out);

typedef struct wai_ml_transpose_options {
    const uint32_t *permutation; /* rank. NULL: reversed */
    size_t permutation_size;
    const char *label;
} wai_ml_transpose_options;

WAI_WEBNN_API wai_status wai_ml_transpose(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                          const wai_ml_transpose_options *o, wai_ml_operand **out);

/* gemm(a, b, options): alpha * A' * B' + beta * C, A' = a or its transpose
 * ([M, K]), B' = b or its transpose ([K, N]); a and b of rank 2, float32 or
 * float16 and of one type; c, when given, of that type and unidirectionally
 * broadcastable to [M, N] (TypeError otherwise). */
typedef struct wai_ml_gemm_options {
    const wai_ml_operand *c; /* NULL: none */
    double alpha;            /* 1 */
    double beta;             /* 1 */
    int a_transpose;         /* 0 */
    int b_transpose;         /* 0 */
    const char *label;
} wai_ml_gemm_options;

WAI_WEBNN_API void wai_ml_gemm_options_default(wai_ml_gemm_options *o);
WAI_WEBNN_API wai_status wai_ml_gemm(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                     const wai_ml_operand *bb, const wai_ml_gemm_options *o,
                                     wai_ml_operand **out);

/* matmul(a, b): a [..., M, K] times b [..., K, N], the leading dimensions
 * broadcast (numpy); ranks at least 2, float32 or float16, one type. */
WAI_WEBNN_API wai_status wai_ml_matmul(wai_ml_graph_builder *b, const wai_ml_operand *a,
                                       const wai_ml_operand *bb, const wai_ml_operator_options *o,
                                       wai_ml_operand **out);

typedef enum wai_ml_padding_mode {
    WAI_ML_PAD_CONSTANT = 0,
    WAI_ML_PAD_EDGE,
    WAI_ML_PAD_REFLECTION
} wai_ml_padding_mode;

typedef struct wai_ml_pad_options {
    wai_ml_padding_mode mode; /* constant */
    double value;             /* 0 */
    const char *label;
} wai_ml_pad_options;

WAI_WEBNN_API void wai_ml_pad_options_default(wai_ml_pad_options *o);
WAI_WEBNN_API wai_status wai_ml_pad(wai_ml_graph_builder *b, const wai_ml_operand *input,
                                    const uint32_t *beginning_padding, size_t beginning_size,
                                    const uint32_t *ending_padding, size_t ending_size,
                                    const wai_ml_pad_options *o, wai_ml_operand **out);

/* ---- reductions ------------------------------------------------------------ */

typedef enum wai_ml_reduce_op {
    WAI_ML_REDUCE_L1 = 0,
    WAI_ML_REDUCE_L2,
    WAI_ML_REDUCE_LOG_SUM,
    WAI_ML_REDUCE_LOG_SUM_EXP,
    WAI_ML_REDUCE_MAX,
    WAI_ML_REDUCE_MEAN,
    WAI_ML_REDUCE_MIN,
    WAI_ML_REDUCE_PRODUCT,
    WAI_ML_REDUCE_SUM,
    WAI_ML_REDUCE_SUM_SQUARE
} wai_ml_reduce_op;

typedef struct wai_ml_reduce_options {
    const uint32_t *axes; /* NULL: every axis */
    size_t axes_size;
    int keep_dimensions;  /* false */
    const char *label;
} wai_ml_reduce_options;

WAI_WEBNN_API wai_status wai_ml_reduce(wai_ml_graph_builder *b, wai_ml_reduce_op op,
                                       const wai_ml_operand *input, const wai_ml_reduce_options *o,
                                       wai_ml_operand **out);

/* ---- graphs from a description -------------------------------------------
 * A graph written as JSON with its constants in a separate little-endian
 * float32 file (the decoder.webnn.json + decoder.f32 form of
 * neural-dispatch §6.2; docs/webnn.md, "Graph descriptions"): the builder
 * calls it names, in order, so a parameter set's program loads with no
 * code. The graph is built on c; its inputs are the description's. The
 * reader is strict: any member it does not know, a constant outside the
 * weights file, a name used twice is DataError with a message. */
typedef struct wai_ml_named_descriptor {
    const char *name;
    wai_ml_operand_descriptor desc;
} wai_ml_named_descriptor;

/* inputs (NULL, 0: none) replace the description's descriptors of those
 * inputs, so one description serves every shape its operators take (a
 * synthesis network at each picture size). */
WAI_WEBNN_API wai_status wai_ml_graph_from_json(wai_ml_context *c, const uint8_t *json,
                                                size_t json_len, const uint8_t *weights,
                                                size_t weights_len,
                                                const wai_ml_named_descriptor *inputs,
                                                size_t n_inputs, wai_ml_graph **out);

/* ---- a latent program's steps, for any WebNN --------------------------------
 * What every WebNN runs of a latent capability beside the graph itself,
 * the same C in the native backend and in a page (web/glue/float_path.c),
 * so the page's JavaScript keeps only building and computing the graph. */

/* The program a set holds for WebNN: decoder.webnn.json, read once (its
 * one input's name and shape), beside decoder.f32. */
typedef struct wai_webnn_program wai_webnn_program;

/* dispatch_program_absent when either member is missing or the description
 * is not one with one input of rank 4 and one output; out_of_memory. */
WAI_WEBNN_API wai_status wai_webnn_program_open(const wai_allocator *alloc, const wai_set *set,
                                                wai_webnn_program **out);
WAI_WEBNN_API void wai_webnn_program_destroy(wai_webnn_program *p);

/* Its input's name and its channels (the shape's second dimension). */
WAI_WEBNN_API const char *wai_webnn_program_input(const wai_webnn_program *p, uint32_t *channels);

/* WAI_ok when the program takes the job's latent, dispatch_shape_mismatch
 * when its input's channels are not the job's. */
WAI_WEBNN_API wai_status wai_webnn_program_shape(const wai_webnn_program *p,
                                                 const wai_latent_job *job);

/* The latent: out[i] = symbol[i] + its channel's offset, in float32 (n:
 * out's room, at least channels * height * width). */
WAI_WEBNN_API wai_status wai_webnn_latent(const wai_latent_job *job, float *out, size_t n);

/* The picture from the program's output planes [1, 3, h, w] (h, w at least
 * the picture's): job->rgb, docs/bmshj2018.md B4. */
WAI_WEBNN_API wai_status wai_webnn_picture(wai_latent_job *job, const float *planes, uint32_t h,
                                           uint32_t w);

/* ---- a learned image codec's analysis (the WIH1 encoder's float half) -----
 * libwai_write's hyperprior encoder (wai_hyper_encode) runs the set's
 * analysis networks here, then integers only (docs/hyperprior.md). */

typedef struct wai_webnn_analysis_args {
    const uint8_t *program;  /* analysis.webnn.json: input "x", outputs "y" and "z" */
    size_t program_len;
    const uint8_t *weights;  /* analysis.f32 */
    size_t weights_len;
    const uint8_t *rgb;      /* height x width x 3, rows top to bottom, R, G, B */
    uint32_t height, width;
    uint32_t afrac;          /* 1..30: the latents' scale */
} wai_webnn_analysis_args;

/* One latent: [c][h][w] values round(v * 2^afrac), ties to even, from the
 * context's allocator (the caller frees data through it). */
typedef struct wai_webnn_analysis_latent {
    int64_t *data;
    uint32_t c, h, w;
} wai_webnn_analysis_latent;

/* Runs the program on x = rgb / 255 ([1, 3, height, width], float32) on a
 * context of ctx (its allocator and threads) and gives y and z. Each output
 * must be [1, c, h, w] float32 (model_mismatch otherwise, and for a program
 * that does not build: a set's encoder members that do not fit it). A value
 * that is not finite or whose magnitude reaches 2^40 once scaled is
 * field_range (no latent of a trained codec comes near). out_of_memory
 * passes up; dispatch_backend_failed when the built graph does not run. On
 * failure y and z hold nothing. */
WAI_WEBNN_API wai_status wai_webnn_analysis(wai_context *ctx, const wai_webnn_analysis_args *args,
                                            wai_webnn_analysis_latent *y,
                                            wai_webnn_analysis_latent *z);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_ML_H */
