/* The public decoder: resolves the capability, runs its decode, and hands out
 * the outputs. Each capability's own order of checks lives in its file. */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "decode/int_motion.h"
#include "decode/neural.h"
#include "sets/cache.h"
#include "sets/loaded.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

struct wai_decoder {
    wai_context *ctx;
    const wai_capability *cap;
    uint64_t max_cost, max_memory;
    uint64_t n_outputs_total;  /* outputs of earlier payloads: the stream index */
    /* The last payload's outputs: n equal-sized frames in one buffer. */
    uint8_t *buffer;           /* owned (clips); NULL when outputs live in the group */
    const uint8_t *outputs;
    size_t output_bytes;
    uint32_t n_outputs, next_output, width, height;
    uint32_t sample_rate;      /* pcm outputs: the payload's sr */
    wai_output_kind kind;
    wai_motion_group group;
    /* Neural capabilities: the parameter set (borrowed), and the dispatch. */
    const wai_set *set;
    const wai_dispatch_options *dispatch;
    wai_dispatch_report report;   /* the last payload's, when has_report */
    int has_report;
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

void wai_decoder_default_config(wai_decoder_config *c) {
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
        wai_decoder_default_config(&defaults);
        c = &defaults;
    }
    for (size_t i = 0; i < sizeof c->reserved; i++)
        if (c->reserved[i]) return WAI_invalid_argument;
    const wai_capability *cap = NULL;
    if (c->capability && !(cap = wai_capability_find(c->capability)))
        return WAI_unsupported_capability;
    wai_decoder *d = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *d);
    if (!d) return WAI_out_of_memory;
    d->ctx = ctx;
    d->cap = cap;
    d->max_cost = c->max_cost;
    d->max_memory = c->max_memory;
    d->set = c->set;
    d->dispatch = c->dispatch;
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

void wai_decoder_destroy(wai_decoder *d) {
    if (!d) return;
    drop_outputs(d);
    wai_motion_group_close(&d->group, &d->ctx->alloc);
    wai_free(&d->ctx->alloc, d);
}

const char *wai_decoder_capability(const wai_decoder *d) {
    return d && d->cap ? d->cap->name : NULL;
}

/* Both limits, after §7 step 4 and before any symbol or output buffer
 * (reading N7): the work, and the memory the header declares. */
static wai_status check_cost(const wai_decoder *d, const wai_cost *c) {
    return wai_cost_within(c, d->max_cost, d->max_memory) ? WAI_ok : WAI_cost_over_limit;
}

static wai_status send_clip(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost) {
    wai_wiv1 v;
    wai_status st = wai_wiv1_parse(data, len, 0, &v);
    if (st != WAI_ok) return st;
    wai_cost c;
    wai_wiv1_cost(&v, &c);
    if (cost) *cost = c;
    if ((st = check_cost(d, &c)) != WAI_ok) return st;
    /* The clip cap (2^30 bytes) keeps this within size_t on every target. */
    uint8_t *frames = wai_alloc(&d->ctx->alloc, (size_t)c.output_bytes);
    if (!frames) return WAI_out_of_memory;
    if ((st = wai_wiv1_decode(&d->ctx->alloc, &v, frames)) != WAI_ok) {
        wai_free(&d->ctx->alloc, frames);
        return st;
    }
    d->buffer = frames;
    d->outputs = frames;
    d->n_outputs = v.n_frames;
    d->width = v.w;
    d->height = v.h;
    d->output_bytes = (size_t)v.h * v.w * 3;
    d->kind = WAI_OUTPUT_FRAME;
    return WAI_ok;
}

/* Parse, §7 steps 1 to 4 and the cost: what a decode and a cost query
 * share. Step 1's members and pin are checked on every payload; the set's
 * parse and lowering come from the context's cache when it holds them. *ref
 * is the caller's to release (also on failure). */
static wai_status neural_prepare(wai_context *ctx, const wai_capability *cap, const wai_set *set,
                                 const uint8_t *data, size_t len, wai_set_ref **ref,
                                 wai_neural *n) {
    int hit;
    *ref = NULL;
    wai_format sf = wai_neural_set_format(cap);
    wai_status st = wai_neural_parse(cap, data, len, n);
    if (st == WAI_ok) st = wai_set_check_members(sf, set);
    if (st == WAI_ok) st = wai_set_cache_acquire(ctx->sets, sf, set, ref, &hit);
    if (st == WAI_ok) st = wai_neural_prepare(&ctx->alloc, wai_set_ref_get(*ref), n);
    return st;
}

