// SPDX-License-Identifier: BSD-2-Clause
// libwai in a real browser: headless Chromium (@sparticuz/chromium's shell,
// driven by puppeteer-core, both from npm) on the player page
// (web/demo/), served from this repository by web/test/serve.mjs.
//
//   node web/test/browser.mjs WAI.WASM WAI NODE_MODULES OUT_DIR
//
// With WebNN (--enable-features=WebMachineLearningNeuralNetwork):
//   - every corpus case decodes in the page to the status and output
//     SHA-256s of tests/corpus/index.txt (the native decoder's);
//   - the shipped bmshj2018 payloads decode through the browser's WebNN:
//     their symbols digest is the native one, the picture within 40 dB of
//     libwai's native float decode, and the report names the unit the
//     context that ran was made for, placement null (WebNN states no
//     placement: neural-dispatch §5), one graph built; with the opt-in
//     webnnDevices, MLGraph.devices comes back beside the report as the
//     browser said it, and is never a plan: nothing is refused on it;
//   - a decode that needs decode-equivalence creates no WebNN context;
//   - screenshots of the page, checked not blank.
// Without the flag: every WebNN path dispatch_unit_absent, the entropy stage
// still decoded (the same digest); the refusal says how to enable WebNN and
// offers the integer path, whose photograph decodes to the native bytes;
// under its set's pin (SubtleCrypto over listing.json), each file of the set
// altered or removed, or read and unlisted, is set_incomplete in the page.
// Ends with "N passed, N failed".
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateSync } from "node:zlib";
import { launchChromium } from "./chromium.mjs";
import { serve } from "./serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasmArg, waiArg, modulesArg, outArg] = process.argv.slice(2);
if (!outArg) {
  console.error("usage: node web/test/browser.mjs WAI.WASM WAI NODE_MODULES OUT_DIR");
  process.exit(2);
}
const wasm = resolve(wasmArg), wai = resolve(waiArg), out = resolve(outArg);
mkdirSync(out, { recursive: true });

let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const native = (...args) => execFileSync(wai, args, { maxBuffer: 1 << 28 });

// ---- a PNG's pixels (for "not blank"): zlib and the five filters ---------------
function pngPixels(buf) {
  let at = 8, w = 0, h = 0, ch = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), type = buf.toString("ascii", at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + len);
    if (type === "IHDR") {
      w = body.readUInt32BE(0), h = body.readUInt32BE(4);
      ch = { 2: 3, 6: 4 }[body[9]];
    } else if (type === "IDAT") idat.push(body);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat)), stride = w * ch, px = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= ch ? px[y * stride + x - ch] : 0, b = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= ch && y ? px[(y - 1) * stride + x - ch] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + x] = (row[x] + pred) & 255;
    }
  }
  return { w, h, ch, px };
}

function notBlank(png, what) {
  const { w, h, ch, px } = pngPixels(png);
  const colours = new Set();
  for (let i = 0; i < w * h; i += 7) colours.add(px.readUIntBE(i * ch, 3));
  check(w > 300 && h > 200 && colours.size > 500, `${what}: ${w}x${h}, ${colours.size} colours sampled`);
}

