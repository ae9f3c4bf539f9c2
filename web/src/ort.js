// SPDX-License-Identifier: BSD-2-Clause
// ONNX Runtime as a float backend of web/glue/js_backends.c (kind 1, the
// cpu/onnx-runtime/float path, neural-dispatch §1's reference path): the
// set's decoder.onnx on onnxruntime-node's CPU provider.

/** ONNX Runtime for the cpu/onnx-runtime/float path (neural-dispatch §1,
 * the reference sink's path): opts.ort (the onnxruntime-node module, or
 * null for none); in node, by default, the package where it resolves (an
 * optional peer dependency); in a browser none. */
export async function ortOf(opts) {
  if (opts.ort !== undefined) return opts.ort;
  if (!globalThis.process?.versions?.node) return null;
  try {
    const m = await import("onnxruntime-node");
    return m.default ?? m;
  } catch {
    return null;
  }
}

export const ortBackend = {
  /** Present where the decode brings the module (now.ort), on the CPU. */
  async unit(now, unit) {
    return Boolean(now.ort) && unit === "cpu";
  },
  /** The program: a session on the set's decoder.onnx. */
  async open(now, unit, members) {
    const ort = now.ort;
    const session = await ort.InferenceSession.create(members[0], { executionProviders: ["cpu"] });
    return { ort, session };
  },
  /** Nothing to build: the session is the plan; unstated (placement null). */
  async plan() {},
  async run(now, p, latent, shape) {
    const { ort, session } = p;
    const tc = performance.now();
    const feeds = { [session.inputNames[0]]: new ort.Tensor("float32", latent, shape) };
    const out = (await session.run(feeds))[session.outputNames[0]];
    now.timing.synthesis_ort_ms = performance.now() - tc;
    return { values: out.data, dims: [Number(out.dims[2]), Number(out.dims[3])] };
  },
  close(p) {
    p.session.release?.();
  },
};

