/* SPDX-License-Identifier: BSD-2-Clause */
/* The float paths whose networks the host's JavaScript computes (docs/web.md,
 * "Float backends"): the browser's WebNN on npu, gpu and cpu
 * (web/src/webnn.js) and ONNX Runtime on the CPU (web/src/ort.js). Each
 * path is a registered wai_backend_ops like the GPU's (gpu_path.c), so a
 * float capability decodes through wai_decoder_send like every other. What
 * must be the same everywhere stays here, in C: the members a program
 * reads, WebNN's description read once and its shape check, the latent in
 * float32, the room for the output and the RGB8 step. What needs the host
 * is a "wai" import, one per question it answers:
 *
 *   float_unit(kind, unit)                    0: the unit is there
 *   float_open(kind, unit, members, n)        the program's id (0: failed)
 *   float_plan(id, c, h, w)                   0 built; 2 out of memory
 *   float_run(id, latent, c, h, w, dims)      0 ran, dims[0..1] its planes' h, w
 *   float_fetch(id, out, n)                   the last run's planes (synchronous)
 *   float_close(id)                           (synchronous)
 *
 * The first four wait on the host. Where the engine has JSPI the decoder
 * calls them suspended (the promising send); where it has none (Debian's
 * node) a step handle (wai_web_steps_*) walks the same decode up to each
 * call, hands it to the host's loop (web/src/float.js), and resumes with
 * its answer: the same C before and after every call, in both. */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "wai_web.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_ml.h"
#include "wai/wai_set.h"

#define IMPORT(name) __attribute__((import_module("wai"), import_name(#name)))

IMPORT(float_unit) int wai_js_float_unit(uint32_t kind, uint32_t unit);
IMPORT(float_open)
uint32_t wai_js_float_open(uint32_t kind, uint32_t unit, const uint32_t *members, uint32_t n);
IMPORT(float_plan) int wai_js_float_plan(uint32_t id, uint32_t c, uint32_t h, uint32_t w);
IMPORT(float_run)
int wai_js_float_run(uint32_t id, const float *latent, uint32_t c, uint32_t h, uint32_t w,
                     uint32_t *dims);
IMPORT(float_fetch) int wai_js_float_fetch(uint32_t id, float *out, uint32_t n);
IMPORT(float_close) void wai_js_float_close(uint32_t id);

/* ---- the host's backends --------------------------------------------------- */

/* A host backend: its index in the host's list (web/src/float.js), the
 * backend it is, and its program's members. */
typedef struct host {
    uint32_t kind;
    wai_backend backend;
    const char *const *members;
    int webnn; /* its program is a WebNN description: read and shape-checked here */
} host;

static const char *const webnn_members[] = {"decoder.webnn.json", "decoder.f32", NULL};
static const char *const ort_members[] = {"decoder.onnx", NULL};
static const host hosts[] = {{0, WAI_BACKEND_WEBNN, webnn_members, 1},
                             {1, WAI_BACKEND_ONNX_RUNTIME, ort_members, 0}};

static const host *host_of(const wai_backend_ops *o) {
    return &hosts[o->path.backend == hosts[0].backend ? 0 : 1];
}

/* Each path's registered object (below): the one table of the paths. Its
 * instance in a context (self) is the object itself, so a callback knows
 * its path and its host. */
#define N_PATHS 4
static const wai_backend_ops ops[N_PATHS];

static const wai_backend_ops *ops_of(const wai_path *p) {
    for (size_t i = 0; i < N_PATHS; i++)
        if (ops[i].path.unit == p->unit && ops[i].path.backend == p->backend &&
            ops[i].path.arithmetic == p->arithmetic)
            return &ops[i];
    return NULL;
}

/* A program: the host's id, and WebNN's description read here. */
typedef struct program {
    uint32_t id;
    wai_webnn_program *webnn;
} program;

/* ---- each question: the C before the host's call, and after it ------------- */

static wai_status unit_after(int r) { return r == 0 ? WAI_ok : WAI_dispatch_unit_absent; }

