/* SPDX-License-Identifier: BSD-2-Clause */
/* The public decoder. One decode reads top to bottom, the same for every
 * capability (decode/codec.h): bytes → parse → set → prepare (§7 steps 2
 * to 4) → cost and limits → dispatch, whose chosen path's backend runs the
 * entropy stages and networks → outputs. What differs is the codec's, from
 * the table (decode/codecs.c). */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "backend/registry.h"
#include "decode/codec.h"
#include "decode/decoder.h"
#include "decode/steps.h"
#include "ops/network.h"
#include "sets/cache.h"
#include "wai/wai_decode.h"

struct wai_decoder {
    wai_context *ctx;
    const wai_codec *codec;    /* from the config, or the first payload's magic */
    uint64_t max_cost, max_memory;
    const wai_set *set;        /* borrowed */
    const wai_dispatch_options *options;
    const wai_dispatch_probe *probe;
    wai_dispatch *dispatch;    /* the last payload's choice and its report */
    void *stream;              /* a frame form's stream state (codec->ops->stream_bytes) */
    uint64_t n_outputs_total;  /* outputs of earlier payloads: the stream index */
    /* The last payload's outputs, and the next to hand out. */
    uint8_t *buffer;           /* owned; NULL when the outputs live in the stream */
    wai_job_outputs out;
    uint32_t next_output;
    int has_report;             /* the last payload reached the dispatch */
    int has_digest;             /* the last payload's symbols digest (§6.3) */
    uint8_t digest[32];
    /* The networks' arena, kept from one decode to the next so a stream of
     * images or frames allocates and first-touches it once; exec is the
     * context's with it. A run never starts with more of it than its own
     * networks need (net_work_bytes), so a decode still holds at most its
     * declared working bytes. */
    wai_exec exec;
    wai_network_ws ws;
    /* Streaming (wai_decoder_config.streaming): the clip being decoded an
     * output at a time, its job kept from send to the last receive. */
    int streaming;
    wai_job *stepping;         /* owned; NULL when no clip is being stepped */
    wai_set_ref *stepping_held;
};

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
    d->options = c->dispatch;
    d->probe = c->probe;
    d->streaming = c->streaming != 0;
    if (wai_dispatch_create(&ctx->alloc, &d->dispatch) != WAI_ok) {
        wai_free(&ctx->alloc, d);
        return WAI_out_of_memory;
    }
    d->exec = ctx->exec;
    d->exec.ws = &d->ws;
    wai_network_ws_init(&d->ws, &d->exec);
    *out = d;
    return WAI_ok;
}

/* The stepped clip's end: what its steps and its job hold let go. */
static void end_steps(wai_decoder *d) {
    if (!d->stepping) return;
    d->stepping->codec->ops->step_close(d->stepping, &d->ctx->alloc);
    wai_steps_end(d->ctx, d->stepping, d->stepping_held);
    wai_free(&d->ctx->alloc, d->stepping);
    d->stepping = NULL;
    d->stepping_held = NULL;
}

static void drop_outputs(wai_decoder *d) {
    end_steps(d);
    d->n_outputs_total += d->out.n;
    wai_free(&d->ctx->alloc, d->buffer);
    d->buffer = NULL;
    memset(&d->out, 0, sizeof d->out);
    d->next_output = 0;
}

static void close_stream(wai_decoder *d) {
    if (d->stream) d->codec->ops->stream_close(d->stream, &d->ctx->alloc);
}

void wai_decoder_destroy(wai_decoder *d) {
    if (!d) return;
    drop_outputs(d);
    close_stream(d);
    wai_network_ws_free(&d->ws);
    wai_dispatch_destroy(d->dispatch);
    wai_free(&d->ctx->alloc, d->stream);
    wai_free(&d->ctx->alloc, d);
}

uint64_t wai_decoder_arena_elems(const wai_decoder *d) { return d ? d->ws.cap : 0; }

