// SPDX-License-Identifier: BSD-2-Clause
// A float capability (wai.neural.bmshj2018) decoded in a page: libwai's C
// does everything that must be the same everywhere, the same C a native
// decoder runs (web/glue/float_path.c: the parse, the set's checks, the
// declared cost, the entropy stage and its symbols digest, the latent, the
// program's checks, the dispatch and its report, the RGB8 step); the page
// keeps only what needs the browser: a WebNN context for a path's unit, the
// graph built with MLGraphBuilder, its compute (neural-dispatch §6.2,
// docs/web.md).
//
// The dispatch asks, path by path, and the page answers by the spec's code:
// the unit (a context created for it, only where the set's program would
// run there, so a decode that needs decode-equivalence creates none), the
// plan (the graph built, its stated devices), the run (the graph computed,
// its planes handed back for the RGB8 step).
import { pinTierOf } from "./pin.js";

const UNITS = ["npu", "gpu", "cpu"];
/** A page's offer when the caller gives none: the C default
 * ("npu,gpu,cpu,ort,wgsl,int") with WebNN on the NPU tried before the GPU,
 * since a browser's WebNN may reach the NPU where no platform runtime does. */
export const PAGE_OFFER = "npu,npu/webnn/float,gpu,cpu,ort,wgsl,int";

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
 * given `inputShape`. { graph, inputName, outputName, outputShape }. */
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
  for (const op of desc.operators) {
    const args = op.arguments.map((a) => {
      const [key, value] = Object.entries(a)[0];
      return resolve(value, key, operands);
    });
    const out = op.name === "convTranspose2d" ? convTranspose2d(builder, ...args) : builder[op.name](...args);
    operands.set(op.outputs, out);
  }
  const [outputName, outputOperand] = Object.entries(desc.outputs)[0];
  const out = operands.get(outputOperand);
  const graph = await builder.build({ [outputName]: out });
  return { graph, inputName, outputName, outputShape: out.shape };
}

/** What a graph says of its devices (MLGraph.devices, a proposed extension,
 * webnn.md §5.1, Issue #836), as it says it: a copy of the array, or null
 * where the browser has none. It names devices, not operations, so it is
 * never turned into a plan: WebNN states no placement (neural-dispatch §5). */
function devicesOf(graph) {
  return Array.isArray(graph.devices) ? [...graph.devices] : null;
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

/** ONNX Runtime for the cpu/onnx-runtime/float path (neural-dispatch §1,
 * the reference sink's path): opts.ort (the onnxruntime-node module, or
 * null for none); in node, by default, the package where it resolves (an
 * optional peer dependency); in a browser none. */
async function ortOf(opts) {
  if (opts.ort !== undefined) return opts.ort;
  if (!globalThis.process?.versions?.node) return null;
  try {
    const m = await import("onnxruntime-node");
    return m.default ?? m;
  } catch {
    return null;
  }
}

/** The set's decoder.onnx run by ONNX Runtime's CPU provider on the latent. */
async function runOnnx(ort, bytes, latent, shape) {
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ["cpu"] });
  try {
    const feeds = { [session.inputNames[0]]: new ort.Tensor("float32", latent, shape) };
    const out = (await session.run(feeds))[session.outputNames[0]];
    return { values: out.data, dims: out.dims };
  } finally {
    await session.release?.();
  }
}

/** The whole decode. mod: the module's Module; opts: decode options plus
 * ml (default navigator.ml) and ort (see ortOf). */
