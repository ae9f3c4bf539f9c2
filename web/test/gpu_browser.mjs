// SPDX-License-Identifier: BSD-2-Clause
// The gpu/wgsl/integer path in a real browser (docs/wgsl.md): headless
// Chromium with WebGPU on SwiftShader (a CPU adapter; the page served from
// 127.0.0.1, a secure context), the module's decodes waiting on the GPU
// through JSPI.
//
//   node web/test/gpu_browser.mjs WAI.WASM WAI NODE_MODULES [--only PATTERN] [--full]
//
//   - every decode case of tests/corpus/index.txt decodes through
//     decodeAsync (a frame form's payloads through one GPU decoder's
//     sendAsync) to the status and output SHA-256s the native decoder
//     gives, and every neural integer case that decodes reports
//     gpu/wgsl/integer as the path that ran;
//   - the shipped examples (hello.wih1, a hyperprior photograph; with
//     --full both photographs, the second one of the same set and twice the
//     size, about two minutes on SwiftShader) decode to the native tool's
//     bytes on the GPU, with their timings (SwiftShader: functional figures
//     only), and so does a keyframe-1 clip
//     (wai.video.int_hyper) the native tool codes from hello.wiv1;
//   - tensors past the device's buffers are tiled: every neural case
//     through a device whose tensors are all in chunks of 509 elements,
//     hello.wih1 through one whose buffers hold 32 KiB, to the native
//     bytes on the GPU; at 8 KiB refused, the CPU's bytes;
//   - a module whose convolutions are one limb short fails the
//     known-answer check: wgsl refused dispatch_backend_failed, the CPU
//     path runs and gives the same bytes; so does a decode after the
//     device is lost.
// Ends with "N passed, N failed".
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./chromium.mjs";
import { serve } from "./serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const [wasmArg, waiArg, modulesArg] = args;
if (!modulesArg) {
  console.error("usage: node web/test/gpu_browser.mjs WAI.WASM WAI NODE_MODULES [--only PATTERN] [--full]");
  process.exit(2);
}
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const wasm = resolve(wasmArg), wai = resolve(waiArg);

// A device whose buffers hold 32 KiB: hello.wih1's larger tensors in
// chunks of 2048 elements; and one whose every tensor is in chunks of 509
// (a prime: chunks that end inside a channel, a row and an IGDN block).
const SMALL = 32768, CHUNK = 509;
let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const sha = (b) => createHash("sha256").update(b).digest("hex");
const NEURAL = new Set(["wai.neural.int_hyper", "wai.neural.int_synth", "wai.neural.int_mlicpp", "wai.video.int_cond",
  "wai.video.int_cond.frame", "wai.audio.int_codec", "wai.splat.int_codec"]);

function members(dir) {
  const m = {};
  for (const e of readdirSync(join(repo, dir), { withFileTypes: true }))
    if (e.isFile()) m[e.name] = `/${dir}/${e.name}`;
  return m;
}