const char *wai_decoder_capability(const wai_decoder *d) {
    return d && d->codec ? d->codec->cap.name : NULL;
}

/* ---- the networks: the dispatch chooses the path, its backend runs ------- */

/* The output buffer, made the first time a backend is about to run (so a
 * decode every path refuses allocates nothing), and the kept arena no
 * larger than this job's networks need. */
static wai_status ready_output(wai_decoder *d, wai_job *j, uint8_t **out) {
    if (d->ws.cap > j->net_work_bytes / sizeof(int64_t)) wai_network_ws_free(&d->ws);
    if (*out || j->in_stream) return WAI_ok;
    *out = wai_alloc(&d->ctx->alloc, (size_t)j->cost.output_bytes);
    return *out ? WAI_ok : WAI_out_of_memory;
}

/* The chosen path's run: a latent's entropy stage (once, whichever path
 * runs) then the backend's program; else the codec's run, its networks on
 * the exec the backend binds. */
static wai_status run_on(wai_decoder *d, wai_job *j, const wai_backend_turn *t, uint8_t *out) {
    j->path = t->entry->desc->path;
    if (wai_backend_takes_latent(t->entry)) {
        wai_status st = j->latent.symbols ? WAI_ok : j->codec->ops->latent(j, d->exec.alloc);
        if (st != WAI_ok) return st;
        j->latent.rgb = out;
        st = wai_backend_run_latent(t, &j->latent);
        j->out.data = out;
        return st;
    }
    wai_backend_exec on;
    wai_backend_bind(t, &d->exec, &on);
    return j->codec->ops->run(j, &on.ex, out);
}

/* One question about one path: the backend's own answer first, then the
 * caller's probe (or the default); the run once every answer is yes. */
static wai_status answer(wai_decoder *d, wai_job *j, wai_backend_turn *t, const wai_path *path,
                         wai_dispatch_question q, uint8_t **out, wai_placement *plan) {
    wai_status st = wai_backend_answer(t, j->members, &j->codec->cap, &j->latent, q, plan);
    if (st != WAI_ok) return st;
    if (q != WAI_DISPATCH_RUN)
        return wai_dispatch_probe_answer(d->probe, q, &j->codec->cap, path, plan);
    st = ready_output(d, j, out);
    return st == WAI_ok ? run_on(d, j, t, *out) : st;
}

/* Steps 5 and 6. A job that runs networks goes through the dispatch, step
 * by step, and the report says which path ran them or why none could; one
 * with none (a motion clip or frame) runs on the integer interpreter
 * directly. *out is the output buffer made (the caller's). */
static wai_status run(wai_decoder *d, wai_job *j, wai_set_ref *held, uint8_t **out) {
    wai_backend_turn t = {d->ctx, held, NULL, NULL};
    if (!j->reads_set) {
        t.entry = wai_backends_integer(d->ctx->backends);
        wai_status st = ready_output(d, j, out);
        return st == WAI_ok ? run_on(d, j, &t, *out) : st;
    }
    wai_status st = wai_dispatch_start(d->dispatch, &j->codec->cap, d->options);
    d->has_report = 1;
    if (st != WAI_ok) return st;
    wai_path path;
    wai_dispatch_question q;
    while (wai_dispatch_next(d->dispatch, &path, &q)) {
        if (q == WAI_DISPATCH_UNIT) {
            /* A new path: the last one's program goes back. */
            wai_backend_turn_end(&t);
            t.entry = wai_backends_find(d->ctx->backends, j->codec->networks, &path);
        }
        wai_placement plan = {0};
        wai_dispatch_answer(d->dispatch, answer(d, j, &t, &path, q, out, &plan), &plan);
    }
    wai_backend_turn_end(&t);
    return wai_dispatch_status(d->dispatch);
}

/* Streaming: the job kept for receive to step through, its outputs' shape
 * set and no output yet. */
