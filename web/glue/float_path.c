/* A float capability's decode in a page (web/src/float.js, docs/web.md):
 * the steps that must be the same everywhere stay libwai's C, and the
 * page's WebNN runs the networks between them.
 *
 *   wai_web_symbols   parse, set checks, declared cost against the limits,
 *                     then the entropy stage: the symbols and their digest
 *                     (neural-dispatch §6.3), no network;
 *   wai_web_dispatch  §2-§5 over the offer with the page's answers for each
 *                     path, or, with no answers, the paths the choice would
 *                     ask the device about (so a page creates no context a
 *                     decode that needs decode-equivalence would refuse). */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_format.h"
#include "wai/wai_hash.h"

EXPORT(wai_web_symbols)
wai_web_result *wai_web_symbols(wai_context *ctx, const char *capability, const wai_set *set,
                                const uint8_t *payload, size_t len, uint64_t max_cost,
                                uint64_t max_memory) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    const wai_capability *cap =
        capability ? wai_capability_find(capability) : wai_capability_detect(payload, len);
    wai_status st = capability && !cap ? WAI_unsupported_capability
                    : !cap             ? WAI_bad_magic
                                       : wai_check_payload(cap, payload, len, NULL);
    wai_cost cost;
    int have_cost = 0;
    if (st == WAI_ok && (st = wai_declared_cost_set(ctx, cap->name, set, payload, len, &cost)) ==
                            WAI_ok) {
        have_cost = 1;
        if (!wai_cost_within(&cost, max_cost, max_memory)) st = WAI_cost_over_limit;
    }
    size_t n = 0;
    if (st == WAI_ok) st = wai_entropy_symbols(ctx, cap->name, set, payload, len, NULL, 0, &n);
    int32_t *sym = NULL;
    if (st == WAI_ok && !(sym = malloc((n ? n : 1) * sizeof *sym))) st = WAI_out_of_memory;
    if (st == WAI_ok) st = wai_entropy_symbols(ctx, cap->name, set, payload, len, sym, n, &n);
    uint8_t digest[WAI_BLAKE3_BYTES];
    if (st == WAI_ok) {
        /* i32 little-endian, as the digest hashes them (WebAssembly is). */
        wai_blake3_oneshot(sym, n * sizeof *sym, digest);
        if (!result_keep(r, sym, n * sizeof *sym)) st = WAI_out_of_memory;
    }
    free(sym);
    text *t = &r->json;
    text_puts(t, "{\"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, ", \"capability\": ");
    text_string(t, cap ? cap->name : NULL);
    text_puts(t, ", \"cost\": ");
    if (have_cost) text_cost(t, &cost);
    else text_puts(t, "null");
    char *header = NULL;
    size_t hl = 0;
    if (st == WAI_ok && wai_payload_header_json(cap, payload, len, NULL, 0, &hl) == WAI_ok &&
        (header = malloc(hl + 1)) &&
        wai_payload_header_json(cap, payload, len, header, hl + 1, &hl) != WAI_ok) {
        free(header);
        header = NULL;
    }
    text_puts(t, ", \"header\": ");
    text_puts(t, header ? header : "null");
    free(header);
    text_putf(t, ", \"symbols\": %llu", st == WAI_ok ? n : 0, 0);
    text_puts(t, ", \"symbols_digest\": ");
    if (st == WAI_ok) text_digest(t, digest);
    else text_puts(t, "null");
    text_puts(t, "}");
    return r;
}

/* ---- the dispatch with the page's answers ------------------------------------- */

/* Per offered path, nine answers (a status each, 0 yes): unit, program,
 * shape, then the plan (stated, and its npu, gpu, cpu and unknown counts),
 * then run. */
enum { UNIT, PROGRAM, SHAPE, STATED, NPU, GPU, CPU, UNKNOWN, RUN, ANSWERS };

typedef struct page_probe {
    const wai_dispatch_offer *offer;
    const int32_t *answers; /* NULL: asking */
    uint8_t asked[WAI_DISPATCH_MAX_PATHS];
} page_probe;

static int index_of(const page_probe *p, const wai_path *path) {
    for (size_t i = 0; i < p->offer->n; i++) {
        const wai_path *q = &p->offer->paths[i];
        if (q->unit == path->unit && q->backend == path->backend &&
            q->arithmetic == path->arithmetic)
            return (int)i;
    }
    return -1;
}

