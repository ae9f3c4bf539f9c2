// SPDX-License-Identifier: BSD-2-Clause
// libwai for JavaScript: the C library compiled to WebAssembly (web/glue/,
// docs/web.md), in a page or in node. Every decode is the C decoder's: the
// same bytes as a native decode, the same refusal codes, the same dispatch
// report.
//
//   import { createWai } from "libwai";
//   const wai = await createWai();
//   const r = wai.decode(payloadBytes, { set: { "g_s.whm": ..., ... } });
//   if (r.ok) for (const o of r.outputs) ...;  else console.log(r.status);
import { decodeSteps, HAS_JSPI, PAGE_OFFER } from "./float.js";
import { ortOf } from "./ort.js";
import { parsePin, pinTierOf } from "./pin.js";
import { learnStatuses, routes } from "./statuses.js";
import { instantiate, threadsSource } from "./wasm.js";
import { WgslDevice } from "./wgsl.js";

const U64_MAX = (1n << 64n) - 1n;
/** The default memory a decode may declare: 1 GiB, under the module's 2 GiB
 * ceiling, so a payload declaring more is refused cost_over_limit before
 * anything is allocated. */
export const DEFAULT_MAX_MEMORY = 1n << 30n;
/** A set's listing member (WAI_SET_LISTING): it names the set's files. */
export const SET_LISTING = "listing.json";

/** A call the library cannot make: a wrong argument, or a module that
 * could not allocate. `code` is the spec's or libwai's status name. */
export class WaiError extends Error {
  constructor(code, message) {
    super(message ? `${code}: ${message}` : code);
    this.name = "WaiError";
    this.code = code;
  }
}

function u64(v, dflt, what) {
  if (v === undefined || v === null) return dflt;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === "bigint" && v >= 0n && v <= U64_MAX) return v;
  throw new WaiError("invalid_argument", `${what} must be a non-negative integer`);
}

function bytesOf(v, what) {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new WaiError("invalid_argument", `${what} must be bytes (Uint8Array or ArrayBuffer)`);
}

class Module {
  constructor(ex) {
    this.ex = ex;
    this.enc = new TextEncoder();
    this.dec = new TextDecoder();
  }
  u8() {
    return new Uint8Array(this.ex.memory.buffer);
  }
  alloc(n) {
    const p = this.ex.wai_web_alloc(n);
    if (!p) throw new WaiError("out_of_memory", "the module's memory is full");
    return p;
  }
  put(bytes) {
    const p = this.alloc(bytes.length);
    this.u8().set(bytes, p);
    return p;
  }
  str(s) {
    if (s === undefined || s === null) return 0;
    const b = this.enc.encode(String(s));
    const p = this.alloc(b.length + 1);
    const m = this.u8();
    m.set(b, p);
    m[p + b.length] = 0;
    return p;
  }
  read(p) {
    const m = this.u8();
    let e = p;
    while (m[e]) e++;
    return this.dec.decode(m.slice(p, e)); // a copy: TextDecoder takes no shared memory
  }
  free(...ps) {
    for (const p of ps) if (p) this.ex.wai_web_free(p);
  }
  /** A result's JSON and its outputs, copied out; the result freed. */
  /** A result's JSON and its output bytes: build(json, view) makes what
   * is kept (copies) while the view into the module's memory is valid;
   * by default one copy of the whole. Then the result is freed. */
  take(r, build = (json, view) => ({ json, data: view.slice() })) {
    if (!r) throw new WaiError("out_of_memory", "the module's memory is full");
    const ex = this.ex;
    try {
      const json = JSON.parse(this.read(ex.wai_web_result_json(r)));
      const at = ex.wai_web_result_data(r);
      return build(json, at ? this.u8().subarray(at, at + ex.wai_web_result_size(r)) : new Uint8Array(0));
    } finally {
      ex.wai_web_result_free(r);
    }
  }
  /** A decode's result, each output copied once out of the module's memory. */
  takeResult(r) {
    return this.take(r, (json, view) => resultOf(json, view));
  }
}

