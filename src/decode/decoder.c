/* The public decoder. One decode reads top to bottom, the same for every
 * capability (decode/codec.h): bytes → parse → set → prepare (§7 steps 2
 * to 4) → cost and limits → dispatch, whose chosen path's backend runs the
 * entropy stages and networks → outputs. What differs is the codec's, from
 * the table (decode/codecs.c). */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "decode/backends.h"
#include "decode/codec.h"
#include "decode/decoder.h"
#include "ops/network.h"
#include "sets/cache.h"
#include "wai/wai_decode.h"

struct wai_decoder {
    wai_context *ctx;
    const wai_codec *codec;    /* from the config, or the first payload's magic */
    uint64_t max_cost, max_memory;
    const wai_set *set;        /* borrowed */
    const wai_dispatch_options *dispatch;
    const wai_dispatch_probe *probe;
    void *stream;              /* a frame form's stream state (codec->ops->stream_bytes) */
    uint64_t n_outputs_total;  /* outputs of earlier payloads: the stream index */
    /* The last payload's outputs: n equal-sized parts of one buffer. */
    uint8_t *buffer;           /* owned; NULL when the outputs live in the stream */
    const uint8_t *outputs;
    size_t output_bytes;
    uint32_t n_outputs, next_output, width, height, sample_rate;
    wai_output_kind kind;
    wai_dispatch_report report; /* the last payload's, when has_report */
    int has_report;
    int has_digest;             /* the last payload's symbols digest (§6.3) */
    uint8_t digest[32];
    /* The networks' arena, kept from one decode to the next so a stream of
     * images or frames allocates and first-touches it once; exec is the
     * context's with it. A run never starts with more of it than its own
     * networks need (net_work_bytes), so a decode still holds at most its
     * declared working bytes. */
    wai_exec exec;
    wai_network_ws ws;
};

uint64_t wai_cost_work(const wai_cost *c) {
    return c->macs > UINT64_MAX - c->entropy_steps ? UINT64_MAX : c->macs + c->entropy_steps;
}

int wai_cost_within(const wai_cost *c, uint64_t max_cost, uint64_t max_memory) {
    return c && wai_cost_work(c) <= max_cost && c->working_bytes <= max_memory;
}

const char *wai_output_kind_name(wai_output_kind k) {
    switch (k) {
    case WAI_OUTPUT_FRAME: return "frame";
    case WAI_OUTPUT_IMAGE: return "image";
    case WAI_OUTPUT_PCM: return "pcm";
    case WAI_OUTPUT_PLANES: return "planes";
    default: return "none";
    }
}

void wai_decoder_config_default(wai_decoder_config *c) {
    if (!c) return;
    memset(c, 0, sizeof *c);
    c->max_cost = WAI_NO_COST_LIMIT;
    c->max_memory = WAI_NO_MEMORY_LIMIT;
}

wai_status wai_decoder_create(wai_context *ctx, const wai_decoder_config *c, wai_decoder **out) {
    if (!ctx || !out) return WAI_invalid_argument;
    *out = NULL;
    wai_decoder_config defaults;
    if (!c) {
        wai_decoder_config_default(&defaults);
        c = &defaults;
    }
    for (size_t i = 0; i < sizeof c->reserved; i++)
        if (c->reserved[i]) return WAI_invalid_argument;
    for (size_t i = 0; c->probe && i < sizeof c->probe->reserved / sizeof *c->probe->reserved; i++)
        if (c->probe->reserved[i]) return WAI_invalid_argument;
    const wai_codec *codec = NULL;
    if (c->capability && !(codec = wai_codec_of(wai_capability_find(c->capability))))
        return WAI_unsupported_capability;
    wai_decoder *d = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *d);
    if (!d) return WAI_out_of_memory;
    d->ctx = ctx;
    d->codec = codec;
    d->max_cost = c->max_cost;
    d->max_memory = c->max_memory;
    d->set = c->set;
    d->dispatch = c->dispatch;
    d->probe = c->probe;
    d->exec = ctx->exec;
    d->exec.ws = &d->ws;
    wai_network_ws_init(&d->ws, &d->exec);
    *out = d;
    return WAI_ok;
}

static void drop_outputs(wai_decoder *d) {
    d->n_outputs_total += d->n_outputs;
    wai_free(&d->ctx->alloc, d->buffer);
    d->buffer = NULL;
    d->outputs = NULL;
    d->n_outputs = d->next_output = 0;
}

