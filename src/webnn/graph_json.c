/* SPDX-License-Identifier: BSD-2-Clause */
/* Graph descriptions (docs/webnn.md, "Graph descriptions"): a JSON text
 * naming, in order, the builder calls that make a graph, with its
 * constants inline or in a float32 weights file. The arguments are the
 * WebNN methods' own names, so the description reads as the JavaScript
 * that would build the same graph. */
#include <math.h>
#include <string.h>

#include "common/alloc.h"
#include "common/json.h"
#include "webnn/ml.h"

#define LIST_MAX 64 /* the longest list an option holds (a shape, a permutation) */

typedef struct named {
    const char *name;
    const wai_ml_operand *operand;
} named;

typedef struct loader {
    wai_ml_context *c;
    wai_ml_graph_builder *b;
    named *names;
    size_t n, cap;
    const uint8_t *weights;
    size_t weights_len;
    int strict;
    uint64_t max_bytes;   /* what the constants may take (wai_ml_graph_from_json_within) */
    uint64_t held;        /* what those read so far take */
} loader;

#define BAD(L, ...) wai_ml_fail((L)->c, WAI_DataError, __VA_ARGS__)

static const wai_ml_operand *find(const loader *L, const char *name) {
    for (size_t i = 0; i < L->n; i++)
        if (strcmp(L->names[i].name, name) == 0) return L->names[i].operand;
    return NULL;
}

static wai_status bind(loader *L, const char *name, const wai_ml_operand *o) {
    if (!name[0]) return BAD(L, "graph: an operand has an empty name");
    if (find(L, name)) return BAD(L, "graph: '%.60s' is named twice", name);
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        named *v = wai_alloc_array(L->c->alloc, cap, sizeof *v);
        if (!v) return wai_ml_fail(L->c, WAI_out_of_memory, "out of memory");
        if (L->n) memcpy(v, L->names, L->n * sizeof *v);
        wai_free(L->c->alloc, L->names);
        L->names = v;
        L->cap = cap;
    }
    L->names[L->n].name = name;
    L->names[L->n].operand = o;
    L->n++;
    return WAI_ok;
}

