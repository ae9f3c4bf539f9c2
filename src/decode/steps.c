/* SPDX-License-Identifier: BSD-2-Clause */
/* See steps.h. */
#include "decode/steps.h"

#include "common/checked.h"
#include "common/context.h"
#include "wai/wai_decode.h"

wai_status wai_steps_codec(const char *name, const uint8_t *data, size_t len,
                           const wai_codec **out) {
    const wai_capability *cap = name ? wai_capability_find(name) : wai_capability_detect(data, len);
    *out = wai_codec_of(cap);
    if (!*out) return name ? WAI_unsupported_capability : WAI_bad_magic;
    return (*out)->ops ? WAI_ok : WAI_unsupported_capability;
}

wai_status wai_steps_resolve_set(wai_context *ctx, const wai_set *set, wai_job *j,
                                 wai_set_ref **held) {
    *held = NULL;
    if (!j->reads_set) return WAI_ok;
    if (!ctx) return WAI_set_incomplete; /* a query without a context reads no set */
    wai_set_kind k = wai_codec_set_kind(j->codec);
    int hit;
    wai_status st = wai_set_check_members(&k, set);
    if (st == WAI_ok) st = wai_set_cache_acquire(ctx->sets, &k, set, held, &hit);
    if (st == WAI_ok) j->set = wai_set_ref_get(*held);
    j->members = set;
    return st;
}

wai_status wai_steps_prepare(wai_context *ctx, const wai_set *set, wai_job *j,
                             const uint8_t *data, size_t len, wai_set_ref **held) {
    *held = NULL;
    wai_status st = j->codec->ops->parse(j, data, len);
    if (st == WAI_ok) st = wai_steps_resolve_set(ctx, set, j, held);
    if (st == WAI_ok) st = j->codec->ops->prepare(j, ctx ? &ctx->alloc : NULL);
    return st;
}

/* The public cost helpers (wai_decode.h) live with the limits step that
 * applies them, so the decoder and the queries both reach them downward. */
uint64_t wai_cost_work(const wai_cost *c) {
    return c->macs > UINT64_MAX - c->entropy_steps ? UINT64_MAX : c->macs + c->entropy_steps;
}

int wai_cost_within(const wai_cost *c, uint64_t max_cost, uint64_t max_memory) {
    return c && wai_cost_work(c) <= max_cost && c->working_bytes <= max_memory;
}

wai_status wai_steps_limits(wai_job *j, uint64_t max_cost, uint64_t max_memory,
                            wai_cost *cost) {
    if (cost) *cost = j->cost;
    if (!wai_cost_within(&j->cost, max_cost, max_memory)) return WAI_cost_over_limit;
    /* What a latent's program holds (a graph of its own, on a backend)
     * no header declares: the backend holds it to what the symbols and
     * the picture leave. */
    wai_latent_job *l = &j->latent;
    const uint64_t held = wai_sat_add(
        wai_sat_mul(4, wai_sat_mul3(l->channels, l->height, l->width)),
        wai_sat_mul3(3, l->picture_height, l->picture_width));
    l->max_memory = max_memory == UINT64_MAX ? UINT64_MAX
                    : max_memory > held    ? max_memory - held
                                           : 0;
    return WAI_ok;
}

void wai_steps_end(wai_context *ctx, wai_job *j, wai_set_ref *held) {
    if (j->codec->ops->release) j->codec->ops->release(j, ctx ? &ctx->alloc : NULL);
    if (ctx) wai_set_cache_release(ctx->sets, held);
}
