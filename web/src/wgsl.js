// SPDX-License-Identifier: BSD-2-Clause
// The gpu/wgsl/integer path (docs/wgsl.md): WAI's integer networks on a
// GPU through WebGPU, computed by the WGSL kernels of ./wgsl/ to the bits
// of libwai's CPU. libwai's C in the module keeps everything else (the
// parse, the checks, the cost, the entropy stage, the exactness rule, the
// known-answer check before the first decode, the output step); it hands
// this file one whole network at a time (web/glue/gpu_path.c), and the
// module's decode waits on the GPU through JSPI (WebAssembly.Suspending).

const KERNELS = ["conv", "igdn", "act", "amax"];
const ENTRIES = {
  conv: ["conv", "conv_t", "synth_t"], igdn: ["igdn"], act: ["relu", "leaky"],
  amax: ["amax_partial", "amax_final"],
};
const IGDN_BLOCK = 8;
const LAYER = { CONV_T: 0, CONV: 1, IGDN: 2, RELU: 3, LEAKY: 4, SYNTH: 5 };
/** The words of one layer in the glue's description (gpu_path.c). */
export const LAYER_WORDS = 24;
export const HEAD_WORDS = 10;

/** A kernel with one limb short (tests: the known-answer check must refuse
 * a device running it): the convolutions' 64-bit channel sum reads only
 * the low word of each input. */
export const BROKEN_PATCH = ["acc = add64(acc, mul64_i32(X[xi], W[wi]));",
  "acc = add64(acc, mul64_i32(i64(X[xi].x, 0u), W[wi]));"];

async function sourceText(name) {
  const url = new URL(`./wgsl/${name}.wgsl`, import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url, "utf8");
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`libwai: cannot fetch ${url}: ${r.status}`);
  return r.text();
}

const groups = (n) => {
  const count = Math.max(1, Math.ceil(n / 64));
  const x = Math.min(count, 65535);
  return [x, Math.ceil(count / x)];
};

/** A device running the kernels, its pipelines built once. */
export class WgslDevice {
  /** The device of gpu's adapter (navigator.gpu, or node's webgpu), or a
   * reason it has none: { device } or { reason }. options.broken: run
   * BROKEN_PATCH's kernel (tests). */
  static async open(gpu, options = {}) {
    if (!gpu) return { reason: "no navigator.gpu" };
    if (typeof WebAssembly.Suspending !== "function")
      return { reason: "no JSPI (WebAssembly.Suspending): the module cannot wait on the GPU" };
    const adapter = await gpu.requestAdapter();
    if (!adapter) return { reason: "no WebGPU adapter" };
    const lim = adapter.limits;
    // options.profile: each layer's GPU time, where the adapter has timestamp queries.
    const profile = options.profile === true && adapter.features.has("timestamp-query");
    const device = await adapter.requestDevice({
      requiredFeatures: profile ? ["timestamp-query"] : [],
      requiredLimits: {
        maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
        maxBufferSize: lim.maxBufferSize,
      },
    });
    const info = adapter.info ?? {};
    const d = new WgslDevice(device, `${info.vendor ?? ""} ${info.architecture ?? ""}`.trim());
    // Tests: a smaller ceiling than the device's, to meet it with small payloads.
    if (options.maxBuffer) d.ceiling = options.maxBuffer;
    // Tests: every tensor in chunks of this many elements, to tile small payloads.
    if (options.chunk) d.chunk = options.chunk;
    d.profile = profile;
    await d.build(options.broken === true);
    return { device: d };
  }

  constructor(device, name) {
    this.device = device;
    this.name = name || "webgpu";
    this.lost = null;
    device.lost.then((e) => { this.lost = e?.message || "lost"; });
    this.programs = new Map();
    this.nextProgram = 1;
    this.gpuMs = 0;
    /** The networks run in chunks (tensors past the device's buffers). */
    this.tiled = 0;
    /** With profile: every layer run, { kind, in: [c, h, w], out, ms }. */
    this.layerLog = [];
  }

  async build(broken) {
    const lib = await sourceText("int64");
    this.pipelines = {};
    for (const k of KERNELS) {
      let code = await sourceText(k);
      if (broken && k === "conv") {
        if (!code.includes(BROKEN_PATCH[0])) throw new Error("libwai: the broken kernel's patch no longer applies");
        code = code.replace(BROKEN_PATCH[0], BROKEN_PATCH[1]);
      }
      const module = this.device.createShaderModule({ code: `${lib}\n${code}` });
      for (const entryPoint of ENTRIES[k])
        this.pipelines[entryPoint] = await this.device.createComputePipelineAsync({
          layout: "auto", compute: { module, entryPoint },
        });
    }
  }

  openProgram() {
    const id = this.nextProgram++;
    this.programs.set(id, new Map());
    return id;
  }