/* Where name is in names (NULL-terminated), or -1. */
static int index_of(const char *const *names, const char *name) {
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

/* Members of an object the reader knows; strict refuses any other. */
static wai_status known(const loader *L, const wai_json_value *obj, const char *where,
                        const char *const *keys) {
    if (wai_json_type_of(obj) != WAI_JSON_OBJECT)
        return BAD(L, "graph: %s is not an object", where);
    if (!L->strict) return WAI_ok;
    for (size_t i = 0; i < wai_json_object_len(obj); i++) {
        const char *k;
        size_t kl;
        wai_json_object_value_at(obj, i, &k, &kl);
        if (index_of(keys, k) < 0)
            return BAD(L, "graph: %s has a member '%.40s' this reader does not know", where, k);
    }
    return WAI_ok;
}

static const char *string_of(const wai_json_value *v) {
    return v && wai_json_type_of(v) == WAI_JSON_STRING ? wai_json_string(v, NULL) : NULL;
}

/* A number: JSON's, or the strings "Infinity", "-Infinity", "NaN" (JSON
 * has no literal for them). */
static int number_of(const wai_json_value *v, double *out) {
    if (!v) return 0;
    if (wai_json_type_of(v) == WAI_JSON_STRING) {
        const char *s = wai_json_string(v, NULL);
        if (strcmp(s, "Infinity") == 0) *out = INFINITY;
        else if (strcmp(s, "-Infinity") == 0) *out = -INFINITY;
        else if (strcmp(s, "NaN") == 0) *out = NAN;
        else return 0;
        return 1;
    }
    if (wai_json_type_of(v) != WAI_JSON_NUMBER) return 0;
    size_t len;
    const char *t = wai_json_number_text(v, &len);
    return wai_ml_number_from_text(t, len, out);
}

static wai_status u32_list(const loader *L, const wai_json_value *v, const char *what,
                           uint32_t *out, size_t *n) {
    if (!v || wai_json_type_of(v) != WAI_JSON_ARRAY)
        return BAD(L, "graph: %s is not a list", what);
    *n = wai_json_array_len(v);
    if (*n > LIST_MAX) return BAD(L, "graph: %s has more than %d items", what, LIST_MAX);
    for (size_t i = 0; i < *n; i++) {
        uint64_t x;
        if (!wai_json_get_u64(wai_json_array_at(v, i), &x) || x > UINT32_MAX)
            return BAD(L, "graph: %s holds something not an unsigned 32-bit integer", what);
        out[i] = (uint32_t)x;
    }
    return WAI_ok;
}

static wai_status descriptor(const loader *L, const wai_json_value *v, const char *what,
                             wai_ml_operand_descriptor *d) {
    memset(d, 0, sizeof *d);
    const char *t = string_of(wai_json_object_get(v, "dataType"));
    if (!t || !wai_ml_data_type_from_name(t, &d->data_type))
        return BAD(L, "graph: %s has no known dataType", what);
    uint32_t shape[LIST_MAX];
    size_t n;
    wai_status st = u32_list(L, wai_json_object_get(v, "shape"), what, shape, &n);
    if (st != WAI_ok) return st;
    if (n > WAI_ML_MAX_RANK) return BAD(L, "graph: %s has rank %zu (at most %d)", what, n,
                                        WAI_ML_MAX_RANK);
    d->rank = (uint32_t)n;
    memcpy(d->shape, shape, n * sizeof *shape);
    return WAI_ok;
}

/* ---- inputs and constants --------------------------------------------------- */

/* Entry i of the inputs or the constants: its name, its value (holding only
 * the keys allowed) and its descriptor. */
static wai_status named_entry(loader *L, const wai_json_value *all, size_t i, const char *what,
                              const char *const *keys, const char **name,
                              const wai_json_value **v, wai_ml_operand_descriptor *d) {
    *v = wai_json_object_value_at(all, i, name, NULL);
    wai_status st = known(L, *v, what, keys);
    return st == WAI_ok ? descriptor(L, *v, what, d) : st;
}

static wai_status read_inputs(loader *L, const wai_json_value *inputs,
                              const wai_ml_named_descriptor *over, size_t n_over) {
    if (!inputs) return WAI_ok;
    if (wai_json_type_of(inputs) != WAI_JSON_OBJECT)
        return BAD(L, "graph: inputs is not an object");
    static const char *const keys[] = {"dataType", "shape", "data", NULL};
    for (size_t i = 0; i < wai_json_object_len(inputs); i++) {
        const char *name;
        const wai_json_value *v;
        wai_ml_operand_descriptor d;
        wai_status st = named_entry(L, inputs, i, "an input", keys, &name, &v, &d);
        for (size_t k = 0; st == WAI_ok && k < n_over; k++)
            if (over[k].name && strcmp(over[k].name, name) == 0) d = over[k].desc;
        wai_ml_operand *o;
        if (st == WAI_ok) st = wai_ml_input(L->b, name, &d, &o);
        if (st == WAI_ok) st = bind(L, name, o);
        if (st != WAI_ok) return st;
    }
    return WAI_ok;
}

/* Where a constant's values come from, checked before its buffer is
 * allocated: inline ("data", one value filling the shape with "fill":
 * true) or at "offset" bytes into the weights file (float32 little-endian,
 * 4-byte aligned). A shape larger than its source is refused here, so a
 * few bytes of description cannot ask for gigabytes. */
typedef struct constant_source {
    const wai_json_value *data;   /* the inline values, or NULL */
    uint64_t at;                  /* else the offset into the weights file */
    int filled;
    double fill_value;
} constant_source;

static wai_status constant_source_of(loader *L, const wai_json_value *v, const char *name,
                                     const wai_ml_operand_descriptor *d, constant_source *src) {
    const size_t n = (size_t)wai_ml_elements(d);
    const wai_json_value *data = wai_json_object_get(v, "data"),
                         *offset = wai_json_object_get(v, "offset");
    memset(src, 0, sizeof *src);
    if (!data == !offset)
        return BAD(L, "graph: constant '%.60s' needs one of data and offset", name);
    if (offset) {
        if (d->data_type != WAI_ML_FLOAT32)
            return BAD(L, "graph: constant '%.60s' in the weights file is not float32", name);
        if (!wai_json_get_u64(offset, &src->at) || src->at % 4 || src->at > L->weights_len ||
            (L->weights_len - src->at) / 4 < n)
            return BAD(L, "graph: constant '%.60s' lies outside the weights file", name);
        return WAI_ok;
    }
    const wai_json_value *fill = wai_json_object_get(v, "fill");
    src->data = data;
    src->filled = fill && wai_json_type_of(fill) == WAI_JSON_BOOL && wai_json_bool(fill);
    if (wai_json_type_of(data) != WAI_JSON_ARRAY ||
        wai_json_array_len(data) != (src->filled ? 1 : n))
        return BAD(L, "graph: constant '%.60s' has %zu values for %zu elements", name,
                   wai_json_type_of(data) == WAI_JSON_ARRAY ? wai_json_array_len(data) : 0, n);
    if (src->filled && !number_of(wai_json_array_at(data, 0), &src->fill_value))
        return BAD(L, "graph: constant '%.60s' holds something not a number", name);
    return WAI_ok;
}

/* An inline constant's values, as the descriptor's type's bytes. */
static wai_status constant_bytes(loader *L, const constant_source *src, const char *name,
                                 const wai_ml_operand_descriptor *d, uint8_t *bytes) {
    const size_t n = (size_t)wai_ml_elements(d);
    const int f16 = d->data_type == WAI_ML_FLOAT16;
    for (size_t i = 0; i < n; i++) {
        double x = src->fill_value;
        if (!src->filled && !number_of(wai_json_array_at(src->data, i), &x))
            return BAD(L, "graph: constant '%.60s' holds something not a number", name);
        /* Rounded to float32 first, as a Float32Array would. */
        float f = (float)x;
        if (f16) {
            uint16_t h = wai_ml_f16_from_f32(f);
            bytes[2 * i] = (uint8_t)h, bytes[2 * i + 1] = (uint8_t)(h >> 8);
        } else {
            memcpy(bytes + 4 * i, &f, 4);
        }
    }
    return WAI_ok;
}

static wai_status read_constants(loader *L, const wai_json_value *constants) {
    if (!constants) return WAI_ok;
    if (wai_json_type_of(constants) != WAI_JSON_OBJECT)
        return BAD(L, "graph: constants is not an object");
    static const char *const keys[] = {"dataType", "shape", "data", "fill", "offset", NULL};
    for (size_t i = 0; i < wai_json_object_len(constants); i++) {
        const char *name;
        const wai_json_value *v;
        wai_ml_operand_descriptor d;
        constant_source src;
        wai_status st = named_entry(L, constants, i, "a constant", keys, &name, &v, &d);
        if (st != WAI_ok) return st;
        if (!wai_ml_dimensions_ok(&d))
            return BAD(L, "graph: constant '%.60s' has no valid shape", name);
        if ((st = constant_source_of(L, v, name, &d, &src)) != WAI_ok) return st;
        size_t bytes = (size_t)wai_ml_elements(&d) * wai_ml_data_type_size(d.data_type);
        /* The builder holds each constant as float32, and the graph takes
         * those values when it builds; an inline one is written out first. */
        const uint64_t kept = 4 * wai_ml_elements(&d), passing = src.data ? bytes : 0;
        if (kept > L->max_bytes - L->held || passing > L->max_bytes - L->held - kept)
            return wai_ml_fail(L->c, WAI_cost_over_limit,
                               "graph: constant '%.60s' takes the constants past %llu bytes",
                               name, (unsigned long long)L->max_bytes);
        L->held += kept;
        wai_ml_operand *o;
        if (!src.data) {
            /* float32 little-endian in the file, as the builder reads bytes */
            st = wai_ml_constant(L->b, &d, L->weights + src.at, bytes, &o);
        } else {
            uint8_t *buf = wai_alloc(L->c->alloc, bytes);
            if (!buf) return wai_ml_fail(L->c, WAI_out_of_memory, "out of memory");
            st = constant_bytes(L, &src, name, &d, buf);
            if (st == WAI_ok) st = wai_ml_constant(L->b, &d, buf, bytes, &o);
            wai_free(L->c->alloc, buf);
        }
        if (st == WAI_ok) st = bind(L, name, o);
        if (st != WAI_ok) return st;
    }
    return WAI_ok;
}

/* ---- operators ------------------------------------------------------------------ */

/* An operator's arguments: a list of one-member objects, by name. */
#define ARGS_MAX 8
typedef struct args {
    const char *name[ARGS_MAX];
    const wai_json_value *value[ARGS_MAX];
    size_t n;
} args;

static const wai_json_value *arg(const args *a, const char *name) {
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->name[i], name) == 0) return a->value[i];
    return NULL;
}