// ---- what the page is asked ----------------------------------------------------------
function corpusManifest() {
  const cases = [];
  for (const line of readFileSync(join(repo, "tests/corpus/index.txt"), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [mode, cap, status, maxCost, files, hashes, set, offer] = line.trim().split(/\s+/);
    const members = {};
    if (set && set !== "-")
      for (const e of readdirSync(join(repo, "tests/corpus", set), { withFileTypes: true }))
        if (e.isFile()) members[e.name] = `/tests/corpus/${set}/${e.name}`;
    cases.push({ mode, cap, status, maxCost, files: files.split(",").map((f) => `/tests/corpus/${f}`),
      hashes: hashes === "-" ? [] : hashes.split(","), set: members, offer });
  }
  return cases;
}

async function runCorpus(page, manifest) {
  return page.evaluate(async (cases) => {
    const { wai } = window.__wai;
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const hex = async (b) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))]
      .map((x) => x.toString(16).padStart(2, "0")).join("");
    let ok = 0;
    const bad = [];
    for (const c of cases) {
      const set = {};
      for (const [n, u] of Object.entries(c.set)) set[n] = await get(u);
      if (c.mode === "parse") {
        const r = wai.inspect(await get(c.files[0]), { capability: c.cap });
        r.status === c.status ? ok++ : bad.push(`${c.files[0]}: ${r.status}`);
        continue;
      }
      const opts = { capability: c.cap, set };
      if (c.maxCost !== "-") opts.maxCost = BigInt(c.maxCost);
      if (c.offer) opts.offer = c.offer; // index.txt's OFFER column, as the node run reads it
      const d = wai.createDecoder(opts);
      let st = d.status;
      const hashes = [];
      for (const f of c.files) {
        if (st !== "ok") break;
        const r = d.send(await get(f));
        st = r.status;
        for (const o of r.outputs) hashes.push(await hex(o.kind === "pcm" ? new Uint8Array(o.data.buffer) : o.data));
      }
      d.close();
      st === c.status && hashes.join() === c.hashes.join() ? ok++ :
        bad.push(`${c.files.join(",")}: ${st} (want ${c.status}), ${hashes.length} outputs`);
    }
    return { ok, bad };
  }, manifest);
}

/** A shipped example decoded on the page: the result, the picture's bytes. */
async function pageDecode(page, name, extra = {}) {
  return page.evaluate(async (name, extra) => {
    const r = await window.__wai.decodeExample(name, extra);
    const pic = r.outputs[0]?.data;
    let b64 = "";
    if (pic) for (let i = 0; i < pic.length; i += 32768) b64 += String.fromCharCode(...pic.subarray(i, i + 32768));
    return { status: r.status, report: r.report, digest: r.symbolsDigest, timing: r.timing ?? null,
      wallMs: r.wallMs, pic: b64 ? btoa(b64) : null, n: r.outputs.length, steps: r.steps ?? null };
  }, name, extra);
}

function psnr(a, b) {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i] - b[i]) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / se);
}

// isolatable: none of @sparticuz/chromium's own arguments, under which no
// page is cross-origin isolated whatever its headers.
function launch(webnn, isolatable = false) {
  return launchChromium(modulesArg, { lambdaArgs: !isolatable, defaultViewport: { width: 1400, height: 900 },
    args: webnn ? ["--enable-features=WebMachineLearningNeuralNetwork"] : [] });
}

