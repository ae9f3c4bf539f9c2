// SPDX-License-Identifier: BSD-2-Clause
// libwai in the browser against native, in one run (issue 13's benchmark):
//   - WIV1 1280x720 (30 frames, `wai encode --q 1` of a moving synthetic
//     picture): decode frames a second, native (`wai decode`, the process),
//     WebAssembly in node and in headless Chromium;
//   - WIH1 512x768 (bench/bench_decode_neural.c's synthetic set and payload):
//     decode time, the same three;
//   - bmshj2018 512x768 (N 128, M 192, bench/bench_webnn_synthesis.py's
//     network through tools/bmshj2018/make_set.py): native (cpu/webnn on
//     oneDNN), and in Chromium through its WebNN (decodeAsync), and the
//     synthesis alone on a context of each device type;
//   - keyframe-1 1280x720 (wai.video.int_hyper of the first 10 frames with
//     examples/hyperprior/sets/q3: the first frame through the networks), the
//     same three;
//   - WIV1, WIH1 and keyframe-1 on 1 and 2 threads: native, node (wai-threads.wasm
//     beside WAI.WASM, a worker_thread) and a cross-origin isolated page
//     (a Web Worker).
// Best of REPS each. Prints one table; writes the figures to OUT.json.
//
//   node bench/bench_web.mjs BUILD_DIR WAI.WASM NODE_MODULES [REPS] [OUT.json]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai } from "../web/src/index.js";
import { launchChromium } from "../web/test/chromium.mjs";
import { serve } from "../web/test/serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [buildArg, wasmArg, modulesArg, repsArg, outArg] = process.argv.slice(2);
if (!modulesArg) {
  console.error("usage: node bench/bench_web.mjs BUILD_DIR WAI.WASM NODE_MODULES [REPS] [OUT.json]");
  process.exit(2);
}
const build = resolve(buildArg), wasm = resolve(wasmArg), reps = Number(repsArg ?? 3);
const wai = join(build, "tools/wai/wai");
const tmp = mkdtempSync(join(tmpdir(), "wai-bench-web-"));
const py = "/usr/bin/python3";
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { maxBuffer: 1 << 30, ...opts });
const best = async (fn) => {
  let b = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
};

// ---- inputs ---------------------------------------------------------------------
console.error("making the inputs ...");
run(py, ["-c", `
import numpy as np, sys
W, H, N = 1280, 720, 30
y, x = np.mgrid[0:H, 0:W]
with open(sys.argv[1], "wb") as f:
    f.write(b"YUV4MPEG2 W1280 H720 F30:1 Ip A1:1 C420jpeg\\n")
    for t in range(N):
        Y = (128 + 60 * np.sin((x + 4 * t) / 37.0) * np.cos((y - 2 * t) / 23.0) + (x * 0.05)).clip(16, 235).astype(np.uint8)
        U = (128 + 40 * np.sin((x[::2, ::2] - 3 * t) / 51.0)).astype(np.uint8)
        V = (128 + 40 * np.cos((y[::2, ::2] + 5 * t) / 47.0)).astype(np.uint8)
        f.write(b"FRAME\\n"); f.write(Y.tobytes()); f.write(U.tobytes()); f.write(V.tobytes())
`, join(tmp, "src.y4m")]);
run(wai, ["encode", "--capability", "wai.video.int_motion", "--q", "1", "--quiet", join(tmp, "src.y4m"), "-o", join(tmp, "clip.wiv1")]);
// Keyframe-1 (wai.video.int_hyper): the first frame through the hyperprior
// networks, the others motion frames; the source's first K1_FRAMES frames
// (a page holding every input of this run at once has no room for more).
const K1_FRAMES = 10;
const hyperSet = join(repo, "examples/hyperprior/sets/q3");
{
  const y4m = readFileSync(join(tmp, "src.y4m")), head = y4m.indexOf(10) + 1;
  writeFileSync(join(tmp, "k1.y4m"), y4m.subarray(0, head + K1_FRAMES * (6 + 1280 * 720 * 3 / 2)));
}
run(wai, ["encode", "--capability", "wai.video.int_hyper", "--set", hyperSet, join(tmp, "k1.y4m"), "-o", join(tmp, "k1.wiv1")], { stdio: "ignore" });
run(join(build, "bench/wai_bench_decode_neural"), ["--write", tmp]);
run(py, [join(repo, "bench/bench_webnn_synthesis.py"), "--make", join(tmp, "b18")], { stdio: "ignore" });
run(py, [join(repo, "tools/bmshj2018/make_set.py"), "--checkpoint", join(tmp, "b18/bench.pt"), "--out", join(tmp, "b18/set"),
  "--lib", join(build, "libwai_python.so"), "--payload", `${join(tmp, "b18/picture.b18f")}=${join(tmp, "b18/picture.png")}`], { stdio: "ignore" });