/* Every argument is one the operator takes (allowed, NULL-terminated). */
static wai_status args_known(const loader *L, const args *a, const char *op,
                             const char *const *allowed) {
    for (size_t i = 0; i < a->n; i++)
        if (index_of(allowed, a->name[i]) < 0)
            return BAD(L, "graph: %s takes no argument '%.40s'", op, a->name[i]);
    return WAI_ok;
}

/* An operand argument (a name of an earlier operand). */
static wai_status operand_arg(const loader *L, const wai_json_value *v, const char *op,
                              const char *what, const wai_ml_operand **out) {
    const char *name = string_of(v);
    if (!name) return BAD(L, "graph: %s's %s is not an operand's name", op, what);
    if (!(*out = find(L, name)))
        return BAD(L, "graph: %s's %s '%.60s' names no earlier operand", op, what, name);
    return WAI_ok;
}

/* The options object, each member one of keys. */
static wai_status options_of(const loader *L, const args *a, const char *op,
                             const char *const *keys, const wai_json_value **out) {
    *out = arg(a, "options");
    if (!*out) return WAI_ok;
    if (wai_json_type_of(*out) != WAI_JSON_OBJECT)
        return BAD(L, "graph: %s's options is not an object", op);
    for (size_t i = 0; i < wai_json_object_len(*out); i++) {
        const char *k;
        wai_json_object_value_at(*out, i, &k, NULL);
        if (index_of(keys, k) < 0) return BAD(L, "graph: %s has no option '%.40s'", op, k);
    }
    return WAI_ok;
}

/* One option's value, NULL when absent (opts NULL: no options given). */
static const wai_json_value *opt(const wai_json_value *opts, const char *key) {
    return opts ? wai_json_object_get(opts, key) : NULL;
}

/* An operand option (conv's bias, gemm's c): NULL when absent. */
static wai_status operand_opt(const loader *L, const wai_json_value *opts, const char *op,
                              const char *key, const wai_ml_operand **out) {
    const wai_json_value *v = opt(opts, key);
    *out = NULL;
    return v ? operand_arg(L, v, op, key, out) : WAI_ok;
}

