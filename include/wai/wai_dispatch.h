/* Neural dispatch (neural-dispatch §2-§5): the tier a decode needs, the paths
 * that may run its networks, the choice among them, and the
 * `wai-neural-dispatch/1` report. Pure functions over plain structs: nothing
 * here allocates (except wai_dispatch_report_json_alloc, through the caller's
 * allocator), prints or keeps state. docs/dispatch.md states the rules as
 * implemented, the default offer and the report's form. */
#ifndef WAI_WAI_DISPATCH_H
#define WAI_WAI_DISPATCH_H

#include "wai.h"
#include "wai_format.h"

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

/* The most paths an offer holds. There are 11 valid paths, and an offer
 * names each at most once. */
#define WAI_DISPATCH_MAX_PATHS 16

typedef struct wai_dispatch_offer {
    size_t n;                               /* 0: the default offer */
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
} wai_dispatch_offer;

/* The offer of this sink, "npu,gpu,cpu,ort,wgsl,int" (docs/dispatch.md). */
#define WAI_DISPATCH_DEFAULT_OFFER "npu,gpu,cpu,ort,wgsl,int"
WAI_API void wai_dispatch_offer_default(wai_dispatch_offer *out);

/* Parses a comma-separated offer, in order. A token is a short name:
 *   npu  = npu/model-runtime/float     gpu = gpu/webnn/float
 *   cpu  = cpu/webnn/float             wgsl = gpu/wgsl/integer
 *   int  = cpu/wai-ops/integer
 * or a path written out as UNIT/BACKEND/ARITHMETIC with §1's tokens (e.g.
 * cpu/onnx-runtime/float). WAI_invalid_argument (and *out untouched) for an
 * empty list or token, an unknown token, a path wai_path_valid refuses, or
 * a path named twice. */
WAI_API wai_status wai_dispatch_parse_offer(const char *list, wai_dispatch_offer *out);

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

/* intent and pin_tier NULL, the default offer written out. */
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

/* ---- the device probe (§4 steps 2 and 3) -------------------------------- */

/* Where the backend's plan puts the program's operations (constants left
 * out). stated 0: the backend states no plan, and the report's placement
 * is null. */
typedef struct wai_placement {
    int stated;
    uint64_t npu, gpu, cpu, unknown;
} wai_placement;

/* What the sink's device answers, one question each. Every callback returns
 * WAI_ok for "yes", or:
 *   unit      WAI_dispatch_unit_absent     (the unit, or the backend, is absent)
 *   program   WAI_dispatch_program_absent  (the set holds no program for the backend)
 *   shape     WAI_dispatch_shape_mismatch  (the program does not take this shape)
 *   run       WAI_dispatch_backend_failed  (the backend failed the decode)
 * plan fills *out (zeroed before the call) and sets out->stated when the
 * backend states one; choose refuses the path with WAI_dispatch_not_placed
 * when the plan puts no operation on the path's unit.
 * Any callback may return WAI_dispatch_backend_failed (the backend erred
 * while answering): the path is refused with it and the next is tried.
 * Any status that is not a dispatch code (out_of_memory, a payload's
 * refusal from the networks, ...) ends the choice with that status; from
 * run, the path counts as the one that ran (report->ran, its placement). A
 * dispatch code other than the callback's own and backend_failed breaks the
 * contract: the choice ends with WAI_invalid_argument.
 * A NULL callback takes the default probe's answer; the default probe has
 * no run, and then the first path that passes the checks is chosen for the
 * caller to run its networks there. */
typedef struct wai_dispatch_probe {
    void *opaque;
    wai_status (*unit)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*program)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*shape)(void *opaque, const wai_capability *cap, const wai_path *path);
    wai_status (*plan)(void *opaque, const wai_capability *cap, const wai_path *path,
                       wai_placement *out);
    wai_status (*run)(void *opaque, const wai_capability *cap, const wai_path *path);
    void *reserved[4]; /* NULL (invalid_argument otherwise): room for more questions */
} wai_dispatch_probe;

/* This sink's device: the CPU with libwai's integer interpreter (wai-ops)
 * and its native WebNN (webnn) is present; the neural processor, any GPU,
 * and the model-runtime, onnx-runtime and wgsl backends are absent. For
 * wai-ops the program is the set's integer networks, which a decode has
 * resolved and checked against the payload (set_incomplete, model_mismatch,
 * geometry_mismatch) before it dispatches, so program and shape answer yes;
 * a decode's own backend answers them for webnn first (the set's graph
 * description). Neither states a plan. */
WAI_API const wai_dispatch_probe *wai_dispatch_probe_default(void);

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
    wai_dispatch_refusal refused[WAI_DISPATCH_MAX_PATHS];  /* in the order offered */
    uint8_t reserved[32];              /* written zero: room to grow */
} wai_dispatch_report;

/* Room enough for the JSON text of any report of a registry capability,
 * its NUL included. */
#define WAI_DISPATCH_REPORT_JSON_MAX 4096

/* Writes the report as one line of JSON (no newline), members in §5's
 * order, and a NUL. *len (if not NULL) gets the text's length without the
 * NUL, also when buf is too small; then the call returns
 * WAI_invalid_argument and buf holds nothing usable. WAI_invalid_argument
 * also for a report with a NULL capability, a token outside its enum or a
 * reason that is not a dispatch code. */
WAI_API wai_status wai_dispatch_report_json(const wai_dispatch_report *r, char *buf,
                                            size_t size, size_t *len);

/* The same text in a string allocated through alloc (NULL: libc's);
 * release it with wai_dispatch_report_json_free and the same allocator. */
WAI_API wai_status wai_dispatch_report_json_alloc(const wai_allocator *alloc,
                                                  const wai_dispatch_report *r, char **out);
WAI_API void wai_dispatch_report_json_free(const wai_allocator *alloc, char *s);

/* ---- §4 choose, and the entry a decode calls ----------------------------- */

/* §4 over the offer (n == 0: the default) with the tier already demanded:
 * for each path in order, §3 (admit), then the probe's unit, program,
 * shape and plan, then run. Fills *report whatever the outcome (it is
 * zeroed first). Returns WAI_ok when a path ran (report->ran); when every
 * path is refused, the reason of the first path refused (the one the sink
 * preferred), with the whole list in the report; WAI_invalid_argument for
 * NULL arguments, an invalid path, a path offered twice or a probe that
 * breaks its contract; or the status a probe ended the choice with.
 * probe NULL: the default probe. */
WAI_API wai_status wai_dispatch_choose(const wai_capability *cap, wai_tier needed,
                                       const wai_dispatch_offer *offer,
                                       const wai_dispatch_probe *probe,
                                       wai_dispatch_report *report);

/* What a decode calls once its set is resolved and checked against the
 * payload, before its networks run: wai_dispatch_demand, then
 * wai_dispatch_choose over opt's offer. opt NULL: no intent, no pin, the
 * default offer. */
WAI_API wai_status wai_dispatch(const wai_capability *cap, const wai_dispatch_options *opt,
                                const wai_dispatch_probe *probe, wai_dispatch_report *report);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_DISPATCH_H */
