/* SPDX-License-Identifier: BSD-2-Clause */
/* A latent capability's decode up to its networks, for a caller who runs
 * them (include/wai/wai_decode.h, wai_latent_decode): the decoder's steps
 * (decode/steps.h), the limits, then the codec's entropy stage, once. */
#include <string.h>

#include "common/alloc.h"
#include "common/context.h"
#include "decode/steps.h"
#include "wai/wai_decode.h"

struct wai_latent {
    wai_context *ctx;
    wai_set_ref *held;   /* the loaded set: the job's offsets are its */
    wai_job job;
};

wai_status wai_latent_decode(wai_context *ctx, const wai_decoder_config *c, const uint8_t *data,
                             size_t len, wai_cost *cost, wai_latent **out) {
    if (!ctx || !out || (!data && len)) return WAI_invalid_argument;
    *out = NULL;
    wai_decoder_config defaults;
    if (!c) {
        wai_decoder_config_default(&defaults);
        c = &defaults;
    }
    const wai_codec *codec;
    wai_status st = wai_steps_codec(c->capability, data, len, &codec);
    if (st != WAI_ok) return st;
    if (codec->networks != WAI_NETWORKS_LATENT) return WAI_unsupported_capability;
    wai_latent *l = wai_alloc_zeroed(&ctx->alloc, 1, sizeof *l);
    if (!l) return WAI_out_of_memory;
    l->ctx = ctx;
    wai_job_init(&l->job, codec, NULL);
    st = wai_steps_prepare(ctx, c->set, &l->job, data, len, &l->held);
    if (st == WAI_ok) st = wai_steps_limits(&l->job, c->max_cost, c->max_memory, cost);
    if (st == WAI_ok) st = codec->ops->latent(&l->job, &ctx->alloc);
    if (st != WAI_ok) {
        wai_latent_destroy(l);
        return st;
    }
    *out = l;
    return WAI_ok;
}

void wai_latent_destroy(wai_latent *l) {
    if (!l) return;
    wai_steps_end(l->ctx, &l->job, l->held);
    wai_free(&l->ctx->alloc, l);
}

wai_latent_job *wai_latent_job_of(wai_latent *l) { return l ? &l->job.latent : NULL; }

const wai_capability *wai_latent_capability(const wai_latent *l) {
    return l ? &l->job.codec->cap : NULL;
}

void wai_latent_symbols_digest(const wai_latent *l, uint8_t out[32]) {
    if (l && out) memcpy(out, l->job.symbols_digest, 32);
}