/* An optional list option into buf (*size 0 and *p NULL when absent). */
static wai_status list_opt(const loader *L, const wai_json_value *opts, const char *key,
                           uint32_t *buf, const uint32_t **p, size_t *size) {
    const wai_json_value *v = opt(opts, key);
    *p = NULL;
    *size = 0;
    if (!v) return WAI_ok;
    wai_status st = u32_list(L, v, key, buf, size);
    if (st == WAI_ok) *p = buf;
    return st;
}

static wai_status u32_opt(const loader *L, const wai_json_value *opts, const char *key,
                          uint32_t *out) {
    const wai_json_value *v = opt(opts, key);
    uint64_t x;
    if (!v) return WAI_ok;
    if (!wai_json_get_u64(v, &x) || x > UINT32_MAX)
        return BAD(L, "graph: option %s is not an unsigned 32-bit integer", key);
    *out = (uint32_t)x;
    return WAI_ok;
}

/* A boolean option (false when absent). */
static wai_status bool_opt(const loader *L, const wai_json_value *opts, const char *op,
                           const char *key, int *out) {
    const wai_json_value *v = opt(opts, key);
    if (v && wai_json_type_of(v) != WAI_JSON_BOOL)
        return BAD(L, "graph: %s's %s is not a boolean", op, key);
    *out = v && wai_json_bool(v);
    return WAI_ok;
}

/* A number option into *out, left as it is when absent; 0 when it is
 * there and no number (each caller words its own refusal). */
static int number_opt(const wai_json_value *opts, const char *key, double *out) {
    const wai_json_value *v = opt(opts, key);
    return !v || number_of(v, out);
}

/* A string option naming one of the enum's tokens (its index). */
static wai_status enum_opt(const loader *L, const wai_json_value *opts, const char *key,
                           const char *const *tokens, int *out) {
    const wai_json_value *v = opt(opts, key);
    if (!v) return WAI_ok;
    const char *s = string_of(v);
    const int i = s ? index_of(tokens, s) : -1;
    if (i < 0) return BAD(L, "graph: option %s is not one of its tokens", key);
    *out = i;
    return WAI_ok;
}

static const char *const layouts[] = {"nchw", "nhwc", NULL};
static const char *const conv2d_filters[] = {"oihw", "hwio", "ohwi", "ihwo", NULL};
static const char *const convt_filters[] = {"iohw", "hwoi", "ohwi", NULL};
static const char *const pad_modes[] = {"constant", "edge", "reflection", NULL};

static const char *label_of(const wai_json_value *opts) {
    return string_of(opt(opts, "label"));
}

/* ---- the operator table ---------------------------------------------------------- */

/* One operator being read. call() reads what every row has, in this
 * order: the arguments' names, the operand arguments, the options; the
 * row's build reads the rest and calls the builder. */
typedef struct op_call {
    const loader *L;
    const char *op;             /* the operator's name, for messages */
    const args *a;
    const wai_ml_operand *x[2]; /* the operand arguments, in the row's order */
    const wai_json_value *o;    /* the options object, or NULL */
    int sub;                    /* the row's sub */
} op_call;

typedef struct op_row {
    const char *name;           /* the WebNN method */
    const char *const *args;    /* the arguments it takes, its operands first */
    int operands;               /* how many of those name operands */
    const char *const *options; /* its options' keys */
    wai_status (*build)(const op_call *c, wai_ml_operand **out);
    int sub;                    /* the binary, unary or reduce operation; transposed */
} op_row;

/* A list argument (newShape, starts, ...). */
static wai_status list_arg(const op_call *c, const char *name, uint32_t *buf, size_t *n) {
    return u32_list(c->L, arg(c->a, name), name, buf, n);
}

static wai_status build_binary(const op_call *c, wai_ml_operand **out) {
    wai_ml_operator_options oo = {label_of(c->o)};
    return wai_ml_binary(c->L->b, (wai_ml_binary_op)c->sub, c->x[0], c->x[1], &oo, out);
}

static wai_status build_matmul(const op_call *c, wai_ml_operand **out) {
    wai_ml_operator_options oo = {label_of(c->o)};
    return wai_ml_matmul(c->L->b, c->x[0], c->x[1], &oo, out);
}

static wai_status build_unary(const op_call *c, wai_ml_operand **out) {
    wai_ml_operator_options oo = {label_of(c->o)};
    return wai_ml_unary(c->L->b, (wai_ml_unary_op)c->sub, c->x[0], &oo, out);
}

/* convTranspose2d's options are conv2d's and two more: both read into
 * those, and conv2d takes its share. */
