// SPDX-License-Identifier: BSD-2-Clause
// The libwai player page (web/demo/): pick or drop a payload and its set,
// decode it with libwai's WebAssembly module (float networks on the
// browser's WebNN), see the pictures, clip, sound or planes, the dispatch
// report and the timing. Served from the repository's root, it also offers
// the shipped examples.
import { createWai, describeStatus, toImageData } from "../src/index.js";

const $ = (id) => document.getElementById(id);
const state = { payload: null, payloadName: "", set: {}, pin: null, outputs: [], frame: 0, timer: 0, result: null };
// As many threads as the machine has, where the page is cross-origin
// isolated (docs/web.md, "Threads"); one elsewhere.
const wai = await createWai({ threads: "auto" });
window.__wai = { wai, state, decodeExample, decodeBytes };

// Each example's payload and its set's folder; a set is fetched whole, as
// its listing.json names it, and decoded under its pin (the listing's
// SHA-256, by SubtleCrypto), so no altered byte decodes (docs/spec-readings.md, L5a).
const EXAMPLES = {
  "hello.wiv1": { file: "hello.wiv1", set: null },
  "hello.wih1": { file: "hello.wih1", set: "hello_set" },
  "chelsea.wih1": { file: "hyperprior/chelsea.wih1", set: "hyperprior/sets/q3" },
  "coffee.wih1": { file: "hyperprior/coffee.wih1", set: "hyperprior/sets/q3" },
  "coffee.b18f": { file: "bmshj2018/coffee.b18f", set: "bmshj2018/sets/q3" },
  "chelsea.b18f": { file: "bmshj2018/chelsea.b18f", set: "bmshj2018/sets/q3" },
};
const examplesRoot = new URL("../../examples/", import.meta.url);

// ---- the page's furniture -----------------------------------------------------

$("webnn-state").textContent = navigator.ml ? "WebNN: available" : "WebNN: not in this browser";
$("webnn-state").className = `badge ${navigator.ml ? "on" : "off"}`;
for (const c of wai.capabilities().filter((c) => c.decodes)) {
  const o = document.createElement("option");
  o.value = c.name;
  o.textContent = `${c.name} (${c.format})`;
  $("capability").append(o);
}

function setStatus(kind, html) {
  $("status").className = `status ${kind}`;
  $("status").innerHTML = html;
}

async function fileBytes(f) {
  return new Uint8Array(await f.arrayBuffer());
}

function loadedPayload(name, bytes) {
  state.payload = bytes;
  state.payloadName = name;
  $("drop").classList.add("loaded");
  $("drop-text").textContent = `${name} · ${bytes.length.toLocaleString()} bytes`;
  $("decode").disabled = false;
  const info = wai.inspect(bytes);
  setStatus(info.ok ? "idle" : "bad", info.ok
    ? `${info.capability ?? "unknown capability"} · ${info.format} — ready to decode`
    : `Parse refused: <code>${info.status}</code> — ${describeStatus(info.status)}`);
}

function loadedSet(members, pin = null) {
  state.set = members;
  state.pin = pin;
  const names = Object.keys(members);
  $("set-drop").classList.toggle("loaded", names.length > 0);
  $("set-text").textContent = names.length ? `${names.length} members: ${names.join(", ")}` +
    (pin ? ` · pinned ${pin.slice(0, 16)}…` : "") : "Drop or pick the set's files";
}

$("payload-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) loadedPayload(f.name, await fileBytes(f));
});
$("set-files").addEventListener("change", async (e) => {
  const m = {};
  for (const f of e.target.files) m[f.name] = await fileBytes(f);
  loadedSet(m);
});
for (const id of ["drop", "set-drop"]) {
  const el = $(id);
  el.addEventListener("dragover", (e) => (e.preventDefault(), el.classList.add("over")));
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", async (e) => {
    e.preventDefault();
    el.classList.remove("over");
    const files = [...e.dataTransfer.files];
    if (id === "drop" && files[0]) loadedPayload(files[0].name, await fileBytes(files[0]));
    if (id === "set-drop") {
      const m = {};
      for (const f of files) m[f.name] = await fileBytes(f);
      loadedSet(m);
    }
  });
}

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

const hex = (buf) => [...new Uint8Array(buf)].map((x) => x.toString(16).padStart(2, "0")).join("");

async function loadExample(name) {
  const ex = EXAMPLES[name];
  loadedPayload(name, await fetchBytes(new URL(ex.file, examplesRoot)));
  const m = {};
  let pin = null;
  if (ex.set) {
    const listing = await fetchBytes(new URL(`${ex.set}/listing.json`, examplesRoot));
    m["listing.json"] = listing;
    for (const { name: n } of JSON.parse(new TextDecoder().decode(listing)).members)
      m[n] = await fetchBytes(new URL(`${ex.set}/${n}`, examplesRoot));
    pin = hex(await crypto.subtle.digest("SHA-256", listing));
  }
  loadedSet(m, pin);
}
$("example").addEventListener("change", async (e) => {
  if (e.target.value) {
    await loadExample(e.target.value);
    await decode();
  }
});

