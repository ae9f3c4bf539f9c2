// SPDX-License-Identifier: BSD-2-Clause
// A set's pin as the package takes it (docs/spec-readings.md, L5b).

/** A pin: 64 hexadecimal digits, optionally followed by the tier it states
 * (":tier=TOKEN", docs/spec-readings.md L5b: C's wai_pin_parse reads the
 * same form), or 32 bytes. Returns { digest, tier } (tier null: none). */
export function parsePin(pin) {
  const m = typeof pin === "string" && /^([0-9a-fA-F]{64})(?::tier=([a-z0-9-]{1,31}))?$/.exec(pin);
  if (m) return { digest: Uint8Array.from(m[1].match(/../g), (h) => parseInt(h, 16)), tier: m[2] ?? null };
  if (ArrayBuffer.isView(pin) && pin.byteLength === 32)
    return { digest: new Uint8Array(pin.buffer, pin.byteOffset, 32), tier: null };
  throw new TypeError("pin: a SHA-256, 64 hexadecimal digits (then optionally :tier=TOKEN) or 32 bytes");
}

/** The decode's pin tier: the one the pin states, which opts.pinTier may
 * repeat but not contradict (neural-dispatch §2 item 3). */
export function pinTierOf(opts) {
  const stated = opts.pin == null ? null : parsePin(opts.pin).tier;
  if (stated && opts.pinTier != null && opts.pinTier !== stated)
    throw new TypeError(`the pin states tier ${stated}, pinTier says ${opts.pinTier}`);
  return stated ?? opts.pinTier;
}
