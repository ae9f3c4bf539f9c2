/* SPDX-License-Identifier: BSD-2-Clause */
/* A float capability's decode in a page (web/src/float.js, docs/web.md):
 * everything that must be the same everywhere is libwai's C, the same C a
 * native decoder runs, and the page's WebNN only builds and computes the
 * graph between the steps.
 *
 *   wai_web_float_open    the decode up to its networks (wai_latent_decode:
 *                         the parse, the set's checks, the cost against the
 *                         limits, the entropy stage), the latent (float32,
 *                         libwai_webnn's wai_webnn_latent), the set's
 *                         program read once (wai_webnn_program_open), and
 *                         the dispatch started (§2, the offer);
 *   wai_web_float_state   where the choice is: the question the page must
 *                         answer (a path's unit, its plan, its run), or none;
 *   wai_web_float_answer  the page's answer, by the spec's code;
 *   wai_web_float_output  room for the graph's output planes, then
 *   wai_web_float_ran     the RGB8 step (wai_webnn_picture) and the run's
 *                         answer;
 *   wai_web_float_close   the status, the report and the picture.
 *
 * The program and shape questions are libwai's to answer, here, for the
 * page's WebNN reads the same description: the page is never asked them. */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "wai/wai_decode.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_set.h"
#include "wai/wai_ml.h"

struct wai_web_float {
    wai_status status;            /* the decode's, up to the dispatch */
    wai_cost cost;
    int have_cost;
    wai_latent *latent;
    wai_webnn_program *program;   /* NULL: the set holds none (program_status) */
    int onnx_present;             /* the set holds decoder.onnx */
    wai_status program_status, shape_status;
    float *input;                 /* the latent, channels * height * width */
    size_t n_input;
    float *planes;                /* the graph's output, for the RGB8 step */
    size_t n_planes;
    uint8_t *rgb;
    wai_dispatch *dispatch;
    wai_dispatch_options options;
    wai_path paths[WAI_DISPATCH_MAX_PATHS];
};
typedef struct wai_web_float wai_web_float;

/* The program and shape answers are the set's and the payload's: answered
 * here, the page's questions in between. A WebNN path's program is
 * decoder.webnn.json with decoder.f32, the ONNX Runtime path's
 * decoder.onnx (the same synthesis, exported beside it by
 * tools/bmshj2018/make_set.py, so the WebNN program's shape answer is its). */
static void answer_own(wai_web_float *h) {
    wai_path p;
    wai_dispatch_question q;
    while (wai_dispatch_next(h->dispatch, &p, &q) &&
           (q == WAI_DISPATCH_PROGRAM || q == WAI_DISPATCH_SHAPE)) {
        wai_status own = q == WAI_DISPATCH_PROGRAM ? h->program_status : h->shape_status;
        if (p.backend == WAI_BACKEND_ONNX_RUNTIME && q == WAI_DISPATCH_PROGRAM)
            own = h->onnx_present ? WAI_ok : WAI_dispatch_program_absent;
        wai_dispatch_answer(h->dispatch,
                            p.backend == WAI_BACKEND_WEBNN || p.backend == WAI_BACKEND_ONNX_RUNTIME
                                ? own
                                : WAI_ok,
                            NULL);
    }
}

EXPORT(wai_web_float_open)
wai_web_float *wai_web_float_open(wai_context *ctx, const char *capability, const wai_set *set,
                                  const uint8_t *payload, size_t len, uint64_t max_cost,
                                  uint64_t max_memory, const char *intent, const char *pin_tier,
                                  const char *offer) {
    wai_web_float *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    wai_decoder_config c;
    glue_decoder_config(&c, capability, set, max_cost, max_memory);
    memset(&h->cost, 0xff, sizeof h->cost);
    h->status = wai_latent_decode(ctx, &c, payload, len, &h->cost, &h->latent);
    h->have_cost = h->cost.output_bytes != UINT64_MAX || h->cost.working_bytes != UINT64_MAX;
    if (h->status != WAI_ok) return h;
    wai_latent_job *job = wai_latent_job_of(h->latent);
    h->n_input = (size_t)job->channels * job->height * job->width;
    h->rgb = malloc((size_t)job->picture_width * job->picture_height * 3 + 1);
    h->input = malloc(h->n_input * sizeof *h->input + 1);
    if (!h->rgb || !h->input) {
        h->status = WAI_out_of_memory;
        return h;
    }
    job->rgb = h->rgb;
    wai_webnn_latent(job, h->input, h->n_input);
    h->program_status = wai_webnn_program_open(NULL, set, &h->program);
    const uint8_t *onnx;
    size_t onnx_len;
    h->onnx_present = set && wai_set_find(set, "decoder.onnx", &onnx, &onnx_len) == WAI_ok;
    h->shape_status =
        h->program_status == WAI_ok ? wai_webnn_program_shape(h->program, job) : h->program_status;
    if ((h->status = glue_dispatch_options(&h->options, h->paths, intent, pin_tier, offer)) !=
            WAI_ok ||
        (h->status = wai_dispatch_create(NULL, &h->dispatch)) != WAI_ok ||
        (h->status = wai_dispatch_start(h->dispatch, wai_latent_capability(h->latent),
                                        &h->options)) != WAI_ok)
        return h;
    answer_own(h);
    return h;
}

/* {"status": st, "capability", "cost", "symbols_digest": what every answer
 * of the handle's starts with. */
