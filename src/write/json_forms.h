/* SPDX-License-Identifier: BSD-2-Clause */
/* The tools' JSON forms of each format (integer-payloads §10,
 * docs/json-forms.md): from a parsed form to a payload (by the format's
 * writer, so a payload a parser refuses is refused with its code), and a
 * parsed payload back to its form. The public calls are wai_convert_json
 * and wai_export_json (include/wai/wai_write.h, write/convert.c). */
#ifndef WAI_WRITE_JSON_FORMS_H
#define WAI_WRITE_JSON_FORMS_H

#include <stddef.h>
#include <stdint.h>

#include "common/json.h"
#include "common/text.h"
#include "formats/wia1.h"
#include "formats/wih1.h"
#include "formats/wis1.h"
#include "formats/wiv1.h"
#include "wai/wai.h"

/* What a form does not carry: audio.json (WIA1's sample_rate) and the
 * set's network whose afrac a WIA1 or WIS1 form must have. */
typedef struct wai_form_inputs {
    const uint8_t *audio_json;
    size_t audio_json_len;
    const uint8_t *model;
    size_t model_len;
} wai_form_inputs;

wai_status wai_wih1_from_json(const wai_allocator *a, const wai_json_value *root, uint8_t **out,
                              size_t *out_len);
void wai_wih1_emit_json(wai_text *t, const wai_wih1 *h, int indent);

/* keyframe: the capability's (0 int_motion, 1 int_hyper). */
wai_status wai_wiv1_from_json(const wai_allocator *a, const wai_json_value *root, int keyframe,
                              uint8_t **out, size_t *out_len);
void wai_wiv1_emit_json(wai_text *t, const wai_wiv1 *v);

wai_status wai_wia1_from_json(const wai_allocator *a, const wai_json_value *root,
                              const wai_form_inputs *in, uint8_t **out, size_t *out_len);
void wai_wia1_emit_json(wai_text *t, const wai_wia1 *v);

wai_status wai_wis1_from_json(const wai_allocator *a, const wai_json_value *root,
                              const wai_form_inputs *in, uint8_t **out, size_t *out_len);
void wai_wis1_emit_json(wai_text *t, const wai_wis1 *v);

#endif