/* The members' bytes as [pointer, length] pairs for float_open; the WebNN
 * description read first. dispatch_program_absent for a set without them. */
static wai_status open_before(const host *at, const wai_set *set, program **out,
                              uint32_t desc[8], uint32_t *n) {
    program *p = calloc(1, sizeof *p);
    if (!p) return WAI_out_of_memory;
    *n = 0;
    for (const char *const *m = at->members; *m; m++) {
        const uint8_t *b;
        size_t len;
        if (!set || wai_set_find(set, *m, &b, &len) != WAI_ok) {
            free(p);
            return WAI_dispatch_program_absent;
        }
        desc[2 * *n] = (uint32_t)(uintptr_t)b, desc[2 * *n + 1] = (uint32_t)len;
        ++*n;
    }
    wai_status st = at->webnn ? wai_webnn_program_open(NULL, set, &p->webnn) : WAI_ok;
    if (st != WAI_ok) {
        free(p);
        return st;
    }
    *out = p;
    return WAI_ok;
}

static void program_free(program *p) {
    if (!p) return;
    if (p->id) wai_js_float_close(p->id);
    wai_webnn_program_destroy(p->webnn);
    free(p);
}

static wai_status open_after(program *p, uint32_t id) {
    p->id = id;
    return id ? WAI_ok : WAI_dispatch_backend_failed;
}

static wai_status shape_of(const program *p, const wai_latent_job *job) {
    return p->webnn ? wai_webnn_program_shape(p->webnn, job) : WAI_ok;
}

static wai_status host_status(int r) {
    return r == 0 ? WAI_ok : r == 2 ? WAI_out_of_memory : WAI_dispatch_backend_failed;
}

/* The run's float32 latent, and room for its answer's size. */
typedef struct run_state {
    float *latent;
    uint32_t dims[2];
} run_state;

/* On a refusal nothing is left allocated. */
static wai_status run_before(const wai_latent_job *job, run_state *s) {
    const size_t n = (size_t)job->channels * job->height * job->width;
    s->latent = NULL;
    s->dims[0] = s->dims[1] = 0;
    if ((uint64_t)n * 4 > job->max_memory) return WAI_cost_over_limit;
    if (!(s->latent = malloc(n * sizeof *s->latent + 1))) return WAI_out_of_memory;
    wai_status st = wai_webnn_latent(job, s->latent, n);
    if (st != WAI_ok) {
        free(s->latent);
        s->latent = NULL;
    }
    return st;
}

/* The host ran: its planes [3, h, w] fetched into room the job's limit
 * allows, then the RGB8 step. */
static wai_status run_after(const program *p, wai_latent_job *job, run_state *s, int r) {
    free(s->latent);
    s->latent = NULL;
    wai_status st = host_status(r);
    if (st != WAI_ok) return st;
    const uint64_t n = (uint64_t)3 * s->dims[0] * s->dims[1];
    if (!n || n > UINT32_MAX) return WAI_dispatch_backend_failed;
    if (n * 4 > job->max_memory) return WAI_cost_over_limit;
    float *planes = malloc((size_t)n * sizeof *planes);
    if (!planes) return WAI_out_of_memory;
    st = wai_js_float_fetch(p->id, planes, (uint32_t)n) == 0
             ? wai_webnn_picture(job, planes, s->dims[0], s->dims[1])
             : WAI_dispatch_backend_failed;
    free(planes);
    /* A picture that does not fit the planes is the backend's failure. */
    return st == WAI_ok || st == WAI_out_of_memory ? st : WAI_dispatch_backend_failed;
}

/* ---- as registered backends: the host called through JSPI ----------------- */

#define CREATE(i)                                                   \
    static wai_status create_##i(wai_context *ctx, void **self) {   \
        (void)ctx;                                                  \
        *self = (void *)&ops[i];                                    \
        return WAI_ok;                                              \
    }
CREATE(0)
CREATE(1)
CREATE(2)
CREATE(3)

static wai_status op_unit(void *self, const wai_path *path) {
    return unit_after(wai_js_float_unit(host_of(self)->kind, (uint32_t)path->unit));
}

