/* SPDX-License-Identifier: BSD-2-Clause */
/* A WIV1 clip read for a receipt (receipt.h): its header and its frames,
 * through the public decoder, so its checks, caps and limits are a
 * decode's. */
#include <string.h>

#include "common/json.h"
#include "receipt/receipt.h"
#include "wai/wai_decode.h"
#include "wai/wai_format.h"

#define INT_MOTION "wai.video.int_motion"

/* Room for a WIV1 header's JSON: ten numbers of at most 20 digits each,
 * their names and punctuation. */
#define HEADER_JSON_MAX 512

static int field(const wai_json_value *o, const char *name, uint32_t *out) {
    uint64_t v;
    if (!wai_json_get_u64(wai_json_object_get(o, name), &v) || v > UINT32_MAX) return 0;
    *out = (uint32_t)v;
    return 1;
}

wai_status wai_receipt_clip_header(const wai_allocator *a, const uint8_t *payload, size_t len,
                                   wai_receipt_clip *out) {
    char text[HEADER_JSON_MAX];
    size_t n;
    wai_status st = wai_payload_header_json(wai_capability_find(INT_MOTION), payload, len, text,
                                            sizeof text, &n);
    if (st != WAI_ok) return st;
    wai_json_doc *doc;
    if (wai_json_parse(a, (const uint8_t *)text, n, &doc, NULL) != WAI_JSON_OK)
        return WAI_out_of_memory; /* the decoder's own JSON: only memory can fail it */
    const wai_json_value *o = wai_json_root(doc);
    int ok = field(o, "h", &out->h) && field(o, "w", &out->w) &&
             field(o, "n_frames", &out->n_frames) && field(o, "block", &out->block) &&
             field(o, "mv_precision", &out->mv_precision) && field(o, "q", &out->q);
    wai_json_free(doc);
    return ok ? WAI_ok : WAI_invalid_argument;
}

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