// ---- decoding --------------------------------------------------------------------

// The GPU path (docs/wgsl.md): on where the page has a device; the box
// offers the CPU path for comparison.
{
  const g = wai.gpuInfo;
  $("gpu-info").textContent = g.device ? `(${g.device})` : `(none: ${g.reason})`;
  $("use-gpu").checked = Boolean(g.device);
  $("use-gpu").disabled = !g.device;
  $("cpu-info").textContent = `CPU path: ${wai.cpuLevel} kernels, ${wai.threads} thread${wai.threads > 1 ? "s" : ""}` +
    (globalThis.crossOriginIsolated ? "" : " (the page is not cross-origin isolated: no shared memory)");
}

function options() {
  const o = { set: state.set, gpu: $("use-gpu").checked };
  if (state.pin) o.pin = state.pin;
  if ($("capability").value) o.capability = $("capability").value;
  if ($("intent").value) o.intent = $("intent").value;
  const mc = $("max-cost").value.trim();
  if (mc) o.maxCost = BigInt(mc);
  return o;
}

async function decodeBytes(bytes, opts) {
  const t0 = performance.now();
  const r = await wai.decodeAsync(bytes, opts);
  r.wallMs = performance.now() - t0;
  return r;
}

async function decode() {
  if (!state.payload) return;
  stop();
  setStatus("busy", `Decoding ${state.payloadName}…`);
  $("decode").disabled = true;
  await new Promise((r) => setTimeout(r, 20)); // let the status paint
  let r;
  try {
    r = await decodeBytes(state.payload, options());
  } catch (e) {
    setStatus("bad", `The call failed: <code>${e.code ?? e.name}</code> ${e.message}`);
    $("decode").disabled = false;
    return;
  }
  $("decode").disabled = false;
  show(r);
  return r;
}
$("decode").addEventListener("click", decode);

async function decodeExample(name, extra = {}) {
  await loadExample(name);
  for (const [k, v] of Object.entries(extra)) $(k).value = v;
  const r = await decode();
  for (const k of Object.keys(extra)) $(k).value = "";
  return r;
}

// ---- showing ------------------------------------------------------------------------

function show(r) {
  state.result = r;
  state.outputs = r.outputs;
  $("transport").hidden = true;
  $("audio").hidden = true;
  $("planes").replaceChildren();
  $("canvas").hidden = true;
  $("empty").hidden = r.outputs.length > 0;
  $("empty").textContent = r.ok ? "This decode has no output to show." :
    `Nothing to show: the decode was refused (${r.status}).`;
  if (r.ok) {
    const o = r.outputs;
    const what = o.length ? `${o.length} ${o[0].kind}${o.length > 1 ? "s" : ""}` : "no output";
    setStatus("ok", `Decoded ${state.payloadName}: ${what} in ${r.wallMs.toFixed(1)} ms`);
  } else {
    // A float decode in a browser without WebNN: say how to get it, and
    // offer what decodes without it (the integer path's photographs).
    const noWebnn = r.status === "not_dispatchable" && !navigator.ml &&
      r.report?.refused?.some((f) => f.backend === "webnn" && f.reason === "dispatch_unit_absent");
    setStatus("bad", `Refused: <code>${r.status}</code> — ${describeStatus(r.status)}` +
      (r.symbolsDigest ? " (the entropy stage decoded: its digest is below)" : "") +
      (noWebnn ? `<br><span id="no-webnn">This browser exposes no WebNN, which this float codec's ` +
        `networks need. In Chromium, enable it with <code>--enable-features=WebMachineLearningNeuralNetwork</code> ` +
        `(or <code>chrome://flags/#web-machine-learning-neural-network</code>) and reload. Without it, the ` +
        `integer path decodes photographs exactly: <button id="try-integer">decode chelsea.wih1</button></span>` : ""));
    if (noWebnn) $("try-integer").addEventListener("click", () => decodeExample("chelsea.wih1"));
  }
  if (r.outputs.length) {
    const kind = r.outputs[0].kind;
    if (kind === "frame" || kind === "image") {
      $("canvas").hidden = false;
      state.frame = 0;
      draw();
      if (r.outputs.length > 1) {
        $("transport").hidden = false;
        $("seek").max = r.outputs.length - 1;
      }
    } else if (kind === "pcm") {
      $("audio").hidden = false;
      const o = r.outputs[0];
      $("audio-info").textContent = `${o.data.length.toLocaleString()} samples at ${o.sampleRate} Hz · ${(o.data.length / o.sampleRate).toFixed(2)} s`;
    } else if (kind === "planes") {
      showPlanes(r.outputs[0]);
    }
  }
  facts(r);
  report(r.report);
}

