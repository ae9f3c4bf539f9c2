// A float capability (wai.neural.bmshj2018) decoded in a page: libwai's C
// does everything that must be the same everywhere (the parse, the set's
// checks, the declared cost, the entropy stage and its symbols digest, the
// dispatch and its report); the browser's WebNN runs the synthesis
// (neural-dispatch §6.2, docs/web.md).
//
// The dispatch first says which paths it would ask the device about, so a
// decode that needs decode-equivalence creates no WebNN context at all. Then
// each asked WebNN path in the offer's order: a context for its unit, the
// graph built from the set's decoder.webnn.json + decoder.f32, the graph's
// stated devices as its plan (a context for the NPU whose graph runs on the
// CPU is refused dispatch_not_placed), the compute; the first that runs is
// the one the report names.

const S = {
  ok: 0, dispatch_unit_absent: 34, dispatch_program_absent: 35, dispatch_shape_mismatch: 36,
  dispatch_backend_failed: 38,
};
const UNITS = ["npu", "gpu", "cpu"];
/** A page's offer when the caller gives none: the C default
 * ("npu,gpu,cpu,ort,wgsl,int") with WebNN on the NPU tried before the GPU,
 * since a browser's WebNN may reach the NPU where no platform runtime does. */
export const PAGE_OFFER = "npu,npu/webnn/float,gpu,cpu,ort,wgsl,int";
const ANSWERS = 9; // unit, program, shape, stated, npu, gpu, cpu, unknown, run

/** The operands an argument names, resolved; everything else as written. */
function resolve(value, key, operands) {
  const named = (n) => {
    const o = operands.get(n);
    if (!o) throw new Error(`the description names '${n}' before it exists`);
    return o;
  };
  if (["input", "filter", "a", "b"].includes(key)) return named(value);
  if (key === "inputs") return value.map(named);
  if (key === "options" && value && typeof value === "object") {
    const o = { ...value };
    for (const k of ["bias"]) if (typeof o[k] === "string") o[k] = named(o[k]);
    return o;
  }
  return value;
}

/** convTranspose2d with explicit padding, as padding 0 (with the output
 * padding the crop then needs) followed by a slice: one WebNN backend
 * refuses explicit padding on transposed convolutions. */
function convTranspose2d(builder, input, filter, options = {}) {
  const pad = options.padding ?? [0, 0, 0, 0];
  const layoutsPlain = (options.inputLayout ?? "nchw") === "nchw" &&
    (options.filterLayout ?? "iohw") === "iohw";
  if (!pad.some((p) => p) || !layoutsPlain) return builder.convTranspose2d(input, filter, options);
  const s = options.strides ?? [1, 1], d = options.dilations ?? [1, 1];
  const x = input.shape, w = filter.shape;
  const full = [0, 1].map((i) => (x[2 + i] - 1) * s[i] + (w[2 + i] - 1) * d[i] + 1);
  const want = options.outputSizes ?? [0, 1].map((i) =>
    full[i] - pad[2 * i] - pad[2 * i + 1] + (options.outputPadding ?? [0, 0])[i]);
  const extra = [0, 1].map((i) => Math.max(0, pad[2 * i] + want[i] - full[i]));
  if (extra.some((e, i) => e >= s[i])) return builder.convTranspose2d(input, filter, options);
  const { padding, outputPadding, outputSizes, ...rest } = options;
  const y = builder.convTranspose2d(input, filter, { ...rest, outputPadding: extra });
  return builder.slice(y, [0, 0, pad[0], pad[2]], [x[0], y.shape[1], want[0], want[1]]);
}

/** The graph of a wai-webnn-graph/1 description on context, its input
 * given `inputShape`. { graph, inputName, outputName, outputShape, ops }. */