static wai_status build_conv(const op_call *c, wai_ml_operand **out) {
    const loader *L = c->L;
    const wai_json_value *o = c->o;
    const int transposed = c->sub;
    uint32_t pad[LIST_MAX], str[LIST_MAX], dil[LIST_MAX], opad[LIST_MAX], osz[LIST_MAX];
    int il = 0, fl = 0;
    wai_ml_conv_transpose2d_options t;
    wai_ml_conv_transpose2d_options_default(&t);
    wai_status st;
    if ((st = operand_opt(L, o, c->op, "bias", &t.bias)) ||
        (st = list_opt(L, o, "padding", pad, &t.padding, &t.padding_size)) ||
        (st = list_opt(L, o, "strides", str, &t.strides, &t.strides_size)) ||
        (st = list_opt(L, o, "dilations", dil, &t.dilations, &t.dilations_size)) ||
        (transposed &&
         ((st = list_opt(L, o, "outputPadding", opad, &t.output_padding,
                         &t.output_padding_size)) ||
          (st = list_opt(L, o, "outputSizes", osz, &t.output_sizes, &t.output_sizes_size)))) ||
        (st = u32_opt(L, o, "groups", &t.groups)) ||
        (st = enum_opt(L, o, "inputLayout", layouts, &il)) ||
        (st = enum_opt(L, o, "filterLayout", transposed ? convt_filters : conv2d_filters, &fl)))
        return st;
    t.input_layout = (wai_ml_input_operand_layout)il;
    t.label = label_of(o);
    if (transposed) {
        t.filter_layout = (wai_ml_conv_transpose2d_filter_operand_layout)fl;
        return wai_ml_conv_transpose2d(L->b, c->x[0], c->x[1], &t, out);
    }
    const wai_ml_conv2d_options co = {
        .padding = t.padding, .padding_size = t.padding_size,
        .strides = t.strides, .strides_size = t.strides_size,
        .dilations = t.dilations, .dilations_size = t.dilations_size,
        .groups = t.groups, .input_layout = t.input_layout, .bias = t.bias, .label = t.label,
        .filter_layout = (wai_ml_conv2d_filter_operand_layout)fl};
    return wai_ml_conv2d(L->b, c->x[0], c->x[1], &co, out);
}

static wai_status build_gemm(const op_call *c, wai_ml_operand **out) {
    const wai_json_value *o = c->o;
    wai_ml_gemm_options go;
    wai_ml_gemm_options_default(&go);
    wai_status st;
    if ((st = operand_opt(c->L, o, c->op, "c", &go.c))) return st;
    if (!number_opt(o, "alpha", &go.alpha) || !number_opt(o, "beta", &go.beta))
        return BAD(c->L, "graph: gemm's alpha and beta are numbers");
    if ((st = bool_opt(c->L, o, c->op, "aTranspose", &go.a_transpose)) ||
        (st = bool_opt(c->L, o, c->op, "bTranspose", &go.b_transpose)))
        return st;
    go.label = label_of(o);
    return wai_ml_gemm(c->L->b, c->x[0], c->x[1], &go, out);
}

static wai_status build_reduce(const op_call *c, wai_ml_operand **out) {
    uint32_t axes[LIST_MAX];
    wai_ml_reduce_options ro = {NULL, 0, 0, NULL};
    wai_status st;
    if ((st = list_opt(c->L, c->o, "axes", axes, &ro.axes, &ro.axes_size)) ||
        (st = bool_opt(c->L, c->o, c->op, "keepDimensions", &ro.keep_dimensions)))
        return st;
    ro.label = label_of(c->o);
    return wai_ml_reduce(c->L->b, (wai_ml_reduce_op)c->sub, c->x[0], &ro, out);
}

static wai_status build_leaky_relu(const op_call *c, wai_ml_operand **out) {
    wai_ml_leaky_relu_options lo;
    wai_ml_leaky_relu_options_default(&lo);
    if (!number_opt(c->o, "alpha", &lo.alpha)) return BAD(c->L, "graph: alpha is not a number");
    lo.label = label_of(c->o);
    return wai_ml_leaky_relu(c->L->b, c->x[0], &lo, out);
}

static wai_status build_clamp(const op_call *c, wai_ml_operand **out) {
    wai_ml_clamp_options co;
    wai_ml_clamp_options_default(&co);
    if (!number_opt(c->o, "minValue", &co.min_value) ||
        !number_opt(c->o, "maxValue", &co.max_value))
        return BAD(c->L, "graph: clamp's bounds are not numbers");
    co.has_min_value = opt(c->o, "minValue") != NULL;
    co.has_max_value = opt(c->o, "maxValue") != NULL;
    co.label = label_of(c->o);
    return wai_ml_clamp(c->L->b, c->x[0], &co, out);
}

