// SPDX-License-Identifier: BSD-2-Clause
// A tiny static server for the page and the browser tests: the repository's
// files under http://127.0.0.1:PORT/, with /web/dist/wai.wasm optionally
// served from another file (a build's), and /web/dist/wai-threads.wasm
// from the file beside it. options.isolated: every response carries
// COOP/COEP, so the page is cross-origin isolated (SharedArrayBuffer, and
// with it the threads module: docs/web.md, "Threads").
//
//   node web/test/serve.mjs [PORT] [WAI.WASM]      (as a program: serves until
//                                                   killed, isolated)
//   import { serve } from "./serve.mjs"; const s = await serve(0, wasm); s.url; s.close();
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm", ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

export function serve(port = 0, wasm = null, options = {}) {
  const isolation = options.isolated
    ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {};
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(ROOT, path));
      if (!file.startsWith(ROOT)) throw new Error("outside");
      if (wasm && path === "/web/dist/wai.wasm") file = wasm;
      if (wasm && path === "/web/dist/wai-threads.wasm") file = wasm.replace(/\.wasm$/, "-threads.wasm");
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store", ...isolation });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  return new Promise((ok) => server.listen(port, "127.0.0.1", () =>
    ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await serve(Number(process.argv[2] ?? 8080), process.argv[3] ? resolve(process.argv[3]) : null,
    { isolated: true });
  console.log(`serving ${ROOT} at ${s.url} (the page: ${s.url}web/demo/)`);
}
