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

  /** A buffer of at least `bytes`; past the device's binding or buffer
   * limit, an error before anything is dispatched: the network's path is
   * then refused dispatch_backend_failed and the CPU's runs (the largest
   * layers are not tiled yet, docs/wgsl.md). */
  buffer(bytes, usage) {
    const lim = this.device.limits;
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    const most = Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize, this.ceiling ?? Infinity);
    if (size > most) throw new Error(`a buffer of ${size} bytes passes the device's limit of ${most}`);
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
   * its amax[1..], written back through write(output BigInt64 bytes, amax). */
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
    dev.pushErrorScope("out-of-memory");
    dev.pushErrorScope("validation");
    const elems = (l) => l.out_c * l.out_h * l.out_w;
    const most = Math.max(...job.layers.map(elems));
    const input = this.upload(job.input);
    const ping = this.buffer(most * 8, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    const pong = this.buffer(most * 8, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    const partial = this.buffer(Math.ceil(most / 1024) * 8, GPUBufferUsage.STORAGE);
    const amax = this.buffer(job.layers.length * 8,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
    // Layer 0's A is the module's (the input's); the later ones the GPU reduces.
    dev.queue.writeBuffer(amax, 0, new BigUint64Array([job.amax0]));
    const outBytes = elems(job.layers[job.layers.length - 1]) * 8;
    const readOut = dev.createBuffer({ size: Math.max(16, outBytes), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const readMax = dev.createBuffer({ size: Math.max(16, job.layers.length * 8), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    temp.push(input, ping, pong, partial, amax, readOut, readMax);
    const enc = dev.createCommandEncoder();
    // Profiling: a timestamp before and after each layer's own pass.
    const nl = job.layers.length;
    const qs = this.profile ? dev.createQuerySet({ type: "timestamp", count: 2 * nl }) : null;
    const tsBuf = qs ? dev.createBuffer({ size: 16 * nl, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }) : null;
    const tsRead = qs ? dev.createBuffer({ size: 16 * nl, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }) : null;
    if (qs) temp.push(qs, tsBuf, tsRead);
    let layerAt = -1;
    const dispatch = (entry, buffers, n, uniforms) => {
      temp.push(...uniforms);
      const [p, g] = this.bind(entry, buffers);
      const ts = qs && layerAt >= 0
        ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * layerAt, endOfPassWriteIndex: 2 * layerAt + 1 } }
        : {};
      layerAt = -1;
      const pass = enc.beginComputePass(ts);
      pass.setPipeline(p);
      pass.setBindGroup(0, g);
      pass.dispatchWorkgroups(...groups(n));
      pass.end();
    };
    let x = input;
    job.layers.forEach((l, i) => {
      const y = i % 2 ? pong : ping;
      const n = elems(l);
      const [w, mb] = params[i];
      layerAt = i; // the next dispatch is the layer's own
      if (l.kind === LAYER.CONV || l.kind === LAYER.CONV_T) {
        const one = job.dims === 1;
        const u = this.uniform([l.cin, l.cout, one ? 1 : l.k, l.k, one ? 1 : l.stride, l.stride,
          one ? 0 : l.pad, l.pad, l.in_h, l.in_w, l.out_h, l.out_w, job.shift, n, 0, i]);
        dispatch(l.kind === LAYER.CONV ? "conv" : "conv_t",
          [[0, u], [1, x], [2, y], [3, w], [4, mb], [5, amax]], n, [u]);
      } else if (l.kind === LAYER.SYNTH) {
        const u = this.uniform([l.cin, l.cout, l.k, l.k, l.stride, l.stride, l.pad, l.pad,
          l.in_h, l.in_w, l.out_h, l.out_w, l.synth_shift, n, l.relu, 0]);
        dispatch("synth_t", [[0, u], [1, x], [2, y], [3, w], [4, mb]], n, [u]);
      } else if (l.kind === LAYER.IGDN) {
        // One invocation per position and block of IGDN_BLOCK channels (igdn.wgsl's IB).
        const pos = l.in_h * l.in_w, inv = pos * Math.ceil(l.c / IGDN_BLOCK);
        const u = this.uniform([l.c, pos, job.gf, job.afrac, inv, 0, 0, 0]);
        dispatch("igdn", [[0, u], [1, x], [2, y], [3, w], [4, mb]], inv, [u]);
      } else {
        const u = this.uniform([n, l.lshift, l.slope_lo, l.slope_hi]);
        dispatch(l.kind === LAYER.RELU ? "relu" : "leaky", [[0, u], [1, x], [2, y]], n, [u]);
      }
      if (i + 1 < job.layers.length) {
        const parts = Math.ceil(n / 1024);
        const u1 = this.uniform([n, 0, 0, 0]);
        dispatch("amax_partial", [[0, u1], [1, y], [2, partial]], parts * 64, [u1]);
        const u2 = this.uniform([parts, i + 1, 0, 0]);
        dispatch("amax_final", [[0, u2], [2, partial], [3, amax]], 1, [u2]); // one workgroup
      }
      x = y;
    });
    enc.copyBufferToBuffer(x, 0, readOut, 0, outBytes);
    enc.copyBufferToBuffer(amax, 0, readMax, 0, job.layers.length * 8);
    if (qs) {
      enc.resolveQuerySet(qs, 0, 2 * nl, tsBuf, 0);
      enc.copyBufferToBuffer(tsBuf, 0, tsRead, 0, 16 * nl);
    }
    dev.queue.submit([enc.finish()]);
    const errors = [await dev.popErrorScope(), await dev.popErrorScope()].filter(Boolean);
    try {
      if (errors.length) throw new Error(`WebGPU: ${errors.map((e) => e.message).join("; ")}`);
      await Promise.all([readOut.mapAsync(GPUMapMode.READ), readMax.mapAsync(GPUMapMode.READ)]);
      if (this.lost) throw new Error(`the device was lost: ${this.lost}`);
      const out = new Uint8Array(readOut.getMappedRange().slice(0, outBytes));
      const am = new BigUint64Array(readMax.getMappedRange().slice(0, job.layers.length * 8));
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
  const i64 = (p, n) => new BigInt64Array(memory.buffer.slice(p, p + 8 * n));
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
        l.weights = new Int16Array(memory.buffer.slice(v[11], v[11] + 2 * l.n_weights));
        l.mult = i64(v[12], l.cout);
        l.bias = i64(v[13], l.cout);
      } else if (l.kind === LAYER.SYNTH) {
        l.weights = new Int32Array(memory.buffer.slice(v[11], v[11] + 4 * l.n_weights));
        l.bias = new Int32Array(memory.buffer.slice(v[13], v[13] + 4 * l.cout));
      } else if (l.kind === LAYER.IGDN) {
        l.gamma = new Int32Array(memory.buffer.slice(v[14], v[14] + 4 * l.c * l.c));
        l.beta = i64(v[15], l.c);
      }
    };
    job.layers.push(l);
  }
  const first = job.layers[0];
  job.amax0 = new BigUint64Array(memory.buffer, job.amax_at, 1)[0];
  job.input = new Uint8Array(memory.buffer.slice(job.input_at,
    job.input_at + 8 * first.in_c * first.in_h * first.in_w));
  return job;
}
