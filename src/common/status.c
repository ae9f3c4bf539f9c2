#include "wai/wai.h"

#include <string.h>

typedef struct status_entry {
    wai_status code;
    const char *name;
    wai_status_kind kind;
} status_entry;

/* The spec tables' order (integer-payloads §8, neural-dispatch §7), then
 * the WebNN exceptions (webnn.md). */
static const status_entry status_table[] = {
    {WAI_ok, "ok", WAI_KIND_OK},
    {WAI_bad_magic, "bad_magic", WAI_KIND_PAYLOAD},
    {WAI_format_capability_mismatch, "format_capability_mismatch", WAI_KIND_PAYLOAD},
    {WAI_keyframe_capability_mismatch, "keyframe_capability_mismatch", WAI_KIND_PAYLOAD},
    {WAI_version, "version", WAI_KIND_PAYLOAD},
    {WAI_reserved_nonzero, "reserved_nonzero", WAI_KIND_PAYLOAD},
    {WAI_field_range, "field_range", WAI_KIND_PAYLOAD},
    {WAI_too_large, "too_large", WAI_KIND_PAYLOAD},
    {WAI_cdf_malformed, "cdf_malformed", WAI_KIND_PAYLOAD},
    {WAI_stream_length, "stream_length", WAI_KIND_PAYLOAD},
    {WAI_nested_length, "nested_length", WAI_KIND_PAYLOAD},
    {WAI_trailing, "trailing", WAI_KIND_PAYLOAD},
    {WAI_stream_exhausted, "stream_exhausted", WAI_KIND_PAYLOAD},
    {WAI_stream_noncanonical, "stream_noncanonical", WAI_KIND_PAYLOAD},
    {WAI_geometry_mismatch, "geometry_mismatch", WAI_KIND_PAYLOAD},
    {WAI_model_mismatch, "model_mismatch", WAI_KIND_PAYLOAD},
    {WAI_set_incomplete, "set_incomplete", WAI_KIND_ROUTE},
    {WAI_not_dispatchable, "not_dispatchable", WAI_KIND_ROUTE},
    {WAI_unsupported_capability, "unsupported_capability", WAI_KIND_ROUTE},
    {WAI_payload_malformed, "payload_malformed", WAI_KIND_PAYLOAD},
    {WAI_cost_over_limit, "cost_over_limit", WAI_KIND_ROUTE},
    {WAI_dispatch_tier_refused, "dispatch_tier_refused", WAI_KIND_DISPATCH},
    {WAI_dispatch_arithmetic_mismatch, "dispatch_arithmetic_mismatch", WAI_KIND_DISPATCH},
    {WAI_dispatch_unit_absent, "dispatch_unit_absent", WAI_KIND_DISPATCH},
    {WAI_dispatch_program_absent, "dispatch_program_absent", WAI_KIND_DISPATCH},
    {WAI_dispatch_shape_mismatch, "dispatch_shape_mismatch", WAI_KIND_DISPATCH},
    {WAI_dispatch_not_placed, "dispatch_not_placed", WAI_KIND_DISPATCH},
    {WAI_dispatch_backend_failed, "dispatch_backend_failed", WAI_KIND_DISPATCH},
    {WAI_TypeError, "TypeError", WAI_KIND_WEBNN},
    {WAI_InvalidStateError, "InvalidStateError", WAI_KIND_WEBNN},
    {WAI_OperationError, "OperationError", WAI_KIND_WEBNN},
    {WAI_NotSupportedError, "NotSupportedError", WAI_KIND_WEBNN},
    {WAI_DataError, "DataError", WAI_KIND_WEBNN},
    {WAI_UnknownError, "UnknownError", WAI_KIND_WEBNN},
    {WAI_out_of_memory, "out_of_memory", WAI_KIND_LIBRARY},
    {WAI_io_error, "io_error", WAI_KIND_LIBRARY},
    {WAI_invalid_argument, "invalid_argument", WAI_KIND_LIBRARY},
    {WAI_receipt_refused, "receipt_refused", WAI_KIND_RECEIPT},
    {WAI_receipt_inconsistent, "receipt_inconsistent", WAI_KIND_RECEIPT},
    {WAI_receipt_not_rederived, "receipt_not_rederived", WAI_KIND_RECEIPT},
};

#define N_STATUS (sizeof status_table / sizeof status_table[0])

static const status_entry *find(wai_status s) {
    for (size_t i = 0; i < N_STATUS; i++)
        if (status_table[i].code == s) return &status_table[i];
    return NULL;
}

const char *wai_status_name(wai_status s) {
    const status_entry *e = find(s);
    return e ? e->name : NULL;
}

int wai_status_from_name(const char *name, wai_status *out) {
    if (!name) return 0;
    for (size_t i = 0; i < N_STATUS; i++) {
        if (strcmp(status_table[i].name, name) == 0) {
            *out = status_table[i].code;
            return 1;
        }
    }
    return 0;
}

wai_status_kind wai_status_kind_of(wai_status s) {
    const status_entry *e = find(s);
    return e ? e->kind : WAI_KIND_UNKNOWN;
}