export async function buildGraph(context, desc, weights, inputShape) {
  if (desc.kind !== "wai-webnn-graph/1") throw new Error(`not a graph description: ${desc.kind}`);
  const builder = new MLGraphBuilder(context);
  const operands = new Map();
  const inputNames = Object.keys(desc.inputs ?? {});
  if (inputNames.length !== 1) throw new Error("the description has more than one input");
  const inputName = inputNames[0];
  const idesc = desc.inputs[inputName];
  operands.set(inputName, builder.input(inputName, { dataType: idesc.dataType, shape: inputShape }));
  const bytes = weights instanceof Uint8Array ? weights : new Uint8Array(weights);
  for (const [name, c] of Object.entries(desc.constants ?? {})) {
    if (c.dataType !== "float32") throw new Error(`constant ${name}: ${c.dataType}`);
    const n = c.shape.reduce((a, b) => a * b, 1);
    let values;
    if (c.offset !== undefined) {
      if (c.offset % 4 || c.offset + 4 * n > bytes.length) throw new Error(`constant ${name} is outside the weights`);
      values = new Float32Array(bytes.slice(c.offset, c.offset + 4 * n).buffer);
    } else {
      const data = c.data.map((v) => (typeof v === "string" ? Number(v) : v));
      values = c.fill ? new Float32Array(n).fill(data[0]) : Float32Array.from(data);
    }
    operands.set(name, builder.constant({ dataType: "float32", shape: c.shape }, values));
  }
  let ops = 0;
  for (const op of desc.operators) {
    const args = op.arguments.map((a) => {
      const [key, value] = Object.entries(a)[0];
      return resolve(value, key, operands);
    });
    const out = op.name === "convTranspose2d" ? convTranspose2d(builder, ...args) : builder[op.name](...args);
    operands.set(op.outputs, out);
    ops++;
  }
  const [outputName, outputOperand] = Object.entries(desc.outputs)[0];
  const out = operands.get(outputOperand);
  const graph = await builder.build({ [outputName]: out });
  return { graph, inputName, outputName, outputShape: out.shape, ops };
}

/** The plan a graph states (MLGraph.devices, where the browser has it): a
 * single device holds every operation; with several, each is counted as
 * holding one and the rest are unknown (the browser names devices, not
 * operations). */
function placementOf(graph, ops) {
  const devices = Array.isArray(graph.devices) ? graph.devices : null;
  const counts = { stated: 0, npu: 0, gpu: 0, cpu: 0, unknown: 0 };
  if (!devices) return counts;
  counts.stated = 1;
  const known = devices.filter((d) => UNITS.includes(d));
  if (known.length === 1) counts[known[0]] = ops;
  else {
    for (const d of known) counts[d] = 1;
    counts.unknown = Math.max(0, ops - known.length);
  }
  return counts;
}

/** Computes graph on context: the output's float32 values. */
async function compute(context, g, latent, shape) {
  const input = await context.createTensor({ dataType: "float32", shape, writable: true });
  const output = await context.createTensor({ dataType: "float32", shape: g.outputShape, readable: true });
  context.writeTensor(input, latent);
  context.dispatch(g.graph, { [g.inputName]: input }, { [g.outputName]: output });
  const values = new Float32Array(await context.readTensor(output));
  input.destroy();
  output.destroy();
  return values;
}

/** docs/bmshj2018.md B4: float to RGB8, the picture's top-left corner. */
function rgb8(values, outShape, height, width) {
  const [, , H, W] = outShape;
  const rgb = new Uint8Array(height * width * 3);
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = values[(c * H + y) * W + x];
        rgb[(y * width + x) * 3 + c] = !(v > 0) ? 0 : v >= 1 ? 255 :
          Math.floor(Math.fround(Math.fround(v * 255) + 0.5));
      }
  return rgb;
}

/** The latent: each symbol plus its channel's median (binary32 bits in
 * cdfs_q3.json), in float32. */
function latentOf(symbols, medians, m, plane) {
  const bits = new Uint32Array(1), f = new Float32Array(bits.buffer);
  const out = new Float32Array(symbols.length);
  for (let c = 0; c < m; c++) {
    bits[0] = medians[c] >>> 0;
    const med = f[0];
    for (let i = c * plane; i < (c + 1) * plane; i++) out[i] = Math.fround(symbols[i] + med);
  }
  return out;
}

/** The whole decode. mod: the module's Module; opts: decode options plus
 * ml (default navigator.ml). */