function corpusCases() {
  const cases = [];
  for (const line of readFileSync(join(repo, "tests/corpus/index.txt"), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [mode, cap, status, maxCost, files, hashes, set, offer] = line.trim().split(/\s+/);
    if (mode !== "decode" || (only && !files.includes(only))) continue;
    // A case with an OFFER pins the paths a machine without a GPU has: here
    // wgsl can run, so its status is another (the CPU page checks those).
    if (offer) continue;
    cases.push({ cap, status, maxCost, files: files.split(",").map((f) => `/tests/corpus/${f}`),
      hashes: hashes === "-" ? [] : hashes.split(","),
      set: set && set !== "-" ? members(`tests/corpus/${set}`) : {} });
  }
  return cases;
}

// Runs in the page: each case through a GPU decoder's sendAsync (of the
// page's window[which]).
async function runCases(page, cases, neural, which = "__gpuWai") {
  return page.evaluate(async (cases, neural, which) => {
    const wai = window[which];
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const hex = async (b) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))]
      .map((x) => x.toString(16).padStart(2, "0")).join("");
    const out = [];
    for (const c of cases) {
      const set = {};
      for (const [n, u] of Object.entries(c.set)) set[n] = await get(u);
      const opts = { capability: c.cap, set, gpu: true };
      if (c.maxCost !== "-") opts.maxCost = BigInt(c.maxCost);
      const d = wai.createDecoder(opts);
      let st = d.status, ran = null, why = null;
      const hashes = [];
      for (const f of c.files) {
        if (st !== "ok") break;
        const r = await d.sendAsync(await get(f));
        st = r.status;
        if (r.report) {
          ran = r.report.ran?.backend ?? null;
          why = r.report.refused?.find((x) => x.backend === "wgsl")?.reason ?? null;
        }
        for (const o of r.outputs) hashes.push(await hex(o.kind === "pcm" ? new Uint8Array(o.data.buffer) : o.data));
      }
      d.close();
      out.push({ files: c.files.join(","), cap: c.cap, st, want: c.status,
        same: hashes.join() === c.hashes.join(), n: hashes.length, ran, why,
        neural: neural.includes(c.cap) });
    }
    return out;
  }, cases, [...neural], which);
}

async function decodeExample(page, which, file, setDir) {
  return page.evaluate(async (which, file, set) => {
    const wai = window[which];
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const s = {};
    for (const [n, u] of Object.entries(set)) s[n] = await get(u);
    const r = await wai.decodeAsync(await get(file), { set: s });
    const pic = r.outputs[0]?.data;
    const h = pic ? [...new Uint8Array(await crypto.subtle.digest("SHA-256", pic))]
      .map((x) => x.toString(16).padStart(2, "0")).join("") : null;
    return { status: r.status, hash: h, ran: r.report?.ran?.backend ?? null,
      why: r.report?.refused?.find((x) => x.backend === "wgsl")?.reason ?? null, timing: r.timing };
  }, which, file, setDir);
}

