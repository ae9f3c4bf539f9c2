// SPDX-License-Identifier: BSD-2-Clause
// The gpu/wgsl/integer path against the CPU's, in one run (docs/wgsl.md):
// WIH1 512x768 (bench/bench_decode_neural.c's synthetic set and payload)
// decoded natively (`wai decode --threads 1`), and in headless Chromium on
// the CPU path (WebAssembly) and on the GPU path (WebGPU), with the bytes
// compared; each best of REPS (the GPU's first decode, which pays for the
// known answer and the pipelines, apart), and each layer's GPU time
// (timestamp queries) in the last decode.
//
//   node bench/bench_wgsl.mjs BUILD_DIR WAI.WASM NODE_MODULES [REPS] [ADAPTER]
//
// ADAPTER: swiftshader (default: a CPU adapter, figures functional only) or
// gpu (the machine's GPU through Vulkan: a device machine's run).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launchChromium } from "../web/test/chromium.mjs";
import { serve } from "../web/test/serve.mjs";

const [buildArg, wasmArg, modulesArg, repsArg, adapterArg] = process.argv.slice(2);
if (!modulesArg) {
  console.error("usage: node bench/bench_wgsl.mjs BUILD_DIR WAI.WASM NODE_MODULES [REPS] [swiftshader|gpu]");
  process.exit(2);
}
const build = resolve(buildArg), reps = Number(repsArg ?? 2), adapter = adapterArg ?? "swiftshader";
const wai = join(build, "tools/wai/wai");
const tmp = mkdtempSync(join(tmpdir(), "wai-bench-wgsl-"));
const run = (args) => execFileSync(wai, args, { maxBuffer: 1 << 30 });

execFileSync(join(build, "bench/wai_bench_decode_neural"), ["--write", tmp]);
const names = ["g_s.whm", "h_s.whm", "entropy.json"];
const b64 = (p) => readFileSync(p).toString("base64");
let native = Infinity;
for (let i = 0; i < reps; i++) {
  const t0 = performance.now();
  run(["decode", "--threads", "1", "--set", tmp, "-o", join(tmp, "n.rgb"), "-y", join(tmp, "image.wih1")]);
  native = Math.min(native, performance.now() - t0);
}
const want = createHash("sha256").update(readFileSync(join(tmp, "n.rgb"))).digest("hex");

const flags = adapter === "gpu"
  ? ["--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-vulkan=native", "--use-angle=vulkan",
     "--ignore-gpu-blocklist"]
  : ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan"];
const server = await serve(0, resolve(wasmArg));
const browser = await launchChromium(modulesArg, { args: flags, protocolTimeout: 3600000 });
let fig;
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}web/demo/`);
  fig = await page.evaluate(async (f, reps) => {
    const bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    const { createWai } = await import("/web/src/index.js");
    const wai = await createWai({ wasm: "/web/dist/wai.wasm", gpuProfile: true });
    const img = bytes(f.img), set = Object.fromEntries(Object.entries(f.set).map(([k, v]) => [k, bytes(v)]));
    const hex = async (b) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))]
      .map((x) => x.toString(16).padStart(2, "0")).join("");
    const out = { device: wai.gpuInfo };
    const timeIt = async (opts) => {
      let best = Infinity, last;
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        last = await wai.decodeAsync(img, { set, ...opts });
        best = Math.min(best, performance.now() - t0);
      }
      return { ms: best, ran: last.report?.ran?.backend, timing: last.timing, hash: await hex(last.outputs[0].data) };
    };
    out.cpu = await timeIt({ gpu: false });
    if (wai.gpuInfo.device) {
      const t0 = performance.now();
      await wai.decodeAsync(img, { set });
      out.gpu_first_ms = performance.now() - t0;
      wai.gpu.device.layerLog.length = 0;
      out.gpu = await timeIt({});
      // The last decode's layers (each decode logs its networks' layers in order).
      const log = wai.gpu.device.layerLog;
      out.layers = log.slice(log.length / reps * (reps - 1));
    }
    return out;
  }, { img: b64(join(tmp, "image.wih1")), set: Object.fromEntries(names.map((n) => [n, b64(join(tmp, n))])) }, reps);
} finally {
  await browser.close();
  server.close();
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`WIH1 512x768, best of ${reps}; Chromium headless, WebGPU adapter: ${JSON.stringify(fig.device)}`);
const line = (what, ms, same) => console.log(`  ${what.padEnd(46)} ${ms.toFixed(1).padStart(10)} ms` +
  `   ${(ms / native).toFixed(2)}x native${same === undefined ? "" : same ? ", the native bytes" : ", BYTES DIFFER"}`);
line("native (wai decode --threads 1, the process)", native);
line(`Chromium, CPU path (ran ${fig.cpu.ran})`, fig.cpu.ms, fig.cpu.hash === want);
if (fig.gpu) {
  line(`Chromium, GPU path (ran ${fig.gpu.ran})`, fig.gpu.ms, fig.gpu.hash === want);
  console.log(`    of which networks on the GPU ${fig.gpu.timing.networks_gpu_ms.toFixed(1)} ms, the module ${fig.gpu.timing.module_ms.toFixed(1)} ms; first decode ${fig.gpu_first_ms.toFixed(1)} ms`);
  console.log(`  GPU path against the CPU path in the page: ${(fig.cpu.ms / fig.gpu.ms).toFixed(2)}x faster`);
  if (fig.layers?.length) {
    console.log("  the GPU's layers (timestamp queries), last decode:");
    for (const l of fig.layers)
      console.log(`    ${l.kind.padEnd(8)} [${l.in.join(", ")}] -> [${l.out.join(", ")}]`.padEnd(52) + `${l.ms.toFixed(2).padStart(10)} ms`);
  }
}
const ok = fig.cpu.hash === want && (!fig.gpu || (fig.gpu.hash === want && fig.gpu.ran === "wgsl"));
process.exit(ok ? 0 : 1);
