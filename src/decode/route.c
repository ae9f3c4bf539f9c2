/* SPDX-License-Identifier: BSD-2-Clause */
/* Routing over candidates (integer-payloads §8): the first candidate the
 * sink can decode through decodes; a routing refusal moves on, any other
 * status ends the route. Built on the public decoder alone: a candidate is
 * a decoder made and one payload sent. */
#include "wai/wai_decode.h"

static int reserved_zero(const uint8_t *r, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (r[i]) return 0;
    return 1;
}

wai_status wai_decode_route(wai_context *ctx, const wai_decoder_config *base,
                            const wai_route_candidate *candidates, size_t n, wai_decoder **out,
                            size_t *ended, wai_status *statuses) {
    if (out) *out = NULL;
    if (!ctx || !out || !candidates || n == 0) return WAI_invalid_argument;
    for (size_t i = 0; i < n; i++)
        if (!reserved_zero(candidates[i].reserved, sizeof candidates[i].reserved))
            return WAI_invalid_argument;
    wai_decoder_config cfg;
    if (base) cfg = *base;
    else wai_decoder_config_default(&cfg);
    wai_status st = WAI_invalid_argument;
    for (size_t i = 0; i < n; i++) {
        const wai_route_candidate *c = &candidates[i];
        cfg.capability = c->capability;
        cfg.set = c->set;
        cfg.dispatch = c->dispatch;
        wai_decoder *dec = NULL;
        st = wai_decoder_create(ctx, &cfg, &dec);
        if (st == WAI_ok) st = wai_decoder_send(dec, c->payload, c->len, NULL);
        if (statuses) statuses[i] = st;
        if (ended) *ended = i;
        if (wai_status_kind_of(st) != WAI_KIND_ROUTE || i + 1 == n) {
            *out = dec;
            return st;
        }
        wai_decoder_destroy(dec); /* routed: the next candidate */
    }
    return st; /* not reached: the last candidate returns in the loop */
}
