/* SPDX-License-Identifier: BSD-2-Clause */
/* What a caller may ask of a payload without decoding it whole: its
 * declared cost (with its set or without), and its entropy stage alone
 * (the symbols and their digest, `wai inspect`). The same steps as a
 * decode, up to where the question is answered (decode/steps.h). */
#include <string.h>

#include "common/context.h"
#include "decode/steps.h"
#include "sets/cache.h"
#include "wai/wai_decode.h"

/* ctx NULL: no set can be read (a job that reads one is set_incomplete). */
static wai_status cost_of(wai_context *ctx, const char *capability, const wai_set *set,
                          const uint8_t *data, size_t len, wai_cost *cost) {
    const wai_codec *c;
    wai_status st = wai_steps_codec(capability, data, len, &c);
    if (st != WAI_ok) return st;
    wai_job j;
    wai_job_init(&j, c, NULL);
    wai_set_ref *held;
    st = wai_steps_prepare(ctx, set, &j, data, len, &held);
    if (st == WAI_ok) *cost = j.cost;
    wai_steps_end(ctx, &j, held);
    return st;
}

wai_status wai_payload_outputs(const char *capability, const uint8_t *data, size_t len,
                               uint64_t *n) {
    if (!n || (!data && len)) return WAI_invalid_argument;
    *n = 0;
    const wai_codec *c;
    wai_status st = wai_steps_codec(capability, data, len, &c);
    if (st != WAI_ok) return st;
    wai_job j;
    wai_job_init(&j, c, NULL);
    st = c->ops->parse(&j, data, len);
    if (st == WAI_ok) *n = j.out.n ? j.out.n : 1;
    if (c->ops->release) c->ops->release(&j, NULL);
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
    wai_status st = wai_steps_codec(capability, data, len, &c);
    if (st != WAI_ok) return st;
    if (!c->ops->symbols) return WAI_unsupported_capability;
    wai_job j;
    wai_job_init(&j, c, NULL);
    wai_set_ref *held;
    st = wai_steps_prepare(ctx, set, &j, data, len, &held);
    if (st == WAI_ok && n) {
        *n = (size_t)j.cost.entropy_steps;
        if (out && cap < *n) st = WAI_invalid_argument;
    }
    if (st == WAI_ok && (!n || out)) st = c->ops->symbols(&j, &ctx->alloc, out);
    if (st == WAI_ok && digest) memcpy(digest, j.symbols_digest, 32);
    wai_steps_end(ctx, &j, held);
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