static wai_status start_steps(wai_decoder *d, wai_job *j, wai_set_ref *held) {
    wai_job *kept = wai_alloc(&d->ctx->alloc, sizeof *kept);
    if (!kept) return WAI_out_of_memory;
    memcpy(kept, j, sizeof *kept);
    wai_status st = kept->codec->ops->step_open(kept, &d->exec);
    if (st != WAI_ok) {
        wai_free(&d->ctx->alloc, kept);
        return st;
    }
    d->stepping = kept;
    d->stepping_held = held;
    d->out = kept->out;
    d->out.data = NULL;
    d->has_digest = 0;
    return WAI_ok;
}

static wai_status decode(wai_decoder *d, wai_job *j, const uint8_t *data, size_t len,
                         wai_cost *cost) {
    wai_set_ref *held; /* the loaded set, from the context's cache, while this decodes */
    wai_status st = wai_steps_prepare(d->ctx, d->set, j, data, len, &held);
    if (st == WAI_ok) st = wai_steps_limits(j, d->max_cost, d->max_memory, cost);
    if (st == WAI_ok && d->streaming && j->codec->ops->step && !j->reads_set) {
        st = start_steps(d, j, held);
        if (st == WAI_ok) return WAI_ok; /* the job's steps end with its last output */
    }
    uint8_t *out = NULL;
    if (st == WAI_ok) st = run(d, j, held, &out);
    /* The output holds nothing of the job's plans or the set: let them go. */
    wai_steps_end(d->ctx, j, held);
    if (st != WAI_ok) {
        wai_free(&d->ctx->alloc, out);
        return st;
    }
    d->buffer = out;
    d->out = j->out;
    if (d->out.kind != WAI_OUTPUT_PCM) d->out.sample_rate = 0;
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
        wai_status st = wai_steps_codec(NULL, data, len, &c);
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
    wai_status st = decode(d, &j, data, len, cost);
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
    return d && d->has_report ? wai_dispatch_report_of(d->dispatch) : NULL;
}

/* A stepped clip's next output into d->out.data, or the end of its
 * streams checked after its last: a refusal ends the clip (no more
 * outputs; the ones handed out belong to a refused clip). */
static wai_status step(wai_decoder *d) {
    const wai_codec_ops *ops = d->stepping->codec->ops;
    const uint8_t *frame = NULL;
    wai_status st = ops->step(d->stepping, &d->exec, d->next_output, &frame);
    if (st == WAI_ok && d->next_output < d->out.n) {
        d->out.data = frame;
        return WAI_ok;
    }
    d->out.n = d->next_output;
    end_steps(d);
    return st;
}

wai_status wai_decoder_skip(wai_decoder *d, uint64_t n, uint64_t *skipped) {
    if (skipped) *skipped = 0;
    if (!d) return WAI_invalid_argument;
    uint64_t done = 0;
    wai_status st = WAI_ok;
    if (d->stepping) {
        /* Each frame decoded in turn (its successor predicts from it). */
        while (done < n && d->stepping && (st = step(d)) == WAI_ok && d->next_output < d->out.n) {
            d->next_output++;
            done++;
        }
    } else {
        const uint64_t left = d->out.n - d->next_output;
        done = n < left ? n : left;
        d->next_output += (uint32_t)done;
    }
    if (skipped) *skipped = done;
    return st;
}

wai_status wai_decoder_receive(wai_decoder *d, wai_output *out) {
    if (!d || !out) return WAI_invalid_argument;
    memset(out, 0, sizeof *out);
    if (d->stepping) {
        wai_status st = step(d);
        if (st != WAI_ok) return st;
    }
    if (d->next_output >= d->out.n) return WAI_ok;
    out->kind = d->out.kind;
    out->data = d->stepping ? d->out.data
                            : d->out.data + (size_t)d->next_output * d->out.bytes;
    out->size = d->out.bytes;
    out->width = d->out.width;
    out->height = d->out.height;
    out->index = d->n_outputs_total + d->next_output;
    out->sample_rate = d->out.sample_rate;
    d->next_output++;
    return WAI_ok;
}

