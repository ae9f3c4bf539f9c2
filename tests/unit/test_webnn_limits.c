/* SPDX-License-Identifier: BSD-2-Clause */
/* MLContext.opSupportLimits() (wai_ml_op_support_limits_json) against the
 * builder: every operator it lists with one tensor input is built, through
 * a graph description, at the least and the greatest rank it states (ok,
 * float32 and float16) and at one rank below the least (TypeError); the
 * operators of several operands at their stated bounds too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "harness.h"
#include "wai/wai_ml.h"

static wai_ml_context *g_ml;

/* A shape of rank r, every dimension 2. */
static void shape_text(char *out, size_t size, unsigned r) {
    size_t at = (size_t)snprintf(out, size, "[");
    for (unsigned i = 0; i < r; i++) at += (size_t)snprintf(out + at, size - at, i ? ", 2" : "2");
    snprintf(out + at, size - at, "]");
}

/* The arguments op takes beside its input, for an input of rank r. */
static void extra_args(char *out, size_t size, const char *op, unsigned r) {
    char list0[64], list2[64], list1[64];
    size_t a = (size_t)snprintf(list0, sizeof list0, "["), b = (size_t)snprintf(list2, sizeof list2, "["),
           c = (size_t)snprintf(list1, sizeof list1, "[");
    for (unsigned i = 0; i < r; i++) {
        a += (size_t)snprintf(list0 + a, sizeof list0 - a, i ? ", 0" : "0");
        b += (size_t)snprintf(list2 + b, sizeof list2 - b, i ? ", 2" : "2");
        c += (size_t)snprintf(list1 + c, sizeof list1 - c, i ? ", 1" : "1");
    }
    snprintf(list0 + a, sizeof list0 - a, "]");
    snprintf(list2 + b, sizeof list2 - b, "]");
    snprintf(list1 + c, sizeof list1 - c, "]");
    if (strcmp(op, "reshape") == 0) snprintf(out, size, ", {\"newShape\": %s}", list2);
    else if (strcmp(op, "slice") == 0) snprintf(out, size, ", {\"starts\": %s}, {\"sizes\": %s}", list0, list1);
    else if (strcmp(op, "pad") == 0)
        snprintf(out, size, ", {\"beginningPadding\": %s}, {\"endingPadding\": %s}", list1, list1);
    else out[0] = '\0';
}

static wai_status build_one(const char *op, unsigned r, const char *type) {
    char shape[64], extra[256], json[1024];
    shape_text(shape, sizeof shape, r);
    extra_args(extra, sizeof extra, op, r);
    if (strcmp(op, "concat") == 0)
        snprintf(json, sizeof json,
                 "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"%s\", "
                 "\"shape\": %s}}, \"operators\": [{\"name\": \"concat\", \"arguments\": "
                 "[{\"inputs\": [\"x\", \"x\"]}, {\"axis\": 0}], \"outputs\": \"y\"}], "
                 "\"outputs\": {\"y\": \"y\"}}", type, shape);
    else
        snprintf(json, sizeof json,
                 "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"x\": {\"dataType\": \"%s\", "
                 "\"shape\": %s}}, \"operators\": [{\"name\": \"%s\", \"arguments\": "
                 "[{\"input\": \"x\"}%s], \"outputs\": \"y\"}], \"outputs\": {\"y\": \"y\"}}",
                 type, shape, op, extra);
    wai_ml_graph *g = NULL;
    wai_status st = wai_ml_graph_from_json(g_ml, (const uint8_t *)json, strlen(json), NULL, 0, NULL, 0, &g);
    wai_ml_graph_destroy(g);
    return st;
}

/* An operator of two operands a and b of ranks ra and rb (2 each). */
static wai_status build_two(const char *op, unsigned ra, unsigned rb) {
    char sa[64], sb[64], json[1024];
    shape_text(sa, sizeof sa, ra);
    shape_text(sb, sizeof sb, rb);
    snprintf(json, sizeof json,
             "{\"kind\": \"wai-webnn-graph/1\", \"inputs\": {\"a\": {\"dataType\": \"float32\", "
             "\"shape\": %s}, \"b\": {\"dataType\": \"float32\", \"shape\": %s}}, \"operators\": "
             "[{\"name\": \"%s\", \"arguments\": [{\"a\": \"a\"}, {\"b\": \"b\"}], \"outputs\": \"y\"}], "
             "\"outputs\": {\"y\": \"y\"}}",
             sa, sb, op);
    wai_ml_graph *g = NULL;
    wai_status st = wai_ml_graph_from_json(g_ml, (const uint8_t *)json, strlen(json), NULL, 0, NULL, 0, &g);
    wai_ml_graph_destroy(g);
    return st;
}