static void close_stream(wai_decoder *d) {
    if (d->stream) d->codec->ops->stream_close(d->stream, &d->ctx->alloc);
}

void wai_decoder_destroy(wai_decoder *d) {
    if (!d) return;
    drop_outputs(d);
    close_stream(d);
    wai_network_ws_free(&d->ws);
    wai_free(&d->ctx->alloc, d->stream);
    wai_free(&d->ctx->alloc, d);
}

uint64_t wai_decoder_arena_elems(const wai_decoder *d) { return d ? d->ws.cap : 0; }

const char *wai_decoder_capability(const wai_decoder *d) {
    return d && d->codec ? d->codec->cap.name : NULL;
}

/* The codec of a capability named, or of the one the bytes' magic names:
 * bad_magic when neither names one, unsupported_capability when this build
 * has no decoder for it. */
static wai_status codec_for(const char *name, const uint8_t *data, size_t len,
                            const wai_codec **out) {
    const wai_capability *cap = name ? wai_capability_find(name) : wai_capability_detect(data, len);
    *out = wai_codec_of(cap);
    if (!*out) return name ? WAI_unsupported_capability : WAI_bad_magic;
    return (*out)->ops ? WAI_ok : WAI_unsupported_capability;
}

/* §7 step 1 for a job that reads its set: the members and pin, then the
 * loaded set from the context's cache (*held is the caller's to release,
 * also on failure). */
static wai_status resolve_set(wai_context *ctx, const wai_set *set, wai_job *j,
                              wai_set_ref **held) {
    *held = NULL;
    if (!j->reads_set) return WAI_ok;
    wai_set_kind k = wai_codec_set_kind(j->codec);
    int hit;
    wai_status st = wai_set_check_members(&k, set);
    if (st == WAI_ok) st = wai_set_cache_acquire(ctx->sets, &k, set, held, &hit);
    if (st == WAI_ok) j->set = wai_set_ref_get(*held);
    j->members = set;
    return st;
}

/* Parse, §7 steps 1 to 4 and the cost: what a decode and a cost query
 * share. */
static wai_status prepare(wai_context *ctx, const wai_set *set, wai_job *j, const uint8_t *data,
                          size_t len, wai_set_ref **held) {
    *held = NULL;
    wai_status st = j->codec->ops->parse(j, data, len);
    if (st == WAI_ok) st = resolve_set(ctx, set, j, held);
    if (st == WAI_ok) st = j->codec->ops->prepare(j, &ctx->alloc);
    return st;
}

/* ---- the dispatch decides where the networks run (neural-dispatch §4) --- */

/* The run of one job, handed to the dispatch as its probe's `run`: the
 * caller's probe answers for the device (its own run first, where it has
 * one), this build for its backends; the chosen path's backend computes,
 * into an output buffer made at the first run (so a decode every path
 * refuses allocates nothing). A backend that fails hands over to the next
 * path. */
typedef struct run_probe {
    wai_decoder *d;
    wai_job *j;
    uint8_t *out;
} run_probe;

#define CALLER_ASK(rp, fn, ...)                                                   \
    ((rp)->d->probe && (rp)->d->probe->fn                                        \
         ? (rp)->d->probe->fn((rp)->d->probe->opaque, __VA_ARGS__)                \
         : wai_dispatch_probe_default()->fn(NULL, __VA_ARGS__))

static wai_status ask_unit(void *o, const wai_capability *cap, const wai_path *path) {
    run_probe *rp = o;
    if (!wai_backend_present(rp->j->codec, path)) return WAI_dispatch_unit_absent;
    return CALLER_ASK(rp, unit, cap, path);
}

/* The set's program and the payload's shape: this build's backend answers
 * for what it reads of the set, then the caller's probe. */
static wai_status ask_program(void *o, const wai_capability *cap, const wai_path *path) {
    run_probe *rp = o;
    wai_status st = wai_backend_program(rp->j, path);
    return st == WAI_ok ? CALLER_ASK(rp, program, cap, path) : st;
}

static wai_status ask_shape(void *o, const wai_capability *cap, const wai_path *path) {
    run_probe *rp = o;
    wai_status st = wai_backend_shape(rp->j, path);
    return st == WAI_ok ? CALLER_ASK(rp, shape, cap, path) : st;
}

static wai_status ask_plan(void *o, const wai_capability *cap, const wai_path *path,
                           wai_placement *out) {
    return CALLER_ASK((run_probe *)o, plan, cap, path, out);
}