// view: the result's bytes in the module's memory; slice copies them out.
function outputOf(o, view) {
  const bytes = view.slice(o.offset, o.offset + o.size);
  return {
    kind: o.kind,
    width: o.width,
    height: o.height,
    index: o.index,
    sampleRate: o.sample_rate,
    // PCM: i16 little-endian, as WebAssembly's memory is.
    data: o.kind === "pcm" ? new Int16Array(bytes.buffer, 0, bytes.length >> 1) : bytes,
  };
}

function resultOf(json, data) {
  return {
    status: json.status,
    ok: json.status === "ok",
    capability: json.capability ?? null,
    cost: json.cost ?? null,
    outputs: (json.outputs ?? []).map((o) => outputOf(o, data)),
    report: json.report ?? null,
    symbolsDigest: json.symbols_digest ?? null,
  };
}

/** A parameter set: an object or Map of member name -> bytes, and its pin
 * (the SHA-256 of its listing.json, or of a one-file set's file; L5, L5a):
 * a pinned decode whose set is not the pinned one is set_incomplete, as in
 * C. A pin without a set pins an empty one. */
function makeSet(m, ctx, set, pin) {
  if (!set && pin == null) return 0;
  const digest = pin == null ? null : parsePin(pin).digest;
  const entries = !set ? [] : set instanceof Map ? [...set.entries()] : Object.entries(set);
  const s = m.ex.wai_web_set_create(ctx);
  if (!s) throw new WaiError("out_of_memory", "cannot make a set");
  const fail = (st, what) => {
    m.ex.wai_web_set_destroy(s);
    throw new WaiError(m.read(m.ex.wai_web_status_name(st)), what);
  };
  for (const [name, value] of entries) {
    const b = bytesOf(value, `set member ${name}`);
    const np = m.str(name);
    const dp = m.put(b);
    const st = m.ex.wai_web_set_add(s, np, dp, b.length);
    m.free(np, dp);
    if (st !== 0) fail(st, `set member ${name}`);
  }
  if (digest) {
    const dp = m.put(digest);
    const st = m.ex.wai_web_set_pin(s, dp);
    m.free(dp);
    if (st !== 0) fail(st, "pin");
  }
  return s;
}

/** A stream's decoder: send() one payload after another (a frame form's
 * frames), close() when done. */
