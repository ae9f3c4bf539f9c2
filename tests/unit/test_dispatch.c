/* SPDX-License-Identifier: BSD-2-Clause */
/* Neural dispatch (neural-dispatch §2-§5): demand, admit, choose, the
 * default probe and offer, the offer's text, and the report's exact text.
 * The expectations are written out as tables here, not recomputed with the
 * library's rules, so a wrong rule fails a row. */
#include <stdint.h>
#include <string.h>

#include "common/json.h"
#include "harness.h"
#include "wai/wai_dispatch.h"

/* ---- fixtures ------------------------------------------------------------ */

static const wai_capability *int_cap(void) { return wai_capability_find("wai.neural.int_hyper"); }
static const wai_capability *bms_cap(void) { return wai_capability_find("wai.neural.bmshj2018"); }

/* Classes no registry row has, so every class of §2 is covered. */
static const wai_capability entropy_cap = {
    "test.entropy_exact", WAI_FORMAT_NONE, -1, 0, "NeuralEntropyExact", "entropy-consistency",
    {NULL}};
static const wai_capability odd_cap = {
    "test.odd_class", WAI_FORMAT_NONE, -1, 0, "SomethingElse", "none", {NULL}};

enum { C_INT, C_ENTROPY, C_NEURAL, C_ODD, N_CLASSES };

static const wai_capability *class_cap(int c) {
    switch (c) {
    case C_INT: return int_cap();
    case C_ENTROPY: return &entropy_cap;
    case C_NEURAL: return bms_cap();
    default: return &odd_cap;
    }
}

#define P(u, b, a) {WAI_UNIT_##u, WAI_BACKEND_##b, WAI_ARITHMETIC_##a}

/* Every valid path (neural-dispatch §1, §3). */
static const wai_path all_paths[] = {
    P(NPU, MODEL_RUNTIME, FLOAT), P(GPU, MODEL_RUNTIME, FLOAT), P(CPU, MODEL_RUNTIME, FLOAT),
    P(NPU, WEBNN, FLOAT),         P(GPU, WEBNN, FLOAT),         P(CPU, WEBNN, FLOAT),
    P(NPU, ONNX_RUNTIME, FLOAT),  P(GPU, ONNX_RUNTIME, FLOAT),  P(CPU, ONNX_RUNTIME, FLOAT),
    P(CPU, WAI_OPS, INTEGER),     P(GPU, WGSL, INTEGER),
};
#define N_PATHS (sizeof all_paths / sizeof all_paths[0])
#define IS_INT_PATH(i) ((i) >= 9)
#define IS_CPU_WAI_OPS(i) ((i) == 9)
#define IS_CPU_WEBNN(i) ((i) == 5)

/* A device as a decoder of a context with the native WebNN sees it: the
 * integer interpreter and WebNN on the CPU, nothing else (a decoder asks
 * its context's backends, backend/registry.h; a pure choice asks a probe). */
static wai_status sink_unit(void *o, const wai_capability *c, const wai_path *p) {
    (void)o, (void)c;
    return p->unit == WAI_UNIT_CPU &&
                   (p->backend == WAI_BACKEND_WAI_OPS || p->backend == WAI_BACKEND_WEBNN)
               ? WAI_ok
               : WAI_dispatch_unit_absent;
}
static const wai_dispatch_probe sink = {NULL, sink_unit, NULL, NULL, NULL, {NULL}};

/* One choice object for the whole suite, and its report. */
static wai_dispatch *the_dispatch(void) {
    static wai_dispatch *d;
    if (!d) CHECK(wai_dispatch_create(NULL, &d) == WAI_ok);
    return d;
}

/* A whole choice with probe's answers (NULL: this sink's) and the run
 * answered yes; *r its report. */
static wai_status choose(const wai_capability *cap, const wai_dispatch_options *o,
                         const wai_dispatch_probe *probe, const wai_dispatch_report **r) {
    wai_status st = wai_dispatch_choose(the_dispatch(), cap, o, probe ? probe : &sink);
    *r = wai_dispatch_report_of(the_dispatch());
    return st;
}

/* An offer from its text, into storage that lives with it. */
typedef struct offer_buf {
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
} offer_buf;

static wai_status parse(const char *text, wai_dispatch_offer *o, offer_buf *b) {
    size_t n = 0;
    wai_status st = wai_dispatch_parse_offer(text, b->paths, WAI_DISPATCH_MAX_PATHS, &n);
    if (st == WAI_ok) {
        o->n = n;
        o->paths = b->paths;
    }
    return st;
}

/* ---- tokens -------------------------------------------------------------- */

static void test_tokens(void) {
    CHECK(strcmp(wai_tier_name(WAI_TIER_NONE), "none") == 0);
    CHECK(strcmp(wai_tier_name(WAI_TIER_ENTROPY_CONSISTENCY), "entropy-consistency") == 0);
    CHECK(strcmp(wai_tier_name(WAI_TIER_DECODE_EQUIVALENCE), "decode-equivalence") == 0);
    CHECK(wai_tier_name((wai_tier)3) == NULL && wai_tier_name((wai_tier)-1) == NULL);
    CHECK(strcmp(wai_unit_name(WAI_UNIT_NPU), "npu") == 0);
    CHECK(strcmp(wai_unit_name(WAI_UNIT_CPU), "cpu") == 0);
    CHECK(wai_unit_name((wai_unit)3) == NULL);
    CHECK(strcmp(wai_backend_name(WAI_BACKEND_MODEL_RUNTIME), "model-runtime") == 0);
    CHECK(strcmp(wai_backend_name(WAI_BACKEND_ONNX_RUNTIME), "onnx-runtime") == 0);
    CHECK(strcmp(wai_backend_name(WAI_BACKEND_WAI_OPS), "wai-ops") == 0);
    CHECK(strcmp(wai_backend_name(WAI_BACKEND_WGSL), "wgsl") == 0);
    CHECK(wai_backend_name((wai_backend)5) == NULL);
    CHECK(strcmp(wai_arithmetic_name(WAI_ARITHMETIC_INTEGER), "integer") == 0);
    CHECK(strcmp(wai_arithmetic_name(WAI_ARITHMETIC_FLOAT), "float") == 0);
    CHECK(wai_arithmetic_name((wai_arithmetic)2) == NULL);
    wai_tier t = WAI_TIER_NONE;
    CHECK(wai_tier_from_name("decode-equivalence", &t) && t == WAI_TIER_DECODE_EQUIVALENCE);
    CHECK(!wai_tier_from_name("Decode-equivalence", &t) && t == WAI_TIER_DECODE_EQUIVALENCE);
    CHECK(!wai_tier_from_name(NULL, &t));
    wai_backend b = WAI_BACKEND_WGSL;
    CHECK(wai_backend_from_name("webnn", &b) && b == WAI_BACKEND_WEBNN);
    wai_unit u;
    CHECK(wai_unit_from_name("gpu", &u) && u == WAI_UNIT_GPU && !wai_unit_from_name("tpu", &u));
    wai_arithmetic a = WAI_ARITHMETIC_INTEGER;
    CHECK(wai_arithmetic_from_name("float", &a) && a == WAI_ARITHMETIC_FLOAT);
    CHECK(!wai_arithmetic_from_name("fixed", &a));
}

