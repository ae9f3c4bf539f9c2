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
        size_t j = 0;
        while (keys[j] && strcmp(keys[j], k) != 0) j++;
        if (!keys[j]) return BAD(L, "graph: %s has a member '%.40s' this reader does not know",
                                 where, k);
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
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (allowed[j] && strcmp(allowed[j], a->name[i]) != 0) j++;
        if (!allowed[j]) return BAD(L, "graph: %s takes no argument '%.40s'", op, a->name[i]);
    }
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
        size_t j = 0;
        while (keys[j] && strcmp(keys[j], k) != 0) j++;
        if (!keys[j]) return BAD(L, "graph: %s has no option '%.40s'", op, k);
    }
    return WAI_ok;
}

/* An optional list option into buf (*size 0 and *p NULL when absent). */
static wai_status list_opt(const loader *L, const wai_json_value *opts, const char *key,
                           uint32_t *buf, const uint32_t **p, size_t *size) {
    const wai_json_value *v = opts ? wai_json_object_get(opts, key) : NULL;
    *p = NULL;
    *size = 0;
    if (!v) return WAI_ok;
    wai_status st = u32_list(L, v, key, buf, size);
    if (st == WAI_ok) *p = buf;
    return st;
}

static wai_status u32_opt(const loader *L, const wai_json_value *opts, const char *key,
                          uint32_t *out) {
    const wai_json_value *v = opts ? wai_json_object_get(opts, key) : NULL;
    uint64_t x;
    if (!v) return WAI_ok;
    if (!wai_json_get_u64(v, &x) || x > UINT32_MAX)
        return BAD(L, "graph: option %s is not an unsigned 32-bit integer", key);
    *out = (uint32_t)x;
    return WAI_ok;
}

/* A string option naming one of the enum's tokens (its index). */
static wai_status enum_opt(const loader *L, const wai_json_value *opts, const char *key,
                           const char *const *tokens, int *out) {
    const wai_json_value *v = opts ? wai_json_object_get(opts, key) : NULL;
    if (!v) return WAI_ok;
    const char *s = string_of(v);
    for (int i = 0; s && tokens[i]; i++)
        if (strcmp(tokens[i], s) == 0) {
            *out = i;
            return WAI_ok;
        }
    return BAD(L, "graph: option %s is not one of its tokens", key);
}

static const char *const layouts[] = {"nchw", "nhwc", NULL};
static const char *const conv2d_filters[] = {"oihw", "hwio", "ohwi", "ihwo", NULL};
static const char *const convt_filters[] = {"iohw", "hwoi", "ohwi", NULL};
static const char *const pad_modes[] = {"constant", "edge", "reflection", NULL};

static const char *label_of(const wai_json_value *opts) {
    return opts ? string_of(wai_json_object_get(opts, "label")) : NULL;
}

static wai_status bias_opt(const loader *L, const wai_json_value *opts, const char *op,
                           const wai_ml_operand **bias) {
    const wai_json_value *v = opts ? wai_json_object_get(opts, "bias") : NULL;
    *bias = NULL;
    return v ? operand_arg(L, v, op, "bias", bias) : WAI_ok;
}

