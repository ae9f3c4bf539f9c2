/* libFuzzer: the tools' JSON forms (integer-payloads §10). Input: one byte
 * that picks the capability (wai.video.int_motion, wai.video.int_hyper,
 * wai.neural.int_hyper; taken modulo 3), then the form's text.
 *
 * Invariants: a refusal gives no bytes; an accepted form's payload parses
 * as its capability's, and its export converts back to the same bytes
 * (the form read from any text is the payload's, whose form round-trips). */
#include <stdlib.h>
#include <string.h>

#include "wai/wai_format.h"
#include "wai/wai_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const caps[3] = {"wai.video.int_motion", "wai.video.int_hyper",
                                    "wai.neural.int_hyper"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const char *cap = caps[data[0] % 3];
    uint8_t *p = NULL;
    size_t len = 0;
    wai_status st = wai_convert_json(NULL, cap, data + 1, size - 1, NULL, &p, &len);
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
        wai_convert_json(NULL, cap, (const uint8_t *)json, jlen, NULL, &back, &blen) != WAI_ok ||
        blen != len || memcmp(back, p, len) != 0)
        __builtin_trap();
    wai_write_free(NULL, json);
    wai_write_free(NULL, back);
    wai_write_free(NULL, p);
    return 0;
}