/* ---- the registry -------------------------------------------------------- */

static void test_registry_classes_and_tiers(void) {
    size_t n_int = 0;
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        /* The row's tier is the one its class registers (§2). */
        CHECK_MSG(strcmp(wai_tier_name(wai_dispatch_registered_tier(c)), c->tier) == 0,
                  "%s: class %s, tier %s", c->name, c->registry_class, c->tier);
        n_int += strcmp(c->registry_class, "NeuralIntegerExact") == 0;
    }
    CHECK(n_int == 11);
    const wai_capability *b = bms_cap();
    CHECK(b && strcmp(b->registry_class, "Neural") == 0 && strcmp(b->tier, "none") == 0);
    /* Its payload is libwai's B18F (docs/bmshj2018.md), framed as §2's. */
    CHECK(b && b->format == WAI_FORMAT_B18F && wai_capability_has_decoder(b));
    CHECK(wai_check_framing(b, (const uint8_t *)"WIV1\x01", 5) == WAI_format_capability_mismatch);
    CHECK(wai_check_framing(b, (const uint8_t *)"\0\0\0\0\x01", 5) == WAI_bad_magic);
    CHECK(wai_check_framing(b, (const uint8_t *)"B18F\x01", 5) == WAI_ok);
    CHECK(wai_dispatch_registered_tier(&entropy_cap) == WAI_TIER_ENTROPY_CONSISTENCY);
    CHECK(wai_dispatch_registered_tier(&odd_cap) == WAI_TIER_NONE);
    CHECK(wai_dispatch_registered_tier(NULL) == WAI_TIER_NONE);
}

/* ---- §2 demand, over every class × intent × pin token ------------------- */

static const char *const intents[] = {NULL, "replicate", "Replicate", "archive", "", "replicate "};
#define N_INTENTS (sizeof intents / sizeof intents[0])
static const char *const pins[] = {NULL,   "decode-equivalence", "entropy-consistency",
                                   "none", "decode_equivalence", "bogus"};
#define N_PINS (sizeof pins / sizeof pins[0])

/* Registered tier of each class, written out. */
static const wai_tier class_tier[N_CLASSES] = {WAI_TIER_DECODE_EQUIVALENCE,
                                               WAI_TIER_ENTROPY_CONSISTENCY, WAI_TIER_NONE,
                                               WAI_TIER_NONE};

static wai_tier expected_need(int c, size_t in, size_t pin) {
    /* intents[1] and pins[1] are the only tokens that raise the need. */
    return (in == 1 || pin == 1) ? WAI_TIER_DECODE_EQUIVALENCE : class_tier[c];
}

static void test_demand_table(void) {
    for (int c = 0; c < N_CLASSES; c++)
        for (size_t in = 0; in < N_INTENTS; in++)
            for (size_t pin = 0; pin < N_PINS; pin++) {
                wai_dispatch_options o;
                wai_dispatch_options_default(&o);
                o.intent = intents[in];
                o.pin_tier = pins[pin];
                wai_tier t = (wai_tier)99;
                CHECK(wai_dispatch_demand(class_cap(c), &o, &t) == WAI_ok);
                CHECK_MSG(t == expected_need(c, in, pin), "class %d intent %zu pin %zu: %d", c,
                          in, pin, (int)t);
            }
    wai_tier t = WAI_TIER_NONE;
    CHECK(wai_dispatch_demand(int_cap(), NULL, &t) == WAI_ok && t == WAI_TIER_DECODE_EQUIVALENCE);
    CHECK(wai_dispatch_demand(bms_cap(), NULL, &t) == WAI_ok && t == WAI_TIER_NONE);
    CHECK(wai_dispatch_demand(NULL, NULL, &t) == WAI_invalid_argument);
    CHECK(wai_dispatch_demand(bms_cap(), NULL, NULL) == WAI_invalid_argument);
}

/* ---- §3 admit, and §4 with the default probe, over every path ----------- */

/* What one path alone does for a decode of class c needing `de`
 * (decode-equivalence or not), on this sink. Written out per case. */
static wai_status expected_alone(int c, int de, size_t p) {
    int int_class = c == C_INT;
    if (!IS_INT_PATH(p)) {
        if (de) return WAI_dispatch_tier_refused;
        /* The native WebNN, on the CPU only; no model runtime, no ONNX Runtime. */
        return IS_CPU_WEBNN(p) ? WAI_ok : WAI_dispatch_unit_absent;
    }
    if (!int_class) return WAI_dispatch_arithmetic_mismatch;
    return IS_CPU_WAI_OPS(p) ? WAI_ok : WAI_dispatch_unit_absent; /* no GPU, no WGSL */
}

static wai_status expected_admit(int c, int de, size_t p) {
    if (!IS_INT_PATH(p)) return de ? WAI_dispatch_tier_refused : WAI_ok;
    return c == C_INT ? WAI_ok : WAI_dispatch_arithmetic_mismatch;
}

