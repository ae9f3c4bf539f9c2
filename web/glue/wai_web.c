/* SPDX-License-Identifier: BSD-2-Clause */
/* The WebAssembly face of libwai (web/, docs/web.md): a handful of flat
 * functions over the public C API that JavaScript can call with numbers
 * and pointers, each result one JSON text and one buffer of output bytes.
 * Everything that decodes is libwai's C, compiled; this file only carries
 * values across. Built as a WASI reactor (web/CMakeLists.txt); the page's
 * or node's JavaScript (web/src/) supplies the few WASI imports libc asks
 * for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wai/wai.h"
#include "wai/wai_backend.h"
#include "wai/wai_decode.h"
#include "wai/wai_dispatch.h"
#include "wai/wai_format.h"
#include "wai/wai_set.h"
#include "wai/wai_webnn.h"
#include "result.h"
#include "wai_web.h"


/* ---- memory the JavaScript side fills and reads ------------------------- */

EXPORT(wai_web_alloc) void *wai_web_alloc(size_t n) { return malloc(n ? n : 1); }
EXPORT(wai_web_free) void wai_web_free(void *p) { free(p); }

/* ---- contexts and sets ----------------------------------------------------- */

/* One thread: a page's module runs on the thread that calls it. The native
 * WebNN (libwai_webnn, compiled in) is cpu/webnn/float for a decode that
 * runs whole in the module (decode(); decodeAsync() runs the page's).
 * level: the kernels' cap (wai_cpu_level; 0 the module's best); NULL for
 * a level this build has not. threads: the workers the page will start
 * for it, plus its own (wai-threads.wasm; 1 in wai.wasm). */
EXPORT(wai_web_context_create) wai_context *wai_web_context_create(int level, unsigned threads) {
    wai_settings s;
    wai_settings_default(&s);
    s.n_threads = threads ? threads : 1;
    s.cpu_level = (wai_cpu_level)level;
    wai_context *c = NULL;
    if (wai_context_create(&s, &c) != WAI_ok) return NULL;
    if (wai_context_add_backend(c, wai_webnn_backend()) != WAI_ok) {
        wai_context_destroy(c);
        return NULL;
    }
    return c;
}

/* A worker's life (web/src/worker.js): it runs c's kernel shares until c
 * is destroyed (wai_context_serve). */
EXPORT(wai_web_worker_serve) int wai_web_worker_serve(wai_context *c) {
    return (int)wai_context_serve(c);
}

/* The threads c's kernels split over now: 1 plus the workers serving. */
EXPORT(wai_web_context_threads) unsigned wai_web_context_threads(const wai_context *c) {
    return wai_context_threads(c);
}

/* The level ctx's kernels run at (wai_cpu_level). */
EXPORT(wai_web_context_cpu_level) int wai_web_context_cpu_level(const wai_context *c) {
    return (int)wai_context_cpu_level(c);
}

EXPORT(wai_web_context_destroy) void wai_web_context_destroy(wai_context *c) {
    wai_context_destroy(c);
}

EXPORT(wai_web_set_create) wai_set *wai_web_set_create(wai_context *ctx) {
    wai_set *s = NULL;
    return wai_set_create(ctx, &s) == WAI_ok ? s : NULL;
}

/* A member, copied: the caller frees its buffers after. */
EXPORT(wai_web_set_add)
int wai_web_set_add(wai_set *s, const char *name, const uint8_t *data, size_t len) {
    return (int)wai_set_add(s, name, data, len);
}

/* The set's pin (32 bytes, docs/spec-readings.md L5, L5a), as wai_set_pin. */
EXPORT(wai_web_set_pin) int wai_web_set_pin(wai_set *s, const uint8_t *sha256) {
    return (int)wai_set_pin(s, sha256);
}

EXPORT(wai_web_set_destroy) void wai_web_set_destroy(wai_set *s) { wai_set_destroy(s); }

