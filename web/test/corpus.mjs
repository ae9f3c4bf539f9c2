// SPDX-License-Identifier: BSD-2-Clause
// The conformance corpus through the WebAssembly module, in node: every
// case of tests/corpus/index.txt decodes (or parses) to the status and the
// output SHA-256s the native decoder gives; then the shipped examples.
//
//   node web/test/corpus.mjs WAI.WASM [--threads N]
//
// With --threads N, the same through the threads module beside WAI.WASM
// (wai-threads.wasm: shared memory, N - 1 worker_threads serving the
// context's pool): the same statuses and hashes, N threads serving.
//
// Ends with "N passed, N failed".
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai, describeStatus, STATUS_CODES } from "../src/index.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const corpus = join(repo, "tests", "corpus");
const wasm = process.argv[2];
const threads = process.argv[3] === "--threads" ? Number(process.argv[4]) : 1;
if (!wasm || !(threads >= 1)) {
  console.error("usage: node web/test/corpus.mjs WAI.WASM [--threads N]");
  process.exit(2);
}
const wai = await createWai(threads > 1
  ? { wasm: readFileSync(wasm), wasmThreads: readFileSync(wasm.replace(/\.wasm$/, "-threads.wasm")), threads }
  : { wasm: readFileSync(wasm) });
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${what}`);
  }
}
const sha = (b) => createHash("sha256").update(b).digest("hex");
const setOf = (dir) =>
  Object.fromEntries(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => [e.name, readFileSync(join(dir, e.name))]));
const kindOf = (cap) =>
  ({ "wai.neural.int_hyper": "image", "wai.neural.int_synth": "image", "wai.neural.int_mlicpp": "image", "wai.audio.int_codec": "pcm", "wai.splat.int_codec": "planes" })[cap] ??
  "frame";

check(wai.threads === threads, `${wai.threads} threads serving, asked ${threads}`);
// The page's meanings are libwai's one table in C (the tool prints the same).
check(describeStatus("set_incomplete") === "the parameter set lacks a file this decode reads, or a file differs from its listing or pin" &&
  STATUS_CODES.length >= 40 && STATUS_CODES.every((c) => describeStatus(c).length > 4),
  "describeStatus reads libwai's table");
for (const line of readFileSync(join(corpus, "index.txt"), "utf8").split("\n")) {
  if (!line.trim() || line.startsWith("#")) continue;
  const [mode, cap, status, maxCost, files, hashes, set, offer] = line.trim().split(/\s+/);
  const paths = files.split(",").map((f) => join(corpus, f));
  const opts = { capability: cap };
  if (set && set !== "-") opts.set = setOf(join(corpus, set));
  if (offer) opts.offer = offer;
  if (mode === "parse") {
    const r = wai.inspect(readFileSync(paths[0]), { capability: cap });
    check(r.status === status, `inspect ${files}: ${r.status}, want ${status}`);
    continue;
  }
  if (maxCost !== "-") opts.maxCost = BigInt(maxCost);
  // A frame form's payloads go one by one through one decoder, as a stream.
  const d = wai.createDecoder(opts);
  const got = [];
  let st = d.status;
  for (const p of paths) {
    if (st !== "ok") break;
    const r = d.send(readFileSync(p));
    st = r.status;
    for (const o of r.outputs) {
      check(o.kind === kindOf(cap), `${files}: output kind ${o.kind}`);
      got.push(sha(o.kind === "pcm" ? new Uint8Array(o.data.buffer) : o.data));
    }
    if (r.ok && kindOf(cap) !== "frame")
      check(r.report?.ran?.backend === "wai-ops", `${files}: the report says wai-ops ran`);
  }
  d.close();
  const want = hashes === "-" ? [] : hashes.split(",");
  check(st === status, `decode ${files}: ${st}, want ${status}`);
  check(got.join(",") === want.join(","), `decode ${files}: outputs ${got.length}, want ${want.length}` +
    (got.length === want.length ? " (hashes differ)" : ""));
}

// The shipped examples: the clip's frames against the native tool's, the
// integer image with its report.
const clip = wai.decode(readFileSync(join(repo, "examples", "hello.wiv1")));
check(clip.ok && clip.outputs.length > 0, `examples/hello.wiv1: ${clip.status}`);
const img = wai.decode(readFileSync(join(repo, "examples", "hello.wih1")),
  { set: setOf(join(repo, "examples", "hello_set")) });
check(img.ok && img.outputs[0]?.kind === "image" && img.report?.ran?.backend === "wai-ops",
  `examples/hello.wih1: ${img.status}`);
// Refusals are statuses, and memory is given back.
const before = wai.m.ex.memory.buffer.byteLength;
for (let i = 0; i < 200; i++) wai.decode(new Uint8Array([87, 73, 86, 49, 1, 0, 0, 0]));
check(wai.decode(new Uint8Array(3)).status === "bad_magic", "three zero bytes: bad_magic");
check(wai.m.ex.memory.buffer.byteLength === before, "200 refused decodes grew no memory");
check(wai.decode(readFileSync(join(repo, "examples", "hello.wiv1")), { maxCost: 1 }).status ===
  "cost_over_limit", "maxCost 1: cost_over_limit");
// Threads: pictures large enough that every kernel splits its work, each
// decoded on one thread and on N: the same bytes.
if (threads > 1) {
  const one = await createWai({ wasm: readFileSync(wasm) });
  const hyper = setOf(join(repo, "examples", "hyperprior", "sets", "q3"));
  for (const f of ["chelsea.wih1", "coffee.wih1"]) {
    const bytes = readFileSync(join(repo, "examples", "hyperprior", f));
    const a = one.decode(bytes, { set: hyper }), b = wai.decode(bytes, { set: hyper });
    check(a.ok && b.ok && sha(a.outputs[0].data) === sha(b.outputs[0].data),
      `examples/hyperprior/${f}: ${b.status} on ${threads} threads, ${a.status} on one` +
      (a.ok && b.ok && sha(a.outputs[0].data) !== sha(b.outputs[0].data) ? ", bytes differ" : ""));
  }
  one.close();
}
// Routing (integer-payloads §8): a routing code moves on, any other stops.
{
  const image = readFileSync(join(repo, "examples", "hello.wih1"));
  const clipBytes = readFileSync(join(repo, "examples", "hello.wiv1"));
  const helloSet = setOf(join(repo, "examples", "hello_set"));
  const fallback = { payload: clipBytes, capability: "wai.video.int_motion" };
  const same = (r, want) => JSON.stringify(r.route) === JSON.stringify(want);
  let r = wai.route([{ payload: image }, fallback]);
  check(r.ok && r.outputs.length === 3 && same(r, [{ capability: "wai.neural.int_hyper", status: "set_incomplete" },
    { capability: "wai.video.int_motion", status: "ok" }]), `route: set_incomplete moves on: ${JSON.stringify(r.route)}`);
  r = wai.route([{ payload: image, set: helloSet, offer: "npu,wgsl" }, fallback]);
  check(r.ok && r.route[0].status === "not_dispatchable", `route: not_dispatchable moves on: ${JSON.stringify(r.route)}`);
  r = wai.route([{ payload: image, capability: "wai.video.unknown" }, fallback]);
  check(r.ok && r.route[0].status === "unsupported_capability", `route: unsupported_capability: ${JSON.stringify(r.route)}`);
  r = wai.route([{ payload: image, set: helloSet }, fallback], { maxCost: 1 });
  check(r.status === "cost_over_limit" && r.route.length === 2, `route: cost_over_limit on both: ${JSON.stringify(r.route)}`);
  r = wai.route([{ payload: image.subarray(0, 200), set: helloSet }, fallback]);
  check(r.status === "stream_length" && same(r, [{ capability: "wai.neural.int_hyper", status: "stream_length" }]),
    `route: stream_length is final: ${JSON.stringify(r.route)}`);
}
// Seeking: frames(payload, { start, count }) against the whole decode's
// frames, for every start of every motion clip of the corpus, and a clip
// refused part-way throws after its frames.
{
  let seeks = 0;
  for (const line of readFileSync(join(corpus, "index.txt"), "utf8").split("\n")) {
    const [mode, cap, status, maxCost, files] = line.trim().split(/\s+/);
    if (mode !== "decode" || cap !== "wai.video.int_motion" || maxCost !== "-" || files.includes(",")) continue;
    const bytes = readFileSync(join(corpus, files));
    const d = wai.createDecoder({ capability: cap });
    if (status === "ok") {
      const want = d.send(bytes).outputs.map((o) => sha(o.data));
      for (let start = 0; start <= want.length + 1; start++)
        for (const count of [Infinity, 0, 1, 2]) {
          const got = [...d.frames(bytes, { start, count })];
          const end = Math.min(want.length, start + count);
          check(got.map((o) => o.index).join() === [...Array(Math.max(0, end - start)).keys()].map((i) => i + start).join() &&
            got.every((o) => sha(o.data) === want[o.index]),
            `frames(${files}, start ${start}, count ${count}): ${got.map((o) => o.index)}`);
          seeks++;
        }
    } else {
      let code = null;
      try {
        for (const o of d.frames(bytes)) void o;
      } catch (e) {
        code = e.code;
      }
      check(code === status, `frames(${files}): threw ${code}, want ${status}`);
    }
    d.close();
  }
  check(seeks >= 200, `${seeks} seeks`);
  const d = wai.createDecoder();
  let early = 0;
  for (const o of d.frames(readFileSync(join(repo, "examples", "hello.wiv1")))) if (o.index === 0) { early++; break; }
  check(early === 1, "leaving frames() early");
  let threw = null;
  try { [...d.frames(new Uint8Array(10), { start: -1 })]; } catch (e) { threw = e.code; }
  check(threw === "invalid_argument", `frames(start -1): ${threw}`);
  d.close();
}
const caps = wai.capabilities();
check(caps.some((c) => c.name === "wai.neural.bmshj2018" && c.tier === "none"), "capabilities");
wai.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
