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
#include "formats/wih1.h"
#include "formats/wiv1.h"
#include "wai/wai.h"

wai_status wai_wih1_from_json(const wai_allocator *a, const wai_json_value *root, uint8_t **out,
                              size_t *out_len);
void wai_wih1_emit_json(wai_text *t, const wai_wih1 *h, int indent);

/* keyframe: the capability's (0 int_motion, 1 int_hyper). */
wai_status wai_wiv1_from_json(const wai_allocator *a, const wai_json_value *root, int keyframe,
                              uint8_t **out, size_t *out_len);
void wai_wiv1_emit_json(wai_text *t, const wai_wiv1 *v);

#endif
