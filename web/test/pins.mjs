// SPDX-License-Identifier: BSD-2-Clause
// Pins in the npm package (docs/spec-readings.md, L5 and L5a), with sets as
// node reads them from the shipped folders: decode() and decodeAsync() take
// { pin } and check it by the rules C does. For the hyperprior's set (its
// analysis networks too) and bmshj2018's (its three float programs, on the
// onnx-runtime path through onnxruntime-node), each file altered in one
// byte, removed, renamed, and (read by a path) left out of the listing is
// set_incomplete under the pin; the shipped set decodes ok under it; a
// form-less pin over one file of several does not pin the set.
//
//   node web/test/pins.mjs WAI.WASM NODE_MODULES      ends "N passed, N failed"
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai } from "../src/index.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasm, modules] = process.argv.slice(2);
const wai = await createWai({ wasm: readFileSync(wasm) });
const ort = createRequire(join(resolve(modules), "x.js"))("onnxruntime-node");
let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const sha = (b) => createHash("sha256").update(b).digest("hex");
const folder = (d) => Object.fromEntries(readdirSync(d).map((n) => [n, readFileSync(join(d, n))]));

// The listing's canonical form (L5), as `wai set list` writes it.
const listing = (set) => Buffer.from(`{"kind":"wai.prior.set","members":[${Object.keys(set)
  .filter((n) => n !== "listing.json").sort()
  .map((n) => `{"name":"${n}","bytes":${set[n].length},"sha256":"${sha(set[n])}"}`).join(",")}]}`);

const kinds = [
  { name: "hyperprior", dir: "examples/hyperprior/sets/q3", payload: "examples/hyperprior/chelsea.wih1",
    read: ["entropy.json", "g_s.whm", "h_s.whm"], decode: (p, o) => wai.decodeAsync(p, o) },
  { name: "bmshj2018", dir: "examples/bmshj2018/sets/q3", payload: "examples/bmshj2018/chelsea.b18f",
    read: ["cdfs_q3.json", "decoder.onnx"], decode: (p, o) => wai.decodeAsync(p, { ...o, ml: null, ort }) },
];
for (const k of kinds) {
  const shipped = folder(join(repo, k.dir));
  const payload = readFileSync(join(repo, k.payload));
  const pin = sha(shipped["listing.json"]);
  check(listing(shipped).equals(shipped["listing.json"]), `${k.name}: the shipped listing is the files'`);
  const ok = await k.decode(payload, { set: shipped, pin });
  check(ok.status === "ok", `${k.name}: pinned, as shipped: ${ok.status}`);
  const sync = wai.decode(payload, { set: shipped, pin: Buffer.from(pin, "hex") });
  check(k.name !== "hyperprior" || sync.status === "ok", `${k.name}: decode() with the pin's bytes: ${sync.status}`);
  for (const f of Object.keys(shipped)) {
    const altered = { ...shipped, [f]: Buffer.from(shipped[f]) };
    altered[f][altered[f].length >> 1] ^= 1;
    const a = await k.decode(payload, { set: altered, pin });
    check(a.status === "set_incomplete", `${k.name}: ${f} altered in one byte: ${a.status}`);
    const { [f]: _, ...removed } = shipped;
    const r = await k.decode(payload, { set: removed, pin });
    check(r.status === "set_incomplete", `${k.name}: ${f} removed: ${r.status}`);
    const n = await k.decode(payload, { set: { ...removed, [`${f}.renamed`]: shipped[f] }, pin });
    check(n.status === "set_incomplete", `${k.name}: ${f} renamed: ${n.status}`);
  }
  // A file a path reads, there and left out of the listing.
  for (const f of k.read) {
    const { [f]: held, ...rest } = shipped;
    const l = listing(rest);
    const u = await k.decode(payload, { set: { ...rest, "listing.json": l, [f]: held }, pin: sha(l) });
    check(u.status === "set_incomplete", `${k.name}: ${f} read and unlisted: ${u.status}`);
  }
  // Another pin, and a pin with no set.
  const other = (pin[0] === "0" ? "1" : "0") + pin.slice(1);
  check((await k.decode(payload, { set: shipped, pin: other })).status === "set_incomplete",
    `${k.name}: another pin`);
  check((await k.decode(payload, { pin })).status === "set_incomplete", `${k.name}: a pin, no set`);
}
// bmshj2018's cdfs_q3.json beside its programs: its own digest is no pin of the set.
const b = folder(join(repo, "examples/bmshj2018/sets/q3"));
const { "listing.json": _l, ...unlisted } = b;
const formless = await wai.decodeAsync(readFileSync(join(repo, "examples/bmshj2018/chelsea.b18f")),
  { set: unlisted, pin: sha(b["cdfs_q3.json"]), ml: null, ort });
check(formless.status === "set_incomplete", `a form-less pin over one file of several: ${formless.status}`);
// L5b: a pin states its tier; the float capability then has no path left.
{
  const set = folder(join(repo, "examples/bmshj2018/sets/q3"));
  const payload = readFileSync(join(repo, "examples/bmshj2018/chelsea.b18f"));
  const pin = sha(set["listing.json"]);
  const r = await wai.decodeAsync(payload, { set, pin: `${pin}:tier=decode-equivalence`, ml: null, ort });
  check(r.status === "not_dispatchable" && r.report?.needed === "decode-equivalence",
    `a pin stating decode-equivalence: ${r.status}, needs ${r.report?.needed}`);
  let contradicted = false;
  try {
    await wai.decodeAsync(payload, { set, pin: `${pin}:tier=decode-equivalence`, pinTier: "none", ml: null, ort });
  } catch (e) { contradicted = e instanceof TypeError; }
  check(contradicted, "pinTier contradicting the pin's tier: TypeError");
}
// A pin that is no SHA-256 is the caller's error.
let threw = false;
try { wai.decode(readFileSync(join(repo, "examples/hello.wih1")), { set: b, pin: "abc" }); } catch (e) {
  threw = e instanceof TypeError;
}
check(threw, "a pin of three digits: TypeError");
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