static wai_status build_concat(const op_call *c, wai_ml_operand **out) {
    const loader *L = c->L;
    const wai_json_value *in = arg(c->a, "inputs");
    uint64_t axis;
    if (!in || wai_json_type_of(in) != WAI_JSON_ARRAY)
        return BAD(L, "graph: concat's inputs is not a list");
    if (!wai_json_get_u64(arg(c->a, "axis"), &axis) || axis > UINT32_MAX)
        return BAD(L, "graph: concat's axis is not an unsigned 32-bit integer");
    size_t n = wai_json_array_len(in);
    const wai_ml_operand **ins = wai_alloc_array(L->c->alloc, n ? n : 1, sizeof *ins);
    if (!ins) return wai_ml_fail(L->c, WAI_out_of_memory, "out of memory");
    wai_status st = WAI_ok;
    for (size_t i = 0; st == WAI_ok && i < n; i++)
        st = operand_arg(L, wai_json_array_at(in, i), c->op, "input", &ins[i]);
    wai_ml_operator_options oo = {label_of(c->o)};
    if (st == WAI_ok) st = wai_ml_concat(L->b, ins, n, (uint32_t)axis, &oo, out);
    wai_free(L->c->alloc, ins);
    return st;
}

static wai_status build_reshape(const op_call *c, wai_ml_operand **out) {
    uint32_t shape[LIST_MAX];
    size_t n;
    wai_status st = list_arg(c, "newShape", shape, &n);
    if (st != WAI_ok) return st;
    wai_ml_operator_options oo = {label_of(c->o)};
    return wai_ml_reshape(c->L->b, c->x[0], shape, n, &oo, out);
}

static wai_status build_slice(const op_call *c, wai_ml_operand **out) {
    uint32_t starts[LIST_MAX], sizes[LIST_MAX], strides[LIST_MAX];
    size_t ns, nz;
    wai_ml_slice_options so = {NULL, 0, NULL};
    wai_status st;
    if ((st = list_arg(c, "starts", starts, &ns)) || (st = list_arg(c, "sizes", sizes, &nz)) ||
        (st = list_opt(c->L, c->o, "strides", strides, &so.strides, &so.strides_size)))
        return st;
    so.label = label_of(c->o);
    return wai_ml_slice(c->L->b, c->x[0], starts, ns, sizes, nz, &so, out);
}

static wai_status build_transpose(const op_call *c, wai_ml_operand **out) {
    uint32_t perm[LIST_MAX];
    wai_ml_transpose_options to = {NULL, 0, NULL};
    wai_status st = list_opt(c->L, c->o, "permutation", perm, &to.permutation,
                             &to.permutation_size);
    if (st != WAI_ok) return st;
    to.label = label_of(c->o);
    return wai_ml_transpose(c->L->b, c->x[0], &to, out);
}

static wai_status build_pad(const op_call *c, wai_ml_operand **out) {
    uint32_t beg[LIST_MAX], end[LIST_MAX];
    size_t nb, ne;
    int mode = 0;
    wai_ml_pad_options po;
    wai_ml_pad_options_default(&po);
    wai_status st;
    if ((st = list_arg(c, "beginningPadding", beg, &nb)) ||
        (st = list_arg(c, "endingPadding", end, &ne)) ||
        (st = enum_opt(c->L, c->o, "mode", pad_modes, &mode)))
        return st;
    if (!number_opt(c->o, "value", &po.value))
        return BAD(c->L, "graph: pad's value is not a number");
    po.mode = (wai_ml_padding_mode)mode;
    po.label = label_of(c->o);
    return wai_ml_pad(c->L->b, c->x[0], beg, nb, end, ne, &po, out);
}

/* What the rows take: arguments (operands first) and options' keys. */
static const char *const ab_args[] = {"a", "b", "options", NULL};
static const char *const input_args[] = {"input", "options", NULL};
static const char *const conv_args[] = {"input", "filter", "options", NULL};
static const char *const concat_args[] = {"inputs", "axis", "options", NULL};
static const char *const reshape_args[] = {"input", "newShape", "options", NULL};
static const char *const slice_args[] = {"input", "starts", "sizes", "options", NULL};
static const char *const pad_args[] = {"input", "beginningPadding", "endingPadding", "options",
                                       NULL};

static const char *const label_only[] = {"label", NULL};
static const char *const conv_keys[] = {"padding", "strides", "dilations", "groups", "inputLayout",
                                        "filterLayout", "bias", "label", NULL};
static const char *const convt_keys[] = {"padding", "strides", "dilations", "outputPadding",
                                         "outputSizes", "groups", "inputLayout", "filterLayout",
                                         "bias", "label", NULL};
static const char *const gemm_keys[] = {"c", "alpha", "beta", "aTranspose", "bTranspose", "label",
                                        NULL};
static const char *const reduce_keys[] = {"axes", "keepDimensions", "label", NULL};
static const char *const leaky_keys[] = {"alpha", "label", NULL};
static const char *const clamp_keys[] = {"minValue", "maxValue", "label", NULL};
static const char *const slice_keys[] = {"strides", "label", NULL};
static const char *const transpose_keys[] = {"permutation", "label", NULL};
static const char *const pad_keys[] = {"mode", "value", "label", NULL};

/* The families, one builder each, differ only in the operation. */
#define BINARY(name, sub) {name, ab_args, 2, label_only, build_binary, sub}
#define UNARY(name, sub) {name, input_args, 1, label_only, build_unary, sub}
#define REDUCE(name, sub) {name, input_args, 1, reduce_keys, build_reduce, sub}

