// SPDX-License-Identifier: BSD-2-Clause
// The libwai player page (web/demo/): pick or drop a payload and its set,
// decode it with libwai's WebAssembly module (float networks on the
// browser's WebNN), see the pictures, clip, sound or planes, the dispatch
// report and the timing. Served from the repository's root, it also offers
// the shipped examples.
import { createWai, DEFAULT_MAX_MEMORY, describeStatus, SET_LISTING, toImageData } from "../src/index.js";

const $ = (id) => document.getElementById(id);
const state = { payload: null, payloadName: "", set: {}, setBytes: 0n, pin: null, outputs: [], frame: 0, timer: 0,
  result: null, setLoad: null };
// As many threads as the machine has, where the page is cross-origin
// isolated (docs/web.md, "Threads"); one elsewhere.
const wai = await createWai({ threads: "auto" });
window.__wai = { wai, state, decodeExample, decodeBytes, decodePayload, loadPayloadFile, loadSetFiles };
// The names a set's files are read for: every member some capability's
// path reads (the codec table's, wai.memberNames()), the listing, and the
// files the listing names. No other file given is read.
const MEMBER_NAMES = new Set(wai.memberNames());

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

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v) => Number(v).toLocaleString("en");

/** The page's memory limit, in bytes: the Max memory field, or the npm
 * package's default (DEFAULT_MAX_MEMORY, 1 GiB). A payload, and a set's
 * members together, past it are refused before they are read; a decode
 * may declare what is left of it beside its set. */
function memoryLimit() {
  const v = $("max-memory").value.trim();
  if (!v) return DEFAULT_MAX_MEMORY;
  if (!/^[0-9]{1,20}$/.test(v)) throw new PageRefusal("invalid_argument", `Max memory: "${v}" is not a number of bytes`);
  return BigInt(v);
}

/** A refusal by the page itself, before anything is read or decoded. */
class PageRefusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** A listing's names (its members[].name, as loadExample reads it); a
 * listing that is no JSON, or has no members array, names none: libwai
 * then judges the set it came with. */
function listedNames(bytes) {
  const j = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  if (!j || !Array.isArray(j.members)) throw new Error("no members array");
  return j.members.map((m) => m?.name).filter((x) => typeof x === "string" && x.length > 0);
}

/** A file read once, after its size was checked: a file that is not the
 * size it said (changed since it was picked) is refused. */
async function readChecked(f) {
  const b = await fileBytes(f);
  if (b.length !== f.size) throw new PageRefusal("set_incomplete", `${f.name} changed while it was read (${num(f.size)} bytes, then ${num(b.length)})`);
  return b;
}

/** A set from the files picked or dropped, read by name: the listing
 * (listing.json) first, then each member some capability's path reads and
 * each file the listing names, once, in name order, and only after every
 * one's size (File.size) has been added up: a member that would take the
 * set past the page's memory limit is refused cost_over_limit, named with
 * its size, before any of them is read. Every other file is named as
 * ignored, never read. Returns what was read, ignored, listed and missing,
 * or the refusal. */
async function readSetFiles(files) {
  const limit = memoryLimit();
  const byName = new Map(), ignored = [];
  for (const f of files) {
    if (byName.has(f.name)) ignored.push(`${f.name} (a second file of that name)`);
    else byName.set(f.name, f);
  }
  const members = {};
  let total = 0n, listed = [], note = null;
  const past = (f) => new PageRefusal("cost_over_limit", `set member ${f.name}: ${num(f.size)} bytes, past the ` +
    `page's max-memory (${num(limit)} bytes, ${num(limit - total)} left of it): refused before it was read`);
  const listing = byName.get(SET_LISTING);
  if (listing) {
    if (total + BigInt(listing.size) > limit) throw past(listing);
    members[SET_LISTING] = await readChecked(listing);
    total += BigInt(listing.size);
    try {
      listed = listedNames(members[SET_LISTING]);
    } catch (e) {
      note = `${SET_LISTING} is no listing (${e.message}): it names no file`;
    }
  }
  const wanted = new Set([...MEMBER_NAMES, ...listed]);
  wanted.delete(SET_LISTING);
  const take = [...byName.keys()].filter((k) => wanted.has(k)).sort();
  for (const [k, f] of byName) if (k !== SET_LISTING && !wanted.has(k)) ignored.push(`${k} (not a member)`);
  // Every size first, then the reads: a refusal reads nothing more.
  let sum = total;
  for (const k of take) {
    const f = byName.get(k);
    if (sum + BigInt(f.size) > limit) {
      total = sum;
      throw past(f);
    }
    sum += BigInt(f.size);
  }
  for (const k of take) {
    members[k] = await readChecked(byName.get(k));
    total += BigInt(byName.get(k).size);
  }
  const missing = [...new Set(listed)].filter((k) => k !== SET_LISTING && !byName.has(k));
  return { members, bytes: total, read: Object.keys(members), ignored, listed, missing, note };
}

/** The files picked or dropped as the set (the set-files input, set-drop):
 * what readSetFiles read, or its refusal, shown on the page; a refused set
 * is no set. Returns { status, read, ignored, missing, note, message }. */