static wai_status op_open(void *self, const wai_set *set, const wai_capability *cap,
                          void **out) {
    (void)cap;
    const wai_backend_ops *o = self;
    program *p = NULL;
    uint32_t desc[8], n;
    wai_status st = open_before(host_of(o), set, &p, desc, &n);
    if (st == WAI_ok)
        st = open_after(p, wai_js_float_open(host_of(o)->kind, (uint32_t)o->path.unit, desc, n));
    if (st != WAI_ok) program_free(p);
    *out = st == WAI_ok ? p : NULL;
    return st;
}

static void op_close(void *self, void *prog) {
    (void)self;
    program_free(prog);
}

static wai_status op_shape(void *self, void *prog, const wai_latent_job *job) {
    (void)self;
    return shape_of(prog, job);
}

static wai_status op_plan(void *self, void *prog, const wai_latent_job *job, wai_placement *out) {
    (void)self, (void)out; /* the host states no placement (neural-dispatch §5) */
    const program *p = prog;
    return host_status(wai_js_float_plan(p->id, job->channels, job->height, job->width));
}

static wai_status op_run(void *self, void *prog, wai_latent_job *job) {
    (void)self;
    const program *p = prog;
    run_state s;
    wai_status st = run_before(job, &s);
    if (st != WAI_ok) return st;
    int r = wai_js_float_run(p->id, s.latent, job->channels, job->height, job->width, s.dims);
    return run_after(p, job, &s, r);
}

#define FLOAT_PATH(u, b) {u, b, WAI_ARITHMETIC_FLOAT}
#define OPS(i, name_, u_, b_, member_list)                                               \
    {                                                                                     \
        .name = name_, .path = FLOAT_PATH(u_, b_), .program_members = member_list,        \
        .create = create_##i, .program_open = op_open, .program_close = op_close,         \
        .shape = op_shape, .plan = op_plan, .run = op_run, .unit = op_unit,               \
    }
static const wai_backend_ops ops[N_PATHS] = {
    OPS(0, "webnn", WAI_UNIT_NPU, WAI_BACKEND_WEBNN, webnn_members),
    OPS(1, "webnn", WAI_UNIT_GPU, WAI_BACKEND_WEBNN, webnn_members),
    OPS(2, "webnn", WAI_UNIT_CPU, WAI_BACKEND_WEBNN, webnn_members),
    OPS(3, "onnx-runtime", WAI_UNIT_CPU, WAI_BACKEND_ONNX_RUNTIME, ort_members),
};

/* A context whose float capabilities' networks the host computes: made only
 * where the engine has JSPI, decoded through only by the promising send.
 * One thread, as every page context. */
EXPORT(wai_web_context_create_float) wai_context *wai_web_context_create_float(void) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = 1;
    wai_context *c = NULL;
    if (wai_context_create(&s, &c) != WAI_ok) return NULL;
    for (size_t i = 0; i < N_PATHS; i++)
        if (wai_context_add_backend(c, &ops[i]) != WAI_ok) {
            wai_context_destroy(c);
            return NULL;
        }
    return c;
}

/* ---- step by step: the host's loop where the engine has no JSPI ----------- */

/* The host call a step handle waits on. */
typedef enum call { CALL_NONE, CALL_UNIT, CALL_OPEN, CALL_PLAN, CALL_RUN } call;
static const char *const call_names[] = {NULL, "float_unit", "float_open", "float_plan",
                                         "float_run"};

struct wai_web_steps {
    wai_status status; /* the decode's, up to the dispatch */
    wai_cost cost;
    int have_cost;
    wai_latent *latent;
    uint8_t *rgb;
    const wai_set *set;
    wai_dispatch *dispatch;
    wai_dispatch_options options;
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
    const wai_backend_ops *at; /* the path asked about, where a host backend serves it */
    program *prog;     /* its program, once opened */
    call waiting;      /* the host call the handle waits on */
    uint32_t args[6], n_args;
    uint32_t desc[8];  /* float_open's members */
    run_state run;
};
typedef struct wai_web_steps steps;