static const op_row op_rows[] = {
    /* name, arguments, operands among them, options, build, sub */
    {"conv2d", conv_args, 2, conv_keys, build_conv, 0},
    {"convTranspose2d", conv_args, 2, convt_keys, build_conv, 1},
    {"matmul", ab_args, 2, label_only, build_matmul, 0},
    {"gemm", ab_args, 2, gemm_keys, build_gemm, 0},
    {"leakyRelu", input_args, 1, leaky_keys, build_leaky_relu, 0},
    {"clamp", input_args, 1, clamp_keys, build_clamp, 0},
    {"concat", concat_args, 0, label_only, build_concat, 0},
    {"reshape", reshape_args, 1, label_only, build_reshape, 0},
    {"slice", slice_args, 1, slice_keys, build_slice, 0},
    {"transpose", input_args, 1, transpose_keys, build_transpose, 0},
    {"pad", pad_args, 1, pad_keys, build_pad, 0},
    BINARY("add", WAI_ML_ADD), BINARY("sub", WAI_ML_SUB), BINARY("mul", WAI_ML_MUL),
    BINARY("div", WAI_ML_DIV), BINARY("max", WAI_ML_MAX), BINARY("min", WAI_ML_MIN),
    BINARY("pow", WAI_ML_POW),
    UNARY("abs", WAI_ML_ABS), UNARY("ceil", WAI_ML_CEIL), UNARY("cos", WAI_ML_COS),
    UNARY("erf", WAI_ML_ERF), UNARY("exp", WAI_ML_EXP), UNARY("floor", WAI_ML_FLOOR),
    UNARY("identity", WAI_ML_IDENTITY), UNARY("log", WAI_ML_LOG), UNARY("neg", WAI_ML_NEG),
    UNARY("reciprocal", WAI_ML_RECIPROCAL), UNARY("roundEven", WAI_ML_ROUND_EVEN),
    UNARY("sin", WAI_ML_SIN), UNARY("sign", WAI_ML_SIGN), UNARY("sqrt", WAI_ML_SQRT),
    UNARY("tan", WAI_ML_TAN), UNARY("relu", WAI_ML_RELU), UNARY("sigmoid", WAI_ML_SIGMOID),
    UNARY("tanh", WAI_ML_TANH),
    REDUCE("reduceL1", WAI_ML_REDUCE_L1), REDUCE("reduceL2", WAI_ML_REDUCE_L2),
    REDUCE("reduceLogSum", WAI_ML_REDUCE_LOG_SUM),
    REDUCE("reduceLogSumExp", WAI_ML_REDUCE_LOG_SUM_EXP),
    REDUCE("reduceMax", WAI_ML_REDUCE_MAX), REDUCE("reduceMean", WAI_ML_REDUCE_MEAN),
    REDUCE("reduceMin", WAI_ML_REDUCE_MIN), REDUCE("reduceProduct", WAI_ML_REDUCE_PRODUCT),
    REDUCE("reduceSum", WAI_ML_REDUCE_SUM), REDUCE("reduceSumSquare", WAI_ML_REDUCE_SUM_SQUARE),
};

/* The WebNN method op of the description, with its arguments. */
static wai_status call(loader *L, const char *op, const args *a, wai_ml_operand **out) {
    const op_row *r = op_rows;
    const op_row *const end = op_rows + sizeof op_rows / sizeof *op_rows;
    while (r < end && strcmp(r->name, op) != 0) r++;
    if (r == end) return BAD(L, "graph: no operation '%.40s' in this reader", op);
    op_call c = {L, op, a, {NULL, NULL}, NULL, r->sub};
    wai_status st = args_known(L, a, op, r->args);
    for (int i = 0; st == WAI_ok && i < r->operands; i++)
        st = operand_arg(L, arg(a, r->args[i]), op, r->args[i], &c.x[i]);
    if (st == WAI_ok) st = options_of(L, a, op, r->options, &c.o);
    return st == WAI_ok ? r->build(&c, out) : st;
}

static wai_status read_operators(loader *L, const wai_json_value *ops) {
    if (!ops || wai_json_type_of(ops) != WAI_JSON_ARRAY)
        return BAD(L, "graph: operators is not a list");
    static const char *const keys[] = {"name", "arguments", "outputs", NULL};
    for (size_t i = 0; i < wai_json_array_len(ops); i++) {
        const wai_json_value *op = wai_json_array_at(ops, i), *al;
        wai_status st = known(L, op, "an operator", keys);
        if (st != WAI_ok) return st;
        const char *name = string_of(wai_json_object_get(op, "name")),
                   *output = string_of(wai_json_object_get(op, "outputs"));
        if (!name || !output) return BAD(L, "graph: operator %zu needs a name and outputs", i);
        al = wai_json_object_get(op, "arguments");
        if (!al || wai_json_type_of(al) != WAI_JSON_ARRAY || wai_json_array_len(al) > ARGS_MAX)
            return BAD(L, "graph: %s's arguments is not a list of at most %d", name, ARGS_MAX);
        args a;
        a.n = wai_json_array_len(al);
        for (size_t j = 0; j < a.n; j++) {
            const wai_json_value *one = wai_json_array_at(al, j);
            if (wai_json_type_of(one) != WAI_JSON_OBJECT || wai_json_object_len(one) != 1)
                return BAD(L, "graph: %s's argument %zu is not an object of one member", name, j);
            a.value[j] = wai_json_object_value_at(one, 0, &a.name[j], NULL);
            for (size_t k = 0; k < j; k++)
                if (strcmp(a.name[k], a.name[j]) == 0)
                    return BAD(L, "graph: %s's argument '%.40s' is given twice", name, a.name[j]);
        }
        wai_ml_operand *out;
        if ((st = call(L, name, &a, &out)) != WAI_ok) return st;
        if ((st = bind(L, output, out)) != WAI_ok) return st;
    }
    return WAI_ok;
}