static void test_every_class_intent_pin_path(void) {
    for (int c = 0; c < N_CLASSES; c++)
        for (size_t in = 0; in < N_INTENTS; in++)
            for (size_t pin = 0; pin < N_PINS; pin++)
                for (size_t p = 0; p < N_PATHS; p++) {
                    int de = expected_need(c, in, pin) == WAI_TIER_DECODE_EQUIVALENCE;
                    wai_dispatch_options o;
                    memset(&o, 0, sizeof o);
                    o.intent = intents[in];
                    o.pin_tier = pins[pin];
                    o.offer.n = 1;
                    o.offer.paths = &all_paths[p];
                    CHECK_MSG(wai_dispatch_admit(class_cap(c), expected_need(c, in, pin),
                                                 &all_paths[p]) == expected_admit(c, de, p),
                              "admit class %d path %zu", c, p);
                    const wai_dispatch_report *r;
                    wai_status s = choose(class_cap(c), &o, NULL, &r);
                    /* A path refused alone: the choice is not_dispatchable,
                     * the report carries the path's reason (D10). */
                    wai_status why = expected_alone(c, de, p);
                    wai_status want = why == WAI_ok ? WAI_ok : WAI_not_dispatchable;
                    CHECK_MSG(s == want, "class %d intent %zu pin %zu path %zu: %s, want %s", c,
                              in, pin, p, wai_status_name(s), wai_status_name(want));
                    CHECK(r->capability == class_cap(c));
                    CHECK(r->needed == expected_need(c, in, pin));
                    if (want == WAI_ok) {
                        CHECK(r->ran && r->n_refused == 0 &&
                              r->held == wai_dispatch_registered_tier(class_cap(c)));
                        CHECK(memcmp(&r->ran_path, &all_paths[p], sizeof(wai_path)) == 0 &&
                              !r->placement.stated);
                    } else {
                        CHECK(!r->ran && r->n_refused == 1 && r->refused[0].reason == why);
                        CHECK(memcmp(&r->refused[0].path, &all_paths[p], sizeof(wai_path)) == 0);
                    }
                }
}

static void test_admit_arguments(void) {
    wai_path bad = P(NPU, WAI_OPS, INTEGER);
    CHECK(wai_dispatch_admit(int_cap(), WAI_TIER_DECODE_EQUIVALENCE, &bad) == WAI_invalid_argument);
    CHECK(wai_dispatch_admit(NULL, WAI_TIER_NONE, &all_paths[0]) == WAI_invalid_argument);
    CHECK(wai_dispatch_admit(int_cap(), WAI_TIER_NONE, NULL) == WAI_invalid_argument);
    CHECK(wai_dispatch_admit(int_cap(), (wai_tier)7, &all_paths[0]) == WAI_invalid_argument);
    /* admit judges the need it is given, not the one demand would give. */
    CHECK(wai_dispatch_admit(int_cap(), WAI_TIER_NONE, &all_paths[0]) == WAI_ok);
}

/* ---- paths and offers ---------------------------------------------------- */

static void test_path_validity(void) {
    size_t valid = 0;
    for (int u = 0; u < 3; u++)
        for (int b = 0; b < 5; b++)
            for (int a = 0; a < 2; a++) {
                wai_path p = {(wai_unit)u, (wai_backend)b, (wai_arithmetic)a};
                int in_table = 0;
                for (size_t i = 0; i < N_PATHS; i++)
                    in_table |= memcmp(&p, &all_paths[i], sizeof p) == 0;
                CHECK_MSG(wai_path_valid(&p) == in_table, "path %d/%d/%d", u, b, a);
                valid += (size_t)in_table;
            }
    CHECK(valid == 11 && valid <= WAI_DISPATCH_MAX_PATHS);
    wai_path out_of_range = {(wai_unit)3, WAI_BACKEND_WEBNN, WAI_ARITHMETIC_FLOAT};
    CHECK(!wai_path_valid(&out_of_range) && !wai_path_valid(NULL));
}

static void test_default_offer(void) {
    static const wai_path want[] = {P(NPU, MODEL_RUNTIME, FLOAT), P(GPU, WEBNN, FLOAT),
                                    P(CPU, WEBNN, FLOAT), P(CPU, ONNX_RUNTIME, FLOAT),
                                    P(GPU, WGSL, INTEGER), P(CPU, WAI_OPS, INTEGER)};
    wai_path o[WAI_DISPATCH_MAX_PATHS];
    size_t n = 0;
    CHECK(wai_dispatch_offer_default(o, WAI_DISPATCH_MAX_PATHS, &n) == WAI_ok);
    CHECK(n == 6 && memcmp(o, want, sizeof want) == 0);
    /* Too little room: the count, and nothing written. */
    n = 0;
    CHECK(wai_dispatch_offer_default(o, 5, &n) == WAI_invalid_argument && n == 6);
    CHECK(wai_dispatch_offer_default(NULL, 0, &n) == WAI_invalid_argument && n == 6);
    wai_dispatch_offer parsed = {0, NULL};
    offer_buf b;
    CHECK(parse(WAI_DISPATCH_DEFAULT_OFFER, &parsed, &b) == WAI_ok);
    CHECK(parsed.n == 6 && memcmp(parsed.paths, want, sizeof want) == 0);
    wai_dispatch_options opt;
    wai_dispatch_options_default(&opt);
    CHECK(opt.intent == NULL && opt.pin_tier == NULL && opt.offer.n == 0);
}

static void test_parse_offer(void) {
    wai_dispatch_offer o;
    offer_buf b;
    CHECK(parse("int", &o, &b) == WAI_ok && o.n == 1 &&
          o.paths[0].backend == WAI_BACKEND_WAI_OPS);
    CHECK(parse("npu,gpu,cpu,int", &o, &b) == WAI_ok && o.n == 4);
    CHECK(o.paths[1].unit == WAI_UNIT_GPU && o.paths[1].backend == WAI_BACKEND_WEBNN);
    CHECK(o.paths[2].unit == WAI_UNIT_CPU && o.paths[2].backend == WAI_BACKEND_WEBNN);
    CHECK(parse("cpu/onnx-runtime/float,wgsl", &o, &b) == WAI_ok && o.n == 2 &&
          o.paths[0].backend == WAI_BACKEND_ONNX_RUNTIME && o.paths[1].unit == WAI_UNIT_GPU);
    /* No more paths than the room given. */
    size_t n = 99;
    CHECK(wai_dispatch_parse_offer("npu,gpu,cpu", b.paths, 2, &n) == WAI_invalid_argument &&
          n == 99);
    /* Every valid path written out, in one offer. */
    char all[512] = "";
    for (size_t i = 0; i < N_PATHS; i++) {
        if (i) strcat(all, ",");
        strcat(all, wai_unit_name(all_paths[i].unit));
        strcat(all, "/");
        strcat(all, wai_backend_name(all_paths[i].backend));
        strcat(all, "/");
        strcat(all, wai_arithmetic_name(all_paths[i].arithmetic));
    }
    CHECK(parse(all, &o, &b) == WAI_ok && o.n == N_PATHS &&
          memcmp(o.paths, all_paths, sizeof all_paths) == 0);
    static const char *const bad[] = {
        "", ",", "npu,", ",npu", "npu,,int", "NPU", "npu ", " npu", "tpu", "npu,npu",
        "int,cpu/wai-ops/integer", "npu/wai-ops/integer", "cpu/webnn/integer",
        "gpu/wgsl/float", "cpu/wgsl/integer", "gpu/wai-ops/integer", "a/b/c",
        "cpu/webnn/float/x", "cpu/webnn", "cpu//float",
        "model-runtime-model-runtime-model-runtime-model-runtime/x/y",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.n = 77;
        CHECK_MSG(parse(bad[i], &o, &b) == WAI_invalid_argument && o.n == 77,
                  "offer '%s' was taken", bad[i]);
    }
    CHECK(wai_dispatch_parse_offer(NULL, b.paths, 1, &n) == WAI_invalid_argument);
    CHECK(wai_dispatch_parse_offer("int", NULL, 1, &n) == WAI_invalid_argument);
    CHECK(wai_dispatch_parse_offer("int", b.paths, 1, NULL) == WAI_invalid_argument);
}

