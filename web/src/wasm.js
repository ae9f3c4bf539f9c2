// SPDX-License-Identifier: BSD-2-Clause
// Loading web/dist/wai.wasm (libwai's C as a WASI reactor, web/glue/) in a
// page or in node, with the three WASI calls its libc imports answered
// here: fd_write (libc's stderr, to console.error), fd_seek and fd_close
// (no files: EBADF); the three of the gpu/wgsl/integer path
// (web/glue/gpu_path.c), answered by the page's WebGPU device where it has
// one (web/src/wgsl.js); and the six of the float paths
// (web/glue/js_backends.c), answered by the host's float backends
// (web/src/float.js). Nothing else of the host is reached.
import { FloatHost } from "./float.js";
import { readJob } from "./wgsl.js";

const EBADF = 8;

function wasiImports(getMemory) {
  let line = "";
  return {
    fd_write(fd, iovs, iovsLen, nwritten) {
      const mem = getMemory();
      const view = new DataView(mem.buffer);
      let n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = view.getUint32(iovs + 8 * i, true);
        const len = view.getUint32(iovs + 8 * i + 4, true);
        line += new TextDecoder().decode(new Uint8Array(mem.buffer, ptr, len).slice());
        n += len;
      }
      const parts = line.split("\n");
      line = parts.pop();
      for (const p of parts) console.error(`libwai (fd ${fd}): ${p}`);
      view.setUint32(nwritten, n, true);
      return 0;
    },
    fd_seek() {
      return EBADF;
    },
    fd_close() {
      return EBADF;
    },
  };
}

/** The module's bytes: `source` as given (bytes, a Response or a URL),
 * else dist/wai.wasm beside this package (fetched in a page, read in node). */
async function wasmBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  if (typeof Response !== "undefined" && source instanceof Response) return source.arrayBuffer();
  const url = source ? new URL(source, import.meta.url) : new URL("../dist/wai.wasm", import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`libwai: cannot fetch ${url}: ${r.status}`);
  return r.arrayBuffer();
}

/** The "wai" imports: the GPU path's, run by gpu.device (a WgslDevice,
 * set once the page has one). gpu_network waits on the GPU, so it is a
 * JSPI import where the engine has JSPI; without, the module never makes
 * a context that would call it. */
function gpuImports(getMemory, gpu) {
  const network = async (at) => {
    const dev = gpu.device;
    if (!dev) return 1;
    try {
      const job = readJob(getMemory(), at);
      const { out, amax } = await dev.run(job, job.program);
      const mem = getMemory();
      new Uint8Array(mem.buffer).set(out, job.output_at);
      const am = new BigUint64Array(mem.buffer, job.amax_at, job.n);
      for (let i = 1; i < job.n; i++) am[i] = amax[i];
      return 0;
    } catch (e) {
      gpu.lastError = String(e?.message ?? e);
      return 1;
    }
  };
  return {
    gpu_network: typeof WebAssembly.Suspending === "function" ? new WebAssembly.Suspending(network) : () => 1,
    gpu_program_open: () => (gpu.device ? gpu.device.openProgram() : 0),
    gpu_program_close: (id) => gpu.device?.closeProgram(id),
  };
}

/** The instantiated module's exports, initialised, with `memory`, the
 * compiled `module` and `floatHost` (the float paths' host side); gpu
 * ({ device }) is where the GPU path's imports find the page's device.
 * shared: the threads module (wai-threads.wasm), whose memory is this
 * shared WebAssembly.Memory (docs/web.md, "Threads"). */
export async function instantiate(source, gpu = {}, shared = null) {
  let memory = shared;
  const module = await WebAssembly.compile(await wasmBytes(source));
  const floatHost = new FloatHost(() => memory);
  const imports = {
    wasi_snapshot_preview1: wasiImports(() => memory),
    wai: { ...gpuImports(() => memory, gpu), ...floatHost.imports() },
  };
  if (shared) imports.env = { memory: shared };
  const instance = await WebAssembly.instantiate(module, imports);
  memory ??= instance.exports.memory;
  instance.exports._initialize();
  return { ...instance.exports, memory, module, floatHost };
}

/** The threads module's URL or bytes beside `source` (wai.wasm's): its
 * name with "-threads"; null where source is bytes (then options give it). */
export function threadsSource(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return null;
  if (typeof Response !== "undefined" && source instanceof Response) return null;
  const url = source ? new URL(source, import.meta.url) : new URL("../dist/wai.wasm", import.meta.url);
  url.pathname = url.pathname.replace(/(\.wasm)?$/, "-threads.wasm").replace("-threads-threads", "-threads");
  return url;
}