/* A neural decode's output, or a refusal; the output buffer is the
 * caller's. */
static wai_status neural_decode(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost,
                                wai_neural *n, uint8_t **out_buf) {
    const wai_allocator *a = &d->ctx->alloc;
    wai_set_ref *held; /* the loaded set, from the context's cache, while this decodes */
    wai_status st = neural_prepare(d->ctx, d->cap, d->set, data, len, &held, n);
    if (st == WAI_ok) {
        if (cost) *cost = n->cost;
        st = check_cost(d, &n->cost);
    }
    /* neural-dispatch §4: the path that runs the networks, before any
     * symbol; a decode every path refuses fails with the report. */
    if (st == WAI_ok) {
        st = wai_dispatch(d->cap, d->dispatch, NULL, &d->report);
        d->has_report = 1;
    }
    uint8_t *out = NULL;
    /* The output is within the caps (a clip's 2^30 bytes, 2^26 elements of
     * g_s's output, or t_out samples), so it fits size_t. */
    if (st == WAI_ok && !(out = wai_alloc(a, (size_t)n->cost.output_bytes))) st = WAI_out_of_memory;
    /* The context's pool, level and kernel table (chosen at its creation)
     * run the networks; the output does not depend on them. */
    if (st == WAI_ok) st = wai_neural_run(&d->ctx->exec, d->ctx->kernels, n, out);
    wai_neural_release(a, n);
    /* The output holds nothing of the set: let the cache have it back. */
    wai_set_cache_release(d->ctx->sets, held);
    if (st != WAI_ok) {
        wai_free(a, out);
        return st;
    }
    *out_buf = out;
    return WAI_ok;
}

/* A WIF1 intra frame with keyframe 1: its WIH1's decode opens the group. */
static wai_status send_keyframe(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost,
                                const wai_wif1 *f) {
    wai_neural n;
    uint8_t *rgb = NULL;
    wai_status st = neural_decode(d, data, len, cost, &n, &rgb);
    if (st == WAI_ok) st = wai_wif1_open_keyframe(&d->ctx->alloc, f, &d->group, rgb);
    wai_free(&d->ctx->alloc, rgb);
    if (st != WAI_ok) {
        wai_motion_group_close(&d->group, &d->ctx->alloc);
        return st;
    }
    d->outputs = d->group.frame;
    d->n_outputs = 1;
    d->width = f->w;
    d->height = f->h;
    d->output_bytes = (size_t)f->h * f->w * 3;
    d->kind = WAI_OUTPUT_FRAME;
    return WAI_ok;
}

static wai_status send_neural(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost) {
    wai_neural n;
    uint8_t *out = NULL;
    wai_status st = neural_decode(d, data, len, cost, &n, &out);
    if (st != WAI_ok) return st;
    size_t frame = (size_t)n.width * n.height * (n.kind == WAI_OUTPUT_FRAME ? 3 : 1);
    d->buffer = out;
    d->outputs = out;
    /* A clip's frames are equal parts of its output. */
    d->n_outputs = n.kind == WAI_OUTPUT_FRAME ? (uint32_t)(n.cost.output_bytes / frame) : 1;
    d->width = n.width;
    d->height = n.height;
    d->output_bytes = n.kind == WAI_OUTPUT_FRAME ? frame : (size_t)n.cost.output_bytes;
    d->kind = n.kind;
    d->sample_rate = n.kind == WAI_OUTPUT_PCM ? n.u.wia1.sr : 0;
    return WAI_ok;
}

static wai_status send_frame(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost) {
    wai_wif1 f;
    wai_status st = wai_wif1_parse(data, len, d->cap->keyframe, &f);
    if (st == WAI_ok && f.kind == WAI_WIF1_INTRA && f.keyframe == 1)
        return send_keyframe(d, data, len, cost, &f);
    if (st == WAI_ok) st = wai_wif1_check_group(&f, &d->group);
    wai_cost c;
    if (st == WAI_ok) {
        wai_wif1_cost(&f, &c);
        if (cost) *cost = c;
        st = check_cost(d, &c);
    }
    if (st == WAI_ok) st = wai_wif1_decode(&d->ctx->alloc, &f, &d->group);
    if (st != WAI_ok) {
        /* The frames before stand; the next inter frame has no group. */
        wai_motion_group_close(&d->group, &d->ctx->alloc);
        return st;
    }
    d->outputs = d->group.frame;
    d->n_outputs = 1;
    d->width = f.w;
    d->height = f.h;
    d->output_bytes = (size_t)f.h * f.w * 3;
    d->kind = WAI_OUTPUT_FRAME;
    return WAI_ok;
}

