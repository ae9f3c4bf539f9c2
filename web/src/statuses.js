// What each status code means, in a line a page can show beside it (the
// codes are the specs' own: docs/errors.md).
const MEANING = {
  ok: "decoded",
  bad_magic: "the payload does not start with a magic this capability reads",
  format_capability_mismatch: "the payload's format is not the named capability's",
  keyframe_capability_mismatch: "the clip's keyframe kind is not the named capability's",
  version: "a format version this decoder does not read",
  reserved_nonzero: "a reserved field is not zero",
  field_range: "a header field is outside its allowed range",
  too_large: "the payload declares more than the format's caps allow",
  cdf_malformed: "an entropy table is malformed",
  stream_length: "a length field disagrees with the bytes present",
  nested_length: "a nested payload's length disagrees with the bytes present",
  trailing: "bytes follow the payload's last field",
  stream_exhausted: "an entropy stream ran out before its last symbol",
  stream_noncanonical: "an entropy stream does not end in its canonical state",
  geometry_mismatch: "a frame's size differs from its group's",
  model_mismatch: "the payload does not fit its parameter set",
  set_incomplete: "the parameter set lacks a member this capability needs",
  not_dispatchable: "no path can run this decode's networks",
  unsupported_capability: "this decoder does not decode that capability",
  payload_malformed: "the payload is malformed",
  cost_over_limit: "the payload declares more work or memory than the limits allow",
  dispatch_tier_refused: "this path cannot give the determinism the decode needs",
  dispatch_arithmetic_mismatch: "this path's arithmetic is not the capability's",
  dispatch_unit_absent: "this unit or backend is not here",
  dispatch_program_absent: "the set holds no program for this backend",
  dispatch_shape_mismatch: "the program does not take this payload's shape",
  dispatch_not_placed: "the backend would not run the networks on this unit",
  dispatch_backend_failed: "the backend failed this decode",
  TypeError: "WebNN refused a call (TypeError)",
  InvalidStateError: "WebNN refused a call (InvalidStateError)",
  OperationError: "WebNN failed an operation",
  NotSupportedError: "WebNN does not support this here",
  DataError: "WebNN refused the data",
  UnknownError: "WebNN failed",
  out_of_memory: "the decoder ran out of memory",
  io_error: "an input could not be read",
  invalid_argument: "the call's arguments are not valid",
  receipt_refused: "the receipt's JSON form is refused",
  receipt_inconsistent: "the receipt is not consistent, or its signature fails",
  receipt_not_rederived: "the payload does not give the receipt",
};

/** A line saying what `code` means ("" for a code libwai does not know). */
export function describeStatus(code) {
  return MEANING[code] ?? "";
}

export const STATUS_CODES = Object.keys(MEANING);

/** integer-payloads §8's routing codes: the sink cannot decode through the
 * capability, so a WAI1 goes on to its fallback, a WAI2 to its next entry.
 * Every other refusal is final. */
export const ROUTING_CODES = ["set_incomplete", "not_dispatchable", "unsupported_capability", "cost_over_limit"];

/** Whether a refusal with `code` moves a route on (integer-payloads §8). */
export function routes(code) {
  return ROUTING_CODES.includes(code);
}