const files = {
  clip: readFileSync(join(tmp, "clip.wiv1")),
  wih1: readFileSync(join(tmp, "image.wih1")),
  wih1Set: Object.fromEntries(["g_s.whm", "h_s.whm", "entropy.json"].map((n) => [n, readFileSync(join(tmp, n))])),
  k1: readFileSync(join(tmp, "k1.wiv1")),
  k1Set: Object.fromEntries(["g_s.whm", "h_s.whm", "entropy.json"].map((n) => [n, readFileSync(join(hyperSet, n))])),
  b18: readFileSync(join(tmp, "b18/picture.b18f")),
  b18Set: Object.fromEntries(["cdfs_q3.json", "decoder.webnn.json", "decoder.f32"].map((n) => [n, readFileSync(join(tmp, "b18/set", n))])),
};
const frames = 30;
const fig = {};

// ---- native ---------------------------------------------------------------------
console.error("native ...");
const proc = (args) => best(() => run(wai, args));
fig.native_wiv1_ms = await proc(["decode", "--threads", "1", "-o", join(tmp, "n.rgb"), "-y", join(tmp, "clip.wiv1")]);
const nativeClipRgb = readFileSync(join(tmp, "n.rgb"));
fig.native_wih1_ms = await proc(["decode", "--threads", "1", "--set", tmp, "-o", join(tmp, "n.png"), "-y", join(tmp, "image.wih1")]);
fig.native_k1_ms = await proc(["decode", "--threads", "1", "--set", hyperSet, "-o", join(tmp, "k.rgb"), "-y", join(tmp, "k1.wiv1")]);
fig.native_b18_ms = await proc(["decode", "--threads", "1", "--set", join(tmp, "b18/set"), "-o", join(tmp, "b.rgb"), "-y", join(tmp, "b18/picture.b18f")]);

// ---- WebAssembly in node ------------------------------------------------------------
console.error("WebAssembly in node ...");
const w = await createWai({ wasm: readFileSync(wasm) });
fig.node_wiv1_ms = await best(() => w.decode(files.clip));
fig.node_wih1_ms = await best(() => w.decode(files.wih1, { set: files.wih1Set }));
fig.node_k1_ms = await best(() => w.decode(files.k1, { set: files.k1Set }));
const nodeClip = w.decode(files.clip), nodeImg = w.decode(files.wih1, { set: files.wih1Set });