static void wait_on(steps *h, call c, uint32_t n, const uint32_t *args) {
    h->waiting = c;
    h->n_args = n;
    memcpy(h->args, args, n * sizeof *args);
}

/* Answers what C answers (a path no host backend serves, the program's
 * members, the shape) until a question needs the host, or none is left:
 * the questions and their order are the dispatch's, as the decoder's. */
static void advance(steps *h) {
    h->waiting = CALL_NONE;
    wai_latent_job *job = wai_latent_job_of(h->latent);
    wai_path p;
    wai_dispatch_question q;
    while (wai_dispatch_next(h->dispatch, &p, &q)) {
        wai_status st = WAI_ok;
        uint32_t n;
        if (q == WAI_DISPATCH_UNIT) {
            program_free(h->prog); /* a new path: the last one's program goes */
            h->prog = NULL;
            if ((h->at = ops_of(&p))) {
                const uint32_t a[] = {host_of(h->at)->kind, (uint32_t)p.unit};
                return wait_on(h, CALL_UNIT, 2, a);
            }
            st = WAI_dispatch_unit_absent;
        } else if (q == WAI_DISPATCH_PROGRAM) {
            if ((st = open_before(host_of(h->at), h->set, &h->prog, h->desc, &n)) == WAI_ok) {
                const uint32_t a[] = {host_of(h->at)->kind, (uint32_t)p.unit,
                                      (uint32_t)(uintptr_t)h->desc, n};
                return wait_on(h, CALL_OPEN, 4, a);
            }
        } else if (q == WAI_DISPATCH_SHAPE) {
            st = shape_of(h->prog, job);
        } else if (q == WAI_DISPATCH_PLAN) {
            const uint32_t a[] = {h->prog->id, job->channels, job->height, job->width};
            return wait_on(h, CALL_PLAN, 4, a);
        } else if (q == WAI_DISPATCH_RUN) {
            job->rgb = h->rgb;
            if ((st = run_before(job, &h->run)) == WAI_ok) {
                const uint32_t a[] = {h->prog->id, (uint32_t)(uintptr_t)h->run.latent,
                                      job->channels, job->height, job->width,
                                      (uint32_t)(uintptr_t)h->run.dims};
                return wait_on(h, CALL_RUN, 6, a);
            }
        }
        wai_dispatch_answer(h->dispatch, st, NULL);
    }
}

/* The decode up to its networks (wai_latent_decode: the parse, the set's
 * checks, the cost against the limits, the entropy stage), then the
 * dispatch started (§2, the offer) and walked to its first host call. */
EXPORT(wai_web_steps_open)
steps *wai_web_steps_open(wai_context *ctx, const char *capability, const wai_set *set,
                          const uint8_t *payload, size_t len, uint64_t max_cost,
                          uint64_t max_memory, const char *intent, const char *pin_tier,
                          const char *offer) {
    steps *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    wai_decoder_config c;
    glue_decoder_config(&c, capability, set, max_cost, max_memory);
    memset(&h->cost, 0xff, sizeof h->cost);
    h->set = set;
    h->status = wai_latent_decode(ctx, &c, payload, len, &h->cost, &h->latent);
    h->have_cost = h->cost.output_bytes != UINT64_MAX || h->cost.working_bytes != UINT64_MAX;
    if (h->status != WAI_ok) return h;
    const wai_latent_job *job = wai_latent_job_of(h->latent);
    if (!(h->rgb = malloc((size_t)job->picture_width * job->picture_height * 3 + 1))) {
        h->status = WAI_out_of_memory;
        return h;
    }
    if ((h->status = glue_dispatch_options(&h->options, h->paths, intent, pin_tier, offer)) !=
            WAI_ok ||
        (h->status = wai_dispatch_create(NULL, &h->dispatch)) != WAI_ok ||
        (h->status = wai_dispatch_start(h->dispatch, wai_latent_capability(h->latent),
                                        &h->options)) != WAI_ok)
        return h;
    advance(h);
    return h;
}