async function loadSetFiles(files) {
  const token = {};
  state.setLoad = token;
  let got, refusal = null;
  try {
    got = await readSetFiles([...files]);
  } catch (e) {
    // The page's refusal, or a file the browser could not read (NotReadableError, ...).
    refusal = { status: e instanceof PageRefusal ? e.code : e?.name ?? "Error", message: e?.message ?? String(e) };
  }
  if (state.setLoad !== token) return { status: "superseded" }; // a later pick took its place
  if (refusal) {
    loadedSet({});
    $("set-note").textContent = `Set refused: ${refusal.status}: ${refusal.message}`;
    setStatus("bad", `Set refused: <code>${esc(refusal.status)}</code> — ${esc(refusal.message)}`);
    return { ...refusal, read: [], ignored: [], missing: [] };
  }
  loadedSet(got.members, null, got.bytes);
  const lines = [];
  if (got.ignored.length) lines.push(`ignored: ${got.ignored.join(", ")}`);
  if (got.missing.length) lines.push(`listed, not given: ${got.missing.join(", ")}`);
  if (got.note) lines.push(got.note);
  $("set-note").textContent = lines.join(" · ");
  const { members, bytes, ...rest } = got;
  return { status: "ok", ...rest, bytes: Number(bytes), message: $("set-note").textContent };
}

/** A payload picked or dropped: read once, after its size is checked
 * against the page's memory limit (past it: cost_over_limit, not read). */
async function loadPayloadFile(f) {
  try {
    const limit = memoryLimit();
    if (BigInt(f.size) > limit)
      throw new PageRefusal("cost_over_limit", `payload ${f.name}: ${num(f.size)} bytes, past the page's max-memory ` +
        `(${num(limit)} bytes): refused before it was read`);
    const b = await fileBytes(f);
    loadedPayload(f.name, b);
    return { status: "ok" };
  } catch (e) {
    const code = e instanceof PageRefusal ? e.code : e?.name ?? "Error";
    state.payload = null;
    $("decode").disabled = true;
    $("drop").classList.remove("loaded");
    $("drop-text").textContent = "Drop a payload here, or click to pick one";
    setStatus("bad", `Payload refused: <code>${esc(code)}</code> — ${esc(e.message ?? e)}`);
    return { status: code, message: e.message ?? String(e) };
  }
}

function loadedPayload(name, bytes) {
  state.payload = bytes;
  state.payloadName = name;
  $("drop").classList.add("loaded");
  $("drop-text").textContent = `${name} · ${bytes.length.toLocaleString()} bytes`;
  $("decode").disabled = false;
  let info;
  try {
    info = wai.inspect(bytes);
  } catch (e) {
    info = { ok: false, status: e.code ?? e.name };
  }
  setStatus(info.ok ? "idle" : "bad", info.ok
    ? `${info.capability ?? "unknown capability"} · ${info.format} — ready to decode`
    : `Parse refused: <code>${info.status}</code> — ${describeStatus(info.status)}`);
}

function loadedSet(members, pin = null, bytes = null) {
  state.set = members;
  state.pin = pin;
  state.setBytes = bytes ?? Object.values(members).reduce((a, b) => a + BigInt(b.length), 0n);
  $("set-note").textContent = "";
  const names = Object.keys(members);
  $("set-drop").classList.toggle("loaded", names.length > 0);
  $("set-text").textContent = names.length ? `${names.length} members: ${names.join(", ")}` +
    (pin ? ` · pinned ${pin.slice(0, 16)}…` : "") : "Drop or pick the set's files";
}

$("payload-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (f) await loadPayloadFile(f);
});
$("set-files").addEventListener("change", (e) => loadSetFiles(e.target.files));
for (const id of ["drop", "set-drop"]) {
  const el = $(id);
  el.addEventListener("dragover", (e) => (e.preventDefault(), el.classList.add("over")));
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", async (e) => {
    e.preventDefault();
    el.classList.remove("over");
    const files = [...e.dataTransfer.files];
    if (id === "drop" && files[0]) await loadPayloadFile(files[0]);
    if (id === "set-drop") await loadSetFiles(files);
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
  // The set stays in memory through the decode: the two share the limit.
  const limit = memoryLimit();
  if (state.setBytes > limit)
    throw new PageRefusal("cost_over_limit", `the set's ${num(state.setBytes)} bytes are past the page's max-memory (${num(limit)} bytes)`);
  o.maxMemory = limit - state.setBytes;
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
    // The page's own refusal (a set past its limit), or a call the
    // library could not make: a result all the same, never a throw.
    const code = e.code ?? e.name;
    setStatus("bad", `${e instanceof PageRefusal ? "Refused by the page" : "The call failed"}: ` +
      `<code>${esc(code)}</code> ${esc(e.message)}`);
    $("decode").disabled = false;
    return { status: code, ok: false, outputs: [], report: null, message: e.message };
  }
  $("decode").disabled = false;
  show(r);
  return r;
}
$("decode").addEventListener("click", decode);

/** bytes, named name, as if picked: loaded (inspected), then decoded with
 * the page's options and set. */
async function decodePayload(name, bytes) {
  loadedPayload(name, bytes);
  return decode();
}

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