static unsigned rank_of(const wai_json_value *op, const char *operand, const char *end) {
    const wai_json_value *v = wai_json_object_get(op, operand);
    v = v ? wai_json_object_get(v, "rankRange") : NULL;
    v = v ? wai_json_object_get(v, end) : NULL;
    int64_t x = -1;
    return v && wai_json_get_i64(v, &x) ? (unsigned)x : 99u;
}

static void test_limits_hold(void) {
    wai_context *ctx;
    if (!CHECK(wai_context_create(NULL, &ctx) == WAI_ok)) return;
    if (!CHECK(wai_ml_create_context(ctx, NULL, &g_ml) == WAI_ok)) return wai_context_destroy(ctx);
    size_t need = 0;
    CHECK(wai_ml_op_support_limits_json(g_ml, NULL, 0, &need) == WAI_invalid_argument && need > 100);
    char *text = malloc(need + 1);
    wai_json_doc *doc = NULL;
    if (!CHECK(text && wai_ml_op_support_limits_json(g_ml, text, need + 1, NULL) == WAI_ok &&
               wai_json_parse(NULL, (const uint8_t *)text, need, &doc, NULL) == WAI_JSON_OK))
        goto done;
    const wai_json_value *root = wai_json_root(doc);
    CHECK(strcmp(wai_json_string(wai_json_object_get(root, "preferredInputLayout"), NULL), "nchw") == 0);
    size_t n_ops = 0;
    for (size_t i = 0; i < wai_json_object_len(root); i++) {
        const char *op = NULL;
        const wai_json_value *v = wai_json_object_value_at(root, i, &op, NULL);
        if (!strcmp(op, "preferredInputLayout") || !strcmp(op, "maxTensorByteLength") ||
            !strcmp(op, "input") || !strcmp(op, "constant") || !strcmp(op, "output"))
            continue;
        n_ops++;
        const char *first = NULL;
        wai_json_object_value_at(v, 0, &first, NULL);
        unsigned lo = rank_of(v, first, "min"), hi = rank_of(v, first, "max");
        if (!strcmp(first, "input") || !strcmp(first, "inputs")) {
            if (!strcmp(op, "conv2d") || !strcmp(op, "convTranspose2d")) {
                CHECK_MSG(lo == 4 && hi == 4, "%s: input ranks %u..%u", op, lo, hi);
                continue;
            }
            for (int f16 = 0; f16 < 2; f16++) {
                const char *t = f16 ? "float16" : "float32";
                CHECK_MSG(build_one(op, lo, t) == WAI_ok, "%s %s at rank %u: %s", op, t, lo,
                          wai_ml_error_message(g_ml));
                CHECK_MSG(build_one(op, hi, t) == WAI_ok, "%s %s at rank %u: %s", op, t, hi,
                          wai_ml_error_message(g_ml));
            }
            if (lo > 0)
                CHECK_MSG(build_one(op, lo - 1, "float32") == WAI_TypeError, "%s at rank %u built", op,
                          lo - 1);
            if (hi < 8)
                CHECK_MSG(build_one(op, hi + 1, "float32") == WAI_TypeError, "%s at rank %u built", op,
                          hi + 1);
        } else {
            /* a and b: their bounds build, one below refuses. */
            unsigned blo = rank_of(v, "b", "min"), bhi = rank_of(v, "b", "max");
            CHECK_MSG(build_two(op, lo, blo) == WAI_ok, "%s at %u, %u: %s", op, lo, blo,
                      wai_ml_error_message(g_ml));
            CHECK_MSG(build_two(op, hi, bhi) == WAI_ok || (hi > 2 && !strcmp(op, "matmul") &&
                      build_two(op, hi, 2) == WAI_ok), "%s at %u, %u: %s", op, hi, bhi,
                      wai_ml_error_message(g_ml));
            if (lo > 0) CHECK_MSG(build_two(op, lo - 1, blo) == WAI_TypeError, "%s at rank %u built", op, lo - 1);
            if (hi < 8) CHECK_MSG(build_two(op, hi + 1, bhi) == WAI_TypeError, "%s at rank %u built", op, hi + 1);
        }
    }
    CHECK_MSG(n_ops == 46, "%zu operators listed", n_ops);
done:
    wai_json_free(doc);
    free(text);
    wai_ml_context_destroy(g_ml);
    wai_context_destroy(ctx);
}

void suite_webnn_limits(void) { harness_run("webnn_op_support_limits", test_limits_hold); }