static wai_status answer(page_probe *p, const wai_path *path, int what) {
    int i = index_of(p, path);
    if (i < 0) return WAI_dispatch_backend_failed;
    if (!p->answers) {
        p->asked[i] = 1;
        return WAI_dispatch_unit_absent;
    }
    return (wai_status)p->answers[i * ANSWERS + what];
}

static wai_status on_unit(void *o, const wai_capability *c, const wai_path *path) {
    (void)c;
    return answer(o, path, UNIT);
}
static wai_status on_program(void *o, const wai_capability *c, const wai_path *path) {
    (void)c;
    return answer(o, path, PROGRAM);
}
static wai_status on_shape(void *o, const wai_capability *c, const wai_path *path) {
    (void)c;
    return answer(o, path, SHAPE);
}
static wai_status on_run(void *o, const wai_capability *c, const wai_path *path) {
    (void)c;
    return answer(o, path, RUN);
}
static wai_status on_plan(void *o, const wai_capability *c, const wai_path *path,
                          wai_placement *out) {
    (void)c;
    page_probe *p = o;
    int i = index_of(p, path);
    if (i < 0 || !p->answers) return WAI_ok;
    const int32_t *a = p->answers + i * ANSWERS;
    out->stated = a[STATED] != 0;
    out->npu = (uint64_t)a[NPU], out->gpu = (uint64_t)a[GPU], out->cpu = (uint64_t)a[CPU];
    out->unknown = (uint64_t)a[UNKNOWN];
    return WAI_ok;
}

/* {"status", "needed", "offer": [{"unit", "backend", "arithmetic"}], "asked":
 * [i, ...] (asking only), "report"}. answers NULL asks: every path the
 * choice would question is recorded and answered absent. n_answers is the
 * answers' count of int32 values (nine a path). */
EXPORT(wai_web_dispatch)
wai_web_result *wai_web_dispatch(const char *capability, const char *intent, const char *pin_tier,
                                 const char *offer, const int32_t *answers, size_t n_answers) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    const wai_capability *cap = capability ? wai_capability_find(capability) : NULL;
    wai_dispatch_options o;
    wai_dispatch_options_default(&o);
    o.intent = intent, o.pin_tier = pin_tier;
    wai_status st = cap ? WAI_ok : WAI_unsupported_capability;
    if (st == WAI_ok && offer && *offer) st = wai_dispatch_parse_offer(offer, &o.offer);
    if (st == WAI_ok && o.offer.n == 0) wai_dispatch_offer_default(&o.offer);
    if (st == WAI_ok && answers && n_answers < o.offer.n * ANSWERS) st = WAI_invalid_argument;
    wai_tier needed = WAI_TIER_NONE;
    if (st == WAI_ok) st = wai_dispatch_demand(cap, &o, &needed);
    page_probe p = {&o.offer, answers, {0}};
    wai_dispatch_probe probe = {&p, on_unit, on_program, on_shape, on_plan, on_run, {0}};
    wai_dispatch_report rep;
    int chose = 0;
    if (st == WAI_ok) {
        st = wai_dispatch_choose(cap, needed, &o.offer, &probe, &rep);
        chose = 1;
    }
    text *t = &r->json;
    text_puts(t, "{\"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, ", \"needed\": ");
    text_string(t, wai_tier_name(needed));
    text_puts(t, ", \"offer\": [");
    for (size_t i = 0; i < o.offer.n; i++) {
        const wai_path *q = &o.offer.paths[i];
        text_puts(t, i ? ", {\"unit\": " : "{\"unit\": ");
        text_string(t, wai_unit_name(q->unit));
        text_puts(t, ", \"backend\": ");
        text_string(t, wai_backend_name(q->backend));
        text_puts(t, ", \"arithmetic\": ");
        text_string(t, wai_arithmetic_name(q->arithmetic));
        text_puts(t, "}");
    }
    text_puts(t, "], \"asked\": [");
    for (size_t i = 0, k = 0; !answers && i < o.offer.n; i++)
        if (p.asked[i]) text_putf(t, k++ ? ", %llu" : "%llu", i, 0);
    text_puts(t, "], \"report\": ");
    char *rj = NULL;
    if (chose && answers && wai_dispatch_report_json_alloc(NULL, &rep, &rj) == WAI_ok)
        text_puts(t, rj);
    else
        text_puts(t, "null");
    wai_dispatch_report_json_free(NULL, rj);
    text_puts(t, "}");
    return r;
}
