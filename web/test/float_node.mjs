// SPDX-License-Identifier: BSD-2-Clause
// The float capability's page path in node, where there is no WebNN: every
// WebNN path is dispatch_unit_absent and the entropy stage still gives its
// digest (the native one); a decode that needs decode-equivalence asks no
// device at all (a counting stand-in for navigator.ml sees no call).
//
//   node web/test/float_node.mjs WAI.WASM NATIVE_DIGEST [NODE_MODULES]
// With NODE_MODULES (where onnxruntime-node is), the onnx-runtime path too.
// Ends with "N passed, N failed".
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai } from "../src/index.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasm, native, modules] = process.argv.slice(2);
const wai = await createWai({ wasm: readFileSync(wasm) });
let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const dir = join(repo, "examples", "bmshj2018");
const set = Object.fromEntries(readdirSync(join(dir, "sets", "q3")).map((n) => [n, readFileSync(join(dir, "sets", "q3", n))]));
const payload = readFileSync(join(dir, "chelsea.b18f"));

const none = await wai.decodeAsync(payload, { set, ml: null, ort: null });
check(none.status === "not_dispatchable", `no WebNN: every path refused, ${none.status}`);
check(none.symbolsDigest === native, `no WebNN: the symbols digest ${none.symbolsDigest} is the native ${native}`);
// Node without JSPI (Debian's node 20): the C walked step by step, the host
// backends called by the one loop (float.js, decodeSteps); with JSPI, the
// decoder's own send.
const jspi = typeof WebAssembly.Suspending === "function" && typeof WebAssembly.promising === "function";
check(none.steps === (jspi ? "decoder" : "host-loop"), `the decode's steps: ${none.steps}`);
const webnn = none.report?.refused?.filter((r) => r.backend === "webnn") ?? [];
check(webnn.length === 3 && webnn.every((r) => r.reason === "dispatch_unit_absent"),
  `no WebNN: every WebNN path unit_absent: ${JSON.stringify(none.report)}`);

let calls = 0;
const counting = { createContext: async () => { calls++; throw new Error("no"); } };
const rep = await wai.decodeAsync(payload, { set, ml: counting, ort: null, intent: "replicate" });
check(rep.status === "not_dispatchable" && rep.report?.refused?.every((r) => r.reason === "dispatch_tier_refused" ||
  r.reason === "dispatch_arithmetic_mismatch") && calls === 0,
  `replicate: ${rep.status}, ${calls} contexts asked for`);
check(rep.report?.needed === "decode-equivalence", "replicate: the report needs decode-equivalence");
const failing = await wai.decodeAsync(payload, { set, ml: counting, ort: null });
check(calls === 3 && failing.report?.refused?.some((r) => r.unit === "gpu" && r.reason === "dispatch_unit_absent"),
  `contexts that cannot be made: ${calls} asked, ${JSON.stringify(failing.report?.refused)}`);
const noProgram = await wai.decodeAsync(payload, {
  set: { "cdfs_q3.json": set["cdfs_q3.json"] }, ml: { createContext: async () => ({}) }, ort: null });
check(noProgram.report?.refused?.some((r) => r.backend === "webnn" && r.reason === "dispatch_program_absent"),
  `no program: ${JSON.stringify(noProgram.report?.refused)}`);
const cut = await wai.decodeAsync(payload.subarray(0, 100), { set, ml: null });
check(cut.status === "stream_length" || cut.status === "stream_exhausted", `a cut payload: ${cut.status}`);
const big = await wai.decodeAsync(payload, { set, ml: null, maxMemory: 1000 });
check(big.status === "cost_over_limit", `maxMemory 1000: ${big.status}`);
// The onnx-runtime path (neural-dispatch §1: the reference sink's path for
// every float capability): the set's decoder.onnx on onnxruntime-node, where
// the module is (NODE_MODULES); the picture within §6.4's 40 dB of libwai's
// own float path (decode(), cpu/webnn in this module), the symbols the same.
if (modules) {
  const ort = createRequire(join(resolve(modules), "x.js"))("onnxruntime-node");
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".b18f")).sort()) {
    const bytes = readFileSync(join(dir, f));
    const r = await wai.decodeAsync(bytes, { set, ml: null, ort });
    check(r.status === "ok" && r.report?.ran?.backend === "onnx-runtime" && r.report.ran.unit === "cpu" &&
      r.report.ran.placement === null, `onnx-runtime, ${f}: ${r.status} ${JSON.stringify(r.report?.ran)}`);
    const own = wai.decode(bytes, { set });
    check(r.symbolsDigest === own.symbolsDigest && (f !== "chelsea.b18f" || r.symbolsDigest === native),
      `onnx-runtime, ${f}: the symbols digest is libwai's`);
    const a = r.outputs[0]?.data, b = own.outputs[0]?.data;
    let se = 0;
    for (let i = 0; a && b && i < a.length; i++) se += (a[i] - b[i]) ** 2;
    const db = a && b && a.length === b.length ? (se ? 10 * Math.log10((255 * 255 * a.length) / se) : Infinity) : 0;
    check(db >= 40, `onnx-runtime, ${f}: ${db.toFixed(2)} dB against libwai's float path (ran ${own.report?.ran?.backend})`);
    console.log(`onnx-runtime, ${f}: ${db.toFixed(2)} dB against libwai's float path, synthesis ${r.timing?.synthesis_ort_ms?.toFixed(0)} ms`);
  }
  // A host backend that throws: the path's failure, said in timing, and
  // the next path asked (here none is left).
  const broken = { ...ort, InferenceSession: { create: async () => { throw new Error("a broken runtime"); } } };
  const br = await wai.decodeAsync(payload, { set, ml: null, ort: broken, offer: "ort" });
  check(br.status === "not_dispatchable" && br.report?.refused?.[0]?.reason === "dispatch_backend_failed" &&
    /a broken runtime/.test(br.timing?.error_cpu ?? ""),
    `a runtime that throws: ${br.status} ${JSON.stringify(br.report?.refused)} ${br.timing?.error_cpu}`);
  const noOnnx = { ...set };
  delete noOnnx["decoder.onnx"];
  const np = await wai.decodeAsync(payload, { set: noOnnx, ml: null, ort, offer: "ort" });
  check(np.status === "not_dispatchable" && np.report?.refused?.[0]?.reason === "dispatch_program_absent",
    `onnx-runtime without decoder.onnx: ${np.status} ${JSON.stringify(np.report?.refused)}`);
} else {
  console.log("onnx-runtime: no NODE_MODULES given: its path not run");
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
