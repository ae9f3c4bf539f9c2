// SPDX-License-Identifier: BSD-2-Clause
// The gpu/wgsl/integer path in node (docs/wgsl.md), through the npm
// package `webgpu` (Dawn): where Dawn gives an adapter and node has JSPI,
// every neural integer decode case of the corpus and the shipped
// hello.wih1 decode through decodeAsync on the GPU to the native hashes,
// the report naming wgsl. Where either is missing, one line says why and
// the run counts nothing (a skip, not a failure): Debian 12's node 20 has
// no WebAssembly.Suspending, and its lavapipe gives Dawn no adapter.
//
//   node web/test/gpu_node.mjs WAI.WASM NODE_MODULES
//
// Ends with "N passed, N failed" (", 1 skipped" after a skip line).
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createWai } from "../src/index.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasmArg, modulesArg] = process.argv.slice(2);
if (!modulesArg) {
  console.error("usage: node web/test/gpu_node.mjs WAI.WASM NODE_MODULES");
  process.exit(2);
}
let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const done = (skipped = 0) => {
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  process.exit(failed ? 1 : 0);
};

let gpu = null, why = null;
try {
  const require = createRequire(join(resolve(modulesArg), "x.js"));
  const webgpu = await import(pathToFileURL(require.resolve("webgpu")).href);
  Object.assign(globalThis, webgpu.globals);
  gpu = webgpu.create([]);
  const adapter = await gpu.requestAdapter();
  if (!adapter) why = "Dawn gives no WebGPU adapter on this machine";
} catch (e) {
  why = `the npm package webgpu cannot load: ${e.message}`;
}
if (!why && typeof WebAssembly.Suspending !== "function")
  why = `node ${process.version} has no JSPI (WebAssembly.Suspending)`;
if (why) {
  console.log(`skip: the gpu/wgsl/integer path in node: ${why}`);
  done(1);
}

const wai = await createWai({ wasm: readFileSync(resolve(wasmArg)), gpu });
check(Boolean(wai.gpuInfo.device), `a device: ${JSON.stringify(wai.gpuInfo)}`);
const sha = (b) => createHash("sha256").update(b).digest("hex");
const setOf = (dir) => Object.fromEntries(readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => [e.name, readFileSync(join(dir, e.name))]));
const NEURAL = ["wai.neural.int_hyper", "wai.neural.int_synth", "wai.neural.int_mlicpp", "wai.video.int_cond",
  "wai.audio.int_codec", "wai.splat.int_codec"];
for (const line of readFileSync(join(repo, "tests/corpus/index.txt"), "utf8").split("\n")) {
  const [mode, cap, status, maxCost, files, hashes, set, offer] = line.trim().split(/\s+/);
  // A case with an OFFER pins the paths of a machine without a GPU: not this one's.
  if (mode !== "decode" || !NEURAL.includes(cap) || files.includes(",") || offer) continue;
  const opts = { capability: cap, set: set && set !== "-" ? setOf(join(repo, "tests/corpus", set)) : undefined };
  if (maxCost !== "-") opts.maxCost = BigInt(maxCost);
  const r = await wai.decodeAsync(readFileSync(join(repo, "tests/corpus", files)), opts);
  const got = r.outputs.map((o) => sha(o.kind === "pcm" ? new Uint8Array(o.data.buffer) : o.data));
  check(r.status === status && got.join(",") === (hashes === "-" ? "" : hashes), `${files}: ${r.status}`);
  if (r.ok) check(r.report?.ran?.backend === "wgsl", `${files}: ran ${r.report?.ran?.backend}`);
}
const hello = await wai.decodeAsync(readFileSync(join(repo, "examples/hello.wih1")),
  { set: setOf(join(repo, "examples/hello_set")) });
check(hello.ok && hello.report?.ran?.backend === "wgsl", `examples/hello.wih1: ${hello.status}`);
done();