/* ---- the report's exact text --------------------------------------------- */

static const char int_default_report[] =
    "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.int_hyper\", "
    "\"needed\": \"decode-equivalence\", \"ran\": {\"unit\": \"cpu\", \"backend\": \"wai-ops\", "
    "\"arithmetic\": \"integer\", \"tier\": \"decode-equivalence\", \"placement\": null}, "
    "\"refused\": [{\"unit\": \"npu\", \"backend\": \"model-runtime\", \"arithmetic\": "
    "\"float\", \"reason\": \"dispatch_tier_refused\"}, {\"unit\": \"gpu\", \"backend\": "
    "\"webnn\", \"arithmetic\": \"float\", \"reason\": \"dispatch_tier_refused\"}, {\"unit\": "
    "\"cpu\", \"backend\": \"webnn\", \"arithmetic\": \"float\", \"reason\": "
    "\"dispatch_tier_refused\"}, {\"unit\": \"cpu\", \"backend\": \"onnx-runtime\", \"arithmetic\": \"float\", "
    "\"reason\": \"dispatch_tier_refused\"}, {\"unit\": \"gpu\", \"backend\": "
    "\"wgsl\", \"arithmetic\": \"integer\", \"reason\": \"dispatch_unit_absent\"}]}";

static const char bms_default_report[] =
    "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.bmshj2018\", "
    "\"needed\": \"none\", \"ran\": {\"unit\": \"cpu\", \"backend\": \"webnn\", "
    "\"arithmetic\": \"float\", \"tier\": \"none\", \"placement\": null}, \"refused\": "
    "[{\"unit\": \"npu\", \"backend\": \"model-runtime\", \"arithmetic\": \"float\", "
    "\"reason\": \"dispatch_unit_absent\"}, {\"unit\": \"gpu\", \"backend\": \"webnn\", "
    "\"arithmetic\": \"float\", \"reason\": \"dispatch_unit_absent\"}]}";

static const char bms_replicate_report[] =
    "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.bmshj2018\", "
    "\"needed\": \"decode-equivalence\", \"ran\": null, \"refused\": [{\"unit\": \"npu\", "
    "\"backend\": \"model-runtime\", \"arithmetic\": \"float\", \"reason\": "
    "\"dispatch_tier_refused\"}, {\"unit\": \"gpu\", \"backend\": \"webnn\", \"arithmetic\": "
    "\"float\", \"reason\": \"dispatch_tier_refused\"}, {\"unit\": \"cpu\", \"backend\": "
    "\"webnn\", \"arithmetic\": \"float\", \"reason\": \"dispatch_tier_refused\"}, "
    "{\"unit\": \"cpu\", \"backend\": \"onnx-runtime\", \"arithmetic\": \"float\", "
    "\"reason\": \"dispatch_tier_refused\"}, {\"unit\": "
    "\"gpu\", \"backend\": \"wgsl\", \"arithmetic\": \"integer\", \"reason\": "
    "\"dispatch_arithmetic_mismatch\"}, {\"unit\": \"cpu\", \"backend\": \"wai-ops\", "
    "\"arithmetic\": \"integer\", \"reason\": \"dispatch_arithmetic_mismatch\"}]}";

/* The report's text, and that it is strict JSON. */
static int report_is(const wai_dispatch_report *r, const char *want) {
    char buf[WAI_DISPATCH_REPORT_JSON_MAX];
    size_t len = 0;
    if (!CHECK(wai_dispatch_report_json(r, buf, sizeof buf, &len) == WAI_ok)) return 0;
    if (!CHECK(len == strlen(buf))) return 0;
    wai_json_doc *doc = NULL;
    CHECK(wai_json_parse(NULL, (const uint8_t *)buf, len, &doc, NULL) == WAI_JSON_OK);
    wai_json_free(doc);
    return CHECK_MSG(strcmp(buf, want) == 0, "report\n  %s\nwant\n  %s", buf, want);
}

static void test_report_default_offer(void) {
    const wai_dispatch_report *r;
    /* The integer capability refuses every floating-point path on tier and
     * runs on the integer interpreter (issue 6's decode check). */
    CHECK(choose(int_cap(), NULL, NULL, &r) == WAI_ok);
    report_is(r, int_default_report);
    wai_dispatch_options o;
    wai_dispatch_options_default(&o);
    CHECK(choose(int_cap(), &o, NULL, &r) == WAI_ok);
    report_is(r, int_default_report);
    /* The floating-point capability runs on the native WebNN on the CPU,
     * after the neural processor and the GPU are found absent. */
    CHECK(choose(bms_cap(), NULL, NULL, &r) == WAI_ok);
    report_is(r, bms_default_report);
    o.intent = "replicate";
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_not_dispatchable);
    report_is(r, bms_replicate_report);
    o.intent = NULL;
    o.pin_tier = "decode-equivalence";
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_not_dispatchable);
    report_is(r, bms_replicate_report);
    /* The default probe adds nothing: every unit there, so the first path
     * §3 admits is chosen. */
    CHECK(choose(bms_cap(), NULL, wai_dispatch_probe_default(), &r) == WAI_ok && r->ran &&
          r->ran_path.unit == WAI_UNIT_NPU && r->n_refused == 0);
}