export class Decoder {
  constructor(wai, opts = {}) {
    const m = wai.m;
    this.m = m;
    // A GPU decoder (opts.gpu and a page with one) decodes only through
    // sendAsync: its networks wait on the GPU; a float one (opts.float, an
    // engine with JSPI) on the host's float backends.
    this.gpu = Boolean(opts.gpu && wai.gpuCtx);
    this.float = Boolean(opts.float && wai.floatCtx);
    this.wai = wai;
    const ctx = this.float ? wai.floatCtx : this.gpu ? wai.gpuCtx : wai.ctx;
    this.strings = [opts.capability, opts.intent, pinTierOf(opts), opts.offer].map((s) => m.str(s));
    this.set = makeSet(m, ctx, opts.set, opts.pin);
    // A streaming twin (frames()) is made with the same arguments.
    this.make = (streaming) => m.ex.wai_web_decoder_create(ctx, this.strings[0], this.set,
      u64(opts.maxCost, U64_MAX, "maxCost"), u64(opts.maxMemory, DEFAULT_MAX_MEMORY, "maxMemory"),
      this.strings[1], this.strings[2], this.strings[3], streaming ? 1 : 0);
    this.h = this.make(false);
    if (!this.h) {
      this.close();
      throw new WaiError("out_of_memory", "cannot make a decoder");
    }
    const st = m.ex.wai_web_decoder_status(this.h);
    this.status = m.read(m.ex.wai_web_status_name(st));
  }
  /** Decodes one payload: { status, ok, capability, cost, outputs, report,
   * symbolsDigest }. A refusal is a status, never an exception. */
  send(payload) {
    if (!this.h) throw new WaiError("invalid_argument", "the decoder is closed");
    if (this.gpu || this.float)
      throw new WaiError("invalid_argument", "this decoder decodes with sendAsync");
    const b = bytesOf(payload, "payload");
    const p = this.m.put(b);
    try {
      return this.m.takeResult(this.m.ex.wai_web_decoder_send(this.h, p, b.length));
    } finally {
      this.m.free(p);
    }
  }
  /** A clip's outputs one at a time, each decoded when asked for (a
   * streaming decoder with this one's options: about two frames of memory
   * whatever the clip's length): a generator of outputs as send()'s, from
   * frame `start` on (a seek: the frames before it are decoded, as each
   * predicts the next, but not copied out; an output's index keeps its
   * frame's number), at most `count` of them. A refusal part-way throws
   * WaiError after the frames before it were yielded, and those frames
   * belong to a refused clip (send() keeps §8: a refused clip outputs
   * nothing). */
  *frames(payload, { start = 0, count = Infinity } = {}) {
    if (!this.h) throw new WaiError("invalid_argument", "the decoder is closed");
    if (this.gpu || this.float)
      throw new WaiError("invalid_argument", "frames() decodes on the integer path alone");
    if (!(Number.isInteger(start) && start >= 0) || !(count === Infinity || (Number.isInteger(count) && count >= 0)))
      throw new WaiError("invalid_argument", "frames(): start and count are whole numbers");
    const m = this.m, ex = m.ex;
    const b = bytesOf(payload, "payload");
    const h = this.make(true);
    if (!h) throw new WaiError("out_of_memory", "cannot make a decoder");
    const p = m.put(b); // read by every next(), so kept until the end
    try {
      const st = ex.wai_web_decoder_start(h, p, b.length, BigInt(start));
      if (st !== 0) throw new WaiError(m.read(ex.wai_web_status_name(st)), "decode");
      for (let n = 0; n < count; n++) {
        const r = m.takeResult(ex.wai_web_decoder_next(h));
        if (!r.ok) throw new WaiError(r.status, "decode");
        if (!r.outputs.length) return;
        yield r.outputs[0];
      }
    } finally {
      ex.wai_web_decoder_destroy(h);
      m.free(p);
    }
  }
  /** send(), with the networks on the page's GPU where this is a GPU
   * decoder (the module waits on it through JSPI); one at a time per
   * module. The result has `timing` (ms): total_ms, networks_gpu_ms (the
   * GPU's runs with their transfers), module_ms (the rest, in the C). */
  sendAsync(payload) {
    if (!this.h) throw new WaiError("invalid_argument", "the decoder is closed");
    if (!this.gpu) return Promise.resolve(this.send(payload));
    const b = bytesOf(payload, "payload");
    this.busy = (this.busy ?? 0) + 1;
    return this.wai.serial(async () => {
      const dev = this.wai.gpu.device;
      const t0 = performance.now(), g0 = dev.gpuMs;
      if (!this.h) throw new WaiError("invalid_argument", "the decoder is closed");
      const p = this.m.put(b);
      try {
        const r = this.m.takeResult(await this.m.sendPromising(this.h, p, b.length));
        const total = performance.now() - t0, gpu = dev.gpuMs - g0;
        r.timing = { total_ms: total, networks_gpu_ms: gpu, module_ms: total - gpu };
        return r;
      } finally {
        this.m.free(p);
      }
    }).finally(() => { this.busy--; });
  }
  close() {
    // A GPU decode in flight holds the decoder in the module's suspended stack.
    if (this.busy) throw new WaiError("invalid_argument", "the decoder is decoding: await sendAsync first");
    const ex = this.m.ex;
    if (this.h) ex.wai_web_decoder_destroy(this.h);
    if (this.set) ex.wai_web_set_destroy(this.set);
    this.m.free(...this.strings);
    this.h = this.set = 0;
    this.strings = [];
  }
}

/** The kernels' instruction set levels (wai_cpu_level, include/wai/wai.h). */
export const CPU_LEVELS = ["host", "portable", "avx2", "avx512", "avx512bw", "avx512vnni", "wasm128", "neon"];

