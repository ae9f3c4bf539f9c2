// SPDX-License-Identifier: BSD-2-Clause
// One thread of the threads module (docs/web.md, "Threads"): a Web Worker
// or a node worker_thread that instantiates wai-threads.wasm over the
// page's shared memory, on a stack of its own, and gives itself to a
// context's worker pool (wai_web_worker_serve, which returns when the
// context is destroyed). It runs only the kernels' shares: no import of
// the module is ever called here, and nothing is allocated.
const node = typeof process === "object" && Boolean(process.versions?.node);
const port = node ? (await import("node:worker_threads")).parentPort : null;
const post = (m) => (node ? port.postMessage(m) : self.postMessage(m));

async function serve({ module, memory, ctx, stackTop }) {
  try {
    const imports = {};
    for (const imp of WebAssembly.Module.imports(module)) {
      imports[imp.module] ??= {};
      // 8 is WASI's EBADF: what an unexpected call would get.
      imports[imp.module][imp.name] = imp.kind === "memory" ? memory : () => 8;
    }
    const { exports } = await WebAssembly.instantiate(module, imports);
    exports.__stack_pointer.value = stackTop;
    post({ serving: true });
    post({ done: exports.wai_web_worker_serve(ctx) });
  } catch (e) {
    post({ error: String(e?.message ?? e) });
  }
}

if (node) port.once("message", serve);
else self.onmessage = (e) => serve(e.data);