static void test_report_order_of_refusals(void) {
    wai_dispatch_options o;
    memset(&o, 0, sizeof o);
    const wai_dispatch_report *r;
    offer_buf b;
    /* The path that runs ends the choice: later paths are not tried. */
    CHECK(parse("int,npu", &o.offer, &b) == WAI_ok);
    CHECK(choose(int_cap(), &o, NULL, &r) == WAI_ok && r->n_refused == 0);
    report_is(r,
              "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.int_hyper\", "
              "\"needed\": \"decode-equivalence\", \"ran\": {\"unit\": \"cpu\", \"backend\": "
              "\"wai-ops\", \"arithmetic\": \"integer\", \"tier\": \"decode-equivalence\", "
              "\"placement\": null}, \"refused\": []}");
    /* Refusals keep the offer's order, whatever their codes. */
    CHECK(parse("wgsl,gpu,cpu/onnx-runtime/float,npu", &o.offer, &b) == WAI_ok);
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_not_dispatchable);
    CHECK(r->n_refused == 4 && r->refused[0].reason == WAI_dispatch_arithmetic_mismatch &&
          r->refused[1].reason == WAI_dispatch_unit_absent &&
          r->refused[2].path.backend == WAI_BACKEND_ONNX_RUNTIME &&
          r->refused[3].path.unit == WAI_UNIT_NPU);
    /* A bad offer is refused whole, before any path is tried. */
    b.paths[2] = (wai_path)P(NPU, WAI_OPS, INTEGER);
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_invalid_argument && r->n_refused == 0);
    b.paths[2] = b.paths[0];
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_invalid_argument);
    o.offer.n = WAI_DISPATCH_MAX_PATHS + 1;
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_invalid_argument);
    o.offer.n = 2;
    o.offer.paths = NULL;
    CHECK(choose(bms_cap(), &o, NULL, &r) == WAI_invalid_argument);
    CHECK(choose(NULL, NULL, NULL, &r) == WAI_invalid_argument);
    CHECK(wai_dispatch_choose(NULL, int_cap(), NULL, NULL) == WAI_invalid_argument);
}

/* ---- the probe ----------------------------------------------------------- */

/* A scripted device: each question's answer per path (by backend), and a
 * log of the questions asked, one letter each. */
typedef struct script {
    wai_status unit[5], program[5], shape[5], plan[5], run[5];
    wai_placement placement[5];
    char log[128];
    size_t n_log;
} script;

static void log_q(script *s, char q, const wai_path *p) {
    if (s->n_log + 2 < sizeof s->log) {
        s->log[s->n_log++] = q;
        s->log[s->n_log++] = (char)('0' + p->backend);
        s->log[s->n_log] = '\0';
    }
}

static wai_status s_unit(void *o, const wai_capability *c, const wai_path *p) {
    (void)c;
    log_q(o, 'u', p);
    return ((script *)o)->unit[p->backend];
}
static wai_status s_program(void *o, const wai_capability *c, const wai_path *p) {
    (void)c;
    log_q(o, 'p', p);
    return ((script *)o)->program[p->backend];
}
static wai_status s_shape(void *o, const wai_capability *c, const wai_path *p) {
    (void)c;
    log_q(o, 's', p);
    return ((script *)o)->shape[p->backend];
}
static wai_status s_plan(void *o, const wai_capability *c, const wai_path *p, wai_placement *out) {
    (void)c;
    log_q(o, 'l', p);
    CHECK(!out->stated && !out->npu && !out->gpu && !out->cpu && !out->unknown);
    *out = ((script *)o)->placement[p->backend];
    return ((script *)o)->plan[p->backend];
}
static wai_dispatch_probe scripted(script *s) {
    memset(s, 0, sizeof *s);
    wai_dispatch_probe pr = {s, s_unit, s_program, s_shape, s_plan, {NULL}};
    return pr;
}

/* A choice driven step by step, as a decoder drives it: the probe answers
 * the questions and the script the run. */
static wai_status drive(const wai_capability *cap, const wai_dispatch_options *o,
                        const wai_dispatch_probe *pr, script *s, const wai_dispatch_report **r) {
    wai_dispatch *d = the_dispatch();
    for (size_t i = 0; pr && i < sizeof pr->reserved / sizeof *pr->reserved; i++)
        if (pr->reserved[i]) return WAI_invalid_argument;
    wai_status st = wai_dispatch_start(d, cap, o);
    *r = wai_dispatch_report_of(d);
    if (st != WAI_ok) return st;
    wai_path p;
    wai_dispatch_question q;
    while (wai_dispatch_next(d, &p, &q)) {
        wai_placement plan = {0};
        wai_status a;
        if (q == WAI_DISPATCH_RUN) {
            log_q(s, 'r', &p);
            a = s->run[p.backend];
        } else {
            a = wai_dispatch_probe_answer(pr, q, cap, &p, &plan);
        }
        wai_dispatch_answer(d, a, &plan);
    }
    return wai_dispatch_status(d);
}

/* bmshj2018 offered npu (model-runtime, 0), cpu webnn (1), onnx cpu (2). */
static wai_status bms_choose(const wai_dispatch_probe *pr, script *s,
                             const wai_dispatch_report **r) {
    wai_dispatch_options o;
    wai_dispatch_options_default(&o);
    static offer_buf b;
    CHECK(parse("npu,cpu,cpu/onnx-runtime/float", &o.offer, &b) == WAI_ok);
    return drive(bms_cap(), &o, pr, s, r);
}

static void test_probe_steps_in_order(void) {
    script s;
    wai_dispatch_probe pr = scripted(&s);
    const wai_dispatch_report *r;
    s.unit[0] = WAI_dispatch_unit_absent;
    s.program[1] = WAI_dispatch_program_absent;
    s.shape[2] = WAI_dispatch_shape_mismatch;
    CHECK(bms_choose(&pr, &s, &r) == WAI_not_dispatchable);
    CHECK(r->refused[0].reason == WAI_dispatch_unit_absent);
    CHECK_MSG(strcmp(s.log, "u0u1p1u2p2s2") == 0, "asked %s", s.log);
    CHECK(r->n_refused == 3 && r->refused[1].reason == WAI_dispatch_program_absent &&
          r->refused[2].reason == WAI_dispatch_shape_mismatch && !r->ran);
    report_is(r,
              "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.bmshj2018\", "
              "\"needed\": \"none\", \"ran\": null, \"refused\": [{\"unit\": \"npu\", "
              "\"backend\": \"model-runtime\", \"arithmetic\": \"float\", \"reason\": "
              "\"dispatch_unit_absent\"}, {\"unit\": \"cpu\", \"backend\": \"webnn\", "
              "\"arithmetic\": \"float\", \"reason\": \"dispatch_program_absent\"}, {\"unit\": "
              "\"cpu\", \"backend\": \"onnx-runtime\", \"arithmetic\": \"float\", \"reason\": "
              "\"dispatch_shape_mismatch\"}]}");
}

