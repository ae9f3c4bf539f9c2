/* SPDX-License-Identifier: BSD-2-Clause */
/* MLContext.opSupportLimits() (webnn.md §8.3): what the native runtime
 * builds, as the MLOpSupportLimits dictionary's JSON. One table, each row
 * an operator's operands with the ranks its builder method takes
 * (tests/unit/test_webnn_limits.c builds each at its bounds); every
 * operand is float32 or float16, as every method here checks. */
#include <stdio.h>
#include <string.h>

#include "webnn/ml.h"

typedef struct operand_limit {
    const char *name;
    uint8_t min, max;
} operand_limit;

typedef struct op_limits {
    const char *op;
    operand_limit operand[5];
} op_limits;

#define R WAI_ML_MAX_RANK
#define ANY(n) {n, 0, R}
#define UNARY(op) {op, {ANY("input"), ANY("output")}}
#define BINARY(op) {op, {ANY("a"), ANY("b"), ANY("output")}}
#define REDUCE(op) {op, {ANY("input"), ANY("output")}}

static const op_limits rows[] = {
    BINARY("add"), BINARY("sub"), BINARY("mul"), BINARY("div"), BINARY("max"), BINARY("min"),
    BINARY("pow"),
    UNARY("abs"), UNARY("ceil"), UNARY("cos"), UNARY("erf"), UNARY("exp"), UNARY("floor"),
    UNARY("identity"), UNARY("log"), UNARY("neg"), UNARY("reciprocal"), UNARY("roundEven"),
    UNARY("sin"), UNARY("sign"), UNARY("sqrt"), UNARY("tan"), UNARY("relu"), UNARY("sigmoid"),
    UNARY("tanh"), UNARY("leakyRelu"), UNARY("clamp"),
    {"concat", {{"inputs", 1, R}, {"output", 1, R}}},
    UNARY("reshape"), UNARY("slice"), UNARY("transpose"), UNARY("pad"),
    REDUCE("reduceL1"), REDUCE("reduceL2"), REDUCE("reduceLogSum"), REDUCE("reduceLogSumExp"),
    REDUCE("reduceMax"), REDUCE("reduceMean"), REDUCE("reduceMin"), REDUCE("reduceProduct"),
    REDUCE("reduceSum"), REDUCE("reduceSumSquare"),
    {"conv2d", {{"input", 4, 4}, {"filter", 4, 4}, {"bias", 1, 1}, {"output", 4, 4}}},
    {"convTranspose2d", {{"input", 4, 4}, {"filter", 4, 4}, {"bias", 1, 1}, {"output", 4, 4}}},
    {"gemm", {{"a", 2, 2}, {"b", 2, 2}, {"c", 0, 2}, {"output", 2, 2}}},
    {"matmul", {{"a", 2, R}, {"b", 2, R}, {"output", 2, R}}},
};

typedef struct out {
    char *buf;
    size_t size, at;
} out;

static void put(out *o, const char *fmt, const char *s, unsigned a, unsigned b) {
    char tmp[160];
    int n = snprintf(tmp, sizeof tmp, fmt, s, a, b);
    if (n < 0) return;
    if (o->at < o->size) {
        size_t room = o->size - o->at;
        memcpy(o->buf + o->at, tmp, (size_t)n < room ? (size_t)n : room);
    }
    o->at += (size_t)n;
}

/* "NAME": {"dataTypes": [...], "rankRange": {"min": A, "max": B}} */
static void tensor_limits(out *o, const char *name, unsigned min, unsigned max, int first) {
    put(o, first ? "\"%s\": {\"dataTypes\": [\"float32\", \"float16\"], " :
                   ", \"%s\": {\"dataTypes\": [\"float32\", \"float16\"], ", name, 0, 0);
    put(o, "%s\"rankRange\": {\"min\": %u, \"max\": %u}}", "", min, max);
}

wai_status wai_ml_op_support_limits_json(const wai_ml_context *c, char *buf, size_t size,
                                         size_t *need) {
    if (!c || (size && !buf)) return WAI_invalid_argument;
    out o = {buf, size, 0};
    /* The largest tensor: 2^31 - 1 elements of float32 (wai_ml_dimensions_ok). */
    char max_bytes[24];
    snprintf(max_bytes, sizeof max_bytes, "%llu", (unsigned long long)INT32_MAX * 4);
    put(&o, "{\"preferredInputLayout\": \"nchw\", \"maxTensorByteLength\": %s, ", max_bytes, 0, 0);
    tensor_limits(&o, "input", 0, R, 1);
    tensor_limits(&o, "constant", 0, R, 0);
    tensor_limits(&o, "output", 0, R, 0);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        put(&o, ", \"%s\": {", rows[i].op, 0, 0);
        for (int k = 0; k < 5 && rows[i].operand[k].name; k++)
            tensor_limits(&o, rows[i].operand[k].name, rows[i].operand[k].min,
                          rows[i].operand[k].max, k == 0);
        put(&o, "%s}", "", 0, 0);
    }
    put(&o, "%s}", "", 0, 0);
    if (need) *need = o.at;
    if (o.at < size) buf[o.at] = '\0';
    return o.at < size ? WAI_ok : WAI_invalid_argument;
}