wai_status wai_ml_graph_from_description(wai_ml_context *c, const wai_json_value *root,
                                         const uint8_t *weights, size_t weights_len,
                                         const wai_ml_named_descriptor *inputs, size_t n_inputs,
                                         int strict, const char *const *output_names,
                                         size_t n_output_names, uint64_t max_bytes,
                                         wai_ml_graph **out) {
    *out = NULL;
    loader L = {c, NULL, NULL, 0, 0, weights, weights_len, strict, max_bytes, 0};
    static const char *const keys[] = {"kind", "inputs", "constants", "operators", "outputs",
                                       NULL};
    wai_status st = known(&L, root, "the description", keys);
    if (st != WAI_ok) return st;
    const char *kind = string_of(wai_json_object_get(root, "kind"));
    if (strict && (!kind || strcmp(kind, "wai-webnn-graph/1") != 0))
        return BAD(&L, "graph: kind is not \"wai-webnn-graph/1\"");
    if ((st = wai_ml_graph_builder_create(c, &L.b)) != WAI_ok) return st;
    wai_ml_named_operand *outs = NULL;
    size_t n_outs = 0;
    if ((st = read_inputs(&L, wai_json_object_get(root, "inputs"), inputs, n_inputs)) ||
        (st = read_constants(&L, wai_json_object_get(root, "constants"))) ||
        (st = read_operators(&L, wai_json_object_get(root, "operators"))))
        goto done;
    const wai_json_value *ov = wai_json_object_get(root, "outputs");
    if (ov && wai_json_type_of(ov) != WAI_JSON_OBJECT) {
        st = BAD(&L, "graph: outputs is not an object");
        goto done;
    }
    n_outs = ov ? wai_json_object_len(ov) : n_output_names;
    if (!(outs = wai_alloc_zeroed(c->alloc, n_outs ? n_outs : 1, sizeof *outs))) {
        st = wai_ml_fail(c, WAI_out_of_memory, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n_outs; i++) {
        const char *name, *operand;
        if (ov) {
            operand = string_of(wai_json_object_value_at(ov, i, &name, NULL));
        } else {
            name = operand = output_names[i];
        }
        if (!operand || !(outs[i].operand = find(&L, operand))) {
            st = BAD(&L, "graph: output '%.60s' names no operand", name);
            goto done;
        }
        outs[i].name = name;
    }
    st = wai_ml_build(L.b, outs, n_outs, out);
done:
    wai_free(c->alloc, outs);
    wai_free(c->alloc, L.names);
    wai_ml_graph_builder_destroy(L.b);
    return st;
}

wai_status wai_ml_graph_from_json(wai_ml_context *c, const uint8_t *json, size_t json_len,
                                  const uint8_t *weights, size_t weights_len,
                                  const wai_ml_named_descriptor *inputs, size_t n_inputs,
                                  wai_ml_graph **out) {
    return wai_ml_graph_from_json_within(c, json, json_len, weights, weights_len, inputs,
                                         n_inputs, UINT64_MAX, out);
}

wai_status wai_ml_graph_from_json_within(wai_ml_context *c, const uint8_t *json, size_t json_len,
                                         const uint8_t *weights, size_t weights_len,
                                         const wai_ml_named_descriptor *inputs, size_t n_inputs,
                                         uint64_t max_bytes, wai_ml_graph **out) {
    if (!c || !out || (!json && json_len) || (!weights && weights_len) || (!inputs && n_inputs))
        return WAI_invalid_argument;
    *out = NULL;
    wai_json_doc *doc;
    size_t at = 0;
    wai_json_error e = wai_json_parse(c->alloc, json, json_len, &doc, &at);
    if (e == WAI_JSON_E_NOMEM) return wai_ml_fail(c, WAI_out_of_memory, "out of memory");
    if (e != WAI_JSON_OK)
        return wai_ml_fail(c, WAI_DataError, "graph: not a JSON text (%s at byte %zu)",
                           wai_json_error_name(e), at);
    wai_status st = wai_ml_graph_from_description(c, wai_json_root(doc), weights, weights_len,
                                                  inputs, n_inputs, 1, NULL, 0, max_bytes, out);
    wai_json_free(doc);
    return st;
}
