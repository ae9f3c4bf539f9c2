/* SPDX-License-Identifier: BSD-2-Clause */
/* The 480 float32 cases of WPT's WebNN conformance tests (tests/webnn/)
 * through the native WebNN, on the fastest kernels and on the reference:
 * each output element within WPT's tolerance of the expected value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "harness.h"
#include "wai/wai_ml.h"
#include "webnn/ml.h"

/* The distance in float32 units in the last place: both values mapped to
 * a line of integers on which adjacent floats are one apart. */
static uint64_t ulp_distance(float a, float b) {
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    int64_t la = ia < 0 ? (int64_t)INT32_MIN - ia : ia, lb = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
    return (uint64_t)(la > lb ? la - lb : lb - la);
}

static int number_of(const wai_json_value *v, double *out) {
    if (wai_json_type_of(v) == WAI_JSON_STRING) {
        const char *s = wai_json_string(v, NULL);
        *out = strcmp(s, "Infinity") == 0 ? INFINITY : strcmp(s, "-Infinity") == 0 ? -INFINITY : NAN;
        return 1;
    }
    size_t len;
    const char *t = wai_json_number_text(v, &len);
    return t && wai_ml_number_from_text(t, len, out);
}

/* A tensor's descriptor and its values as float32 (fill: one value). */
static int read_tensor(const wai_json_value *v, wai_ml_operand_descriptor *d, float **values) {
    memset(d, 0, sizeof *d);
    const char *t = wai_json_string(wai_json_object_get(v, "dataType"), NULL);
    const wai_json_value *shape = wai_json_object_get(v, "shape"), *data = wai_json_object_get(v, "data");
    if (!t || !wai_ml_data_type_from_name(t, &d->data_type) || !shape || !data) return 0;
    d->rank = (uint32_t)wai_json_array_len(shape);
    for (uint32_t i = 0; i < d->rank; i++) {
        uint64_t x;
        if (!wai_json_get_u64(wai_json_array_at(shape, i), &x)) return 0;
        d->shape[i] = (uint32_t)x;
    }
    size_t n = (size_t)wai_ml_elements(d);
    const wai_json_value *fill = wai_json_object_get(v, "fill");
    int filled = fill && wai_json_bool(fill);
    *values = malloc(sizeof(float) * (n ? n : 1));
    double x = 0;
    if (filled && !number_of(wai_json_array_at(data, 0), &x)) return 0;
    for (size_t i = 0; i < n; i++) {
        if (!filled && !number_of(wai_json_array_at(data, i), &x)) return 0;
        (*values)[i] = (float)x;
    }
    return 1;
}

/* A case's tolerance, read once: ULP or absolute, and its limit. */
typedef struct tolerance {
    int present, absolute;
    double limit;
} tolerance;

static tolerance tolerance_of(const wai_json_value *tol) {
    tolerance t = {0, 0, 0};
    if (!tol || !number_of(wai_json_object_get(tol, "value"), &t.limit)) return t;
    const char *kind = wai_json_string(wai_json_object_get(tol, "kind"), NULL);
    t.present = 1;
    t.absolute = kind && strcmp(kind, "ATOL") == 0;
    return t;
}

/* Within the tolerance. */
static int close_enough(const tolerance *t, float got, float want) {
    if (!t->present) return 0;
    if (isnan(want)) return isnan(got);
    if (isnan(got)) return 0;
    if (t->absolute) return fabs((double)got - want) <= t->limit;
    return (double)ulp_distance(got, want) <= t->limit;
}

typedef struct tally {
    int cases, passed;
    double worst_ulp;
} tally;