// ---- WebAssembly and WebNN in Chromium ------------------------------------------------
console.error("WebAssembly in Chromium ...");
const server = await serve(0, wasm);
const browser = await launchChromium(modulesArg, { args: ["--enable-features=WebMachineLearningNeuralNetwork"] });
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}web/demo/`);
  await page.waitForFunction(() => window.__wai, { timeout: 30000 });
  const b64 = (b) => Buffer.from(b).toString("base64");
  const inPage = await page.evaluate(async (f, reps) => {
    const bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    const set = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, bytes(v)]));
    const { wai } = window.__wai;
    const best = async (fn) => {
      let b = Infinity;
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        await fn();
        b = Math.min(b, performance.now() - t0);
      }
      return b;
    };
    const clip = bytes(f.clip), wih1 = bytes(f.wih1), wih1Set = set(f.wih1Set), b18 = bytes(f.b18), b18Set = set(f.b18Set);
    const out = {};
    out.page_wiv1_ms = await best(() => wai.decode(clip));
    out.page_wih1_ms = await best(() => wai.decode(wih1, { set: wih1Set }));
    const k1 = bytes(f.k1), k1Set = set(f.k1Set);
    out.page_k1_ms = await best(() => wai.decode(k1, { set: k1Set }));
    let last;
    out.page_b18_ms = await best(async () => (last = await wai.decodeAsync(b18, { set: b18Set })));
    out.page_b18_report = last.report?.ran;
    out.page_b18_timing = last.timing;
    // The synthesis alone on a context of each type (build once, compute best of reps).
    const { buildGraph } = await import("../src/float.js");
    const desc = JSON.parse(new TextDecoder().decode(b18Set["decoder.webnn.json"]));
    const shape = [1, 192, 32, 48], latent = new Float32Array(192 * 32 * 48).map((_, i) => ((i * 7919) % 13) - 6);
    for (const dt of ["npu", "gpu", "cpu"]) {
      try {
        const ctx = await navigator.ml.createContext({ deviceType: dt });
        const t0 = performance.now();
        const g = await buildGraph(ctx, desc, b18Set["decoder.f32"], shape);
        const build = performance.now() - t0;
        const tin = await ctx.createTensor({ dataType: "float32", shape, writable: true });
        const tout = await ctx.createTensor({ dataType: "float32", shape: g.outputShape, readable: true });
        ctx.writeTensor(tin, latent);
        const ms = await best(async () => {
          ctx.dispatch(g.graph, { [g.inputName]: tin }, { [g.outputName]: tout });
          await ctx.readTensor(tout);
        });
        out[`webnn_${dt}`] = { build_ms: build, synthesis_ms: ms, devices: g.graph.devices ?? null };
        ctx.destroy();
      } catch (e) {
        out[`webnn_${dt}`] = { error: String(e) };
      }
    }
    return out;
  }, { clip: b64(files.clip), wih1: b64(files.wih1), wih1Set: Object.fromEntries(Object.entries(files.wih1Set).map(([k, v]) => [k, b64(v)])),
       k1: b64(files.k1), k1Set: Object.fromEntries(Object.entries(files.k1Set).map(([k, v]) => [k, b64(v)])),
       b18: b64(files.b18), b18Set: Object.fromEntries(Object.entries(files.b18Set).map(([k, v]) => [k, b64(v)])) }, reps);
  Object.assign(fig, inPage);
} finally {
  await browser.close();
  server.close();
}

// ---- two threads: native, node and an isolated page (docs/web.md, "Threads") ------------
console.error("two threads ...");
fig.native2_wiv1_ms = await proc(["decode", "--threads", "2", "-o", join(tmp, "n.rgb"), "-y", join(tmp, "clip.wiv1")]);
fig.native2_wih1_ms = await proc(["decode", "--threads", "2", "--set", tmp, "-o", join(tmp, "n.png"), "-y", join(tmp, "image.wih1")]);
fig.native2_k1_ms = await proc(["decode", "--threads", "2", "--set", hyperSet, "-o", join(tmp, "k.rgb"), "-y", join(tmp, "k1.wiv1")]);
const w2 = await createWai({ wasm: readFileSync(wasm), wasmThreads: readFileSync(wasm.replace(/\.wasm$/, "-threads.wasm")), threads: 2 });
fig.node2_threads = w2.threads;
fig.node2_wiv1_ms = await best(() => w2.decode(files.clip));
fig.node2_wih1_ms = await best(() => w2.decode(files.wih1, { set: files.wih1Set }));
fig.node2_k1_ms = await best(() => w2.decode(files.k1, { set: files.k1Set }));
fig.node2_same_image = createHash("sha256").update(w2.decode(files.wih1, { set: files.wih1Set }).outputs[0].data).digest("hex") ===
  createHash("sha256").update(nodeImg.outputs[0].data).digest("hex");
w2.close();
{
  // An isolated page needs none of @sparticuz/chromium's own arguments (one process, no site isolation).
  const iso = await serve(0, wasm, { isolated: true });
  const b2 = await launchChromium(modulesArg, { lambdaArgs: false });
  try {
    const page = await b2.newPage();
    await page.goto(`${iso.url}web/demo/`);
    const b64 = (b) => Buffer.from(b).toString("base64");
    Object.assign(fig, await page.evaluate(async (f, reps) => {
      const bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
      const { createWai } = await import("/web/src/index.js");
      const clip = bytes(f.clip), wih1 = bytes(f.wih1), k1 = bytes(f.k1);
      const wih1Set = Object.fromEntries(Object.entries(f.wih1Set).map(([k, v]) => [k, bytes(v)]));
      const k1Set = Object.fromEntries(Object.entries(f.k1Set).map(([k, v]) => [k, bytes(v)]));
      const best = (fn) => {
        let b = Infinity;
        for (let i = 0; i < reps; i++) {
          const t0 = performance.now();
          fn();
          b = Math.min(b, performance.now() - t0);
        }
        return b;
      };
      const out = { page_isolated: crossOriginIsolated };
      for (const threads of [1, 2]) {
        const w = await createWai({ wasm: "/web/dist/wai.wasm", threads, gpu: null });
        out[`iso${threads}_threads`] = w.threads;
        out[`iso${threads}_wiv1_ms`] = best(() => w.decode(clip));
        out[`iso${threads}_wih1_ms`] = best(() => w.decode(wih1, { set: wih1Set }));
        out[`iso${threads}_k1_ms`] = best(() => w.decode(k1, { set: k1Set }));
        w.close();
      }
      return out;
    }, { clip: b64(files.clip), wih1: b64(files.wih1), k1: b64(files.k1),
         wih1Set: Object.fromEntries(Object.entries(files.wih1Set).map(([k, v]) => [k, b64(v)])),
         k1Set: Object.fromEntries(Object.entries(files.k1Set).map(([k, v]) => [k, b64(v)])) }, reps));
  } finally {
    await b2.close();
    iso.close();
  }
}

// ---- the same bytes? ------------------------------------------------------------------
const nodeClipBytes = Buffer.concat(nodeClip.outputs.map((o) => Buffer.from(o.data)));
fig.same_clip_bytes = nodeClipBytes.equals(nativeClipRgb);
fig.same_image_sha = run(wai, ["decode", "--json", "--set", tmp, join(tmp, "image.wih1")]).toString()
  .includes(createHash("sha256").update(nodeImg.outputs[0].data).digest("hex"));
rmSync(tmp, { recursive: true, force: true });

const fps = (ms) => (frames * 1000) / ms;
const line = (what, ms, peer) => console.log(`${what.padEnd(52)} ${ms.toFixed(1).padStart(9)} ms` +
  (peer ? `   ${(ms / peer).toFixed(2)}x native` : ""));
console.log(`libwai in the browser against native (best of ${reps}; 1 thread unless said; Chromium 147 headless)`);
console.log(`WIV1 1280x720, ${frames} frames (the same bytes: ${fig.same_clip_bytes})`);
line("  native (wai decode, the process)", fig.native_wiv1_ms);
line("  WebAssembly, node", fig.node_wiv1_ms, fig.native_wiv1_ms);
line("  WebAssembly, Chromium", fig.page_wiv1_ms, fig.native_wiv1_ms);
console.log(`  fps: native ${fps(fig.native_wiv1_ms).toFixed(1)}, node ${fps(fig.node_wiv1_ms).toFixed(1)}, Chromium ${fps(fig.page_wiv1_ms).toFixed(1)}`);
console.log(`WIH1 512x768 (the same bytes: ${fig.same_image_sha})`);
line("  native", fig.native_wih1_ms);
line("  WebAssembly, node", fig.node_wih1_ms, fig.native_wih1_ms);
line("  WebAssembly, Chromium", fig.page_wih1_ms, fig.native_wih1_ms);
console.log(`keyframe-1 1280x720 (wai.video.int_hyper, ${K1_FRAMES} frames: the first through the hyperprior networks)`);
line("  native", fig.native_k1_ms);
line("  WebAssembly, node", fig.node_k1_ms, fig.native_k1_ms);
line("  WebAssembly, Chromium", fig.page_k1_ms, fig.native_k1_ms);
console.log("bmshj2018 512x768 (N 128, M 192)");
line("  native (cpu/webnn on oneDNN, the process)", fig.native_b18_ms);
line(`  Chromium, decodeAsync (ran ${fig.page_b18_report?.unit}/${fig.page_b18_report?.backend})`, fig.page_b18_ms, fig.native_b18_ms);
for (const dt of ["npu", "gpu", "cpu"]) {
  const r = fig[`webnn_${dt}`];
  console.log(`  WebNN context '${dt}': ${r.error ?? `graph build ${r.build_ms.toFixed(0)} ms, synthesis ${r.synthesis_ms.toFixed(1)} ms, devices ${JSON.stringify(r.devices)}`}`);
}
const gain = (a, b) => `${(a / b).toFixed(2)}x`;
console.log(`two threads (node: ${fig.node2_threads} serving, the same bytes: ${fig.node2_same_image}; ` +
  `Chromium: isolated ${fig.page_isolated}, ${fig.iso2_threads} serving)`);
const pair = (a, b) => `${a.toFixed(0).padStart(6)} -> ${b.toFixed(0).padStart(6)} ms (${gain(a, b)})`.padEnd(32);
console.log(`  ${"".padEnd(24)} ${"WIV1, 1 -> 2 threads".padEnd(32)} ${"WIH1".padEnd(32)} keyframe-1`);
const row = (what, p) => console.log(`  ${what.padEnd(24)} ${pair(fig[`${p}_wiv1_ms`], fig[`${p}2_wiv1_ms`])} ` +
  `${pair(fig[`${p}_wih1_ms`], fig[`${p}2_wih1_ms`])} ${pair(fig[`${p}_k1_ms`], fig[`${p}2_k1_ms`])}`);
row("native", "native");
row("WebAssembly, node", "node");
fig.iso_wiv1_ms = fig.iso1_wiv1_ms, fig.iso_wih1_ms = fig.iso1_wih1_ms, fig.iso_k1_ms = fig.iso1_k1_ms;
row("WebAssembly, Chromium", "iso");
console.log(`  at 2 threads against native: WIH1 node ${gain(fig.node2_wih1_ms, fig.native2_wih1_ms)}, Chromium ${gain(fig.iso2_wih1_ms, fig.native2_wih1_ms)}; ` +
  `keyframe-1 node ${gain(fig.node2_k1_ms, fig.native2_k1_ms)}, Chromium ${gain(fig.iso2_k1_ms, fig.native2_k1_ms)}`);
if (outArg) writeFileSync(outArg, JSON.stringify(fig, null, 1));
