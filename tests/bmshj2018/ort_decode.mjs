// SPDX-License-Identifier: BSD-2-Clause
// The reference CPU decode of neural-dispatch §6.4: a set's decoder.onnx run
// by a real ONNX Runtime (the npm package onnxruntime-node, its own CPU
// library) on a latent, its output written raw.
//
//   node ort_decode.mjs NODE_MODULES decoder.onnx latent.f32 M LH LW out.f32
//
// latent.f32 and out.f32 are float32 little-endian, NCHW; prints one JSON
// line: the output's shape and the milliseconds the run took.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [modules, model, latentPath, m, lh, lw, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node ort_decode.mjs NODE_MODULES decoder.onnx latent.f32 M LH LW out.f32");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(modules), "ort-decode.js"));
const ort = require("onnxruntime-node");

const bytes = readFileSync(latentPath);
const dims = [1, Number(m), Number(lh), Number(lw)];
const want = dims.reduce((a, b) => a * b, 1);
if (bytes.length !== 4 * want) {
  console.error(`ort_decode: ${latentPath} holds ${bytes.length} bytes, the latent takes ${4 * want}`);
  process.exit(2);
}
const latent = new Float32Array(bytes.buffer, bytes.byteOffset, want);
const threads = Number(process.env.ORT_THREADS || 0);
const options = { executionProviders: ["cpu"] };
if (threads > 0) options.intraOpNumThreads = threads;
const session = await ort.InferenceSession.create(model, options);
const feeds = { [session.inputNames[0]]: new ort.Tensor("float32", latent, dims) };
const reps = Number(process.env.ORT_REPS || 1);
let out, best = Infinity;
for (let i = 0; i < reps; i++) {
  const t0 = process.hrtime.bigint();
  out = (await session.run(feeds))[session.outputNames[0]];
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (ms < best) best = ms;
}
writeFileSync(outPath, Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength));
console.log(JSON.stringify({ shape: out.dims, ms: best }));
