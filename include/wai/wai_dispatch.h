/* SPDX-License-Identifier: BSD-2-Clause */
/* Neural dispatch (neural-dispatch §2-§5): the tier a decode needs, the paths
 * that may run its networks, the choice among them, and the
 * `wai-neural-dispatch/1` report. Pure functions over plain structs: nothing
 * here allocates (except wai_dispatch_report_json_alloc, through the caller's
 * allocator), prints or keeps state. docs/dispatch.md states the rules as
 * implemented, the default offer and the report's form. */
#ifndef WAI_WAI_DISPATCH_H
#define WAI_WAI_DISPATCH_H

#include "wai/wai.h"
#include "wai/wai_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tokens (neural-dispatch §1, determinism tiers) --------------------- */

/* Ordered: a larger value is the stronger promise. */
typedef enum wai_tier {
    WAI_TIER_NONE = 0,                 /* "none" */
    WAI_TIER_ENTROPY_CONSISTENCY = 1,  /* "entropy-consistency" */
    WAI_TIER_DECODE_EQUIVALENCE = 2    /* "decode-equivalence" */
} wai_tier;

/* In the order a stated placement lists them (§5). */
typedef enum wai_unit {
    WAI_UNIT_NPU = 0,  /* "npu" */
    WAI_UNIT_GPU = 1,  /* "gpu" */
    WAI_UNIT_CPU = 2   /* "cpu" */
} wai_unit;

/* In §1's table order. */
typedef enum wai_backend {
    WAI_BACKEND_MODEL_RUNTIME = 0,  /* "model-runtime" */
    WAI_BACKEND_WEBNN = 1,          /* "webnn" */
    WAI_BACKEND_ONNX_RUNTIME = 2,   /* "onnx-runtime" */
    WAI_BACKEND_WAI_OPS = 3,        /* "wai-ops": the integer interpreter */
    WAI_BACKEND_WGSL = 4            /* "wgsl": the integer WGSL kernels */
} wai_backend;

typedef enum wai_arithmetic {
    WAI_ARITHMETIC_INTEGER = 0,
    WAI_ARITHMETIC_FLOAT = 1
} wai_arithmetic;

/* The arithmetic tokens are spelled here rather than under src/, whose
 * sources keep the names of C's floating-point types out altogether
 * (tests/ci/check-no-float.sh); wai_arithmetic_name returns these. */
#define WAI_ARITHMETIC_INTEGER_TOKEN "integer"
#define WAI_ARITHMETIC_FLOAT_TOKEN "float"

/* Token of a value, or NULL for a value outside the enum. */
WAI_API const char *wai_tier_name(wai_tier t);
WAI_API const char *wai_unit_name(wai_unit u);
WAI_API const char *wai_backend_name(wai_backend b);
WAI_API const char *wai_arithmetic_name(wai_arithmetic a);

/* Exact, case-sensitive parse of a token; 0 (and *out untouched) when the
 * text is not one. */
WAI_API int wai_tier_from_name(const char *name, wai_tier *out);
WAI_API int wai_unit_from_name(const char *name, wai_unit *out);
WAI_API int wai_backend_from_name(const char *name, wai_backend *out);
WAI_API int wai_arithmetic_from_name(const char *name, wai_arithmetic *out);

/* ---- paths --------------------------------------------------------------- */

typedef struct wai_path {
    wai_unit unit;
    wai_backend backend;
    wai_arithmetic arithmetic;
} wai_path;

/* 1 when the path is one neural-dispatch §1 and §3 describe: wai-ops is
 * the CPU's integer path, wgsl the GPU's, and model-runtime, webnn and
 * onnx-runtime compute in floating point on any unit. No integer path names
 * the neural processor (§3). 0 otherwise, or for values outside the enums. */
WAI_API int wai_path_valid(const wai_path *p);

/* The most paths an offer names: there are 11 valid paths, and an offer
 * names each at most once. A bound for the caller's arrays, never a size
 * inside a struct of this API. */
#define WAI_DISPATCH_MAX_PATHS 11

/* The paths offered, in order: n of them at paths (borrowed). n == 0: the
 * default offer. */
typedef struct wai_dispatch_offer {
    size_t n;
    const wai_path *paths;
} wai_dispatch_offer;

/* The offer of this sink, "npu,gpu,cpu,ort,wgsl,int" (docs/dispatch.md). */
#define WAI_DISPATCH_DEFAULT_OFFER "npu,gpu,cpu,ort,wgsl,int"

/* The default offer's paths, in order, into out (cap of them): *n is their
 * count, also when cap is short (then WAI_invalid_argument). */
WAI_API wai_status wai_dispatch_offer_default(wai_path *out, size_t cap, size_t *n);

/* Parses a comma-separated offer, in order, into out (cap paths). A token
 * is a short name:
 *   npu  = npu/model-runtime/float     gpu = gpu/webnn/float
 *   cpu  = cpu/webnn/float             ort = cpu/onnx-runtime/float
 *   wgsl = gpu/wgsl/integer            int = cpu/wai-ops/integer
 * or a path written out as UNIT/BACKEND/ARITHMETIC with §1's tokens (e.g.
 * cpu/onnx-runtime/float). WAI_invalid_argument (and out, *n untouched)
 * for an empty list or token, an unknown token, a path wai_path_valid
 * refuses, a path named twice, or more paths than cap. */