static void test_probe_placement(void) {
    script s;
    wai_dispatch_probe pr = scripted(&s);
    const wai_dispatch_report *r;
    /* A plan with nothing on the neural processor moves on (§5); the CPU's
     * WebNN states no plan and runs; placement null. */
    s.placement[0] = (wai_placement){1, 0, 0, 21, 0};
    CHECK(bms_choose(&pr, &s, &r) == WAI_ok);
    CHECK_MSG(strcmp(s.log, "u0p0s0l0u1p1s1l1r1") == 0, "asked %s", s.log);
    report_is(r,
              "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.bmshj2018\", "
              "\"needed\": \"none\", \"ran\": {\"unit\": \"cpu\", \"backend\": \"webnn\", "
              "\"arithmetic\": \"float\", \"tier\": \"none\", \"placement\": null}, "
              "\"refused\": [{\"unit\": \"npu\", \"backend\": \"model-runtime\", "
              "\"arithmetic\": \"float\", \"reason\": \"dispatch_not_placed\"}]}");
    /* A plan that puts some operations elsewhere is reported as it is. */
    pr = scripted(&s);
    s.placement[0] = (wai_placement){1, 19, 0, 2, 3};
    CHECK(bms_choose(&pr, &s, &r) == WAI_ok && r->n_refused == 0);
    report_is(r,
              "{\"kind\": \"wai-neural-dispatch/1\", \"capability\": \"wai.neural.bmshj2018\", "
              "\"needed\": \"none\", \"ran\": {\"unit\": \"npu\", \"backend\": "
              "\"model-runtime\", \"arithmetic\": \"float\", \"tier\": \"none\", \"placement\": "
              "{\"npu\": 19, \"gpu\": 0, \"cpu\": 2, \"unknown\": 3}}, \"refused\": []}");
    /* A plan stating nothing anywhere is not a run either; the plan may also
     * say so itself. */
    pr = scripted(&s);
    s.placement[0] = (wai_placement){1, 0, 0, 0, 0};
    s.plan[1] = WAI_dispatch_not_placed;
    CHECK(bms_choose(&pr, &s, &r) == WAI_ok && r->n_refused == 2);
    CHECK(r->refused[0].reason == WAI_dispatch_not_placed &&
          r->refused[1].reason == WAI_dispatch_not_placed &&
          r->ran_path.backend == WAI_BACKEND_ONNX_RUNTIME && !r->placement.stated);
}

static void test_probe_backend_errors(void) {
    script s;
    wai_dispatch_probe pr = scripted(&s);
    const wai_dispatch_report *r;
    /* A backend error refuses the path, from the run or from any question,
     * and the next path is tried. */
    s.run[0] = WAI_dispatch_backend_failed;
    s.program[1] = WAI_dispatch_backend_failed;
    CHECK(bms_choose(&pr, &s, &r) == WAI_ok);
    CHECK_MSG(strcmp(s.log, "u0p0s0l0r0u1p1u2p2s2l2r2") == 0, "asked %s", s.log);
    CHECK(r->n_refused == 2 && r->refused[0].reason == WAI_dispatch_backend_failed &&
          r->refused[1].reason == WAI_dispatch_backend_failed &&
          r->ran_path.backend == WAI_BACKEND_ONNX_RUNTIME);
    /* Every path failing: not_dispatchable, each path's reason reported. */
    pr = scripted(&s);
    s.placement[2] = (wai_placement){1, 0, 0, 5, 0};
    s.run[0] = s.run[1] = s.run[2] = WAI_dispatch_backend_failed;
    s.unit[1] = WAI_dispatch_unit_absent;
    CHECK(bms_choose(&pr, &s, &r) == WAI_not_dispatchable && r->n_refused == 3 && !r->ran &&
          r->refused[0].reason == WAI_dispatch_backend_failed &&
          r->refused[1].reason == WAI_dispatch_unit_absent && !r->placement.stated &&
          r->placement.cpu == 0);
    /* A status that is no dispatch code ends the choice with it. */
    static const wai_status enders[] = {WAI_out_of_memory, WAI_model_mismatch, WAI_io_error};
    for (size_t i = 0; i < 3; i++) {
        pr = scripted(&s);
        s.unit[0] = WAI_dispatch_unit_absent;
        s.shape[1] = enders[i];
        CHECK(bms_choose(&pr, &s, &r) == enders[i]);
        CHECK(strcmp(s.log, "u0u1p1s1") == 0 && r->n_refused == 1 && !r->ran);
        /* Ended by the run: the path was chosen and ran, with its plan,
         * and the decode's status is the run's (D9). */
        pr = scripted(&s);
        s.placement[0] = (wai_placement){1, 5, 0, 0, 0};
        s.run[0] = enders[i];
        CHECK(bms_choose(&pr, &s, &r) == enders[i] && r->n_refused == 0 && r->ran &&
              r->ran_path.unit == WAI_UNIT_NPU && r->placement.stated && r->placement.npu == 5);
        CHECK(strcmp(s.log, "u0p0s0l0r0") == 0);
        /* Ended by a question after a plan was stated on an earlier path:
         * the report holds no placement. */
        pr = scripted(&s);
        s.placement[0] = (wai_placement){1, 0, 0, 5, 0};
        s.shape[1] = enders[i];
        CHECK(bms_choose(&pr, &s, &r) == enders[i] && r->n_refused == 1 && !r->ran &&
              !r->placement.stated && r->placement.cpu == 0);
    }
    /* A code the question cannot give, or no status at all, breaks the probe. */
    pr = scripted(&s);
    s.unit[0] = WAI_dispatch_shape_mismatch;
    CHECK(bms_choose(&pr, &s, &r) == WAI_invalid_argument);
    pr = scripted(&s);
    s.run[0] = WAI_dispatch_tier_refused;
    CHECK(bms_choose(&pr, &s, &r) == WAI_invalid_argument);
    pr = scripted(&s);
    s.program[0] = (wai_status)999;
    CHECK(bms_choose(&pr, &s, &r) == WAI_invalid_argument);
}