static void put_decode(text *t, const wai_web_float *h, wai_status st) {
    text_puts(t, "{\"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, ", \"capability\": ");
    text_string(t, h->latent ? wai_latent_capability(h->latent)->name : NULL);
    text_puts(t, ", \"cost\": ");
    if (h->have_cost) text_cost(t, &h->cost);
    else text_puts(t, "null");
    text_puts(t, ", \"symbols_digest\": ");
    uint8_t d[32];
    if (h->latent) {
        wai_latent_symbols_digest(h->latent, d);
        text_digest(t, d);
    } else {
        text_puts(t, "null");
    }
}

/* {"status", "capability", "cost", "symbols_digest", "latent": {"channels",
 * "height", "width"}, "picture": {"width", "height"}, "input",
 * "program": the program and shape answers a WebNN path gets,
 * "question": {"unit", "backend", "arithmetic", "question"} or null}. */
EXPORT(wai_web_float_state) wai_web_result *wai_web_float_state(const wai_web_float *h) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r || !h) return r;
    text *t = &r->json;
    put_decode(t, h, h->status);
    if (h->status == WAI_ok) {
        const wai_latent_job *j = wai_latent_job_of(h->latent);
        text_putf(t, ", \"latent\": {\"channels\": %llu, \"height\": %llu", j->channels, j->height);
        text_putf(t, ", \"width\": %llu}, \"picture\": {\"width\": %llu", j->width,
                  j->picture_width);
        text_putf(t, ", \"height\": %llu}, \"input\": %llu", j->picture_height,
                  (unsigned long long)(uintptr_t)h->input);
        text_puts(t, ", \"program\": ");
        text_string(t, wai_status_name(h->shape_status));
    }
    text_puts(t, ", \"question\": ");
    wai_path p;
    wai_dispatch_question q;
    if (h->status == WAI_ok && wai_dispatch_next(h->dispatch, &p, &q)) {
        text_puts(t, "{\"unit\": ");
        text_string(t, wai_unit_name(p.unit));
        text_puts(t, ", \"backend\": ");
        text_string(t, wai_backend_name(p.backend));
        text_puts(t, ", \"arithmetic\": ");
        text_string(t, wai_arithmetic_name(p.arithmetic));
        text_puts(t, ", \"question\": ");
        text_string(t, wai_dispatch_question_name(q));
        text_puts(t, "}");
    } else {
        text_puts(t, "null");
    }
    text_puts(t, "}");
    return r;
}

/* The page's answer to the question pending, by the spec's code ("ok",
 * "dispatch_unit_absent", ...); a plan's counts with it (stated 0: none).
 * 0, or the code of a name that is none. */
EXPORT(wai_web_float_answer)
int wai_web_float_answer(wai_web_float *h, const char *code, int stated, uint32_t npu,
                         uint32_t gpu, uint32_t cpu, uint32_t unknown) {
    wai_status a;
    if (!h || !h->dispatch || !wai_status_from_name(code, &a)) return (int)WAI_invalid_argument;
    const wai_placement plan = {stated != 0, npu, gpu, cpu, unknown};
    wai_dispatch_answer(h->dispatch, a, &plan);
    answer_own(h);
    return 0;
}

/* Room for n float32 output values (the graph's [1, 3, H, W]). */
EXPORT(wai_web_float_output) float *wai_web_float_output(wai_web_float *h, size_t n) {
    if (!h || !n) return NULL;
    if (n > h->n_planes) {
        free(h->planes);
        h->n_planes = 0;
        if (!(h->planes = malloc(n * sizeof *h->planes))) return NULL;
        h->n_planes = n;
    }
    return h->planes;
}

/* The run's end: the picture from the output planes (H x W each), and the
 * run answered with it (an output of the wrong size is the backend's
 * failure). */
EXPORT(wai_web_float_ran) int wai_web_float_ran(wai_web_float *h, uint32_t oh, uint32_t ow) {
    if (!h || !h->dispatch) return (int)WAI_invalid_argument;
    wai_status st = (size_t)3 * oh * ow <= h->n_planes
                        ? wai_webnn_picture(wai_latent_job_of(h->latent), h->planes, oh, ow)
                        : WAI_invalid_argument;
    wai_dispatch_answer(h->dispatch, st == WAI_ok ? WAI_ok : WAI_dispatch_backend_failed, NULL);
    answer_own(h);
    return (int)st;
}

/* {"status", "capability", "cost", "symbols_digest", "report",
 * "picture": {"width", "height"} or null}, the picture's RGB8 the data;
 * and the handle is freed. */
EXPORT(wai_web_float_close) wai_web_result *wai_web_float_close(wai_web_float *h) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!h) return r;
    wai_status st = h->status;
    const wai_dispatch_report *rep = NULL;
    if (st == WAI_ok) {
        st = wai_dispatch_status(h->dispatch);
        rep = wai_dispatch_report_of(h->dispatch);
    }
    if (r) {
        text *t = &r->json;
        put_decode(t, h, st);
        text_puts(t, ", \"report\": ");
        char *rj = NULL;
        if (rep && wai_dispatch_report_json_alloc(NULL, rep, &rj) == WAI_ok) text_puts(t, rj);
        else text_puts(t, "null");
        wai_dispatch_report_json_free(NULL, rj);
        const wai_latent_job *j = h->latent ? wai_latent_job_of(h->latent) : NULL;
        if (st == WAI_ok && j && rep && rep->ran &&
            result_keep(r, h->rgb, (size_t)j->picture_width * j->picture_height * 3))
            text_putf(t, ", \"picture\": {\"width\": %llu, \"height\": %llu}}", j->picture_width,
                      j->picture_height);
        else
            text_puts(t, ", \"picture\": null}");
    }
    wai_dispatch_destroy(h->dispatch);
    wai_webnn_program_destroy(h->program);
    wai_latent_destroy(h->latent);
    free(h->input);
    free(h->planes);
    free(h->rgb);
    free(h);
    return r;
}