static wai_status conv(loader *L, const char *op, const args *a, int transposed,
                       wai_ml_operand **out) {
    static const char *const allowed[] = {"input", "filter", "options", NULL};
    static const char *const conv_keys[] = {"padding", "strides", "dilations", "groups",
                                            "inputLayout", "filterLayout", "bias", "label",
                                            NULL};
    static const char *const convt_keys[] = {"padding",      "strides",     "dilations",
                                             "outputPadding", "outputSizes", "groups",
                                             "inputLayout",  "filterLayout", "bias",
                                             "label",        NULL};
    const wai_ml_operand *x, *w, *bias;
    const wai_json_value *o;
    uint32_t pad[LIST_MAX], str[LIST_MAX], dil[LIST_MAX], opad[LIST_MAX], osz[LIST_MAX];
    wai_status st;
    if ((st = args_known(L, a, op, allowed)) || (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
        (st = operand_arg(L, arg(a, "filter"), op, "filter", &w)) ||
        (st = options_of(L, a, op, transposed ? convt_keys : conv_keys, &o)) ||
        (st = bias_opt(L, o, op, &bias)))
        return st;
    /* What both read, in this order: padding, strides, dilations; a
     * transposed one's own; groups and the layouts. */
    struct {
        const uint32_t *pad, *str, *dil;
        size_t n_pad, n_str, n_dil;
        uint32_t groups;
        int il, fl;
    } k = {NULL, NULL, NULL, 0, 0, 0, 1, 0, 0};
    const uint32_t *op_pad = NULL, *op_osz = NULL;
    size_t n_opad = 0, n_osz = 0;
    if ((st = list_opt(L, o, "padding", pad, &k.pad, &k.n_pad)) ||
        (st = list_opt(L, o, "strides", str, &k.str, &k.n_str)) ||
        (st = list_opt(L, o, "dilations", dil, &k.dil, &k.n_dil)) ||
        (transposed &&
         ((st = list_opt(L, o, "outputPadding", opad, &op_pad, &n_opad)) ||
          (st = list_opt(L, o, "outputSizes", osz, &op_osz, &n_osz)))) ||
        (st = u32_opt(L, o, "groups", &k.groups)) ||
        (st = enum_opt(L, o, "inputLayout", layouts, &k.il)) ||
        (st = enum_opt(L, o, "filterLayout", transposed ? convt_filters : conv2d_filters, &k.fl)))
        return st;
    if (!transposed) {
        wai_ml_conv2d_options co;
        wai_ml_conv2d_options_default(&co);
        co.padding = k.pad, co.padding_size = k.n_pad;
        co.strides = k.str, co.strides_size = k.n_str;
        co.dilations = k.dil, co.dilations_size = k.n_dil;
        co.groups = k.groups;
        co.input_layout = (wai_ml_input_operand_layout)k.il;
        co.filter_layout = (wai_ml_conv2d_filter_operand_layout)k.fl;
        co.bias = bias;
        co.label = label_of(o);
        return wai_ml_conv2d(L->b, x, w, &co, out);
    }
    wai_ml_conv_transpose2d_options co;
    wai_ml_conv_transpose2d_options_default(&co);
    co.padding = k.pad, co.padding_size = k.n_pad;
    co.strides = k.str, co.strides_size = k.n_str;
    co.dilations = k.dil, co.dilations_size = k.n_dil;
    co.output_padding = op_pad, co.output_padding_size = n_opad;
    co.output_sizes = op_osz, co.output_sizes_size = n_osz;
    co.groups = k.groups;
    co.input_layout = (wai_ml_input_operand_layout)k.il;
    co.filter_layout = (wai_ml_conv_transpose2d_filter_operand_layout)k.fl;
    co.bias = bias;
    co.label = label_of(o);
    return wai_ml_conv_transpose2d(L->b, x, w, &co, out);
}

static const char *const binary_ops[] = {"add", "sub", "mul", "div", "max", "min", "pow", NULL};
static const char *const unary_ops[] = {"abs",  "ceil", "cos",       "erf",  "exp",   "floor",
                                        "identity", "log", "neg", "reciprocal", "roundEven",
                                        "sin",  "sign", "sqrt",      "tan",  "relu",  "sigmoid",
                                        "tanh", NULL};
static const char *const reduce_ops[] = {"reduceL1",  "reduceL2",   "reduceLogSum",
                                         "reduceLogSumExp", "reduceMax", "reduceMean",
                                         "reduceMin", "reduceProduct", "reduceSum",
                                         "reduceSumSquare", NULL};
static const char *const label_only[] = {"label", NULL};

static int index_of(const char *const *names, const char *name) {
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

/* The WebNN method op of the description, with its arguments. */
static wai_status call(loader *L, const char *op, const args *a, wai_ml_operand **out) {
    const wai_json_value *o;
    const wai_ml_operand *x, *y;
    wai_status st;
    int k;
    if (strcmp(op, "conv2d") == 0) return conv(L, op, a, 0, out);
    if (strcmp(op, "convTranspose2d") == 0) return conv(L, op, a, 1, out);
    if ((k = index_of(binary_ops, op)) >= 0) {
        static const char *const allowed[] = {"a", "b", "options", NULL};
        if ((st = args_known(L, a, op, allowed)) || (st = operand_arg(L, arg(a, "a"), op, "a", &x)) ||
            (st = operand_arg(L, arg(a, "b"), op, "b", &y)) ||
            (st = options_of(L, a, op, label_only, &o)))
            return st;
        wai_ml_operator_options oo = {label_of(o)};
        return wai_ml_binary(L->b, (wai_ml_binary_op)k, x, y, &oo, out);
    }
    if (strcmp(op, "matmul") == 0 || strcmp(op, "gemm") == 0) {
        static const char *const allowed[] = {"a", "b", "options", NULL};
        static const char *const gk[] = {"c", "alpha", "beta", "aTranspose", "bTranspose", "label",
                                         NULL};
        int gemm = op[0] == 'g';
        if ((st = args_known(L, a, op, allowed)) || (st = operand_arg(L, arg(a, "a"), op, "a", &x)) ||
            (st = operand_arg(L, arg(a, "b"), op, "b", &y)) ||
            (st = options_of(L, a, op, gemm ? gk : label_only, &o)))
            return st;
        if (!gemm) {
            wai_ml_operator_options oo = {label_of(o)};
            return wai_ml_matmul(L->b, x, y, &oo, out);
        }
        wai_ml_gemm_options go;
        wai_ml_gemm_options_default(&go);
        const wai_json_value *cv = o ? wai_json_object_get(o, "c") : NULL;
        if (cv && (st = operand_arg(L, cv, op, "c", &go.c))) return st;
        const wai_json_value *al = o ? wai_json_object_get(o, "alpha") : NULL,
                             *be = o ? wai_json_object_get(o, "beta") : NULL;
        if ((al && !number_of(al, &go.alpha)) || (be && !number_of(be, &go.beta)))
            return BAD(L, "graph: gemm's alpha and beta are numbers");
        const char *flags[2] = {"aTranspose", "bTranspose"};
        int *dst[2] = {&go.a_transpose, &go.b_transpose};
        for (int i = 0; i < 2; i++) {
            const wai_json_value *f = o ? wai_json_object_get(o, flags[i]) : NULL;
            if (f && wai_json_type_of(f) != WAI_JSON_BOOL)
                return BAD(L, "graph: gemm's %s is not a boolean", flags[i]);
            *dst[i] = f && wai_json_bool(f);
        }
        go.label = label_of(o);
        return wai_ml_gemm(L->b, x, y, &go, out);
    }
    static const char *const input_options[] = {"input", "options", NULL};
    if ((k = index_of(unary_ops, op)) >= 0) {
        if ((st = args_known(L, a, op, input_options)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, label_only, &o)))
            return st;
        wai_ml_operator_options oo = {label_of(o)};
        return wai_ml_unary(L->b, (wai_ml_unary_op)k, x, &oo, out);
    }
    if ((k = index_of(reduce_ops, op)) >= 0) {
        static const char *const keys[] = {"axes", "keepDimensions", "label", NULL};
        uint32_t axes[LIST_MAX];
        wai_ml_reduce_options ro = {NULL, 0, 0, NULL};
        if ((st = args_known(L, a, op, input_options)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, keys, &o)) ||
            (st = list_opt(L, o, "axes", axes, &ro.axes, &ro.axes_size)))
            return st;
        const wai_json_value *kd = o ? wai_json_object_get(o, "keepDimensions") : NULL;
        if (kd && wai_json_type_of(kd) != WAI_JSON_BOOL)
            return BAD(L, "graph: %s's keepDimensions is not a boolean", op);
        ro.keep_dimensions = kd && wai_json_bool(kd);
        ro.label = label_of(o);
        return wai_ml_reduce(L->b, (wai_ml_reduce_op)k, x, &ro, out);
    }
    if (strcmp(op, "leakyRelu") == 0 || strcmp(op, "clamp") == 0) {
        static const char *const lk[] = {"alpha", "label", NULL};
        static const char *const ck[] = {"minValue", "maxValue", "label", NULL};
        int leaky = op[0] == 'l';
        if ((st = args_known(L, a, op, input_options)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, leaky ? lk : ck, &o)))
            return st;
        if (leaky) {
            wai_ml_leaky_relu_options lo;
            wai_ml_leaky_relu_options_default(&lo);
            const wai_json_value *al = o ? wai_json_object_get(o, "alpha") : NULL;
            if (al && !number_of(al, &lo.alpha)) return BAD(L, "graph: alpha is not a number");
            lo.label = label_of(o);
            return wai_ml_leaky_relu(L->b, x, &lo, out);
        }
        wai_ml_clamp_options co;
        wai_ml_clamp_options_default(&co);
        const wai_json_value *mn = o ? wai_json_object_get(o, "minValue") : NULL,
                             *mx = o ? wai_json_object_get(o, "maxValue") : NULL;
        if ((mn && !number_of(mn, &co.min_value)) || (mx && !number_of(mx, &co.max_value)))
            return BAD(L, "graph: clamp's bounds are not numbers");
        co.has_min_value = mn != NULL;
        co.has_max_value = mx != NULL;
        co.label = label_of(o);
        return wai_ml_clamp(L->b, x, &co, out);
    }
    if (strcmp(op, "concat") == 0) {
        static const char *const allowed[] = {"inputs", "axis", "options", NULL};
        const wai_json_value *in = arg(a, "inputs");
        uint64_t axis;
        if ((st = args_known(L, a, op, allowed)) || (st = options_of(L, a, op, label_only, &o)))
            return st;
        if (!in || wai_json_type_of(in) != WAI_JSON_ARRAY)
            return BAD(L, "graph: concat's inputs is not a list");
        if (!wai_json_get_u64(arg(a, "axis"), &axis) || axis > UINT32_MAX)
            return BAD(L, "graph: concat's axis is not an unsigned 32-bit integer");
        size_t n = wai_json_array_len(in);
        const wai_ml_operand **ins = wai_alloc_array(L->c->alloc, n ? n : 1, sizeof *ins);
        if (!ins) return wai_ml_fail(L->c, WAI_out_of_memory, "out of memory");
        st = WAI_ok;
        for (size_t i = 0; st == WAI_ok && i < n; i++)
            st = operand_arg(L, wai_json_array_at(in, i), op, "input", &ins[i]);
        wai_ml_operator_options oo = {label_of(o)};
        if (st == WAI_ok) st = wai_ml_concat(L->b, ins, n, (uint32_t)axis, &oo, out);
        wai_free(L->c->alloc, ins);
        return st;
    }
    if (strcmp(op, "reshape") == 0) {
        static const char *const allowed[] = {"input", "newShape", "options", NULL};
        uint32_t shape[LIST_MAX];
        size_t n;
        if ((st = args_known(L, a, op, allowed)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, label_only, &o)) ||
            (st = u32_list(L, arg(a, "newShape"), "newShape", shape, &n)))
            return st;
        wai_ml_operator_options oo = {label_of(o)};
        return wai_ml_reshape(L->b, x, shape, n, &oo, out);
    }
    if (strcmp(op, "slice") == 0) {
        static const char *const allowed[] = {"input", "starts", "sizes", "options", NULL};
        static const char *const keys[] = {"strides", "label", NULL};
        uint32_t starts[LIST_MAX], sizes[LIST_MAX], strides[LIST_MAX];
        size_t ns, nz;
        wai_ml_slice_options so = {NULL, 0, NULL};
        if ((st = args_known(L, a, op, allowed)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, keys, &o)) ||
            (st = u32_list(L, arg(a, "starts"), "starts", starts, &ns)) ||
            (st = u32_list(L, arg(a, "sizes"), "sizes", sizes, &nz)) ||
            (st = list_opt(L, o, "strides", strides, &so.strides, &so.strides_size)))
            return st;
        so.label = label_of(o);
        return wai_ml_slice(L->b, x, starts, ns, sizes, nz, &so, out);
    }
    if (strcmp(op, "transpose") == 0) {
        static const char *const keys[] = {"permutation", "label", NULL};
        uint32_t perm[LIST_MAX];
        wai_ml_transpose_options to = {NULL, 0, NULL};
        if ((st = args_known(L, a, op, input_options)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, keys, &o)) ||
            (st = list_opt(L, o, "permutation", perm, &to.permutation, &to.permutation_size)))
            return st;
        to.label = label_of(o);
        return wai_ml_transpose(L->b, x, &to, out);
    }
    if (strcmp(op, "pad") == 0) {
        static const char *const allowed[] = {"input", "beginningPadding", "endingPadding",
                                              "options", NULL};
        static const char *const keys[] = {"mode", "value", "label", NULL};
        uint32_t beg[LIST_MAX], end[LIST_MAX];
        size_t nb, ne;
        int mode = 0;
        wai_ml_pad_options po;
        wai_ml_pad_options_default(&po);
        if ((st = args_known(L, a, op, allowed)) ||
            (st = operand_arg(L, arg(a, "input"), op, "input", &x)) ||
            (st = options_of(L, a, op, keys, &o)) ||
            (st = u32_list(L, arg(a, "beginningPadding"), "beginningPadding", beg, &nb)) ||
            (st = u32_list(L, arg(a, "endingPadding"), "endingPadding", end, &ne)) ||
            (st = enum_opt(L, o, "mode", pad_modes, &mode)))
            return st;
        const wai_json_value *val = o ? wai_json_object_get(o, "value") : NULL;
        if (val && !number_of(val, &po.value)) return BAD(L, "graph: pad's value is not a number");
        po.mode = (wai_ml_padding_mode)mode;
        po.label = label_of(o);
        return wai_ml_pad(L->b, x, beg, nb, end, ne, &po, out);
    }
    return BAD(L, "graph: no operation '%.40s' in this reader", op);
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