const server = await serve(0, wasm);
const browser = await launchChromium(modulesArg, { protocolTimeout: 1800000,
  args: ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan"] });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") console.log(`page: ${m.text()}`); });
  await page.goto(`${server.url}web/demo/`, { waitUntil: "load" });
  const info = await page.evaluate(async (SMALL, CHUNK) => {
    const { createWai } = await import("/web/src/index.js");
    window.__gpuWai = await createWai({ wasm: "/web/dist/wai.wasm" });
    window.__brokenWai = await createWai({ wasm: "/web/dist/wai.wasm", gpuBroken: true });
    window.__smallWai = await createWai({ wasm: "/web/dist/wai.wasm", gpuMaxBuffer: SMALL });
    window.__tinyWai = await createWai({ wasm: "/web/dist/wai.wasm", gpuMaxBuffer: 8192 });
    window.__chunkWai = await createWai({ wasm: "/web/dist/wai.wasm", gpuChunk: CHUNK });
    window.__profWai = await createWai({ wasm: "/web/dist/wai.wasm", gpuProfile: true });
    return { good: window.__gpuWai.gpuInfo, broken: window.__brokenWai.gpuInfo };
  }, SMALL, CHUNK);
  console.log(`WebGPU adapter: ${JSON.stringify(info.good)}`);
  check(Boolean(info.good.device && info.broken.device), `a WebGPU device in the page: ${JSON.stringify(info)}`);

  const t0 = Date.now();
  const results = await runCases(page, corpusCases(), NEURAL);
  let onGpu = 0;
  for (const r of results) {
    check(r.st === r.want && r.same, `${r.files}: ${r.st} (want ${r.want}), ${r.n} outputs${r.same ? "" : ", hashes differ"}`);
    if (r.st !== "ok" || r.ran === null) continue;
    if (r.neural) {
      check(r.ran === "wgsl", `${r.files}: ran ${r.ran} (wgsl: ${r.why})`);
      onGpu += r.ran === "wgsl";
    }
  }
  console.log(`corpus: ${results.length} decode cases, ${onGpu} through gpu/wgsl/integer, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!only) check(onGpu >= 15, `${onGpu} neural cases ran on the GPU`);

  // The shipped examples against the native tool.
  const examples = only ? [] : [["examples/hello.wih1", "examples/hello_set"],
    ["examples/hyperprior/chelsea.wih1", "examples/hyperprior/sets/q3"]];
  if (!only && args.includes("--full")) examples.push(["examples/hyperprior/coffee.wih1", "examples/hyperprior/sets/q3"]);
  for (const [file, set] of examples) {
    const want = sha(execFileSync(wai, ["decode", "--set", join(repo, set), join(repo, file), "-o", "-",
      "--format", "rgb"], { maxBuffer: 1 << 28 }));
    const r = await decodeExample(page, "__gpuWai", `/${file}`, members(set));
    check(r.status === "ok" && r.hash === want && r.ran === "wgsl",
      `${file}: ${r.status}, ran ${r.ran} (wgsl ${r.why}), ${r.hash === want ? "native bytes" : "bytes differ"}`);
    console.log(`${file}: ${r.ran}, total ${r.timing?.total_ms?.toFixed(0)} ms, networks on the GPU ${r.timing?.networks_gpu_ms?.toFixed(0)} ms (SwiftShader: functional only)`);
  }

  // A keyframe-1 clip (wai.video.int_hyper), coded here by the native tool
  // from hello.wiv1's frames: its keyframe's networks on the GPU, every
  // frame the native decoder's.
  if (!only) {
    const tmp = mkdtempSync(join(tmpdir(), "wai-gpu-"));
    try {
      const set = join(repo, "examples/hyperprior/sets/q3");
      execFileSync(wai, ["decode", join(repo, "examples/hello.wiv1"), "-o", join(tmp, "h.y4m"), "--format", "y4m420"]);
      execFileSync(wai, ["encode", "--capability", "wai.video.int_hyper", "--set", set, join(tmp, "h.y4m"),
        "-o", join(tmp, "k1.wiv1")], { stdio: "ignore" });
      const want = JSON.parse(execFileSync(wai, ["decode", "--json", "--set", set, join(tmp, "k1.wiv1"),
        "-o", join(tmp, "k1.rgb")]).toString()).outputs.map((o) => o.sha256);
      const clip = readFileSync(join(tmp, "k1.wiv1")).toString("base64");
      const k = await page.evaluate(async (clip, set) => {
        const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
        const s = {};
        for (const [n, u] of Object.entries(set)) s[n] = await get(u);
        const bytes = Uint8Array.from(atob(clip), (c) => c.charCodeAt(0));
        const r = await window.__gpuWai.decodeAsync(bytes, { set: s });
        const hashes = [];
        for (const o of r.outputs) hashes.push([...new Uint8Array(await crypto.subtle.digest("SHA-256", o.data))]
          .map((x) => x.toString(16).padStart(2, "0")).join(""));
        return { status: r.status, ran: r.report?.ran?.backend, hashes };
      }, clip, members("examples/hyperprior/sets/q3"));
      check(k.status === "ok" && k.ran === "wgsl" && k.hashes.join() === want.join() && want.length > 1,
        `keyframe-1 clip: ${k.status}, ran ${k.ran}, ${k.hashes.length} frames of ${want.length}` +
        (k.hashes.join() === want.join() ? "" : ", hashes differ"));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  // A kernel one limb short: refused at the known answer, the CPU runs.
  const b = await decodeExample(page, "__brokenWai", "/examples/hello.wih1", members("examples/hello_set"));
  const want = sha(execFileSync(wai, ["decode", "--set", join(repo, "examples/hello_set"),
    join(repo, "examples/hello.wih1"), "-o", "-", "--format", "rgb"]));
  check(b.status === "ok" && b.ran === "wai-ops" && b.why === "dispatch_backend_failed" && b.hash === want,
    `one limb short: ${b.status}, ran ${b.ran}, wgsl ${b.why}`);

  // Tensors past the device's buffers, held in chunks: every neural case
  // (chunks of CHUNK elements) and hello.wih1 (buffers of SMALL bytes)
  // still on the GPU with the native bytes.
  const ts = Date.now();
  const tiled = await runCases(page, corpusCases().filter((c) => NEURAL.has(c.cap) && c.status === "ok"), NEURAL, "__chunkWai");
  let onGpuTiled = 0;
  for (const r of tiled) {
    check(r.st === r.want && r.same && r.ran === "wgsl",
      `${r.files} tiled: ${r.st}, ran ${r.ran} (wgsl: ${r.why})${r.same ? "" : ", hashes differ"}`);
    onGpuTiled += r.ran === "wgsl";
  }
  const sm = await decodeExample(page, "__smallWai", "/examples/hello.wih1", members("examples/hello_set"));
  const [chunked, small] = await page.evaluate(() => [window.__chunkWai.gpu.device.tiled, window.__smallWai.gpu.device.tiled]);
  check(sm.status === "ok" && sm.ran === "wgsl" && sm.hash === want,
    `hello.wih1 tiled: ${sm.status}, ran ${sm.ran}, wgsl ${sm.why}, ${sm.hash === want ? "native bytes" : "bytes differ"}`);
  check(chunked > onGpuTiled && small > 0, `networks run in chunks: ${chunked} of the corpus's, ${small} of hello.wih1's`);
  console.log(`tiled: ${onGpuTiled} neural cases through gpu/wgsl/integer in chunks of ${CHUNK} elements ` +
    `(${chunked} networks in chunks), hello.wih1 in buffers of ${SMALL} bytes (${small}), ${((Date.now() - ts) / 1000).toFixed(1)} s`);

  // Buffers too small to tile (a ceiling of 8 KiB: chunks under 1024
  // elements): refused before any dispatch, the CPU runs.
  const tn = await decodeExample(page, "__tinyWai", "/examples/hello.wih1", members("examples/hello_set"));
  check(tn.status === "ok" && tn.ran === "wai-ops" && tn.why === "dispatch_backend_failed" && tn.hash === want,
    `too small to tile: ${tn.status}, ran ${tn.ran}, wgsl ${tn.why}`);

  // Each layer's GPU time, where the adapter has timestamp queries.
  const prof = await decodeExample(page, "__profWai", "/examples/hello.wih1", members("examples/hello_set"));
  const log = await page.evaluate(() => window.__profWai.gpu.device.layerLog);
  check(prof.status === "ok" && prof.ran === "wgsl" && log.length > 0 && log.every((l) => l.ms >= 0 && l.kind),
    `profiled decode: ${prof.status}, ${log.length} layers timed`);
  console.log(`hello.wih1's layers on SwiftShader: ${log.map((l) => `${l.kind} ${l.ms.toFixed(2)} ms`).join(", ")}`);

  // A GPU decoder cannot be closed under a decode in flight.
  const busy = await page.evaluate(async (set) => {
    const wai = window.__gpuWai;
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const s = {};
    for (const [n, u] of Object.entries(set)) s[n] = await get(u);
    const d = wai.createDecoder({ set: s, gpu: true });
    const pending = d.sendAsync(await get("/examples/hello.wih1"));
    let code = null;
    try { d.close(); } catch (e) { code = e.code; }
    const r = await pending;
    d.close();
    return { code, status: r.status, ran: r.report?.ran?.backend };
  }, members("examples/hello_set"));
  check(busy.code === "invalid_argument" && busy.status === "ok" && busy.ran === "wgsl",
    `close under a GPU decode: ${JSON.stringify(busy)}`);

  // The device lost: the decode runs whole on the CPU, the same bytes.
  await page.evaluate(async () => {
    window.__gpuWai.gpu.device.device.destroy();
    await new Promise((r) => setTimeout(r, 50));
  });
  const l = await decodeExample(page, "__gpuWai", "/examples/hello.wih1", members("examples/hello_set"));
  check(l.status === "ok" && l.ran === "wai-ops" && l.why === "dispatch_backend_failed" && l.hash === want,
    `device lost: ${l.status}, ran ${l.ran}, wgsl ${l.why}`);
  check(errors.length === 0, `page errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
