// SPDX-License-Identifier: BSD-2-Clause
// Hostile inputs through the JavaScript glue (web/src, web/glue), which no
// libFuzzer target reaches: the corpus's decodable payloads and their sets,
// mutated, through wai.decode, wai.inspect, wai.route and a stream decoder,
// with options drawn at random (offers, intents, pin tiers, capabilities,
// limits given as numbers and BigInts).
//
//   node web/test/fuzz_glue.mjs WAI.WASM [ITERATIONS [SEED]]
//
// Invariants: a refusal is a status, never an exception (decode, route,
// send); a status is one the page describes (statuses.js) and never
// invalid_argument but for an offer's text or a limit the caller gave out
// of range; ok is exactly status "ok"; a refused decode has no outputs; an
// output's bytes are its kind's size. Ends with "N passed, N failed"; a
// failing iteration prints its number and seed.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai } from "../src/index.js";
import { STATUS_CODES } from "../src/statuses.js";
import { mutate as mutateBytes, rngOf } from "./mutate.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const corpus = join(repo, "tests", "corpus");
const [wasm, itArg, seedArg] = process.argv.slice(2);
if (!wasm) {
  console.error("usage: node web/test/fuzz_glue.mjs WAI.WASM [ITERATIONS [SEED]]");
  process.exit(2);
}
const iterations = Number(itArg ?? 500);
const seed = Number(seedArg ?? 20261204);

const CAPS = ["wai.video.int_motion", "wai.video.int_motion.frame", "wai.video.int_hyper",
  "wai.video.int_hyper.frame", "wai.neural.int_hyper", "wai.audio.int_codec", "wai.splat.int_codec",
  "wai.neural.int_synth", "wai.neural.int_mlicpp", "wai.video.int_cond", "wai.video.int_cond.frame",
  "wai.neural.bmshj2018", "wai.unknown", ""];
const OFFERS = ["npu", "gpu", "cpu", "npu,int", "cpu/webnn/float", "gpu/wgsl/exact", "cpu/wai-ops/int",
  "x/y/z", ",", "npu,npu,npu", "cpu/onnx-runtime/float"];
const INTENTS = [undefined, "exact", "float", "display", "", "\u00e9"];

function seeds() {
  const out = [];
  const seen = new Set();
  for (const line of readFileSync(join(corpus, "index.txt"), "utf8").split("\n")) {
    const p = line.trim().split(/\s+/);
    if (p.length < 5 || p[0] !== "decode" || p[2] !== "ok" || seen.has(p[1])) continue;
    seen.add(p[1]);
    let set = null;
    if (p[6] && p[6] !== "-") {
      const d = join(corpus, p[6]);
      set = Object.fromEntries(readdirSync(d).filter((n) => statSync(join(d, n)).isFile())
        .sort().map((n) => [n, readFileSync(join(d, n))]));
    }
    out.push({ cap: p[1], payloads: p[4].split(",").map((f) => readFileSync(join(corpus, f))), set });
  }
  return out;
}

// The mutations but the page's zero-run (mutate.mjs's first seven kinds):
// each seed's inputs as they have always been.
const mutate = (r, src, other) => mutateBytes(r, src, other, 7);

const fail = (what) => { throw new Error(what); };

function checkResult(r, opts) {
  if (typeof r.status !== "string" || !STATUS_CODES.includes(r.status))
    fail(`status ${r.status} is not one the page describes`);
  if (r.status === "invalid_argument" && opts.offer === undefined)
    fail("invalid_argument with no offer: the glue passed the module an argument it did not check");
  if (r.ok !== (r.status === "ok")) fail(`ok ${r.ok} with status ${r.status}`);
  if (!r.ok && r.outputs.length) fail(`${r.status} with ${r.outputs.length} outputs`);
  for (const o of r.outputs) {
    const want = o.kind === "pcm" ? o.data.length * 2 : o.kind === "planes" ? o.data.length
      : o.width * o.height * 3;
    if (o.kind !== "pcm" && o.kind !== "planes" && o.data.length !== want)
      fail(`${o.kind} ${o.width}x${o.height}: ${o.data.length} bytes`);
    if (o.kind === "planes" && o.data.length % (o.width * o.height || 1)) fail(`planes of ${o.data.length} bytes`);
  }
}

const wai = await createWai({ wasm: readFileSync(wasm) });
const cases = seeds();
const outcomes = new Map();
let passed = 0, failed = 0;
for (let i = 0; i < iterations; i++) {
  const r = rngOf(seed * 1000003 + i);
  try {
    const c = r.pick(cases);
    const other = r.pick(cases).payloads[0];
    let payload = r.pick(c.payloads);
    if (r.random() < 0.85) payload = mutate(r, payload, other);
    let set = c.set ? { ...c.set } : undefined;
    if (set && r.random() < 0.3) {
      const name = r.pick(Object.keys(set).sort());
      if (r.random() < 0.2) delete set[name];
      else set[name] = mutate(r, set[name], other);
    }
    const opts = { set, maxCost: r.pick([1 << 16, 1n << 22n, 1 << 24, 0]), maxMemory: r.pick([undefined, 1 << 20, 1n << 28n]) };
    if (r.random() < 0.3) {
      opts.offer = r.pick(OFFERS);
      opts.intent = r.pick(INTENTS);
    }
    const which = r.int(4);
    let res;
    if (which === 0) {
      res = wai.decode(payload, { ...opts, capability: r.pick([undefined, c.cap, r.pick(CAPS)]) });
      checkResult(res, opts);
    } else if (which === 1) {
      res = wai.inspect(payload, { set, capability: r.pick([undefined, c.cap]) });
      if (typeof res.status !== "string" || !STATUS_CODES.includes(res.status)) fail(`inspect: ${res.status}`);
    } else if (which === 2) {
      const cands = [{ payload, set, capability: c.cap }];
      for (let k = r.int(3); k > 0; k--) {
        const c2 = r.pick(cases);
        cands.push({ payload: r.random() < 0.5 ? mutate(r, c2.payloads[0], other) : c2.payloads[0], set: c2.set ?? undefined, capability: c2.cap });
      }
      res = wai.route(cands, { maxCost: opts.maxCost, maxMemory: opts.maxMemory });
      checkResult(res, opts);
      if (!Array.isArray(res.route) || res.route.length < 1 || res.route.length > cands.length) fail("route's list");
    } else {
      // A stream: the case's payloads in order, one of them mutated.
      const d = wai.createDecoder({ ...opts, capability: c.cap });
      try {
        const bad = r.int(c.payloads.length);
        for (let k = 0; k < c.payloads.length; k++) {
          res = d.send(k === bad ? mutate(r, c.payloads[k], other) : c.payloads[k]);
          checkResult(res, opts);
          if (!res.ok) break;
        }
      } finally {
        d.close();
      }
    }
    const key = `${["decode", "inspect", "route", "stream"][which]} ${res?.status}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    passed++;
  } catch (e) {
    if (e?.name === "WaiError" && STATUS_CODES.includes(e.code) && e.code !== "invalid_argument") {
      // A set member the module refuses to hold (makeSet): the caller's
      // set, refused with a code, before any decode.
      outcomes.set(`thrown ${e.code}`, (outcomes.get(`thrown ${e.code}`) ?? 0) + 1);
      passed++;
      continue;
    }
    failed++;
    console.log(`FAIL iteration ${i} (seed ${seed}): ${e?.stack ?? e}`);
  }
}
wai.close();
console.log(`fuzz_glue: ${iterations} iterations over ${cases.length} capabilities, seed ${seed}`);
console.log("outcomes: " + [...outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", "));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
