/* SPDX-License-Identifier: BSD-2-Clause */
/* wai_convert_json and wai_export_json (include/wai/wai_write.h): the
 * tools' JSON forms (integer-payloads §10) to payloads and back, by
 * capability; each format's form is in its own file (write/json_forms.h). */
#include "wai/wai_write.h"

#include <string.h>

#include "common/alloc.h"
#include "common/json.h"
#include "wai/wai_format.h"
#include "write/json_form.h"
#include "write/json_forms.h"

void wai_convert_options_default(wai_convert_options *o) {
    memset(o, 0, sizeof *o);
}

static int has_form(const wai_capability *cap) {
    return cap && !cap->frame_form &&
           (cap->format == WAI_FORMAT_WIV1 || cap->format == WAI_FORMAT_WIH1 ||
            cap->format == WAI_FORMAT_WIA1 || cap->format == WAI_FORMAT_WIS1);
}

static int reserved_zero(const wai_convert_options *o) {
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i]) return 0;
    return 1;
}

wai_status wai_convert_json(const wai_allocator *a, const char *capability, const uint8_t *json,
                            size_t len, const wai_convert_options *o, uint8_t **payload,
                            size_t *payload_len) {
    *payload = NULL;
    *payload_len = 0;
    wai_convert_options dflt;
    if (!o) wai_convert_options_default(&dflt), o = &dflt;
    if (!reserved_zero(o)) return WAI_invalid_argument;
    const wai_capability *cap = capability ? wai_capability_find(capability) : NULL;
    if (!has_form(cap)) return WAI_unsupported_capability;
    const wai_form_inputs in = {o->audio_json, o->audio_json_len, o->model, o->model_len};
    wai_json_doc *doc = NULL;
    if (wai_json_parse(a, json, len, &doc, NULL) != WAI_JSON_OK) return WAI_payload_malformed;
    const wai_json_value *root = wai_json_root(doc);
    wai_status st = WAI_payload_malformed;
    if (wai_json_type_of(root) == WAI_JSON_OBJECT) {
        switch (cap->format) {
        case WAI_FORMAT_WIH1: st = wai_wih1_from_json(a, root, payload, payload_len); break;
        case WAI_FORMAT_WIA1: st = wai_wia1_from_json(a, root, &in, payload, payload_len); break;
        case WAI_FORMAT_WIS1: st = wai_wis1_from_json(a, root, &in, payload, payload_len); break;
        default: st = wai_wiv1_from_json(a, root, cap->keyframe, payload, payload_len); break;
        }
    }
    wai_json_free(doc);
    return st;
}

typedef struct export_ctx {
    wai_format format;
    wai_wiv1 wiv1;
    wai_wih1 wih1;
    wai_wia1 wia1;
    wai_wis1 wis1;
} export_ctx;

static void emit(wai_text *t, const void *p) {
    const export_ctx *c = p;
    switch (c->format) {
    case WAI_FORMAT_WIV1: wai_wiv1_emit_json(t, &c->wiv1); break;
    case WAI_FORMAT_WIA1: wai_wia1_emit_json(t, &c->wia1); break;
    case WAI_FORMAT_WIS1: wai_wis1_emit_json(t, &c->wis1); break;
    default:
        wai_wih1_emit_json(t, &c->wih1, 0);
        wai_text_printf(t, "\n");
        break;
    }
}

wai_status wai_export_json(const wai_allocator *a, const char *capability, const uint8_t *payload,
                           size_t len, char **json, size_t *json_len) {
    *json = NULL;
    *json_len = 0;
    const wai_capability *cap = capability ? wai_capability_find(capability)
                                           : wai_capability_detect(payload, len);
    if (!cap) return capability ? WAI_unsupported_capability : WAI_bad_magic;
    if (!has_form(cap)) return WAI_unsupported_capability;
    if (!payload && len) return WAI_invalid_argument;
    /* A form is written only of a payload that parses as its capability's:
     * the format's parse, with its codes. */
    wai_status st;
    export_ctx c;
    memset(&c, 0, sizeof c);
    c.format = cap->format;
    switch (c.format) {
    case WAI_FORMAT_WIV1: st = wai_wiv1_parse(payload, len, cap->keyframe, &c.wiv1); break;
    case WAI_FORMAT_WIA1: st = wai_wia1_parse(payload, len, &c.wia1); break;
    case WAI_FORMAT_WIS1: st = wai_wis1_parse(payload, len, &c.wis1); break;
    default: st = wai_wih1_parse(payload, len, 0, &c.wih1); break;
    }
    if (st != WAI_ok) return st;
    return wai_jf_render(a, emit, &c, json, json_len);
}