EXPORT(wai_web_status_name) const char *wai_web_status_name(int st) {
    return wai_status_name((wai_status)st);
}

/* libwai's one table of meanings (wai_status_meaning): the page's
 * describeStatus reads it from here. */
EXPORT(wai_web_status_meaning) const char *wai_web_status_meaning(int st) {
    return wai_status_meaning((wai_status)st);
}

/* ---- decoding ---------------------------------------------------------------- */

struct wai_web_decoder {
    wai_decoder *d;
    wai_dispatch_options dispatch;
    wai_path paths[WAI_DISPATCH_MAX_PATHS]; /* the offer's */
    wai_status status; /* of creating it */
};
typedef wai_web_decoder decoder;

/* A decoder of capability (NULL: the first payload's magic names it) with
 * the set (NULL: none), the limits (UINT64_MAX: none) and the dispatch's
 * intent, pin tier and offer (each NULL: none, the default); streaming:
 * a clip's frames decoded as they are asked for (wai_web_decoder_start,
 * wai_web_decoder_next). Always a handle: wai_web_decoder_status says
 * whether it can decode. */
EXPORT(wai_web_decoder_create)
decoder *wai_web_decoder_create(wai_context *ctx, const char *capability, const wai_set *set,
                                uint64_t max_cost, uint64_t max_memory, const char *intent,
                                const char *pin_tier, const char *offer, int streaming) {
    decoder *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    if ((h->status = glue_dispatch_options(&h->dispatch, h->paths, intent, pin_tier, offer)) !=
        WAI_ok)
        return h;
    wai_decoder_config c;
    glue_decoder_config(&c, capability, set, max_cost, max_memory);
    c.dispatch = &h->dispatch;
    c.streaming = streaming != 0;
    h->status = wai_decoder_create(ctx, &c, &h->d);
    return h;
}

EXPORT(wai_web_decoder_status) int wai_web_decoder_status(const decoder *h) {
    return h ? (int)h->status : (int)WAI_out_of_memory;
}

EXPORT(wai_web_decoder_destroy) void wai_web_decoder_destroy(decoder *h) {
    if (!h) return;
    wai_decoder_destroy(h->d);
    free(h);
}

/* One output's JSON object; its bytes are the result's data at `at`. */
static void put_output(text *t, const wai_output *o, size_t at) {
    text_puts(t, "{\"kind\": ");
    text_string(t, wai_output_kind_name(o->kind));
    text_putf(t, ", \"width\": %llu, \"height\": %llu", o->width, o->height);
    text_putf(t, ", \"index\": %llu, \"sample_rate\": %llu", o->index, o->sample_rate);
    text_putf(t, ", \"offset\": %llu, \"size\": %llu}", at, o->size);
}

/* Sends one payload and takes every output. The JSON: {"status", "capability",
 * "cost", "outputs": [{"kind", "width", "height", "index", "sample_rate",
 * "offset", "size"}], "report", "symbols_digest"}; the outputs' bytes are the
 * result's data, at their offsets. */
