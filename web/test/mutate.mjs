// SPDX-License-Identifier: BSD-2-Clause
// The fuzz tests' seeded generator (mulberry32) and payload mutations,
// shared by fuzz_glue.mjs and page_fuzz.mjs. Each function is
// self-contained (no names from this module), so page_fuzz.mjs can send
// its source to the page as it is.

/** mulberry32 from seed s: random() in [0, 1), int(n), pick(xs). */
export function rngOf(s) {
  let a = s >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random: next, int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

/**
 * src (bytes) mutated 1 to 8 times, each a kind drawn from the first
 * `kinds` of: 0 a bit flipped, 1 a boundary byte, 2 a cut, 3 random bytes
 * inserted, 4 four bytes overwritten, 5 spliced with other's tail, 6 a run
 * repeated, 7 a run zeroed. The draws depend on kinds: fuzz_glue.mjs gives
 * 7 (its seeds' inputs as they have always been), the page all 8.
 */
export function mutate(r, src, other, kinds = 8) {
  let b = Array.from(src);
  const n = r.pick([1, 1, 1, 2, 4, 8]);
  for (let i = 0; i < n; i++) {
    const k = r.int(kinds);
    if (k === 0 && b.length) b[r.int(b.length)] ^= 1 << r.int(8);
    else if (k === 1 && b.length) b[r.int(b.length)] = r.pick([0, 1, 0x7f, 0x80, 0xff, 0xfe]);
    else if (k === 2 && b.length) b.length = r.int(b.length);
    else if (k === 3) b.splice(r.int(b.length + 1), 0, ...Array.from({ length: 1 + r.int(8) }, () => r.int(256)));
    else if (k === 4 && b.length > 4) {
      const at = r.int(b.length - 4);
      for (let j = 0; j < 4; j++) b[at + j] = r.int(256);
    } else if (k === 5 && other.length) b = b.slice(0, r.int(b.length + 1)).concat(Array.from(other.slice(r.int(other.length + 1))));
    else if (k === 6 && b.length) {
      const at = r.int(b.length);
      b.splice(at, 0, ...b.slice(at, at + 1 + r.int(16)));
    } else if (k === 7 && b.length) {
      const at = r.int(b.length);
      b.fill(0, at, at + 1 + r.int(64));
    }
  }
  return Uint8Array.from(b);
}