WAI_API wai_status wai_dispatch_parse_offer(const char *list, wai_path *out, size_t cap,
                                            size_t *n);

/* ---- §2 demand ----------------------------------------------------------- */

/* The tier the capability's registry class gives it: decode-equivalence
 * for NeuralIntegerExact, entropy-consistency for NeuralEntropyExact, none
 * for every other class. */
WAI_API wai_tier wai_dispatch_registered_tier(const wai_capability *cap);

typedef struct wai_dispatch_options {
    /* The envelope's intent token (SPEC §7), or NULL. Only "replicate"
     * raises the need; any other token adds nothing. */
    const char *intent;
    /* The `tier` token of the pin over this capability's parameter set
     * (SPEC §3.1), or NULL. Only "decode-equivalence" raises the need;
     * other and unregistered tokens add nothing. A decode through a
     * fallback passes its own pin's token, never the primary's. */
    const char *pin_tier;
    /* The paths offered, in order; n == 0 is the default offer. */
    wai_dispatch_offer offer;
    uint8_t reserved[32]; /* zero (invalid_argument otherwise): room to grow */
} wai_dispatch_options;

/* intent and pin_tier NULL, the default offer (n == 0). */
WAI_API void wai_dispatch_options_default(wai_dispatch_options *o);

/* §2: the tier a decode of cap needs. opt may be NULL (no intent, no pin).
 * WAI_invalid_argument for a NULL cap or needed, or opt's reserved bytes
 * not zero. */
WAI_API wai_status wai_dispatch_demand(const wai_capability *cap,
                                       const wai_dispatch_options *opt, wai_tier *needed);

/* ---- §3 admit ------------------------------------------------------------ */

/* WAI_ok when §3 lets the path run a decode of cap that needs `needed`;
 * WAI_dispatch_tier_refused for a floating-point path and a decode that
 * needs decode-equivalence; WAI_dispatch_arithmetic_mismatch for an integer
 * path and a capability not registered at decode-equivalence;
 * WAI_invalid_argument for a NULL argument or an invalid path. */
WAI_API wai_status wai_dispatch_admit(const wai_capability *cap, wai_tier needed,
                                      const wai_path *path);

/* ---- the device's answers (§4 step 2) ----------------------------------- */

/* Where the backend's plan puts the program's operations (constants left
 * out). stated 0: the backend states no plan, and the report's placement
 * is null. */
typedef struct wai_placement {
    int stated;
    uint64_t npu, gpu, cpu, unknown;
} wai_placement;

/* The questions §4 puts to a path, in the order it puts them, and the
 * refusal each may answer:
 *   UNIT     dispatch_unit_absent     the unit, or the backend, is absent
 *   PROGRAM  dispatch_program_absent  the set holds no program for the backend
 *   SHAPE    dispatch_shape_mismatch  the program does not take this shape
 *   PLAN     dispatch_not_placed      the backend's plan puts nothing on the unit
 *   RUN      dispatch_backend_failed  the backend failed the decode
 * Any question may also be answered dispatch_backend_failed (the backend
 * erred while answering). */
typedef enum wai_dispatch_question {
    WAI_DISPATCH_UNIT = 0,
    WAI_DISPATCH_PROGRAM = 1,
    WAI_DISPATCH_SHAPE = 2,
    WAI_DISPATCH_PLAN = 3,
    WAI_DISPATCH_RUN = 4
} wai_dispatch_question;

/* "unit", "program", "shape", "plan", "run"; NULL outside the enum. */
WAI_API const char *wai_dispatch_question_name(wai_dispatch_question q);

/* What a caller knows of the device, one callback per question before the
 * run, each returning WAI_ok for "yes" or its question's refusal. plan
 * fills *out, which holds what the path's backend stated (or nothing) when
 * it is called. A NULL callback takes the default probe's answer. */
typedef struct wai_dispatch_probe {
    void *opaque;
    wai_status (*unit)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*program)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*shape)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*plan)(void *opaque, const wai_capability *cap, const wai_path *path,
                       wai_placement *out);
    void *reserved[4]; /* NULL (invalid_argument otherwise): room for more questions */
} wai_dispatch_probe;

/* A device that has every unit and every backend, whose programs take
 * every shape and which adds nothing to a backend's plan: every question
 * yes. What a path lacks is its backend's to say (a decoder asks the
 * backends registered with its context first, include/wai/wai_backend.h). */
WAI_API const wai_dispatch_probe *wai_dispatch_probe_default(void);

/* The one place a probe is asked: q (not RUN) put to probe's callback, or
 * to the default probe's where probe (or its callback) is NULL. plan is
 * read and written for WAI_DISPATCH_PLAN only. */
WAI_API wai_status wai_dispatch_probe_answer(const wai_dispatch_probe *probe,
                                             wai_dispatch_question q, const wai_capability *cap,
                                             const wai_path *path, wai_placement *plan);

/* ---- §5 the report ------------------------------------------------------- */