static const wai_capability *resolve(wai_decoder *d, const uint8_t *data, size_t len) {
    if (!d->cap) d->cap = wai_capability_detect(data, len);
    return d->cap;
}

wai_status wai_decoder_send(wai_decoder *d, const uint8_t *data, size_t len, wai_cost *cost) {
    if (!d || (!data && len)) return WAI_invalid_argument;
    drop_outputs(d);
    d->has_report = 0;
    const wai_capability *cap = resolve(d, data, len);
    if (!cap) return WAI_bad_magic; /* no capability given, and no magic names one */
    if (!wai_capability_has_decoder(cap)) return WAI_unsupported_capability;
    if (wai_neural_capability(cap) && cap->format != WAI_FORMAT_WIF1)
        return send_neural(d, data, len, cost);
    if (strcmp(cap->name, "wai.video.int_motion") == 0) return send_clip(d, data, len, cost);
    return send_frame(d, data, len, cost);
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
    out->sample_rate = d->kind == WAI_OUTPUT_PCM ? d->sample_rate : 0;
    d->next_output++;
    return WAI_ok;
}

wai_status wai_declared_cost(const char *capability, const uint8_t *data, size_t len,
                             wai_cost *cost) {
    if (!cost || (!data && len)) return WAI_invalid_argument;
    const wai_capability *cap =
        capability ? wai_capability_find(capability) : wai_capability_detect(data, len);
    if (!cap) return capability ? WAI_unsupported_capability : WAI_bad_magic;
    if (!wai_capability_has_decoder(cap)) return WAI_unsupported_capability;
    wai_status st;
    if (wai_neural_capability(cap)) {
        /* The parse's refusals come first; with no set, step 1 refuses.
         * An inter frame reads no set: its cost is a motion frame's. */
        wai_wif1 f;
        if (cap->format == WAI_FORMAT_WIF1 &&
            (st = wai_wif1_parse(data, len, cap->keyframe, &f)) == WAI_ok &&
            f.kind == WAI_WIF1_INTER) {
            wai_wif1_cost(&f, cost);
            return WAI_ok;
        }
        wai_neural n;
        st = wai_neural_parse(cap, data, len, &n);
        return st == WAI_ok ? WAI_set_incomplete : st;
    }
    if (strcmp(cap->name, "wai.video.int_motion") == 0) {
        wai_wiv1 v;
        if ((st = wai_wiv1_parse(data, len, 0, &v)) == WAI_ok) wai_wiv1_cost(&v, cost);
    } else {
        wai_wif1 f;
        if ((st = wai_wif1_parse(data, len, 0, &f)) == WAI_ok) wai_wif1_cost(&f, cost);
    }
    return st;
}

wai_status wai_declared_cost_set(wai_context *ctx, const char *capability, const wai_set *set,
                                 const uint8_t *data, size_t len, wai_cost *cost) {
    if (!ctx || !cost || (!data && len)) return WAI_invalid_argument;
    const wai_capability *cap =
        capability ? wai_capability_find(capability) : wai_capability_detect(data, len);
    if (!cap) return capability ? WAI_unsupported_capability : WAI_bad_magic;
    if (!wai_capability_has_decoder(cap)) return WAI_unsupported_capability;
    if (!wai_neural_capability(cap)) return wai_declared_cost(cap->name, data, len, cost);
    wai_wif1 f;
    if (cap->format == WAI_FORMAT_WIF1 && wai_wif1_parse(data, len, cap->keyframe, &f) == WAI_ok &&
        f.kind == WAI_WIF1_INTER)
        return wai_declared_cost(cap->name, data, len, cost);
    wai_set_ref *ref;
    wai_neural n;
    wai_status st = neural_prepare(ctx, cap, set, data, len, &ref, &n);
    if (st == WAI_ok) *cost = n.cost;
    wai_neural_release(&ctx->alloc, &n);
    wai_set_cache_release(ctx->sets, ref);
    return st;
}