async function openPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${url}web/demo/`, { waitUntil: "load" });
  await page.waitForFunction(() => window.__wai, { timeout: 30000 });
  return { page, errors };
}

// ---- the runs -----------------------------------------------------------------------
const server = await serve(0, wasm);
const b18 = join(repo, "examples/bmshj2018");
const digests = {}, pictures = {};
for (const name of ["coffee", "chelsea"]) {
  const j = JSON.parse(native("inspect", "--cost", "--set", join(b18, "sets", "q3"), join(b18, `${name}.b18f`)).toString());
  digests[name] = j.symbols_digest;
  pictures[name] = native("decode", "--set", join(b18, "sets", "q3"), join(b18, `${name}.b18f`), "-o", "-");
}
const summary = {};
try {
  let browser = await launch(true);
  let { page, errors } = await openPage(browser, server.url);
  check(await page.evaluate(() => typeof navigator.ml === "object"), "WebNN: navigator.ml is there");
  const manifest = corpusManifest();
  const c = await runCorpus(page, manifest);
  check(c.ok === manifest.length, `the corpus in the page: ${c.ok} of ${manifest.length}; ${c.bad.slice(0, 5).join("; ")}`);
  summary.corpus = `${c.ok}/${manifest.length}`;
  passed += c.ok - 1; // one check each

  for (const name of ["chelsea", "coffee"]) {
    const r = await pageDecode(page, `${name}.b18f`);
    check(r.status === "ok", `${name} through WebNN: ${r.status} ${JSON.stringify(r.report)}`);
    check(r.digest === digests[name], `${name}: the symbols digest is the native one`);
    // Chromium has JSPI: the decode is the decoder's own send, its WebNN a
    // registered backend of the module (web/glue/js_backends.c).
    check(r.steps === "decoder", `${name}: decoded through the decoder's send: ${r.steps}`);
    // WebNN states no placement (neural-dispatch §5): the first WebNN
    // context the page's default offer asks for (npu/webnn) builds and runs,
    // the report names that unit with placement null, and no other graph is
    // built.
    check(r.report?.ran?.unit === "npu" && r.report?.ran?.backend === "webnn" && r.report?.ran?.placement === null,
      `${name}: the report says npu/webnn ran, placement null: ${JSON.stringify(r.report?.ran)}`);
    check(!r.report?.refused?.some((x) => x.backend === "webnn"), `${name}: no WebNN path refused: ${JSON.stringify(r.report?.refused)}`);
    const builds = Object.keys(r.timing ?? {}).filter((k) => k.startsWith("build_"));
    check(builds.length === 1 && builds[0] === "build_npu_ms", `${name}: one graph built: ${builds.join(",")}`);
    const got = r.pic ? Buffer.from(r.pic, "base64") : Buffer.alloc(0);
    const db = got.length === pictures[name].length ? psnr(got, pictures[name]) : 0;
    check(db >= 40, `${name}: WebNN's picture within 40 dB of the native float decode: ${db.toFixed(2)} dB`);
    summary[name] = { psnr_vs_native: db, timing: r.timing, wall_ms: r.wallMs, report: r.report };
  }
  // The NPU asked for by a WebNN path: its context runs, reported as the
  // NPU's with placement null (the spec's evidence row, npu/webnn).
  const npu = await page.evaluate(async () => {
    const { wai, state } = window.__wai;
    const r = await wai.decodeAsync(state.payload, { set: state.set, offer: "npu/webnn/float,gpu,cpu" });
    return r.report;
  });
  check(npu?.ran?.unit === "npu" && npu.ran.backend === "webnn" && npu.ran.placement === null &&
    npu.refused?.length === 0, `a context for the NPU: ${JSON.stringify(npu)}`);
  summary.npu_offer = npu;
  // The opt-in extension: MLGraph.devices reported as the browser says it,
  // beside the report, never as a plan (neural-dispatch §5: WebNN states no
  // placement): the first context's graph runs, placement null, nothing is
  // refused on the devices' word.
  const dev = await page.evaluate(async () => {
    const { wai, state } = window.__wai;
    const r = await wai.decodeAsync(state.payload, { set: state.set, offer: "npu/webnn/float,gpu,cpu", webnnDevices: true });
    return { report: r.report, devices: r.webnnDevices, builds: Object.keys(r.timing).filter((k) => k.startsWith("build_")) };
  });
  // At most one graph built: the program keeps the one an earlier decode
  // of this shape built (with the set, in the context's cache).
  check(dev.report?.ran?.unit === "npu" && dev.report.ran.placement === null &&
    dev.report.refused?.length === 0 && dev.builds.length <= 1 && dev.devices?.length === 1 &&
    dev.devices[0].unit === "npu" && (dev.devices[0].devices === null || Array.isArray(dev.devices[0].devices)),
    `webnnDevices: ${JSON.stringify(dev)}`);
  summary.devices_offer = { report: dev.report, webnnDevices: dev.devices };
  // decode-equivalence creates no context.
  const rep = await page.evaluate(async () => {
    const { wai, state } = window.__wai;
    let made = 0;
    const ml = { createContext: (o) => (made++, navigator.ml.createContext(o)) };
    const r = await wai.decodeAsync(state.payload, { set: state.set, ml, intent: "replicate" });
    return { status: r.status, made, digest: r.symbolsDigest };
  });
  check(rep.status === "not_dispatchable" && rep.made === 0, `replicate: ${rep.status}, ${rep.made} contexts`);
  // The page as a user sees it: a photograph through WebNN, then a clip.
  await pageDecode(page, "coffee.b18f");
  const shot1 = await page.screenshot({ path: join(out, "page-webnn-coffee.png") });
  notBlank(Buffer.from(shot1), "screenshot of coffee through WebNN");
  const clip = await pageDecode(page, "hello.wiv1");
  check(clip.status === "ok" && clip.n > 1, `the clip: ${clip.status}, ${clip.n} frames`);
  await page.click("#next");
  const shot2 = await page.screenshot({ path: join(out, "page-clip.png") });
  notBlank(Buffer.from(shot2), "screenshot of the clip");
  check(errors.length === 0, `no errors in the page: ${errors.join("; ")}`);
  await browser.close();

  // Without WebNN.
  browser = await launch(false);
  ({ page, errors } = await openPage(browser, server.url));
  check(await page.evaluate(() => navigator.ml === undefined), "no flag: no navigator.ml");
  const r = await pageDecode(page, "chelsea.b18f");
  const webnnPaths = r.report?.refused?.filter((f) => f.backend === "webnn") ?? [];
  check(r.status === "not_dispatchable" && webnnPaths.length === 3 &&
    webnnPaths.every((f) => f.reason === "dispatch_unit_absent"), `no WebNN: ${r.status} ${JSON.stringify(r.report)}`);
  check(r.digest === digests.chelsea, "no WebNN: the entropy stage still decoded (the same digest)");
  // Not cross-origin isolated: no shared memory, so one thread whatever is asked.
  const lone = await page.evaluate(async () => {
    const { createWai } = await import("/web/src/index.js");
    const w = await createWai({ wasm: "/web/dist/wai.wasm", threads: 2, gpu: null });
    const t = w.threads;
    w.close();
    return { isolated: crossOriginIsolated, threads: t };
  });
  check(!lone.isolated && lone.threads === 1, `a page not isolated runs one thread: ${JSON.stringify(lone)}`);
  const hint = await page.evaluate(() => document.getElementById("no-webnn")?.textContent ?? "");
  check(hint.includes("--enable-features=WebMachineLearningNeuralNetwork") && hint.includes("chelsea.wih1"),
    `no WebNN: the refusal says how to enable it and offers the integer path: ${hint}`);
  const shot3 = await page.screenshot({ path: join(out, "page-no-webnn.png") });
  check(shot3.length > 10000, "no WebNN: a screenshot of the refusal");
  // The integer path the refusal offers: a photograph, the native bytes.
  await page.click("#try-integer");
  await page.waitForFunction(() => window.__wai.state.payloadName === "chelsea.wih1" &&
    window.__wai.state.result?.ok, { timeout: 60000 });
  const intPic = await page.evaluate(async () => [...new Uint8Array(await crypto.subtle.digest("SHA-256",
    window.__wai.state.result.outputs[0].data))].map((x) => x.toString(16).padStart(2, "0")).join(""));
  const intWant = createHash("sha256").update(native("decode", "--set", join(repo, "examples/hyperprior/sets/q3"),
    join(repo, "examples/hyperprior/chelsea.wih1"), "-o", "-", "--format", "rgb")).digest("hex");
  check(intPic === intWant, `no WebNN: chelsea.wih1 on the integer path, the native bytes: ${intPic}`);
  const shot4 = await page.screenshot({ path: join(out, "page-no-webnn-integer.png") });
  notBlank(Buffer.from(shot4), "no WebNN: a screenshot of the integer path's photograph");
  // Pins in the page (L5a): the set the page fetched whole, under the pin
  // SubtleCrypto took of its listing; each file altered or removed, and a
  // file a path reads left out of the listing, is set_incomplete.
  const pins = await page.evaluate(async () => {
    const { wai, state } = window.__wai;
    const out = { shipped: (await wai.decodeAsync(state.payload, { set: state.set, pin: state.pin })).status };
    for (const name of Object.keys(state.set)) {
      const altered = { ...state.set, [name]: state.set[name].slice() };
      altered[name][altered[name].length >> 1] ^= 1;
      const { [name]: _, ...removed } = state.set;
      out[name] = [(await wai.decodeAsync(state.payload, { set: altered, pin: state.pin })).status,
        (await wai.decodeAsync(state.payload, { set: removed, pin: state.pin })).status];
    }
    const listing = JSON.parse(new TextDecoder().decode(state.set["listing.json"]));
    listing.members = listing.members.filter((m) => m.name !== "g_s.whm");
    const l = new TextEncoder().encode(JSON.stringify(listing));
    const pin = [...new Uint8Array(await crypto.subtle.digest("SHA-256", l))]
      .map((x) => x.toString(16).padStart(2, "0")).join("");
    out.unlisted = (await wai.decodeAsync(state.payload, { set: { ...state.set, "listing.json": l }, pin })).status;
    return out;
  });
  const { shipped, unlisted, ...each } = pins;
  check(shipped === "ok" && Object.keys(each).length === 6, `the page: pinned as shipped: ${JSON.stringify(pins)}`);
  for (const [name, [a, r]] of Object.entries(each))
    check(a === "set_incomplete" && r === "set_incomplete", `the page: ${name} altered ${a}, removed ${r}`);
  check(unlisted === "set_incomplete", `the page: g_s.whm read and unlisted: ${unlisted}`);
  check(errors.length === 0, `no errors in the page: ${errors.join("; ")}`);
  await browser.close();
  // Cross-origin isolated (COOP/COEP): the threads module, two threads,
  // the native bytes.
  const iso = await serve(0, wasm, { isolated: true });
  try {
    browser = await launch(false, true);
    const tp = await browser.newPage();
    const terr = [];
    tp.on("pageerror", (e) => terr.push(String(e)));
    await tp.goto(`${iso.url}web/demo/`, { waitUntil: "load" });
    const files = [["examples/hello.wih1", "examples/hello_set"],
      ["examples/hyperprior/chelsea.wih1", "examples/hyperprior/sets/q3"]];
    const want = files.map(([f, s]) => createHash("sha256").update(native("decode", "--set", join(repo, s),
      join(repo, f), "-o", "-", "--format", "rgb")).digest("hex"));
    const t = await tp.evaluate(async (files) => {
      const { createWai } = await import("/web/src/index.js");
      const w = await createWai({ wasm: "/web/dist/wai.wasm", threads: 2, gpu: null });
      const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
      const hashes = [];
      for (const [f, s] of files) {
        const set = {};
        for (const n of ["entropy.json", "g_s.whm", "h_s.whm"]) set[n] = await get(`/${s}/${n}`);
        const r = w.decode(await get(`/${f}`), { set });
        hashes.push(r.ok ? [...new Uint8Array(await crypto.subtle.digest("SHA-256", r.outputs[0].data))]
          .map((x) => x.toString(16).padStart(2, "0")).join("") : r.status);
      }
      const threads = w.threads;
      w.close();
      return { isolated: crossOriginIsolated, threads, hashes };
    }, files);
    check(t.isolated && t.threads === 2, `an isolated page runs two threads: ${JSON.stringify(t)}`);
    files.forEach(([f], i) => check(t.hashes[i] === want[i], `${f} on two threads in the page: ` +
      (t.hashes[i] === want[i] ? "the native bytes" : t.hashes[i])));
    check(terr.length === 0, `no errors in the isolated page: ${terr.join("; ")}`);
    await browser.close();
  } finally {
    iso.close();
  }
} catch (e) {
  check(false, `the browser run: ${e.stack ?? e}`);
} finally {
  server.close();
}
writeFileSync(join(out, "browser-summary.json"), JSON.stringify(summary, null, 1));
console.log(`screenshots and summary in ${out}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