export class Wai {
  constructor(ex, gpu = {}, cpuLevel = "host", threads = 1) {
    this.m = new Module(ex);
    const level = CPU_LEVELS.indexOf(cpuLevel);
    if (level < 0) throw new WaiError("invalid_argument", `no kernel level ${cpuLevel}`);
    this.workers = [];
    this.ctx = ex.wai_web_context_create(level, threads);
    if (!this.ctx) {
      throw level > 1 ? new WaiError("invalid_argument", `the module has no ${cpuLevel} kernels`)
        : new WaiError("out_of_memory", "cannot make a context");
    }
    // The GPU path's context, where the page has a device: its decodes go
    // through the promising send, one at a time (serial), since a module
    // waiting on the GPU keeps its C stack in the module's memory.
    this.gpu = gpu;
    this.gpuCtx = 0;
    if (gpu.device) {
      this.m.sendPromising = WebAssembly.promising(ex.wai_web_decoder_send);
      this.gpuCtx = ex.wai_web_context_create_gpu();
      if (!this.gpuCtx) throw new WaiError("out_of_memory", "cannot make a context");
    }
    // The float paths' context, where the engine has JSPI: its backends are
    // the host's (web/glue/js_backends.c), its decodes the promising send's.
    this.floatHost = ex.floatHost;
    this.floatCtx = 0;
    if (HAS_JSPI) {
      this.m.sendPromising ??= WebAssembly.promising(ex.wai_web_decoder_send);
      this.floatCtx = ex.wai_web_context_create_float();
      if (!this.floatCtx) throw new WaiError("out_of_memory", "cannot make a context");
    }
    this.queue = Promise.resolve();
  }
  /** The level the CPU path's kernels run at: "wasm128" (SIMD128) or "portable". */
  get cpuLevel() {
    return CPU_LEVELS[this.m.ex.wai_web_context_cpu_level(this.ctx)];
  }
  /** The threads the CPU path's kernels split over: 1, plus the workers
   * serving (docs/web.md, "Threads"). */
  get threads() {
    return this.ctx ? this.m.ex.wai_web_context_threads(this.ctx) : 1;
  }
  /** Starts n workers on the threads module for this context and waits
   * until each serves it or has failed; returns the count serving. */
  async startWorkers(n) {
    const ex = this.m.ex;
    const node = typeof process === "object" && Boolean(process.versions?.node);
    const Worker = node ? (await import("node:worker_threads")).Worker : globalThis.Worker;
    const url = new URL("./worker.js", import.meta.url);
    const started = [];
    for (let i = 0; i < n; i++) {
      const stack = ex.wai_web_alloc(WORKER_STACK);
      if (!stack) break;
      const w = node ? new Worker(url) : new Worker(url, { type: "module" });
      if (node) w.unref(); // an idle pool does not keep node running
      const worker = { w, stack, serving: false };
      this.workers.push(worker);
      started.push(new Promise((ok) => {
        const on = (m) => {
          const d = node ? m : m.data;
          if (d.serving) worker.serving = true;
          if (d.serving || d.error) ok();
        };
        if (node) w.on("message", on), w.on("error", () => ok());
        else w.addEventListener("message", on), w.addEventListener("error", () => ok());
      }));
      w.postMessage({ module: ex.module, memory: ex.memory, ctx: this.ctx, stackTop: stack + WORKER_STACK });
    }
    await Promise.all(started);
    // Each says so just before it enters the pool: wait until it has.
    const serving = this.workers.filter((x) => x.serving).length;
    for (let t = 0; this.threads < 1 + serving && t < 5000; t++) await new Promise((r) => setTimeout(r, 1));
    return this.threads - 1;
  }
  /** The GPU path here: { device } (the adapter's name) or { reason } it is absent. */
  get gpuInfo() {
    return this.gpu.device ? { device: this.gpu.device.name } : { reason: this.gpu.reason ?? "none" };
  }
  /** Runs fn after every earlier GPU decode has ended. */
  serial(fn) {
    const p = this.queue.then(fn);
    this.queue = p.catch(() => {});
    return p;
  }
  /** Decodes one payload (a whole clip, image, sound or splat): options
   * capability (default: the payload's magic), set ({name: bytes}), pin
   * (the set's: its listing.json's SHA-256, hex; a set that is not the
   * pinned one is set_incomplete), maxCost, maxMemory (BigInt or number),
   * intent, pinTier, offer. */
  decode(payload, opts = {}) {
    const d = new Decoder(this, opts);
    try {
      if (d.status !== "ok") return resultOf({ status: d.status }, new Uint8Array(0));
      return d.send(payload);
    } finally {
      d.close();
    }
  }
  /** Decodes the first of `candidates` the sink can decode through
   * (integer-payloads §8): each { payload, capability?, set?, pin?, intent?,
   * pinTier?, offer? } (decode()'s options; a candidate's pin and pinTier
   * are its own set's), as a WAI1's capability and fallback or a WAI2's entries
   * give them; opts (maxCost, maxMemory) hold for all. A routing refusal
   * (set_incomplete, not_dispatchable, unsupported_capability,
   * cost_over_limit) moves on; any other ends the route with no fallback
   * tried. The result is the last tried candidate's decode(), with
   * `route`: each tried candidate's { capability, status }. */
  route(candidates, opts = {}) {
    if (!Array.isArray(candidates) || candidates.length === 0)
      throw new TypeError("route: candidates is a non-empty array");
    const tried = [];
    for (let i = 0; ; i++) {
      const { payload, ...own } = candidates[i];
      const r = this.decode(payload, { maxCost: opts.maxCost, maxMemory: opts.maxMemory, ...own });
      let capability = r.capability ?? own.capability ?? null;
      if (!capability) {
        try { capability = this.inspect(payload).capability; } catch { capability = null; }
      }
      tried.push({ capability, status: r.status });
      if (!routes(r.status) || i + 1 === candidates.length) return { ...r, route: tried };
    }
  }
  /** Decodes one payload, a float capability's (wai.neural.bmshj2018)
   * included: its networks run on the page's WebNN (options.ml, default
   * navigator.ml; null: none), every other step in libwai's C. An integer
   * capability's networks run on the page's GPU (gpu/wgsl/integer, where
   * it has one and options.gpu is not false), to the CPU's bits. WebNN
   * states no placement: the report names the unit a context was made for,
   * placement null, and the first context whose graph builds and runs is
   * the decode's; options.webnnDevices also returns what MLGraph.devices
   * (a proposed extension) says of each graph built, never as a plan. The
   * result is decode()'s, with `timing` (ms). */
  async decodeAsync(payload, opts = {}) {
    const b = bytesOf(payload, "payload");
    const name = opts.capability ?? this.inspect(b).capability;
    this.caps ??= this.capabilities();
    const info = this.caps.find((c) => c.name === name);
    if (!info || info.tier !== "none") {
      const d = new Decoder(this, { ...opts, gpu: opts.gpu !== false });
      try {
        if (d.status !== "ok") return resultOf({ status: d.status }, new Uint8Array(0));
        const t0 = performance.now();
        const r = await d.sendAsync(b);
        r.timing ??= { total_ms: performance.now() - t0 };
        return r;
      } finally {
        d.close();
      }
    }
    return this.decodeFloat(b, { ...opts, capability: name, offer: opts.offer ?? PAGE_OFFER });
  }
  /** A float capability's decode (decodeAsync): its networks on the host's
   * backends (options.ml, default navigator.ml; options.ort, see ortOf),
   * through the decoder's send where the engine has JSPI (result.steps
   * "decoder"), else step by step (float.js, decodeSteps; "host-loop"). */
  async decodeFloat(b, opts) {
    const ml = opts.ml !== undefined ? opts.ml : globalThis.navigator?.ml;
    const members = opts.set instanceof Map ? Object.fromEntries(opts.set) : opts.set ?? {};
    const now = { ml, ort: await ortOf(opts), members, timing: {},
      webnnDevices: opts.webnnDevices ? [] : null };
    return this.serial(async () => {
      const t0 = performance.now();
      this.floatHost.begin(now);
      try {
        const r = this.floatCtx ? await this.floatThroughDecoder(b, opts) : await this.floatByStep(b, opts);
        now.timing.total_ms = performance.now() - t0;
        r.timing = now.timing;
        if (opts.webnnDevices) r.webnnDevices = now.webnnDevices;
        return r;
      } finally {
        this.floatHost.end();
      }
    });
  }
  async floatThroughDecoder(b, opts) {
    const d = new Decoder(this, { ...opts, float: true });
    try {
      if (d.status !== "ok") return { ...resultOf({ status: d.status }, new Uint8Array(0)), steps: "decoder" };
      const p = this.m.put(b);
      let r;
      try {
        r = { ...this.m.takeResult(await this.m.sendPromising(d.h, p, b.length)), steps: "decoder" };
      } finally {
        this.m.free(p);
      }
      // Refused at the dispatch, no path's run reached the entropy stage:
      // its digest all the same, as a page gives it (neural-dispatch §6.2).
      if (!r.symbolsDigest && r.report && !r.report.ran)
        r.symbolsDigest = this.inspect(b, { capability: opts.capability, set: opts.set, pin: opts.pin })
          .symbolsDigest;
      return r;
    } finally {
      d.close();
    }
  }
  async floatByStep(b, opts) {
    const m = this.m;
    const strs = [opts.capability, opts.intent, pinTierOf(opts), opts.offer].map((s) => m.str(s));
    const set = makeSet(m, this.ctx, opts.set, opts.pin);
    try {
      const r = await decodeSteps(m, this.ctx, this.floatHost, b, set, strs, {
        maxCost: u64(opts.maxCost, U64_MAX, "maxCost"),
        maxMemory: u64(opts.maxMemory, DEFAULT_MAX_MEMORY, "maxMemory"),
      });
      return { ...r, steps: "host-loop" };
    } finally {
      if (set) m.ex.wai_web_set_destroy(set);
      m.free(...strs);
    }
  }
  createDecoder(opts = {}) {
    return new Decoder(this, opts);
  }
  /** The payload's parse, header and declared cost, as `wai inspect`
   * gives them; with a set, the cost after its checks and the entropy
   * stage's symbols digest. */
  inspect(payload, opts = {}) {
    const m = this.m;
    const b = bytesOf(payload, "payload");
    const cap = m.str(opts.capability);
    const set = makeSet(m, this.ctx, opts.set, opts.pin);
    const p = m.put(b);
    try {
      const { json } = m.take(m.ex.wai_web_inspect(this.ctx, cap, set, p, b.length));
      return {
        status: json.status,
        ok: json.status === "ok",
        checked: json.checked,
        format: json.format,
        capability: json.capability ?? null,
        header: json.header ?? null,
        costStatus: json.cost_status,
        cost: json.cost ?? null,
        symbolsDigest: json.symbols_digest ?? null,
      };
    } finally {
      m.free(cap, p);
      if (set) m.ex.wai_web_set_destroy(set);
    }
  }
  /** Every capability libwai knows: name, format, tier, decodes, output,
   * members (every file a path of it reads from a set: its set members,
   * the programs of this context's backends, its encoder's members). */
  capabilities() {
    return this.m.take(this.m.ex.wai_web_capabilities(this.ctx)).json;
  }
  /** Every name some capability's path reads from a set, sorted: what a
   * program that fills a set from files reads, besides the listing
   * (SET_LISTING) and the names it lists (docs/web.md, "The page"). */
  memberNames() {
    return [...new Set(this.capabilities().flatMap((c) => c.members ?? []))].sort();
  }
  close() {
    // Destroying the context ends its workers' serve (it waits for them);
    // a worker that never came is stopped first, so none comes after.
    for (const x of this.workers) if (!x.serving) x.w.terminate();
    if (this.ctx) this.m.ex.wai_web_context_destroy(this.ctx);
    if (this.gpuCtx) this.m.ex.wai_web_context_destroy(this.gpuCtx);
    if (this.floatCtx) this.m.ex.wai_web_context_destroy(this.floatCtx);
    for (const x of this.workers) {
      if (x.serving) x.w.terminate();
      this.m.ex.wai_web_free(x.stack);
    }
    this.workers = [];
    this.ctx = this.gpuCtx = this.floatCtx = 0;
  }
}