static wai_status run_path(void *o, const wai_capability *cap, const wai_path *path) {
    run_probe *rp = o;
    const wai_dispatch_probe *caller = rp->d->probe;
    wai_status st = caller && caller->run ? caller->run(caller->opaque, cap, path) : WAI_ok;
    if (st != WAI_ok) return st;
    wai_context *ctx = rp->d->ctx;
    if (!rp->out && !rp->j->in_stream &&
        !(rp->out = wai_alloc(&ctx->alloc, (size_t)rp->j->cost.output_bytes)))
        return WAI_out_of_memory;
    wai_decoder *d = rp->d;
    if (d->ws.cap > rp->j->net_work_bytes / sizeof(int64_t)) wai_network_ws_free(&d->ws);
    return wai_backend_run(path, rp->j, &d->exec, ctx->kernels, rp->out);
}

/* Steps 5 and 6. A job that runs networks goes through the dispatch, and
 * the report says which path ran them or why none could; one with none
 * (a motion clip or frame) runs on the integer path directly. *out is the
 * output buffer made (the caller's). */
static wai_status run(wai_decoder *d, wai_job *j, uint8_t **out) {
    run_probe rp = {d, j, NULL};
    wai_status st;
    if (j->reads_set) {
        const wai_dispatch_probe probe = {&rp, ask_unit, ask_program, ask_shape, ask_plan,
                                          run_path, {NULL}};
        st = wai_dispatch(&j->codec->cap, d->dispatch, &probe, &d->report);
        d->has_report = 1;
    } else {
        st = run_path(&rp, &j->codec->cap, &j->codec->paths[0]);
    }
    *out = rp.out;
    return st;
}

static wai_status decode(wai_decoder *d, wai_job *j, const uint8_t *data, size_t len,
                         wai_cost *cost) {
    wai_set_ref *held; /* the loaded set, from the context's cache, while this decodes */
    wai_status st = prepare(d->ctx, d->set, j, data, len, &held);
    if (st == WAI_ok) {
        if (cost) *cost = j->cost;
        /* Both limits, after §7 step 4 and before any symbol or output
         * buffer (reading N7): the work, and the memory the header
         * declares. */
        if (!wai_cost_within(&j->cost, d->max_cost, d->max_memory)) st = WAI_cost_over_limit;
    }
    uint8_t *out = NULL;
    if (st == WAI_ok) st = run(d, j, &out);
    /* The output holds nothing of the set: let the cache have it back. */
    wai_set_cache_release(d->ctx->sets, held);
    if (st != WAI_ok) {
        wai_free(&d->ctx->alloc, out);
        return st;
    }
    d->buffer = out;
    d->outputs = j->outputs;
    d->n_outputs = j->n_outputs;
    d->output_bytes = j->output_bytes;
    d->width = j->width;
    d->height = j->height;
    d->kind = j->kind;
    d->sample_rate = j->kind == WAI_OUTPUT_PCM ? j->sample_rate : 0;
    d->has_digest = j->has_digest;
    if (j->has_digest) memcpy(d->digest, j->symbols_digest, 32);
    return WAI_ok;
}

wai_status wai_decoder_send(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost) {
    if (!d || (!data && len)) return WAI_invalid_argument;
    drop_outputs(d);
    d->has_report = 0;
    d->has_digest = 0;
    if (!d->codec) {
        /* No capability given: the one the first payload's magic names. */
        const wai_codec *c;
        wai_status st = codec_for(NULL, data, len, &c);
        if (st == WAI_bad_magic) return st;
        d->codec = c;
    }
    const wai_codec *c = d->codec;
    if (!c->ops) return WAI_unsupported_capability;
    if (c->ops->stream_bytes && !d->stream &&
        !(d->stream = wai_alloc_zeroed(&d->ctx->alloc, 1, c->ops->stream_bytes)))
        return WAI_out_of_memory;
    wai_job j;
    wai_job_init(&j, c, d->stream);
    j.ctx = d->ctx;
    wai_status st = decode(d, &j, data, len, cost);
    if (c->ops->release) c->ops->release(&j, &d->ctx->alloc);
    /* In a frame stream the frames before a refusal stand, and the next
     * inter frame has no group. */
    if (st != WAI_ok) close_stream(d);
    return st;
}

int wai_decoder_symbols_digest(const wai_decoder *d, uint8_t out[32]) {
    if (!d || !out || !d->has_digest) return 0;
    memcpy(out, d->digest, 32);
    return 1;
}