EXPORT(wai_web_decoder_send)
wai_web_result *wai_web_decoder_send(decoder *h, const uint8_t *payload, size_t len) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r || !h || !h->d) {
        if (r) {
            text_puts(&r->json, "{\"status\": ");
            text_string(&r->json, wai_status_name(h ? h->status : WAI_out_of_memory));
            text_puts(&r->json, "}");
        }
        return r;
    }
    wai_cost cost;
    memset(&cost, 0xff, sizeof cost);
    wai_status st = wai_decoder_send(h->d, payload, len, &cost);
    text outs = {0};
    text_puts(&outs, "[");
    for (int n = 0; st == WAI_ok; n++) {
        wai_output o;
        if ((st = wai_decoder_receive(h->d, &o)) != WAI_ok || o.kind == WAI_OUTPUT_NONE) break;
        const size_t at = r->size;
        if (!result_keep(r, o.data, o.size)) {
            st = WAI_out_of_memory;
            break;
        }
        if (n) text_puts(&outs, ", ");
        put_output(&outs, &o, at);
    }
    text_puts(&outs, "]");
    text *t = &r->json;
    text_puts(t, "{\"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, ", \"capability\": ");
    const char *cap = wai_decoder_capability(h->d);
    if (cap) text_string(t, cap);
    else text_puts(t, "null");
    text_puts(t, ", \"cost\": ");
    if (cost.output_bytes != UINT64_MAX || cost.working_bytes != UINT64_MAX) text_cost(t, &cost);
    else text_puts(t, "null");
    text_puts(t, ", \"outputs\": ");
    text_puts(t, outs.failed ? "[]" : outs.s);
    free(outs.s);
    text_puts(t, ", \"report\": ");
    text_report(t, wai_decoder_dispatch_report(h->d));
    uint8_t dg[32];
    text_puts(t, ", \"symbols_digest\": ");
    if (wai_decoder_symbols_digest(h->d, dg)) text_digest(t, dg);
    else text_puts(t, "null");
    text_puts(t, "}");
    return r;
}

/* A clip sent to a streaming decoder and its first `start` outputs passed
 * over (decoded, not copied out: a seek); the payload's bytes must stay
 * put until the last wai_web_decoder_next. The status. */
EXPORT(wai_web_decoder_start)
int wai_web_decoder_start(decoder *h, const uint8_t *payload, size_t len, uint64_t start) {
    if (!h || !h->d) return (int)(h ? h->status : WAI_out_of_memory);
    wai_status st = wai_decoder_send(h->d, payload, len, NULL);
    if (st == WAI_ok && start) st = wai_decoder_skip(h->d, start, NULL);
    return (int)st;
}

/* The next output of what start sent, decoded now: {"status", "outputs":
 * [one, or none at the end]} as wai_web_decoder_send's. */
EXPORT(wai_web_decoder_next) wai_web_result *wai_web_decoder_next(decoder *h) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    wai_output o = {0};
    wai_status st = h && h->d ? wai_decoder_receive(h->d, &o) : WAI_invalid_argument;
    text *t = &r->json;
    text_puts(t, "{\"outputs\": [");
    if (st == WAI_ok && o.kind != WAI_OUTPUT_NONE) {
        if (result_keep(r, o.data, o.size)) put_output(t, &o, 0);
        else st = WAI_out_of_memory;
    }
    text_puts(t, "], \"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, "}");
    return r;
}

/* ---- inspecting -------------------------------------------------------------- */

/* {"status", "checked", "format", "capability", "header", "cost_status",
 * "cost", "symbols_digest"}, as `wai inspect` gives them: the parse's
 * status (wai_check_payload: the whole parse, or the framing where this
 * build has no parser), the header where it parses, the declared cost (with
 * the set where the capability has one), the entropy stage's digest where
 * it has one. capability NULL: the payload's magic names it. */
