// SPDX-License-Identifier: BSD-2-Clause
// A float capability (wai.neural.bmshj2018) decoded in a page or in node:
// libwai's C does everything that must be the same everywhere, the same C
// a native decoder runs; the host's backends (the browser's WebNN,
// webnn.js; ONNX Runtime, ort.js) compute the networks. Each is a
// registered backend of web/glue/js_backends.c whose questions (unit,
// program, plan, run) come here as the module's "wai" imports float_*
// (FloatHost). Where the engine has JSPI the decode goes through the
// decoder's own send, suspended on those imports (index.js, decodeAsync);
// where it has none, decodeSteps walks the same C step by step and makes
// the same calls itself: one loop for every host backend, none of them
// named in it (docs/web.md, "Float backends").
import { ortBackend } from "./ort.js";
import { webnnBackend } from "./webnn.js";

/** A page's offer when the caller gives none: the C default
 * ("npu,gpu,cpu,ort,wgsl,int") with WebNN on the NPU tried before the GPU,
 * since a browser's WebNN may reach the NPU where no platform runtime does. */
export const PAGE_OFFER = "npu,npu/webnn/float,gpu,cpu,ort,wgsl,int";

/** The host backends by the C's kind (web/glue/js_backends.c, hosts[]). */
const BACKENDS = [webnnBackend, ortBackend];
/** wai_unit's values (include/wai/wai_dispatch.h). */
const UNITS = ["npu", "gpu", "cpu"];

/** 1 where the engine can suspend the module on a host call (JSPI). */
export const HAS_JSPI = typeof WebAssembly.Suspending === "function" &&
  typeof WebAssembly.promising === "function";

/** The host side of js_backends.c's imports, one instance per module: each
 * call as the C numbers it (0 done, else a failure the C maps), the
 * programs it opened by id. One decode at a time (begin, end): what the
 * decode brings (ml, ort, its set's members) and what it learns (timing,
 * webnnDevices). A host backend's exception is the path's failure, noted
 * in timing.error_<unit>; the next path is asked. */
export class FloatHost {
  constructor(memory) {
    this.memory = memory;
    this.programs = new Map();
    this.next = 1;
    this.now = null;
  }
  begin(now) {
    this.now = now;
  }
  end() {
    this.now = null;
  }
  bytes(at, n) {
    return new Uint8Array(this.memory().buffer, at, n).slice();
  }
  failed(unit, e) {
    if (this.now) this.now.timing[`error_${unit}`] = String(e?.message ?? e);
    return 1;
  }
  async float_unit(kind, unit) {
    try {
      return (await BACKENDS[kind].unit(this.now, UNITS[unit])) ? 0 : 1;
    } catch (e) {
      return this.failed(UNITS[unit], e);
    }
  }
  async float_open(kind, unit, at, n) {
    const words = new Uint32Array(this.memory().buffer, at, 2 * n).slice();
    const members = [];
    for (let i = 0; i < n; i++) members.push(this.bytes(words[2 * i], words[2 * i + 1]));
    try {
      const state = await BACKENDS[kind].open(this.now, UNITS[unit], members);
      const id = this.next++;
      this.programs.set(id, { kind, unit: UNITS[unit], state });
      return id;
    } catch (e) {
      this.failed(UNITS[unit], e);
      return 0;
    }
  }
  async float_plan(id, c, h, w) {
    const p = this.programs.get(id);
    try {
      await BACKENDS[p.kind].plan(this.now, p.state, [1, c, h, w]);
      return 0;
    } catch (e) {
      return this.failed(p?.unit, e);
    }
  }
  async float_run(id, at, c, h, w, dimsAt) {
    const p = this.programs.get(id);
    try {
      const shape = [1, c, h, w];
      const latent = new Float32Array(this.memory().buffer, at, c * h * w).slice();
      const { values, dims } = await BACKENDS[p.kind].run(this.now, p.state, latent, shape);
      p.last = values;
      new Uint32Array(this.memory().buffer, dimsAt, 2).set(dims);
      return 0;
    } catch (e) {
      return this.failed(p?.unit, e);
    }
  }
  float_fetch(id, at, n) {
    const p = this.programs.get(id);
    if (!p?.last || p.last.length !== n) return 1;
    new Float32Array(this.memory().buffer, at, n).set(p.last);
    p.last = null;
    return 0;
  }
  float_close(id) {
    const p = this.programs.get(id);
    this.programs.delete(id);
    try {
      if (p) BACKENDS[p.kind].close(p.state);
    } catch {
      // a program that cannot close has nothing left to give
    }
  }
  /** The imports, the waiting ones suspending the module where it can be. */
  imports() {
    const wait = (f) => (HAS_JSPI ? new WebAssembly.Suspending(f) : () => 1);
    return {
      float_unit: wait((...a) => this.float_unit(...a)),
      float_open: wait((...a) => this.float_open(...a)),
      float_plan: wait((...a) => this.float_plan(...a)),
      float_run: wait((...a) => this.float_run(...a)),
      float_fetch: (...a) => this.float_fetch(...a),
      float_close: (...a) => this.float_close(...a),
    };
  }
}

/** The decode step by step, where the engine has no JSPI: the C walks to
 * each host call, this loop makes it and hands the answer back. mod: the
 * module; set: the set's handle; strs: capability, intent, pin tier and
 * offer in the module's memory. The result, as the decoder's send gives it. */
export async function decodeSteps(mod, ctx, host, payload, set, strs, opts) {
  const ex = mod.ex;
  const pp = mod.put(payload);
  let h = 0;
  try {
    h = ex.wai_web_steps_open(ctx, strs[0], set, pp, payload.length, opts.maxCost, opts.maxMemory,
      strs[1], strs[2], strs[3]);
  } finally {
    mod.free(pp);
  }
  if (!h) throw new Error("out of memory");
  try {
    for (let c; (c = mod.take(ex.wai_web_steps_call(h)).json.call);)
      ex.wai_web_steps_resume(h, await host[c.name](...c.args));
    const r = mod.takeResult(ex.wai_web_steps_close(h));
    h = 0;
    return r;
  } finally {
    if (h) mod.take(ex.wai_web_steps_close(h));
  }
}
