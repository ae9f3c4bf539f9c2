// SPDX-License-Identifier: BSD-2-Clause
// The browser's WebNN as a float backend of web/glue/js_backends.c (kind 0,
// on npu, gpu and cpu; docs/web.md, "Float backends"): a context for a
// path's unit, the set's description built with MLGraphBuilder, its
// compute. Everything else of the decode is libwai's C.

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
export function devicesOf(graph) {
  return Array.isArray(graph.devices) ? [...graph.devices] : null;
}

/** Computes graph on context: the output's float32 values. */
export async function compute(context, g, latent, shape) {
  const input = await context.createTensor({ dataType: "float32", shape, writable: true });
  const output = await context.createTensor({ dataType: "float32", shape: g.outputShape, readable: true });
  context.writeTensor(input, latent);
  context.dispatch(g.graph, { [g.inputName]: input }, { [g.outputName]: output });
  const values = new Float32Array(await context.readTensor(output));
  input.destroy();
  output.destroy();
  return values;
}

/** The members of a WebNN program (the C's too: web/glue/js_backends.c). */
const MEMBERS = ["decoder.webnn.json", "decoder.f32"];

/** Contexts made, per navigator.ml and unit: made once, kept while the ml
 * is; a refusal is not kept (the next decode asks again). */
const contexts = new WeakMap();
async function contextFor(ml, unit) {
  let byUnit = contexts.get(ml);
  if (!byUnit) contexts.set(ml, (byUnit = new Map()));
  if (!byUnit.has(unit)) {
    try {
      byUnit.set(unit, await ml.createContext({ deviceType: unit }));
    } catch {
      return null;
    }
  }
  return byUnit.get(unit);
}

export const webnnBackend = {
  /** The unit: a context made for it (now.ml, the decode's navigator.ml),
   * only where the decode's set holds the program, so a set without one is
   * refused at the program, by C, with no context made. */
  async unit(now, unit) {
    if (!now.ml) return false;
    if (!MEMBERS.every((m) => now.members?.[m])) return true;
    return Boolean(await contextFor(now.ml, unit));
  },
  /** The program: the description and its weights (C has read the same
   * description and checks its shape); graphs built per context and shape. */
  async open(now, unit, members) {
    const desc = JSON.parse(new TextDecoder().decode(members[0]));
    return { unit, desc, weights: members[1], graphs: new Map() };
  },
  /** The plan: the graph built for the latent's shape. WebNN states no
   * placement (neural-dispatch §5): unstated, and the report names the
   * unit the context was made for. MLGraph.devices, a proposed extension
   * (webnn.md §5.1), is read only when asked (now.webnnDevices) and only
   * reported beside the report, never a plan. */
  async plan(now, p, shape) {
    const context = await contextFor(now.ml, p.unit);
    if (!context) throw new Error(`no ${p.unit} context`);
    // A graph is built once per context and shape, and kept with the
    // program (which the C keeps with the set in the context's cache).
    const key = shape.join("x");
    let kept = p.graphs.get(key);
    if (kept?.context !== context) {
      const tb = performance.now();
      const g = await buildGraph(context, p.desc, p.weights, shape);
      now.timing[`build_${p.unit}_ms`] = performance.now() - tb;
      kept = { context, g, devices: devicesOf(g.graph) };
      p.graphs.set(key, kept);
    }
    if (now.webnnDevices) now.webnnDevices.push({ unit: p.unit, devices: kept.devices });
  },
  /** The run: the graph computed on the latent; its planes [1, 3, H, W]. */
  async run(now, p, latent, shape) {
    const { context, g } = p.graphs.get(shape.join("x"));
    const tc = performance.now();
    const values = await compute(context, g, latent, shape);
    now.timing[`synthesis_${p.unit}_ms`] = performance.now() - tc;
    return { values, dims: [g.outputShape[2], g.outputShape[3]] };
  },
  close() {},
};
