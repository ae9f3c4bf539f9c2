// SPDX-License-Identifier: BSD-2-Clause
// Runs a wasm32-wasi program under node's WASI (preview1):
//   node tests/ci/run-wasi.mjs PROGRAM.wasm [ARGS...]
// Preopens: the current directory as "." (relative paths), the repository
// and the current directory under their own absolute paths, and a temporary
// directory (also $TMPDIR inside). The program's exit code is passed through.
//
// returnOnExit is false: with true, node 20 unwinds proc_exit by throwing
// through the wasm frames, and that crashed node (SIGSEGV) intermittently
// at the end of the unit tests. With false, proc_exit calls process.exit
// itself, which is what we want anyway.
import { WASI } from 'node:wasi';
import { readFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('usage: run-wasi.mjs PROGRAM.wasm [ARGS...]\n');
  process.exit(2);
}

const repo = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const cwd = realpathSync(process.cwd());
const tmp = mkdtempSync(join(tmpdir(), 'wai-wasi-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: { ...process.env, TMPDIR: tmp },
  preopens: { '.': cwd, [cwd]: cwd, [repo]: repo, [tmp]: tmp },
  returnOnExit: false,
});

try {
  const module = await WebAssembly.compile(readFileSync(program));
  // (getImportObject() is newer than node 18.x.) proc_exit is ours: node's
  // leaves without running 'exit' handlers, which would leak the temp dir.
  const instance = await WebAssembly.instantiate(module, {
    wasi_snapshot_preview1: { ...wasi.wasiImport, proc_exit: (code) => process.exit(code) },
  });
  // A non-zero exit goes through proc_exit (process.exit); main returning 0
  // returns here.
  wasi.start(instance);
  process.exitCode = 0;
} catch (e) {
  // A trap (unreachable, out-of-bounds access) lands here: report, fail.
  process.stderr.write(`run-wasi: ${program}: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 134;
}