static void test_probe_defaults_fill_in(void) {
    script s;
    wai_dispatch_probe pr = scripted(&s);
    const wai_dispatch_report *r;
    /* Only the unit given: the default probe answers the rest (yes, and no
     * plan of its own), so the run is next. */
    pr.program = NULL;
    pr.shape = NULL;
    pr.plan = NULL;
    s.unit[4] = WAI_dispatch_unit_absent; /* no WGSL */
    CHECK(drive(int_cap(), NULL, &pr, &s, &r) == WAI_ok);
    CHECK_MSG(strcmp(s.log, "u4u3r3") == 0, "asked %s", s.log);
    report_is(r, int_default_report);
    /* The decode's networks refusing the payload end the dispatch. */
    pr = scripted(&s);
    s.unit[4] = WAI_dispatch_unit_absent;
    s.run[3] = WAI_stream_exhausted;
    CHECK(drive(int_cap(), NULL, &pr, &s, &r) == WAI_stream_exhausted && r->ran &&
          r->ran_path.backend == WAI_BACKEND_WAI_OPS && r->n_refused == 5);
    /* A device with a GPU and WGSL kernels runs the integer decode there. */
    pr = scripted(&s);
    CHECK(drive(int_cap(), NULL, &pr, &s, &r) == WAI_ok);
    CHECK(r->ran_path.backend == WAI_BACKEND_WGSL && r->held == WAI_TIER_DECODE_EQUIVALENCE &&
          r->n_refused == 4);
    /* The one place a probe is asked: NULL and NULL members take the
     * default, the run is no probe's. */
    wai_placement plan = {1, 2, 0, 0, 0};
    const wai_path cpu = P(CPU, WEBNN, FLOAT);
    CHECK(wai_dispatch_probe_answer(NULL, WAI_DISPATCH_UNIT, bms_cap(), &cpu, NULL) == WAI_ok);
    CHECK(wai_dispatch_probe_answer(NULL, WAI_DISPATCH_PLAN, bms_cap(), &cpu, &plan) == WAI_ok &&
          plan.stated == 1 && plan.npu == 2);
    CHECK(wai_dispatch_probe_answer(NULL, WAI_DISPATCH_PLAN, bms_cap(), &cpu, NULL) ==
          WAI_invalid_argument);
    CHECK(wai_dispatch_probe_answer(&sink, WAI_DISPATCH_RUN, bms_cap(), &cpu, &plan) ==
          WAI_invalid_argument);
    CHECK(wai_dispatch_probe_answer(&sink, WAI_DISPATCH_UNIT, bms_cap(), &all_paths[0], NULL) ==
          WAI_dispatch_unit_absent);
    CHECK(strcmp(wai_dispatch_question_name(WAI_DISPATCH_SHAPE), "shape") == 0 &&
          wai_dispatch_question_name((wai_dispatch_question)5) == NULL);
}

/* The steps themselves: what next gives, what an answer out of turn does. */
static void test_steps(void) {
    wai_dispatch *d = NULL;
    CHECK(wai_dispatch_create(NULL, &d) == WAI_ok && d);
    wai_path p;
    wai_dispatch_question q;
    /* Before a start: no question, no report, no status. */
    CHECK(!wai_dispatch_next(d, &p, &q) && wai_dispatch_report_of(d) == NULL &&
          wai_dispatch_status(d) == WAI_invalid_argument);
    wai_dispatch_answer(d, WAI_ok, NULL); /* ignored */
    wai_dispatch_options o;
    wai_dispatch_options_default(&o);
    offer_buf b;
    CHECK(parse("wgsl,int", &o.offer, &b) == WAI_ok);
    CHECK(wai_dispatch_start(d, int_cap(), &o) == WAI_ok);
    static const wai_dispatch_question want[] = {WAI_DISPATCH_UNIT, WAI_DISPATCH_UNIT,
                                                 WAI_DISPATCH_PROGRAM, WAI_DISPATCH_SHAPE,
                                                 WAI_DISPATCH_PLAN, WAI_DISPATCH_RUN};
    size_t k = 0;
    while (wai_dispatch_next(d, &p, &q)) {
        CHECK(k < 6 && q == want[k]);
        /* Still asking: no status yet. */
        CHECK(wai_dispatch_status(d) == WAI_invalid_argument);
        wai_dispatch_answer(d, k == 0 ? WAI_dispatch_unit_absent : WAI_ok, NULL);
        CHECK(k != 0 || (wai_dispatch_next(d, &p, NULL) && p.backend == WAI_BACKEND_WAI_OPS));
        k++;
    }
    CHECK(k == 6 && wai_dispatch_status(d) == WAI_ok);
    const wai_dispatch_report *r = wai_dispatch_report_of(d);
    CHECK(r->ran && r->n_refused == 1 && r->refused[0].reason == WAI_dispatch_unit_absent);
    /* Over: an answer changes nothing. */
    wai_dispatch_answer(d, WAI_dispatch_backend_failed, NULL);
    CHECK(wai_dispatch_status(d) == WAI_ok && r->ran && r->n_refused == 1);
    /* A new start forgets the last. */
    CHECK(wai_dispatch_start(d, bms_cap(), NULL) == WAI_ok && wai_dispatch_next(d, &p, &q) &&
          p.unit == WAI_UNIT_NPU && q == WAI_DISPATCH_UNIT && !r->ran && r->n_refused == 0);
    wai_dispatch_destroy(d);
    wai_dispatch_destroy(NULL);
    CHECK(wai_dispatch_create(NULL, NULL) == WAI_invalid_argument);
    CHECK(wai_dispatch_start(NULL, int_cap(), NULL) == WAI_invalid_argument);
    /* Through an allocator that fails. */
    harness_alloc h;
    memset(&h, 0, sizeof h);
    h.fail_at = 1;
    wai_allocator a = harness_allocator(&h);
    d = (wai_dispatch *)1;
    CHECK(wai_dispatch_create(&a, &d) == WAI_out_of_memory && d == NULL);
}

/* ---- the report's writer ------------------------------------------------- */