export async function decodeFloat(mod, ctx, payload, opts, makeSet) {
  const t0 = performance.now();
  const ex = mod.ex;
  const ml = opts.ml !== undefined ? opts.ml : globalThis.navigator?.ml;
  const ort = await ortOf(opts);
  const members = opts.set instanceof Map ? Object.fromEntries(opts.set) : opts.set ?? {};
  const strs = [opts.capability ?? "wai.neural.bmshj2018", opts.intent, pinTierOf(opts),
    opts.offer ?? PAGE_OFFER].map((s) => mod.str(s));
  const set = makeSet(mod, ctx, opts.set, opts.pin);
  const timing = {};
  const webnnDevices = [];   // with opts.webnnDevices: each graph built, what it said
  let h = 0, context = null;
  const state = () => mod.take(ex.wai_web_float_state(h)).json;
  const answer = (code, p = { stated: 0, npu: 0, gpu: 0, cpu: 0, unknown: 0 }) => {
    const c = mod.str(code);
    try {
      ex.wai_web_float_answer(h, c, p.stated, p.npu, p.gpu, p.cpu, p.unknown);
    } finally {
      mod.free(c);
    }
  };
  try {
    // 1. The decode up to its networks, in C.
    const pp = mod.put(payload);
    try {
      h = ex.wai_web_float_open(ctx, strs[0], set, pp, payload.length, opts.maxCost, opts.maxMemory,
        strs[1], strs[2], strs[3]);
    } finally {
      mod.free(pp);
    }
    if (!h) throw new Error("out of memory");
    let st = state();
    timing.entropy_ms = performance.now() - t0;
    // 2. The dispatch's questions, until a path runs or none is left.
    let graph = null, desc = null, latent = null;
    const shape = st.latent ? [1, st.latent.channels, st.latent.height, st.latent.width] : null;
    while (st.question) {
      const q = st.question;
      if (q.backend === "onnx-runtime") {
        // ONNX Runtime's CPU provider: present where the module is; its plan
        // unstated (placement null); the run its session on decoder.onnx.
        if (q.question === "unit") answer(ort && q.unit === "cpu" ? "ok" : "dispatch_unit_absent");
        else if (q.question === "plan") answer("ok");
        else if (q.question === "run") {
          try {
            const n = shape.reduce((a, b) => a * b, 1);
            latent ??= new Float32Array(ex.memory.buffer, st.input, n).slice();
            const tc = performance.now();
            const { values, dims } = await runOnnx(ort, members["decoder.onnx"], latent, shape);
            timing.synthesis_ort_ms = performance.now() - tc;
            const out = ex.wai_web_float_output(h, values.length);
            if (!out) throw new Error("out of memory");
            new Float32Array(ex.memory.buffer, out, values.length).set(values);
            ex.wai_web_float_ran(h, dims[2], dims[3]);
          } catch (e) {
            timing.error_ort = String(e?.message ?? e);
            answer("dispatch_backend_failed");
          }
        } else answer("dispatch_backend_failed");
        st = state();
        continue;
      }
      if (q.question === "unit") {
        context?.destroy?.();
        context = graph = null;
        if (q.backend !== "webnn" || !ml || !UNITS.includes(q.unit)) answer("dispatch_unit_absent");
        else if (st.program !== "ok") answer("ok"); // the program's refusal is the C's, next
        else {
          try {
            context = await ml.createContext({ deviceType: q.unit });
            answer("ok");
          } catch {
            answer("dispatch_unit_absent");
          }
        }
      } else if (q.question === "plan") {
        try {
          desc ??= JSON.parse(new TextDecoder().decode(members["decoder.webnn.json"]));
          const tb = performance.now();
          graph = await buildGraph(context, desc, members["decoder.f32"], shape);
          timing[`build_${q.unit}_ms`] = performance.now() - tb;
          // WebNN states no placement (neural-dispatch §5): the plan is
          // unstated, and the report names the unit the context was made
          // for, placement null. MLGraph.devices, a proposed extension
          // (webnn.md §5.1), is read only when asked (webnnDevices), and
          // only reported beside the report, never a plan.
          if (opts.webnnDevices) webnnDevices.push({ unit: q.unit, devices: devicesOf(graph.graph) });
          answer("ok");
        } catch (e) {
          timing[`error_${q.unit}`] = String(e?.message ?? e);
          answer("dispatch_backend_failed");
        }
      } else if (q.question === "run") {
        try {
          const n = shape.reduce((a, b) => a * b, 1);
          latent ??= new Float32Array(ex.memory.buffer, st.input, n).slice();
          const tc = performance.now();
          const values = await compute(context, graph, latent, shape);
          timing[`synthesis_${q.unit}_ms`] = performance.now() - tc;
          const out = ex.wai_web_float_output(h, values.length);
          if (!out) throw new Error("out of memory");
          new Float32Array(ex.memory.buffer, out, values.length).set(values);
          ex.wai_web_float_ran(h, graph.outputShape[2], graph.outputShape[3]);
        } catch (e) {
          timing[`error_${q.unit}`] = String(e?.message ?? e);
          answer("dispatch_backend_failed");
        }
      } else {
        answer("dispatch_backend_failed"); // a question this page cannot answer
      }
      st = state();
    }
    // 3. The status, the report and the picture, in C.
    const { json, data } = mod.take(ex.wai_web_float_close(h));
    h = 0;
    timing.total_ms = performance.now() - t0;
    const ok = json.status === "ok" && json.picture !== null;
    return {
      capability: json.capability, cost: json.cost, symbolsDigest: json.symbols_digest,
      status: json.status, ok, report: json.report, timing,
      ...(opts.webnnDevices ? { webnnDevices } : {}),
      outputs: ok ? [{ kind: "image", width: json.picture.width, height: json.picture.height,
        index: 0, sampleRate: 0, data }] : [],
    };
  } finally {
    if (h) mod.take(ex.wai_web_float_close(h));
    context?.destroy?.();
    if (set) ex.wai_web_set_destroy(set);
    mod.free(...strs);
  }
}