/** A worker's C stack (the kernels' shares use a few KiB). */
const WORKER_STACK = 1 << 20;

/** The threads asked for: options.threads (a count, or "auto": the
 * machine's cores, at most 8), held to 1 where there is no shared memory
 * (a page that is not cross-origin isolated: docs/web.md, "Threads"). */
async function threadsFor(asked = 1) {
  const shareable = typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated !== false;
  if (!shareable) return 1;
  const node = typeof process === "object" && Boolean(process.versions?.node);
  const cores = globalThis.navigator?.hardwareConcurrency ?? (node ? (await import("node:os")).cpus().length : 1);
  const n = asked === "auto" ? Math.min(cores, 8) : Number(asked);
  return Number.isInteger(n) && n > 1 ? Math.min(n, 64) : 1;
}

/** Loads the module (options.wasm: its bytes, a Response or a URL; default
 * dist/wai.wasm beside this package) and makes a context. options.gpu: the
 * WebGPU entry (default navigator.gpu; null: none) whose adapter runs the
 * integer networks of decodeAsync (docs/wgsl.md); options.gpuProfile: each
 * layer's GPU time in wai.gpu.device.layerLog (timestamp queries);
 * options.cpuLevel: the CPU path kernels' cap ("portable": the C loops
 * alone; default "host", the module's best, "wasm128"); options.threads:
 * the CPU path's threads (default 1; "auto": the cores), run by workers on
 * wai-threads.wasm (options.wasmThreads: its bytes or URL; default beside
 * the module) where the page is cross-origin isolated (else 1).
 * Tests only: gpuBroken (a kernel one limb short), gpuMaxBuffer (a buffer
 * ceiling below the device's), gpuChunk (every tensor in chunks of that
 * many elements). */
