/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: the tools' JSON forms (integer-payloads §10). Input: one byte
 * that picks the capability (wai.video.int_motion, wai.video.int_hyper,
 * wai.neural.int_hyper, wai.audio.int_codec, wai.splat.int_codec; taken
 * modulo 5), then the form's text. WIA1 and WIS1 convert with an
 * audio.json of 8000 Hz and the corpus's set0 network (embedded).
 *
 * Invariants: a refusal gives no bytes; an accepted form's payload parses
 * as its capability's, and its export converts back to the same bytes
 * (the form read from any text is the payload's, whose form round-trips). */
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const caps[5] = {"wai.video.int_motion", "wai.video.int_hyper",
                                    "wai.neural.int_hyper", "wai.audio.int_codec",
                                    "wai.splat.int_codec"};
static const char audio_json[] = "{\"sample_rate\": 8000}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const unsigned k = data[0] % 5;
    const char *cap = caps[k];
    wai_convert_options o;
    wai_convert_options_default(&o);
    if (k >= 3) {
        const wai_embedded_file *m =
            wai_embedded_find(k == 3 ? "audio/set0/model.wam" : "splat/set0/g_s.whm");
        if (!m) __builtin_trap();
        o.model = m->data, o.model_len = m->len;
        o.audio_json = (const uint8_t *)audio_json, o.audio_json_len = sizeof audio_json - 1;
    }
    uint8_t *p = NULL;
    size_t len = 0;
    wai_status st = wai_convert_json(NULL, cap, data + 1, size - 1, &o, &p, &len);
    if (st != WAI_ok) {
        if (p || len || !wai_status_name(st)) __builtin_trap();
        return 0;
    }
    wai_checked checked;
    if (wai_check_payload(wai_capability_find(cap), p, len, &checked) != WAI_ok) __builtin_trap();
    char *json = NULL;
    size_t jlen = 0;
    uint8_t *back = NULL;
    size_t blen = 0;
    if (wai_export_json(NULL, cap, p, len, &json, &jlen) != WAI_ok ||
        wai_convert_json(NULL, cap, (const uint8_t *)json, jlen, &o, &back, &blen) != WAI_ok ||
        blen != len || memcmp(back, p, len) != 0)
        __builtin_trap();
    wai_write_free(NULL, json);
    wai_write_free(NULL, back);
    wai_write_free(NULL, p);
    return 0;
}