/* {"call": {"name", "args"} or null}: the host call to make next (its
 * answer goes to wai_web_steps_resume), none once the dispatch is done. */
EXPORT(wai_web_steps_call) wai_web_result *wai_web_steps_call(const steps *h) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return r;
    text *t = &r->json;
    text_puts(t, "{\"call\": ");
    if (h && h->status == WAI_ok && h->waiting != CALL_NONE) {
        text_puts(t, "{\"name\": ");
        text_string(t, call_names[h->waiting]);
        text_puts(t, ", \"args\": [");
        for (uint32_t i = 0; i < h->n_args; i++) text_putf(t, i ? ", %llu" : "%llu", h->args[i], 0);
        text_puts(t, "]}");
    } else {
        text_puts(t, "null");
    }
    text_puts(t, "}");
    return r;
}

/* The host's answer to the call waited on: the C after it, the dispatch
 * answered, and on to the next call. */
EXPORT(wai_web_steps_resume) int wai_web_steps_resume(steps *h, int result) {
    if (!h || h->status != WAI_ok || h->waiting == CALL_NONE) return (int)WAI_invalid_argument;
    wai_latent_job *job = wai_latent_job_of(h->latent);
    wai_status st = WAI_ok;
    switch (h->waiting) {
    case CALL_UNIT: st = unit_after(result); break;
    case CALL_OPEN:
        if ((st = open_after(h->prog, (uint32_t)result)) != WAI_ok) {
            program_free(h->prog);
            h->prog = NULL;
        }
        break;
    case CALL_PLAN: st = host_status(result); break;
    default: st = run_after(h->prog, job, &h->run, result); break;
    }
    wai_dispatch_answer(h->dispatch, st, NULL);
    advance(h);
    return 0;
}

/* What wai_web_decoder_send answers: {"status", "capability", "cost",
 * "outputs", "report", "symbols_digest"}, the picture (one image output)
 * the data; the handle is freed. */
EXPORT(wai_web_steps_close) wai_web_result *wai_web_steps_close(steps *h) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!h) return r;
    wai_status st = h->status;
    const wai_dispatch_report *rep = NULL;
    if (st == WAI_ok) {
        st = wai_dispatch_status(h->dispatch);
        rep = wai_dispatch_report_of(h->dispatch);
    }
    const wai_latent_job *j = h->latent ? wai_latent_job_of(h->latent) : NULL;
    const size_t size = j ? (size_t)j->picture_width * j->picture_height * 3 : 0;
    const int picture = st == WAI_ok && rep && rep->ran;
    if (r && picture && !result_keep(r, h->rgb, size)) st = WAI_out_of_memory;
    if (r) {
        text *t = &r->json;
        text_puts(t, "{\"status\": ");
        text_string(t, wai_status_name(st));
        text_puts(t, ", \"capability\": ");
        text_string(t, h->latent ? wai_latent_capability(h->latent)->name : NULL);
        text_puts(t, ", \"cost\": ");
        if (h->have_cost) text_cost(t, &h->cost);
        else text_puts(t, "null");
        text_puts(t, ", \"outputs\": [");
        if (st == WAI_ok && picture) {
            text_putf(t, "{\"kind\": \"image\", \"width\": %llu, \"height\": %llu",
                      j->picture_width, j->picture_height);
            text_putf(t, ", \"index\": 0, \"sample_rate\": 0, \"offset\": 0, \"size\": %llu}",
                      size, 0);
        }
        text_puts(t, "], \"report\": ");
        text_report(t, rep);
        text_puts(t, ", \"symbols_digest\": ");
        uint8_t d[32];
        if (h->latent) {
            wai_latent_symbols_digest(h->latent, d);
            text_digest(t, d);
        } else {
            text_puts(t, "null");
        }
        text_puts(t, "}");
    }
    free(h->run.latent);
    program_free(h->prog);
    wai_dispatch_destroy(h->dispatch);
    wai_latent_destroy(h->latent);
    free(h->rgb);
    free(h);
    return r;
}
