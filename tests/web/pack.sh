#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/web/pack.sh WAI.WASM WAI: the npm package as a user gets it. `npm
# pack` of web/ (with the given module as dist/wai.wasm), installed into an
# empty folder, then a node script there imports "libwai" and decodes the
# shipped examples; their outputs' SHA-256s must be the native tool's.
# Ends with "N passed, N failed".
set -uo pipefail
WASM=$(realpath "$1")
WAI=$(realpath "$2")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { # NAME COMMAND...
    if "${@:2}" >"$TMP/out" 2>&1; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL $1: $(head -c 600 "$TMP/out")"; fi
}

cp -r "$REPO/web" "$TMP/src"
rm -rf "$TMP/src/node_modules" "$TMP/src/dist"
mkdir -p "$TMP/src/dist" "$TMP/app"
cp "$WASM" "$TMP/src/dist/wai.wasm"
cp "$REPO/LICENSE" "$TMP/src/LICENSE"   # as make web does
cp "${WASM%.wasm}-threads.wasm" "$TMP/src/dist/wai-threads.wasm"
check "npm pack" sh -c "cd '$TMP/src' && npm pack --silent --pack-destination '$TMP' >'$TMP/tgz'"
tgz="$TMP/$(tail -1 "$TMP/tgz" 2>/dev/null)"
check "the package holds the module, the API, its types and the licence" sh -c \
    "tar -tzf '$tgz' | grep -q package/dist/wai.wasm && tar -tzf '$tgz' | grep -q package/dist/wai-threads.wasm &&
     tar -tzf '$tgz' | grep -q package/src/worker.js && tar -tzf '$tgz' | grep -q package/src/index.d.ts &&
     tar -tzf '$tgz' | grep -q package/LICENSE"
check "npm install into an empty folder" sh -c \
    "cd '$TMP/app' && echo '{\"private\": true, \"type\": \"module\"}' >package.json && npm install --silent --no-audit --no-fund --offline '$tgz'"
cat >"$TMP/app/decode.mjs" <<'JS'
import { readFileSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { createWai, describeStatus } from "libwai";
const [repo] = process.argv.slice(2);
const wai = await createWai();
const sha = (b) => createHash("sha256").update(b).digest("hex");
const set = (d) => Object.fromEntries(readdirSync(d).map((n) => [n, readFileSync(`${d}/${n}`)]));
const clip = wai.decode(readFileSync(`${repo}/examples/hello.wiv1`));
const img = wai.decode(readFileSync(`${repo}/examples/hello.wih1`), { set: set(`${repo}/examples/hello_set`) });
const b18 = wai.inspect(readFileSync(`${repo}/examples/bmshj2018/coffee.b18f`), { set: set(`${repo}/examples/bmshj2018/sets/q3`) });
const bad = wai.decode(new Uint8Array([1, 2, 3, 4]));
// Two threads: the threads module beside wai.wasm, one worker_thread.
const two = await createWai({ threads: 2 });
const img2 = two.decode(readFileSync(`${repo}/examples/hello.wih1`), { set: set(`${repo}/examples/hello_set`) });
const threads = two.threads;
two.close();
console.log(JSON.stringify({
  threads, image2: img2.outputs.map((o) => sha(o.data)),
  clip: clip.outputs.map((o) => sha(o.data)), image: img.outputs.map((o) => sha(o.data)),
  ran: img.report.ran.backend, b18f: b18.symbolsDigest, bad: bad.status, meaning: describeStatus(bad.status),
}));
JS
check "node imports libwai and decodes the examples" sh -c \
    "cd '$TMP/app' && node decode.mjs '$REPO' >'$TMP/js.json'"
want_clip=$("$WAI" decode --json "$REPO/examples/hello.wiv1" | grep -o '"sha256": "[0-9a-f]*"' | cut -d'"' -f4 | paste -sd, -)
want_img=$("$WAI" decode --json --set "$REPO/examples/hello_set" "$REPO/examples/hello.wih1" | grep -o '"sha256": "[0-9a-f]*"' | cut -d'"' -f4 | paste -sd, -)
want_b18=$("$WAI" inspect --cost --set "$REPO/examples/bmshj2018/sets/q3" "$REPO/examples/bmshj2018/coffee.b18f" | grep -o '"symbols_digest": "[0-9a-f]*"' | cut -d'"' -f4)
js() { node -e "const j=JSON.parse(require('fs').readFileSync('$TMP/js.json','utf8')); console.log($1)"; }
check "the clip's frames are the native decode's" test "$(js 'j.clip.join(",")')" = "$want_clip"
check "the image is the native decode's, run on wai-ops" test "$(js 'j.image.join(",")+" "+j.ran')" = "$want_img wai-ops"
check "the bmshj2018 symbols digest is the native one" test "$(js 'j.b18f')" = "$want_b18"
check "two threads serve, and give the same image" test "$(js 'j.threads+" "+j.image2.join(",")')" = "2 $want_img"
check "a refusal is its code, with its meaning" test "$(js 'j.bad+" "+(j.meaning.length>0)')" = "bad_magic true"
echo "$passed passed, $failed failed"
((failed == 0))