static void test_report_buffers(void) {
    const wai_dispatch_report *chosen;
    CHECK(choose(int_cap(), NULL, NULL, &chosen) == WAI_ok);
    const wai_dispatch_report r = *chosen;
    size_t want = strlen(int_default_report), len = 0;
    char buf[WAI_DISPATCH_REPORT_JSON_MAX];
    CHECK(wai_dispatch_report_json(&r, NULL, 0, &len) == WAI_invalid_argument && len == want);
    memset(buf, 'x', sizeof buf);
    CHECK(wai_dispatch_report_json(&r, buf, want, &len) == WAI_invalid_argument && len == want);
    CHECK(buf[want] == 'x'); /* nothing past the size given */
    CHECK(wai_dispatch_report_json(&r, buf, want + 1, NULL) == WAI_ok && buf[want] == '\0' &&
          strcmp(buf, int_default_report) == 0);
    /* Through an allocator, failing and not. */
    harness_alloc h;
    memset(&h, 0, sizeof h);
    h.fail_at = 1;
    wai_allocator a = harness_allocator(&h);
    char *text = (char *)1;
    CHECK(wai_dispatch_report_json_alloc(&a, &r, &text) == WAI_out_of_memory && !text && h.failed);
    h.fail_at = 0;
    CHECK(wai_dispatch_report_json_alloc(&a, &r, &text) == WAI_ok && text &&
          strcmp(text, int_default_report) == 0 && h.live == 1);
    wai_dispatch_report_json_free(&a, text);
    CHECK(h.live == 0);
    CHECK(wai_dispatch_report_json_alloc(NULL, &r, &text) == WAI_ok);
    wai_dispatch_report_json_free(NULL, text);
    /* Reports that are not §5's are refused. */
    wai_dispatch_report bad = r;
    wai_dispatch_refusal refused[WAI_DISPATCH_MAX_PATHS];
    memcpy(refused, r.refused, r.n_refused * sizeof *refused);
    refused[0].reason = WAI_stream_exhausted;
    bad.refused = refused;
    CHECK(wai_dispatch_report_json(&bad, buf, sizeof buf, &len) == WAI_invalid_argument);
    CHECK(wai_dispatch_report_json_alloc(NULL, &bad, &text) == WAI_invalid_argument && !text);
    bad = r;
    bad.capability = NULL;
    CHECK(wai_dispatch_report_json(&bad, buf, sizeof buf, &len) == WAI_invalid_argument);
    bad = r;
    bad.held = (wai_tier)5;
    CHECK(wai_dispatch_report_json(&bad, buf, sizeof buf, &len) == WAI_invalid_argument);
    bad = r;
    bad.n_refused = WAI_DISPATCH_MAX_PATHS + 1;
    CHECK(wai_dispatch_report_json(&bad, buf, sizeof buf, &len) == WAI_invalid_argument);
    bad = r;
    bad.refused = NULL;
    CHECK(wai_dispatch_report_json(&bad, buf, sizeof buf, &len) == WAI_invalid_argument);
    CHECK(wai_dispatch_report_json(NULL, buf, sizeof buf, &len) == WAI_invalid_argument);
}

/* The largest report any registry capability can give fits the bound. */
static void test_report_bound(void) {
    wai_dispatch_report r;
    memset(&r, 0, sizeof r);
    const wai_capability *longest = wai_capability_at(0);
    for (size_t i = 0; i < wai_capability_count(); i++)
        if (strlen(wai_capability_at(i)->name) > strlen(longest->name))
            longest = wai_capability_at(i);
    r.capability = longest;
    r.needed = r.held = WAI_TIER_ENTROPY_CONSISTENCY;
    r.ran = 1;
    r.ran_path = (wai_path)P(NPU, MODEL_RUNTIME, FLOAT);
    r.placement = (wai_placement){1, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    wai_dispatch_refusal refused[WAI_DISPATCH_MAX_PATHS];
    r.n_refused = WAI_DISPATCH_MAX_PATHS;
    r.refused = refused;
    for (size_t i = 0; i < r.n_refused; i++) {
        refused[i].path = (wai_path)P(NPU, MODEL_RUNTIME, FLOAT);
        refused[i].reason = WAI_dispatch_arithmetic_mismatch;
    }
    size_t len = 0;
    CHECK(wai_dispatch_report_json(&r, NULL, 0, &len) == WAI_invalid_argument);
    CHECK_MSG(len > 1000 && len < WAI_DISPATCH_REPORT_JSON_MAX, "worst report %zu bytes", len);
    char buf[WAI_DISPATCH_REPORT_JSON_MAX];
    CHECK(wai_dispatch_report_json(&r, buf, sizeof buf, NULL) == WAI_ok);
    CHECK(strstr(buf, "\"placement\": {\"npu\": 18446744073709551615, ") != NULL);
}

/* The reserved room of the structs a caller fills must be left zero, so a
 * later member can give it meaning without an ABI break. */
static void test_reserved_room(void) {
    wai_dispatch_options o;
    wai_dispatch_options_default(&o);
    const wai_dispatch_report *r;
    wai_tier t;
    CHECK(choose(int_cap(), &o, NULL, &r) == WAI_ok);
    o.reserved[sizeof o.reserved - 1] = 1;
    CHECK(wai_dispatch_demand(int_cap(), &o, &t) == WAI_invalid_argument);
    CHECK(choose(int_cap(), &o, NULL, &r) == WAI_invalid_argument && !r->ran);
    script s;
    wai_dispatch_probe pr = scripted(&s);
    CHECK(bms_choose(&pr, &s, &r) == WAI_ok);
    pr = scripted(&s);
    pr.reserved[3] = &s;
    CHECK(bms_choose(&pr, &s, &r) == WAI_invalid_argument && s.n_log == 0);
    CHECK(wai_dispatch_choose(the_dispatch(), bms_cap(), NULL, &pr) == WAI_invalid_argument);
}

void suite_dispatch(void) {
    harness_run("dispatch_reserved_room", test_reserved_room);
    harness_run("dispatch_tokens", test_tokens);
    harness_run("dispatch_registry_classes_and_tiers", test_registry_classes_and_tiers);
    harness_run("dispatch_demand_table", test_demand_table);
    harness_run("dispatch_every_class_intent_pin_path", test_every_class_intent_pin_path);
    harness_run("dispatch_admit_arguments", test_admit_arguments);
    harness_run("dispatch_path_validity", test_path_validity);
    harness_run("dispatch_default_offer", test_default_offer);
    harness_run("dispatch_parse_offer", test_parse_offer);
    harness_run("dispatch_report_default_offer", test_report_default_offer);
    harness_run("dispatch_report_order_of_refusals", test_report_order_of_refusals);
    harness_run("dispatch_probe_steps_in_order", test_probe_steps_in_order);
    harness_run("dispatch_probe_placement", test_probe_placement);
    harness_run("dispatch_probe_backend_errors", test_probe_backend_errors);
    harness_run("dispatch_probe_defaults_fill_in", test_probe_defaults_fill_in);
    harness_run("dispatch_steps", test_steps);
    harness_run("dispatch_report_buffers", test_report_buffers);
    harness_run("dispatch_report_bound", test_report_bound);
}