function draw() {
  const o = state.outputs[state.frame];
  if (!o) return;
  const c = $("canvas");
  c.width = o.width;
  c.height = o.height;
  c.style.width = `${Math.min(o.width * Math.max(1, Math.floor(560 / o.width)), 1200)}px`;
  c.getContext("2d").putImageData(toImageData(o), 0, 0);
  $("seek").value = state.frame;
  $("frame-no").textContent = `${state.frame + 1} / ${state.outputs.length}`;
}

function stop() {
  clearInterval(state.timer);
  state.timer = 0;
  $("play").textContent = "▶";
}
$("play").addEventListener("click", () => {
  if (state.timer) return stop();
  const fps = Math.max(1, Math.min(240, Number($("fps").value) || 25));
  $("play").textContent = "⏸";
  state.timer = setInterval(() => {
    state.frame = (state.frame + 1) % state.outputs.length;
    draw();
  }, 1000 / fps);
});
$("prev").addEventListener("click", () => (stop(), (state.frame = Math.max(0, state.frame - 1)), draw()));
$("next").addEventListener("click", () => (stop(), (state.frame = Math.min(state.outputs.length - 1, state.frame + 1)), draw()));
$("seek").addEventListener("input", (e) => (stop(), (state.frame = Number(e.target.value)), draw()));

$("play-audio").addEventListener("click", () => {
  const o = state.outputs[0];
  const ac = new AudioContext({ sampleRate: o.sampleRate });
  const buf = ac.createBuffer(1, o.data.length, o.sampleRate);
  const ch = buf.getChannelData(0);
  for (let i = 0; i < o.data.length; i++) ch[i] = o.data[i] / 32768;
  const src = ac.createBufferSource();
  src.buffer = buf;
  src.connect(ac.destination);
  src.start();
});

function showPlanes(o) {
  const side = o.width, n = o.data.length / (side * side);
  for (let p = 0; p < n; p++) {
    const c = document.createElement("canvas");
    c.width = c.height = side;
    const img = c.getContext("2d").createImageData(side, side);
    for (let i = 0; i < side * side; i++) {
      const v = o.data[p * side * side + i];
      img.data.set([v, v, v, 255], 4 * i);
    }
    c.getContext("2d").putImageData(img, 0, 0);
    c.title = `plane ${p}`;
    $("planes").append(c);
  }
}

function bytes(n) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

function facts(r) {
  const rows = [["capability", r.capability ?? "—"], ["status", r.status]];
  if (r.outputs.length) {
    const o = r.outputs[0];
    rows.push(["outputs", `${r.outputs.length} × ${o.kind}${o.kind === "pcm" ? "" : ` ${o.width}×${o.height}`}`]);
  }
  if (r.cost) {
    rows.push(["declared work", `${Number(r.cost.macs).toLocaleString()} MACs + ${Number(r.cost.entropy_steps).toLocaleString()} symbols`]);
    rows.push(["declared memory", bytes(Number(r.cost.working_bytes))]);
  }
  if (r.symbolsDigest) rows.push(["symbols digest", r.symbolsDigest]);
  rows.push(["time", `${r.wallMs.toFixed(1)} ms`]);
  for (const [k, v] of Object.entries(r.timing ?? {}))
    if (k !== "total_ms") rows.push([k.replace(/_ms$/, "").replace(/_/g, " "), typeof v === "number" ? `${v.toFixed(1)} ms` : v]);
  $("facts").replaceChildren(...rows.flatMap(([k, v]) => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = k;
    dd.textContent = v;
    return [dt, dd];
  }));
}

function report(rep) {
  const box = $("report");
  if (!rep) {
    box.innerHTML = `<p class="muted">No dispatch for this decode (a capability without networks, or a refusal before the dispatch).</p>`;
    return;
  }
  const rows = [];
  const head = document.createElement("p");
  head.className = "muted";
  head.textContent = `needs ${rep.needed}`;
  rows.push(head);
  const line = (p, why, ran) => {
    const d = document.createElement("div");
    d.className = `path${ran ? " ran" : ""}`;
    d.innerHTML = `<span>${p.unit} / ${p.backend} / ${p.arithmetic}</span><span class="why"></span>`;
    d.querySelector(".why").textContent = why;
    d.title = ran ? "this path ran the networks" : describeStatus(why);
    return d;
  };
  for (const f of rep.refused) rows.push(line(f, f.reason, false));
  if (rep.ran) rows.push(line(rep.ran, `ran · ${rep.ran.tier}`, true));
  box.replaceChildren(...rows);
}