  closeProgram(id) {
    const p = this.programs.get(id);
    if (!p) return;
    for (const layers of p.values()) for (const l of layers) l.forEach((b) => b.destroy());
    this.programs.delete(id);
  }

  /** The largest buffer the device binds (a test's ceiling below it). */
  get most() {
    const lim = this.device.limits;
    return Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize, this.ceiling ?? Infinity);
  }

  /** A buffer of at least `bytes`; past the device's binding or buffer
   * limit, an error before anything is dispatched (a layer's parameters:
   * the activations are tiled to fit, see run). */
  buffer(bytes, usage) {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (size > this.most) throw new Error(`a buffer of ${size} bytes passes the device's limit of ${this.most}`);
    return this.device.createBuffer({ size, usage });
  }

  upload(data) {
    const b = this.buffer(data.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
    this.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    return b;
  }

  uniform(words) {
    const b = this.device.createBuffer({ size: Math.max(16, words.length * 4),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.device.queue.writeBuffer(b, 0, new Uint32Array(words));
    return b;
  }

  /** A layer's parameters on the device: [weights or gamma, mult and bias
   * or beta], kept with the program. */
  params(l) {
    if (l.kind === LAYER.CONV || l.kind === LAYER.CONV_T) {
      const mb = new BigInt64Array(2 * l.cout);
      mb.set(l.mult, 0);
      mb.set(l.bias, l.cout);
      return [this.upload(Int32Array.from(l.weights)), this.upload(mb)];
    }
    if (l.kind === LAYER.IGDN) return [this.upload(Int32Array.from(l.gamma)), this.upload(l.beta)];
    if (l.kind === LAYER.SYNTH)
      return [this.upload(l.weights), this.upload(BigInt64Array.from(l.bias, (b) => BigInt(b)))];
    return [];
  }

  bind(entry, buffers) {
    const p = this.pipelines[entry];
    return [p, this.device.createBindGroup({
      layout: p.getBindGroupLayout(0),
      entries: buffers.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
    })];
  }

  /** Runs job (read from the module by the glue's import): its output and
   * its amax[1..], written back through write(output BigInt64 bytes, amax).
   *
   * A tensor whose 8-byte elements pass the device's largest buffer is
   * held in chunks of E elements (E·16 bytes fit, so the inverse GDN's
   * 128-bit sums of a chunk do too), and a layer runs one dispatch for
   * each chunk of its output and each of its input (docs/wgsl.md, "Memory
   * and limits"); below the limit every tensor is one chunk. */
  async run(job, program) {
    if (this.lost) throw new Error(`the device was lost: ${this.lost}`);
    const t0 = performance.now();
    const dev = this.device;
    const kept = this.programs.get(program);
    let params = kept?.get(job.network);
    const temp = [];
    if (!params) {
      job.layers.forEach((l) => l.load()); // before any wait: the module's memory may move after
      params = job.layers.map((l) => this.params(l));
      if (kept) kept.set(job.network, params);
      else temp.push(...params.flat());
    }
    const elems = (l) => l.out_c * l.out_h * l.out_w;
    const n0 = job.layers[0].in_c * job.layers[0].in_h * job.layers[0].in_w;
    const most = Math.max(n0, ...job.layers.map(elems));
    if (most >= 2 ** 31) throw new Error(`a tensor of ${most} elements passes the kernels' 31-bit indices`);
    const E = this.chunk ?? (most * 8 <= this.most ? most : Math.floor(this.most / 16));
    if (!this.chunk && E < most && E < 1024) throw new Error(`the device's buffers (${this.most} bytes) are too small to tile`);
    const count = (n) => Math.ceil(n / E);
    const size = (n, k) => Math.min(E, n - k * E);
    const chunks = count(most);
    dev.pushErrorScope("out-of-memory");
    dev.pushErrorScope("validation");
    const STORE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    const input = Array.from({ length: count(n0) }, (_, k) =>
      this.upload(job.input.subarray(8 * k * E, 8 * (k * E + size(n0, k)))));
    const ping = Array.from({ length: chunks }, (_, k) => this.buffer(8 * size(most, k), STORE));
    const pong = Array.from({ length: chunks }, (_, k) => this.buffer(8 * size(most, k), STORE));
    const acc = this.buffer(chunks > 1 ? 16 * E : 16, GPUBufferUsage.STORAGE);
    const partial = this.buffer(8 * chunks * Math.ceil(E / 1024), GPUBufferUsage.STORAGE);
    const amax = this.buffer(job.layers.length * 8,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
    // Layer 0's A is the module's (the input's); the later ones the GPU reduces.
    dev.queue.writeBuffer(amax, 0, new BigUint64Array([job.amax0]));
    const readMax = dev.createBuffer({ size: Math.max(16, job.layers.length * 8), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    temp.push(...input, ...ping, ...pong, acc, partial, amax, readMax);
    const enc = dev.createCommandEncoder();
    // Profiling: a timestamp before and after each layer's own pass.
    const nl = job.layers.length;
    const qs = this.profile ? dev.createQuerySet({ type: "timestamp", count: 2 * nl }) : null;
    const tsBuf = qs ? dev.createBuffer({ size: 16 * nl, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }) : null;
    const tsRead = qs ? dev.createBuffer({ size: 16 * nl, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }) : null;
    if (qs) temp.push(qs, tsBuf, tsRead);
    // One compute pass of dispatches [entry, bindings, invocations, uniform words]
    // (a dispatch sees what the ones before it wrote).
    const pass = (layer, list) => {
      const ts = qs && layer >= 0
        ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * layer, endOfPassWriteIndex: 2 * layer + 1 } }
        : {};
      const p = enc.beginComputePass(ts);
      for (const [entry, buffers, n, words] of list) {
        const u = this.uniform(words);
        temp.push(u);
        const [pipeline, group] = this.bind(entry, [[0, u], ...buffers]);
        p.setPipeline(pipeline);
        p.setBindGroup(0, group);
        p.dispatchWorkgroups(...groups(n));
      }
      p.end();
    };
    // mode: bit 0 adds the earlier input chunks' sums, bit 1 ends the layer.
    const mode = (m, ins) => (m > 0 ? 1 : 0) | (m === ins - 1 ? 2 : 0);
    let x = input, nx = n0;
    job.layers.forEach((l, i) => {
      const y = i % 2 ? pong : ping;
      const n = elems(l), ins = count(nx), outs = count(n);
      const [w, mb] = params[i];
      const list = [];
      if (l.kind === LAYER.CONV || l.kind === LAYER.CONV_T || l.kind === LAYER.SYNTH) {
        const one = job.dims === 1, synth = l.kind === LAYER.SYNTH;
        const head = synth
          ? [l.cin, l.cout, l.k, l.k, l.stride, l.stride, l.pad, l.pad, l.in_h, l.in_w, l.out_h, l.out_w, l.synth_shift]
          : [l.cin, l.cout, one ? 1 : l.k, l.k, one ? 1 : l.stride, l.stride, one ? 0 : l.pad, l.pad,
            l.in_h, l.in_w, l.out_h, l.out_w, job.shift];
        const entry = synth ? "synth_t" : l.kind === LAYER.CONV ? "conv" : "conv_t";
        for (let k = 0; k < outs; k++)
          for (let m = 0; m < ins; m++) {
            const bind = [[1, x[m]], [2, y[k]], [3, w], [4, mb]];
            if (!synth) bind.push([5, amax]); // synth_t's i32 weights: no limb sums, no A
            list.push([entry, bind, size(n, k), [...head, size(n, k), synth ? l.relu : 0, i,
              k * E, m * E, m * E + size(nx, m), mode(m, ins)]]);
          }
      } else if (l.kind === LAYER.IGDN) {
        // One invocation per position and block of IGDN_BLOCK channels
        // (igdn.wgsl's IB) that the output chunk meets.
        const pos = l.in_h * l.in_w;
        for (let k = 0; k < outs; k++) {
          const e0 = k * E, ny = size(n, k);
          const b0 = Math.floor(Math.floor(e0 / pos) / IGDN_BLOCK);
          const b1 = Math.floor(Math.floor((e0 + ny - 1) / pos) / IGDN_BLOCK);
          const inv = pos * (b1 - b0 + 1);
          for (let m = 0; m < ins; m++)
            list.push(["igdn", [[1, x[m]], [2, y[k]], [3, w], [4, mb], [5, x[k]], [6, acc]], inv,
              [l.c, pos, job.gf, job.afrac, inv, e0, ny, b0, m * E, m * E + size(nx, m), mode(m, ins), 0]]);
        }
      } else {
        for (let k = 0; k < outs; k++)
          list.push([l.kind === LAYER.RELU ? "relu" : "leaky", [[1, x[k]], [2, y[k]]], size(n, k),
            [size(n, k), l.lshift, l.slope_lo, l.slope_hi]]);
      }
      pass(i, list);
      if (i + 1 < nl) {
        const reduce = [];
        let base = 0;
        for (let k = 0; k < outs; k++) {
          const parts = Math.ceil(size(n, k) / 1024);
          reduce.push(["amax_partial", [[1, y[k]], [2, partial]], parts * 64, [size(n, k), 0, base, 0]]);
          base += parts;
        }
        reduce.push(["amax_final", [[2, partial], [3, amax]], 1, [base, i + 1, 0, 0]]); // one workgroup
        pass(-1, reduce);
      }
      x = y;
      nx = n;
    });
    const outBytes = 8 * nx;
    const reads = x.slice(0, count(nx)).map((b, k) => {
      const r = dev.createBuffer({ size: Math.max(16, 8 * size(nx, k)), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      enc.copyBufferToBuffer(b, 0, r, 0, 8 * size(nx, k));
      temp.push(r);
      return r;
    });
    enc.copyBufferToBuffer(amax, 0, readMax, 0, nl * 8);
    if (qs) {
      enc.resolveQuerySet(qs, 0, 2 * nl, tsBuf, 0);
      enc.copyBufferToBuffer(tsBuf, 0, tsRead, 0, 16 * nl);
    }
    dev.queue.submit([enc.finish()]);
    const errors = [await dev.popErrorScope(), await dev.popErrorScope()].filter(Boolean);
    try {
      if (errors.length) throw new Error(`WebGPU: ${errors.map((e) => e.message).join("; ")}`);
      await Promise.all([...reads, readMax].map((r) => r.mapAsync(GPUMapMode.READ)));
      if (this.lost) throw new Error(`the device was lost: ${this.lost}`);
      const out = new Uint8Array(outBytes);
      reads.forEach((r, k) => out.set(new Uint8Array(r.getMappedRange(), 0, 8 * size(nx, k)), 8 * k * E));
      const am = new BigUint64Array(readMax.getMappedRange().slice(0, nl * 8));
      if (tsRead) {
        await tsRead.mapAsync(GPUMapMode.READ);
        const t = new BigUint64Array(tsRead.getMappedRange().slice(0));
        job.layers.forEach((l, i) => this.layerLog.push({
          kind: ["conv_t", "conv", "igdn", "relu", "leaky", "synth_t"][l.kind] ?? String(l.kind),
          in: [l.in_c, l.in_h, l.in_w], out: [l.out_c, l.out_h, l.out_w],
          ms: Number(t[2 * i + 1] - t[2 * i]) / 1e6,
        }));
      }
      this.gpuMs += performance.now() - t0;
      this.tiled += chunks > 1;
      return { out, amax: am };
    } finally {
      for (const b of temp) b.destroy();
    }
  }
}

/** The glue's description of a network (gpu_path.c, HEAD_WORDS then
 * LAYER_WORDS a layer), read from the module's memory: copies of the
 * input and of the parameters a program has not kept. */
export function readJob(memory, at) {
  const w = new Uint32Array(memory.buffer, at, HEAD_WORDS);
  const job = {
    program: w[0], network: w[1], dims: w[2], afrac: w[3], gf: w[4], shift: w[5],
    n: w[6], input_at: w[7], output_at: w[8], amax_at: w[9], layers: [],
  };
  const all = new Uint32Array(memory.buffer, at + HEAD_WORDS * 4, job.n * LAYER_WORDS);
  // Copies (never views: the memory may grow, and it may be shared).
  const copy = (a, b) => new Uint8Array(memory.buffer, a, b - a).slice().buffer;
  const i64 = (p, n) => new BigInt64Array(copy(p, p + 8 * n));
  for (let i = 0; i < job.n; i++) {
    const v = all.subarray(i * LAYER_WORDS, (i + 1) * LAYER_WORDS);
    const l = {
      kind: v[0], cin: v[1], cout: v[2], k: v[3], stride: v[4], pad: v[5], opad: v[6], c: v[7],
      lshift: v[8], slope_lo: v[9], slope_hi: v[10], in_c: v[16], in_h: v[17], in_w: v[18],
      out_c: v[19], out_h: v[20], out_w: v[21], n_weights: v[22],
      // int_synth's layer: its shift and ReLU in the words an operator-set layer leaves unused
      synth_shift: v[8], relu: v[7],
    };
    l.load = () => {
      if (l.kind === LAYER.CONV || l.kind === LAYER.CONV_T) {
        l.weights = new Int16Array(copy(v[11], v[11] + 2 * l.n_weights));
        l.mult = i64(v[12], l.cout);
        l.bias = i64(v[13], l.cout);
      } else if (l.kind === LAYER.SYNTH) {
        l.weights = new Int32Array(copy(v[11], v[11] + 4 * l.n_weights));
        l.bias = new Int32Array(copy(v[13], v[13] + 4 * l.cout));
      } else if (l.kind === LAYER.IGDN) {
        l.gamma = new Int32Array(copy(v[14], v[14] + 4 * l.c * l.c));
        l.beta = i64(v[15], l.c);
      }
    };
    job.layers.push(l);
  }
  const first = job.layers[0];
  job.amax0 = new BigUint64Array(memory.buffer, job.amax_at, 1)[0];
  job.input = new Uint8Array(copy(job.input_at,
    job.input_at + 8 * first.in_c * first.in_h * first.in_w));
  return job;
}