export async function createWai(options = {}) {
  const gpu = {};
  const threads = await threadsFor(options.threads);
  let src = threads > 1 ? options.wasmThreads ?? threadsSource(options.wasm) : null;
  let ex = null;
  if (src) {
    try {
      ex = await instantiate(src, gpu, new WebAssembly.Memory({ initial: 256, maximum: 32768, shared: true }));
    } catch (e) {
      // "auto" asked for what the page may have: without the threads module, one thread.
      if (options.threads !== "auto") throw e;
      console.warn(`libwai: one thread (${e?.message ?? e})`);
      src = null;
    }
  }
  ex ??= await instantiate(options.wasm, gpu);
  const entry = options.gpu === undefined ? globalThis.navigator?.gpu : options.gpu;
  const r = await WgslDevice.open(entry, { broken: options.gpuBroken === true, maxBuffer: options.gpuMaxBuffer,
    chunk: options.gpuChunk,
    profile: options.gpuProfile === true });
  gpu.device = r.device ?? null;
  gpu.reason = r.reason ?? null;
  const wai = new Wai(ex, gpu, options.cpuLevel ?? "host", src ? threads : 1);
  const cstr = (p) => (p ? wai.m.read(p) : null);
  learnStatuses((v) => cstr(ex.wai_web_status_name(v)), (v) => cstr(ex.wai_web_status_meaning(v)));
  if (src) await wai.startWorkers(threads - 1);
  return wai;
}

/** An RGB8 frame or image as an ImageData (a page's canvas takes it). */
export function toImageData(output) {
  if (output.kind !== "frame" && output.kind !== "image")
    throw new WaiError("invalid_argument", `a ${output.kind} output is not a picture`);
  const { width, height, data } = output;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    rgba[4 * i] = data[j];
    rgba[4 * i + 1] = data[j + 1];
    rgba[4 * i + 2] = data[j + 2];
    rgba[4 * i + 3] = 255;
  }
  return new ImageData(rgba, width, height);
}

export { describeStatus, routes, ROUTING_CODES, STATUS_CODES } from "./statuses.js";
export { parsePin } from "./pin.js";
