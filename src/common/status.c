/* SPDX-License-Identifier: BSD-2-Clause */
#include "wai/wai.h"

#include <string.h>

typedef struct status_entry {
    wai_status code;
    const char *name;
    wai_status_kind kind;
    const char *meaning; /* one line a person reads beside the code */
} status_entry;

/* The spec tables' order (integer-payloads §8, neural-dispatch §7), then
 * the WebNN exceptions (webnn.md). */
static const status_entry status_table[] = {
    {WAI_ok, "ok", WAI_KIND_OK,
     "decoded"},
    {WAI_bad_magic, "bad_magic", WAI_KIND_PAYLOAD,
     "the payload does not start with a magic this capability reads"},
    {WAI_format_capability_mismatch, "format_capability_mismatch", WAI_KIND_PAYLOAD,
     "the payload's format is not the named capability's"},
    {WAI_keyframe_capability_mismatch, "keyframe_capability_mismatch", WAI_KIND_PAYLOAD,
     "the clip's keyframe kind is not the named capability's"},
    {WAI_version, "version", WAI_KIND_PAYLOAD,
     "a format version this decoder does not read"},
    {WAI_reserved_nonzero, "reserved_nonzero", WAI_KIND_PAYLOAD,
     "a reserved field is not zero"},
    {WAI_field_range, "field_range", WAI_KIND_PAYLOAD,
     "a header field is outside its allowed range"},
    {WAI_too_large, "too_large", WAI_KIND_PAYLOAD,
     "the payload declares more than the format's caps allow"},
    {WAI_cdf_malformed, "cdf_malformed", WAI_KIND_PAYLOAD,
     "an entropy table is malformed"},
    {WAI_stream_length, "stream_length", WAI_KIND_PAYLOAD,
     "a length field disagrees with the bytes present"},
    {WAI_nested_length, "nested_length", WAI_KIND_PAYLOAD,
     "a nested payload's length disagrees with the bytes present"},
    {WAI_trailing, "trailing", WAI_KIND_PAYLOAD,
     "bytes follow the payload's last field"},
    {WAI_stream_exhausted, "stream_exhausted", WAI_KIND_PAYLOAD,
     "an entropy stream ran out before its last symbol"},
    {WAI_stream_noncanonical, "stream_noncanonical", WAI_KIND_PAYLOAD,
     "an entropy stream does not end in its canonical state"},
    {WAI_geometry_mismatch, "geometry_mismatch", WAI_KIND_PAYLOAD,
     "a frame's size differs from its group's"},
    {WAI_model_mismatch, "model_mismatch", WAI_KIND_PAYLOAD,
     "the payload does not fit its parameter set"},
    {WAI_set_incomplete, "set_incomplete", WAI_KIND_ROUTE,
     "the parameter set lacks a file this decode reads, or a file differs from its listing "
     "or pin"},
    {WAI_not_dispatchable, "not_dispatchable", WAI_KIND_ROUTE,
     "no path can run this decode's networks"},
    {WAI_unsupported_capability, "unsupported_capability", WAI_KIND_ROUTE,
     "this decoder does not decode that capability"},
    {WAI_payload_malformed, "payload_malformed", WAI_KIND_PAYLOAD,
     "the payload is malformed"},
    {WAI_cost_over_limit, "cost_over_limit", WAI_KIND_ROUTE,
     "the payload declares more work or memory than the limits allow"},
    {WAI_dispatch_tier_refused, "dispatch_tier_refused", WAI_KIND_DISPATCH,
     "this path cannot give the determinism the decode needs"},
    {WAI_dispatch_arithmetic_mismatch, "dispatch_arithmetic_mismatch", WAI_KIND_DISPATCH,
     "this path's arithmetic is not the capability's"},
    {WAI_dispatch_unit_absent, "dispatch_unit_absent", WAI_KIND_DISPATCH,
     "this unit or backend is not here"},
    {WAI_dispatch_program_absent, "dispatch_program_absent", WAI_KIND_DISPATCH,
     "the set holds no program for this backend"},
    {WAI_dispatch_shape_mismatch, "dispatch_shape_mismatch", WAI_KIND_DISPATCH,
     "the program does not take this payload's shape"},
    {WAI_dispatch_not_placed, "dispatch_not_placed", WAI_KIND_DISPATCH,
     "the backend would not run the networks on this unit"},
    {WAI_dispatch_backend_failed, "dispatch_backend_failed", WAI_KIND_DISPATCH,
     "the backend failed this decode"},
    {WAI_TypeError, "TypeError", WAI_KIND_WEBNN,
     "WebNN refused a call (TypeError)"},
    {WAI_InvalidStateError, "InvalidStateError", WAI_KIND_WEBNN,
     "WebNN refused a call (InvalidStateError)"},
    {WAI_OperationError, "OperationError", WAI_KIND_WEBNN,
     "WebNN failed an operation"},
    {WAI_NotSupportedError, "NotSupportedError", WAI_KIND_WEBNN,
     "WebNN does not support this here"},
    {WAI_DataError, "DataError", WAI_KIND_WEBNN,
     "WebNN refused the data"},
    {WAI_UnknownError, "UnknownError", WAI_KIND_WEBNN,
     "WebNN failed"},
    {WAI_out_of_memory, "out_of_memory", WAI_KIND_LIBRARY,
     "the decoder ran out of memory"},
    {WAI_io_error, "io_error", WAI_KIND_LIBRARY,
     "an input could not be read"},
    {WAI_invalid_argument, "invalid_argument", WAI_KIND_LIBRARY,
     "the call's arguments are not valid"},
    {WAI_receipt_refused, "receipt_refused", WAI_KIND_RECEIPT,
     "the receipt's JSON form is refused"},
    {WAI_receipt_inconsistent, "receipt_inconsistent", WAI_KIND_RECEIPT,
     "the receipt is not consistent, or its signature fails"},
    {WAI_receipt_not_rederived, "receipt_not_rederived", WAI_KIND_RECEIPT,
     "the payload does not give the receipt"},
};

#define N_STATUS (sizeof status_table / sizeof status_table[0])

static const status_entry *find(wai_status s) {
    for (size_t i = 0; i < N_STATUS; i++)
        if (status_table[i].code == s) return &status_table[i];
    return NULL;
}

const char *wai_status_meaning(wai_status s) {
    const status_entry *e = find(s);
    return e ? e->meaning : NULL;
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