typedef struct wai_dispatch_refusal {
    wai_path path;
    wai_status reason;  /* one of the seven WAI_dispatch_* codes */
} wai_dispatch_refusal;

typedef struct wai_dispatch_report {
    const wai_capability *capability;  /* the capability the payload decoded through */
    wai_tier needed;                   /* §2 */
    int ran;                           /* 1: ran_path ran (or was chosen to) */
    wai_path ran_path;
    wai_tier held;                     /* the tier the decode holds (§3) */
    wai_placement placement;           /* the plan of the path that ran */
    size_t n_refused;
    const wai_dispatch_refusal *refused; /* n_refused of them, in the order offered
                                          * (owned by whoever made the report) */
    uint8_t reserved[32];              /* written zero: room to grow */
} wai_dispatch_report;

/* Room enough for the JSON text of any report of a registry capability,
 * its NUL included. */
#define WAI_DISPATCH_REPORT_JSON_MAX 4096

/* Writes the report as one line of JSON (no newline), members in §5's
 * order, and a NUL, by the API's rule for text (include/wai/wai.h): *len
 * (if not NULL) gets the text's length without the NUL, also when buf is
 * too small, and then the call returns WAI_invalid_argument and buf is an
 * empty string. WAI_invalid_argument also for a report with a NULL
 * capability, a token outside its enum or a reason that is not a dispatch
 * code. */
WAI_API wai_status wai_dispatch_report_json(const wai_dispatch_report *r, char *buf,
                                            size_t size, size_t *len);

/* The same text in a string allocated through alloc (NULL: libc's);
 * release it with wai_dispatch_report_json_free and the same allocator. */
WAI_API wai_status wai_dispatch_report_json_alloc(const wai_allocator *alloc,
                                                  const wai_dispatch_report *r, char **out);
WAI_API void wai_dispatch_report_json_free(const wai_allocator *alloc, char *s);

/* ---- §4 the choice, step by step ------------------------------------------
 *
 * One decode's choice is driven by whoever runs the networks (a decoder, a
 * page's JavaScript): start it, then ask it for the next question and
 * answer it, until it has none; then read its status and report.
 *
 *   wai_dispatch_start(d, cap, &opt);               §2, the offer checked whole
 *   while (wai_dispatch_next(d, &path, &q)) {       §3 on each path, then §4's
 *       wai_status a = ...;                         the answer: the backend's,
 *       wai_dispatch_answer(d, a, &plan);           the device's, or the run's
 *   }
 *   st = wai_dispatch_status(d);                    and wai_dispatch_report_of(d)
 *
 * A path §3 refuses is recorded and never asked about (docs/dispatch.md,
 * D5). An answer that is the question's refusal (or backend_failed)
 * refuses the path and the next path is asked; WAI_ok moves on to the next
 * question, and to the next path's once RUN is answered ok (the path ran:
 * the choice is over). Any other status ends the choice with it (D9): from
 * RUN, the path counts as the one that ran. A dispatch code the question
 * cannot give is a broken answer: the choice ends, WAI_invalid_argument. */
typedef struct wai_dispatch wai_dispatch;

/* A choice's state and report, allocated through alloc (NULL: libc's). */
WAI_API wai_status wai_dispatch_create(const wai_allocator *alloc, wai_dispatch **out);
WAI_API void wai_dispatch_destroy(wai_dispatch *d);

/* Starts a choice for cap (§2 from opt; opt NULL: no intent, no pin, the
 * default offer), forgetting any before. WAI_invalid_argument (and a choice
 * that has no question) for a NULL cap, reserved bytes not zero, an invalid
 * path or a path offered twice. */
WAI_API wai_status wai_dispatch_start(wai_dispatch *d, const wai_capability *cap,
                                      const wai_dispatch_options *opt);

/* The next question: 1 with the path and the question, or 0 when the
 * choice is over. */
WAI_API int wai_dispatch_next(wai_dispatch *d, wai_path *path, wai_dispatch_question *q);

/* The answer to the question wai_dispatch_next gave last; plan is read for
 * WAI_DISPATCH_PLAN (NULL: none stated). A call with no question pending
 * is ignored. */
WAI_API void wai_dispatch_answer(wai_dispatch *d, wai_status answer, const wai_placement *plan);

/* The choice's outcome: WAI_ok when a path ran; while questions remain,
 * WAI_invalid_argument; when every path was refused, WAI_not_dispatchable
 * (each path's reason is in the report: D10); or the status that ended it. */
WAI_API wai_status wai_dispatch_status(const wai_dispatch *d);

/* The report of the choice (valid until d's next start or destroy);
 * NULL before any start. */
WAI_API const wai_dispatch_report *wai_dispatch_report_of(const wai_dispatch *d);

/* A whole choice with probe's answers and no run (the RUN question
 * answered WAI_ok): the first path the device can run is chosen, for the
 * caller to run its networks there. wai_dispatch_status's value. */
WAI_API wai_status wai_dispatch_choose(wai_dispatch *d, const wai_capability *cap,
                                       const wai_dispatch_options *opt,
                                       const wai_dispatch_probe *probe);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_DISPATCH_H */