EXPORT(wai_web_inspect)
wai_web_result *wai_web_inspect(wai_context *ctx, const char *capability, const wai_set *set,
                        const uint8_t *payload, size_t len) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    text *t = &r->json;
    const wai_capability *cap =
        capability ? wai_capability_find(capability) : wai_capability_detect(payload, len);
    wai_checked checked = WAI_CHECKED_FRAMING;
    wai_status st = capability && !cap ? WAI_unsupported_capability
                    : !cap             ? WAI_bad_magic
                                       : wai_check_payload(cap, payload, len, &checked);
    text_puts(t, "{\"status\": ");
    text_string(t, wai_status_name(st));
    text_puts(t, checked == WAI_CHECKED_PARSE ? ", \"checked\": \"header\"" : ", \"checked\": \"framing\"");
    text_puts(t, ", \"format\": ");
    text_string(t, wai_format_name(wai_format_detect(payload, len)));
    text_puts(t, ", \"capability\": ");
    if (cap) text_string(t, cap->name);
    else text_puts(t, "null");
    char *header = NULL;
    size_t hl = 0;
    if (st == WAI_ok && wai_payload_header_json(cap, payload, len, NULL, 0, &hl) ==
                            WAI_invalid_argument &&
        (header = malloc(hl + 1)) &&
        wai_payload_header_json(cap, payload, len, header, hl + 1, &hl) != WAI_ok) {
        free(header);
        header = NULL;
    }
    text_puts(t, ", \"header\": ");
    text_puts(t, header ? header : "null");
    free(header);
    wai_cost cost;
    wai_status cs = st;
    if (st == WAI_ok)
        cs = set ? wai_declared_cost_set(ctx, cap->name, set, payload, len, &cost)
                 : wai_declared_cost(cap->name, payload, len, &cost);
    text_puts(t, ", \"cost_status\": ");
    text_string(t, wai_status_name(cs));
    text_puts(t, ", \"cost\": ");
    if (cs == WAI_ok) text_cost(t, &cost);
    else text_puts(t, "null");
    uint8_t dg[32];
    text_puts(t, ", \"symbols_digest\": ");
    if (cs == WAI_ok && set && wai_symbols_digest(ctx, cap->name, set, payload, len, dg) == WAI_ok)
        text_digest(t, dg);
    else
        text_puts(t, "null");
    text_puts(t, "}");
    return r;
}

/* members: each name once, unless it is already among names[0..n); past
 * room, *full is set (the answer fails rather than drop a name). */
static size_t add_name(const char **names, size_t n, size_t room, const char *name, int *full) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return n;
    if (n < room) names[n++] = name;
    else *full = 1;
    return n;
}

/* [{"name", "format", "tier", "decodes", "output", "members"}] for every
 * capability libwai knows. members: every file some path of the
 * capability reads from a set, each once: its set members (§9), the
 * programs of ctx's backends that serve it (wai_context_program_member;
 * none where ctx is NULL) and its encoder's members: the names a program
 * that fills a set from files reads, and no others (the listing aside). */
EXPORT(wai_web_capabilities) wai_web_result *wai_web_capabilities(const wai_context *ctx) {
    wai_web_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    text *t = &r->json;
    text_puts(t, "[");
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        if (i) text_puts(t, ", ");
        text_puts(t, "{\"name\": ");
        text_string(t, c->name);
        text_puts(t, ", \"format\": ");
        text_string(t, wai_format_name(c->format));
        text_puts(t, ", \"tier\": ");
        text_string(t, wai_tier_name(wai_dispatch_registered_tier(c)));
        text_puts(t, wai_capability_has_decoder(c) ? ", \"decodes\": true" : ", \"decodes\": false");
        text_puts(t, ", \"output\": ");
        text_string(t, wai_output_kind_name(wai_capability_output(c)));
        enum { ROOM = 64 }; /* today's most is 5 */
        const char *names[ROOM];
        size_t n = 0;
        int full = 0;
        for (size_t k = 0; k < 4 && c->set_members[k]; k++)
            n = add_name(names, n, ROOM, c->set_members[k], &full);
        const char *p;
        for (size_t k = 0; (p = wai_context_program_member(ctx, c, k)) != NULL; k++)
            n = add_name(names, n, ROOM, p, &full);
        for (const char *const *e = wai_capability_encoder_members(c); e && *e; e++)
            n = add_name(names, n, ROOM, *e, &full);
        if (full) t->failed = 1; /* the JSON is then a refusal, never a short list */
        text_puts(t, ", \"members\": [");
        for (size_t k = 0; k < n; k++) {
            if (k) text_puts(t, ", ");
            text_string(t, names[k]);
        }
        text_puts(t, "]}");
    }
    text_puts(t, "]");
    return r;
}