const wai_dispatch_report *wai_decoder_dispatch_report(const wai_decoder *d) {
    return d && d->has_report ? &d->report : NULL;
}

wai_status wai_decoder_receive(wai_decoder *d, wai_output *out) {
    if (!d || !out) return WAI_invalid_argument;
    memset(out, 0, sizeof *out);
    if (d->next_output >= d->n_outputs) return WAI_ok;
    out->kind = d->kind;
    out->data = d->outputs + (size_t)d->next_output * d->output_bytes;
    out->size = d->output_bytes;
    out->width = d->width;
    out->height = d->height;
    out->index = d->n_outputs_total + d->next_output;
    out->sample_rate = d->sample_rate;
    d->next_output++;
    return WAI_ok;
}

/* ---- declared cost --------------------------------------------------------- */

/* ctx NULL: no set can be read (a job that reads one is set_incomplete). */
static wai_status cost_of(wai_context *ctx, const char *capability, const wai_set *set,
                          const uint8_t *data, size_t len, wai_cost *cost) {
    const wai_codec *c;
    wai_status st = codec_for(capability, data, len, &c);
    if (st != WAI_ok) return st;
    wai_job j;
    wai_job_init(&j, c, NULL);
    wai_set_ref *held = NULL;
    st = c->ops->parse(&j, data, len);
    if (st == WAI_ok && j.reads_set && !ctx) st = WAI_set_incomplete;
    if (st == WAI_ok && ctx) st = resolve_set(ctx, set, &j, &held);
    if (st == WAI_ok) st = c->ops->prepare(&j, ctx ? &ctx->alloc : NULL);
    if (st == WAI_ok) *cost = j.cost;
    if (c->ops->release) c->ops->release(&j, ctx ? &ctx->alloc : NULL);
    if (ctx) wai_set_cache_release(ctx->sets, held);
    return st;
}

wai_status wai_declared_cost(const char *capability, const uint8_t *data, size_t len,
                             wai_cost *cost) {
    if (!cost || (!data && len)) return WAI_invalid_argument;
    return cost_of(NULL, capability, NULL, data, len, cost);
}

/* The entropy stage alone: the parse, §7 steps 1 to 4, the symbols (into
 * out when it holds *n of them: NULL asks for the count) and their digest. */
static wai_status entropy_only(wai_context *ctx, const char *capability, const wai_set *set,
                               const uint8_t *data, size_t len, uint8_t digest[32], int32_t *out,
                               size_t cap, size_t *n) {
    const wai_codec *c;
    wai_status st = codec_for(capability, data, len, &c);
    if (st != WAI_ok) return st;
    if (!c->ops->symbols) return WAI_unsupported_capability;
    wai_job j;
    wai_job_init(&j, c, NULL);
    j.ctx = ctx;
    wai_set_ref *held = NULL;
    st = prepare(ctx, set, &j, data, len, &held);
    if (st == WAI_ok && n) {
        *n = (size_t)j.cost.entropy_steps;
        if (out && cap < *n) st = WAI_invalid_argument;
    }
    if (st == WAI_ok && (!n || out)) st = c->ops->symbols(&j, &ctx->alloc, out);
    if (st == WAI_ok && digest) memcpy(digest, j.symbols_digest, 32);
    if (c->ops->release) c->ops->release(&j, &ctx->alloc);
    wai_set_cache_release(ctx->sets, held);
    return st;
}

wai_status wai_symbols_digest(wai_context *ctx, const char *capability, const wai_set *set,
                              const uint8_t *data, size_t len, uint8_t out[32]) {
    if (!ctx || !out || (!data && len)) return WAI_invalid_argument;
    return entropy_only(ctx, capability, set, data, len, out, NULL, 0, NULL);
}

wai_status wai_entropy_symbols(wai_context *ctx, const char *capability, const wai_set *set,
                               const uint8_t *data, size_t len, int32_t *out, size_t cap,
                               size_t *n_symbols) {
    if (!ctx || !n_symbols || (!data && len)) return WAI_invalid_argument;
    return entropy_only(ctx, capability, set, data, len, NULL, out, cap, n_symbols);
}

wai_status wai_declared_cost_set(wai_context *ctx, const char *capability, const wai_set *set,
                                 const uint8_t *data, size_t len, wai_cost *cost) {
    if (!ctx || !cost || (!data && len)) return WAI_invalid_argument;
    return cost_of(ctx, capability, set, data, len, cost);
}