/* One case on one context: 1 when every output is within tolerance. */
static int run_case(wai_ml_context *c, const wai_json_value *cs, char *why, size_t why_size) {
    const wai_json_value *expected = wai_json_object_get(cs, "expected"),
                         *inputs = wai_json_object_get(cs, "inputs"),
                         *tol = wai_json_object_get(cs, "tolerance"),
                         *alt = wai_json_object_get(cs, "tolerance_alt");
    size_t n_out = wai_json_object_len(expected), n_in = inputs ? wai_json_object_len(inputs) : 0;
    const char *names[8];
    for (size_t i = 0; i < n_out && i < 8; i++) wai_json_object_value_at(expected, i, &names[i], NULL);
    wai_ml_graph *g = NULL;
    wai_status st = wai_ml_graph_from_description(c, cs, NULL, 0, NULL, 0, 0, names, n_out, UINT64_MAX,
                                                  &g);
    if (st != WAI_ok) {
        snprintf(why, why_size, "build: %s: %s", wai_status_name(st), wai_ml_error_message(c));
        return 0;
    }
    int ok = 1;
    wai_ml_named_tensor in[8] = {{0}}, out[8] = {{0}};
    float *want[8] = {0};
    wai_ml_operand_descriptor wd[8];
    for (size_t i = 0; ok && i < n_in; i++) {
        const char *name;
        const wai_json_value *v = wai_json_object_value_at(inputs, i, &name, NULL);
        wai_ml_tensor_descriptor td;
        float *vals;
        ok = read_tensor(v, &td.desc, &vals);
        td.readable = 0, td.writable = 1;
        in[i].name = name;
        ok = ok && wai_ml_create_tensor(c, &td, &in[i].tensor) == WAI_ok;
        size_t n = (size_t)wai_ml_elements(&td.desc);
        if (ok && td.desc.data_type == WAI_ML_FLOAT16) {
            uint16_t *h = malloc(2 * n + 2);
            for (size_t k = 0; k < n; k++) h[k] = wai_ml_f16_from_f32(vals[k]);
            ok = wai_ml_write_tensor(c, in[i].tensor, h, 2 * n) == WAI_ok;
            free(h);
        } else if (ok) {
            ok = wai_ml_write_tensor(c, in[i].tensor, vals, 4 * n) == WAI_ok;
        }
        free(vals);
    }
    for (size_t i = 0; ok && i < n_out; i++) {
        ok = read_tensor(wai_json_object_value_at(expected, i, NULL, NULL), &wd[i], &want[i]);
        wai_ml_tensor_descriptor td = {wd[i], 1, 0};
        out[i].name = names[i];
        ok = ok && wai_ml_create_tensor(c, &td, &out[i].tensor) == WAI_ok;
    }
    if (!ok) snprintf(why, why_size, "the case's tensors");
    if (ok && (st = wai_ml_dispatch(c, g, in, n_in, out, n_out)) != WAI_ok) {
        snprintf(why, why_size, "dispatch: %s: %s", wai_status_name(st), wai_ml_error_message(c));
        ok = 0;
    }
    for (size_t i = 0; ok && i < n_out; i++) {
        size_t n = (size_t)wai_ml_elements(&wd[i]);
        float *got = malloc(4 * n + 4);
        if (wd[i].data_type == WAI_ML_FLOAT16) {
            uint16_t *h = malloc(2 * n + 2);
            ok = wai_ml_read_tensor(c, out[i].tensor, h, 2 * n) == WAI_ok;
            for (size_t k = 0; k < n; k++) got[k] = wai_ml_f32_from_f16(h[k]);
            free(h);
        } else {
            ok = wai_ml_read_tensor(c, out[i].tensor, got, 4 * n) == WAI_ok;
        }
        /* The case's tolerance, or its alternative (WPT's older rule). */
        const tolerance t = tolerance_of(tol), ta = tolerance_of(alt);
        for (size_t k = 0; ok && k < n; k++)
            if (!close_enough(&t, got[k], want[i][k]) && !close_enough(&ta, got[k], want[i][k])) {
                snprintf(why, why_size, "output %s[%zu]: %.9g, want %.9g (%llu ulp)", names[i], k,
                         (double)got[k], (double)want[i][k],
                         (unsigned long long)ulp_distance(got[k], want[i][k]));
                ok = 0;
            }
        free(got);
    }
    for (size_t i = 0; i < n_out; i++) free(want[i]);
    for (size_t i = 0; i < n_in; i++) wai_ml_tensor_destroy(in[i].tensor);
    for (size_t i = 0; i < n_out; i++) wai_ml_tensor_destroy(out[i].tensor);
    wai_ml_graph_destroy(g);
    return ok;
}

/* Every case of one file, on both kernel sets. */
static void every_case_of(const char *file) {
    size_t len;
    uint8_t *text = harness_read_file(file, &len);
    if (!CHECK(text)) return;
    wai_json_doc *doc;
    if (!CHECK(wai_json_parse(NULL, text, len, &doc, NULL) == WAI_JSON_OK)) {
        free(text);
        return;
    }
    const wai_json_value *cases = wai_json_root(doc);
    wai_context *ctx;
    CHECK(wai_context_create(NULL, &ctx) == WAI_ok);
    static const wai_ml_kernels kernels[] = {WAI_ML_KERNELS_BEST, WAI_ML_KERNELS_REFERENCE};
    for (size_t kk = 0; kk < 2; kk++) {
        wai_ml_context_options o;
        wai_ml_context_options_default(&o);
        o.kernels = kernels[kk];
        wai_ml_context *c;
        if (!CHECK(wai_ml_create_context(ctx, &o, &c) == WAI_ok)) continue;
        int passed = 0, n = (int)wai_json_array_len(cases);
        for (int i = 0; i < n; i++) {
            const wai_json_value *cs = wai_json_array_at(cases, (size_t)i);
            char why[256] = "";
            int ok = run_case(c, cs, why, sizeof why);
            passed += ok;
            CHECK_MSG(ok, "%s kernels, case %d '%s': %s", kk ? "reference" : "best", i,
                      wai_json_string(wai_json_object_get(cs, "name"), NULL), why);
        }
        printf("webnn conformance, %s (%s kernels): %d of %d cases pass\n", file,
               kk ? "reference" : "best", passed, n);
        wai_ml_context_destroy(c);
    }
    wai_context_destroy(ctx);
    wai_json_free(doc);
    free(text);
}

/* WPT's cases, then ours for the operators WPT's data has none of
 * (tests/webnn/gen_spec_cases.py: gemm, matmul). */
static void test_every_case(void) { every_case_of("webnn/cases.json"); }
static void test_every_spec_case(void) { every_case_of("webnn/cases_spec.json"); }

void suite_webnn_conformance(void) {
    harness_run("webnn_conformance_every_case", test_every_case);
    harness_run("webnn_conformance_spec_cases", test_every_spec_case);
}
