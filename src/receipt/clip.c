/* SPDX-License-Identifier: BSD-2-Clause */
/* A WIV1 clip decoded for a receipt (receipt.h): through the public
 * decoder, so its checks, caps and limits are a decode's. */
#include <string.h>

#include "receipt/receipt.h"
#include "wai/wai_decode.h"

#define INT_MOTION "wai.video.int_motion"

wai_status wai_receipt_decode_clip(wai_context *ctx, const uint8_t *payload, size_t len,
                                   uint64_t max_cost, uint64_t max_memory,
                                   const wai_energy_meter *meter, wai_energy *energy,
                                   wai_receipt_frame_fn visit, void *opaque) {
    wai_decoder_config c;
    wai_decoder_config_default(&c);
    c.capability = INT_MOTION;
    c.max_cost = max_cost;
    c.max_memory = max_memory;
    wai_decoder *d;
    wai_status st = wai_decoder_create(ctx, &c, &d);
    if (st != WAI_ok) return st;
    if (meter) meter->begin(meter->opaque);
    st = wai_decoder_send(d, payload, len, NULL);
    if (meter) {
        memset(energy, 0, sizeof *energy);
        meter->end(meter->opaque, energy);
    }
    for (uint64_t i = 0; st == WAI_ok; i++) {
        wai_output out;
        st = wai_decoder_receive(d, &out);
        if (st != WAI_ok || out.kind == WAI_OUTPUT_NONE) break;
        st = visit(opaque, i, out.data, out.size);
    }
    wai_decoder_destroy(d);
    return st;
}