export async function decodeFloat(mod, ctx, payload, opts, makeSet) {
  const t0 = performance.now();
  const ex = mod.ex;
  const ml = opts.ml !== undefined ? opts.ml : globalThis.navigator?.ml;
  const members = opts.set instanceof Map ? Object.fromEntries(opts.set) : opts.set ?? {};
  // 1. The entropy stage (and every check before it), in C.
  const cap = mod.str(opts.capability ?? "wai.neural.bmshj2018");
  const set = makeSet(mod, ctx, opts.set);
  const pp = mod.put(payload);
  let sym;
  try {
    sym = mod.take(ex.wai_web_symbols(ctx, cap, set, pp, payload.length, opts.maxCost, opts.maxMemory));
  } finally {
    mod.free(pp);
    if (set) ex.wai_web_set_destroy(set);
  }
  const base = {
    capability: sym.json.capability, cost: sym.json.cost, symbolsDigest: sym.json.symbols_digest,
  };
  if (sym.json.status !== "ok") {
    mod.free(cap);
    return { ...base, status: sym.json.status, ok: false, outputs: [], report: null, timing: {} };
  }
  const t1 = performance.now();
  const hdr = sym.json.header;
  const symbols = new Int32Array(sym.data.buffer, 0, sym.data.length >> 2);
  // 2. Which paths the dispatch would ask about (none, for decode-equivalence).
  const strs = [opts.intent, opts.pinTier, opts.offer ?? PAGE_OFFER].map((s) => mod.str(s));
  const dispatch = (answers) => {
    let ap = 0;
    if (answers) {
      ap = mod.alloc(answers.length * 4);
      new Int32Array(ex.memory.buffer, ap, answers.length).set(answers);
    }
    try {
      return mod.take(ex.wai_web_dispatch(cap, ...strs, ap, answers ? answers.length : 0)).json;
    } finally {
      mod.free(ap);
    }
  };
  const asked = dispatch(null);
  const answers = new Int32Array(asked.offer.length * ANSWERS).fill(0);
  for (let i = 0; i < asked.offer.length; i++) answers[i * ANSWERS] = S.dispatch_unit_absent;
  // 3. Each asked path in order, until one runs.
  let picture = null, ranAt = -1;
  const timing = { entropy_ms: t1 - t0 };
  const m = hdr.m, shape = [1, m, hdr.lh, hdr.lw];
  let desc = null, tables = null;
  for (const i of asked.asked) {
    const path = asked.offer[i], a = i * ANSWERS;
    if (path.backend !== "webnn" || !ml || !UNITS.includes(path.unit)) continue; // unit_absent
    answers[a] = S.ok;
    if (!members["decoder.webnn.json"] || !members["decoder.f32"]) {
      answers[a + 1] = S.dispatch_program_absent;
      continue;
    }
    desc ??= JSON.parse(new TextDecoder().decode(members["decoder.webnn.json"]));
    const din = Object.values(desc.inputs ?? {})[0];
    if (!din || din.shape?.[1] !== m) {
      answers[a + 2] = S.dispatch_shape_mismatch;
      continue;
    }
    let context;
    try {
      context = await ml.createContext({ deviceType: path.unit });
    } catch {
      answers[a] = S.dispatch_unit_absent;
      continue;
    }
    try {
      const tb = performance.now();
      const g = await buildGraph(context, desc, members["decoder.f32"], shape);
      timing[`build_${path.unit}_ms`] = performance.now() - tb;
      const p = placementOf(g.graph, g.ops);
      answers.set([p.stated, p.npu, p.gpu, p.cpu, p.unknown], a + 3);
      if (p.stated && !p[path.unit]) continue; // the dispatch refuses it not_placed
      tables ??= JSON.parse(new TextDecoder().decode(members["cdfs_q3.json"]));
      const tc = performance.now();
      const values = await compute(context, g, latentOf(symbols, tables.medians, m, hdr.lh * hdr.lw), shape);
      timing[`synthesis_${path.unit}_ms`] = performance.now() - tc;
      picture = rgb8(values, g.outputShape, hdr.height, hdr.width);
      ranAt = i;
      break;
    } catch (e) {
      answers[a + 8] = S.dispatch_backend_failed;
      timing[`error_${path.unit}`] = String(e?.message ?? e);
    } finally {
      context.destroy?.();
    }
  }
  // 4. The report, from the answers.
  const fin = dispatch(answers);
  mod.free(cap, ...strs);
  timing.total_ms = performance.now() - t0;
  const ok = fin.status === "ok" && picture !== null;
  return {
    ...base, status: fin.status, ok, report: fin.report, timing, ranAt,
    outputs: ok ? [{ kind: "image", width: hdr.width, height: hdr.height, index: 0, sampleRate: 0, data: picture }] : [],
  };
}
