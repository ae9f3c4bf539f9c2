/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer: a WIA1 export's audio.json (docs/json-forms.md), the one input
 * of `wai convert --audio` that the form does not carry. Input: the text of
 * audio.json; the form is corpus clip0's own export, its network set0's
 * model.wam (both embedded).
 *
 * Invariants: a refusal gives no bytes; an accepted audio.json gives a
 * payload that parses as WIA1, whose export is clip0's form (the sample
 * rate is not in the form), whose header's "sr" is an integer N, and which
 * is clip0's bytes exactly when re-made from {"sample_rate": 8000} and the
 * form, and its own bytes from {"sample_rate": N}: the rate read is the
 * rate written, and nothing else in the payload depends on audio.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "wai/wai_format.h"
#include "wai/wai_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char cap_name[] = "wai.audio.int_codec";

static const wai_embedded_file *need(const char *name) {
    const wai_embedded_file *f = wai_embedded_find(name);
    if (!f) __builtin_trap();
    return f;
}

/* Converts form with audio text; *p (length *len) on WAI_ok. */
static wai_status convert(const char *form, size_t form_len, const uint8_t *audio, size_t audio_len,
                          uint8_t **p, size_t *len) {
    const wai_embedded_file *m = need("audio/set0/model.wam");
    wai_convert_options o;
    wai_convert_options_default(&o);
    o.model = m->data, o.model_len = m->len;
    o.audio_json = audio, o.audio_json_len = audio_len;
    return wai_convert_json(NULL, cap_name, (const uint8_t *)form, form_len, &o, p, len);
}

/* The header's "sr", which the header JSON always carries for a WIA1. */
static unsigned long long header_sr(const uint8_t *p, size_t len) {
    char buf[1024];
    size_t n = 0;
    if (wai_payload_header_json(wai_capability_find(cap_name), p, len, buf, sizeof buf, &n) !=
        WAI_ok)
        __builtin_trap();
    const char *at = strstr(buf, "\"sr\": ");
    if (!at) __builtin_trap();
    return strtoull(at + 6, NULL, 10);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const wai_embedded_file *clip = need("audio/clip0.wia1");
    char *form = NULL;
    size_t form_len = 0;
    if (wai_export_json(NULL, cap_name, clip->data, clip->len, &form, &form_len) != WAI_ok)
        __builtin_trap();

    uint8_t *p = NULL;
    size_t len = 0;
    wai_status st = convert(form, form_len, data, size, &p, &len);
    if (st != WAI_ok) {
        if (p || len || !wai_status_name(st)) __builtin_trap();
        wai_write_free(NULL, form);
        return 0;
    }
    if (wai_check_payload(wai_capability_find(cap_name), p, len, NULL) != WAI_ok) __builtin_trap();

    /* The form is untouched by audio.json. */
    char *back = NULL;
    size_t back_len = 0;
    if (wai_export_json(NULL, cap_name, p, len, &back, &back_len) != WAI_ok ||
        back_len != form_len || memcmp(back, form, form_len) != 0)
        __builtin_trap();

    /* The rate read is the rate written. */
    char text[64];
    int tn = snprintf(text, sizeof text, "{\"sample_rate\": %llu}", header_sr(p, len));
    uint8_t *again = NULL, *orig = NULL;
    size_t again_len = 0, orig_len = 0;
    static const char clip_rate[] = "{\"sample_rate\": 8000}";
    if (convert(form, form_len, (const uint8_t *)text, (size_t)tn, &again, &again_len) != WAI_ok ||
        again_len != len || memcmp(again, p, len) != 0 ||
        convert(form, form_len, (const uint8_t *)clip_rate, sizeof clip_rate - 1, &orig,
                &orig_len) != WAI_ok ||
        orig_len != clip->len || memcmp(orig, clip->data, clip->len) != 0)
        __builtin_trap();

    wai_write_free(NULL, orig);
    wai_write_free(NULL, again);
    wai_write_free(NULL, back);
    wai_write_free(NULL, p);
    wai_write_free(NULL, form);
    return 0;
}
