// SPDX-License-Identifier: BSD-2-Clause
// What each status code means, in a line a page can show beside it: libwai's
// one table (wai_status_meaning in C, which the tool and the Python module
// print too), read out of the module when createWai makes one.
const MEANING = {};

/** The codes libwai names, in its table's order (filled by createWai). */
export const STATUS_CODES = [];

/** Reads the table from a module's exports (wai_web_status_name and
 * wai_web_status_meaning, C strings at addresses in memory). */
export function learnStatuses(nameOf, meaningOf) {
  if (STATUS_CODES.length) return;
  for (let v = 0; v < 256; v++) {
    const name = nameOf(v);
    if (!name) continue;
    MEANING[name] = meaningOf(v);
    STATUS_CODES.push(name);
  }
}

/** A line saying what `code` means ("" for a code libwai does not know, or
 * before the first createWai). */
export function describeStatus(code) {
  return MEANING[code] ?? "";
}

/** integer-payloads §8's routing codes: the sink cannot decode through the
 * capability, so a WAI1 goes on to its fallback, a WAI2 to its next entry.
 * Every other refusal is final. */
export const ROUTING_CODES = ["set_incomplete", "not_dispatchable", "unsupported_capability", "cost_over_limit"];

/** Whether a refusal with `code` moves a route on (integer-payloads §8). */
export function routes(code) {
  return ROUTING_CODES.includes(code);
}
