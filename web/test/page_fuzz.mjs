// SPDX-License-Identifier: BSD-2-Clause
// Hostile input through the player page (web/demo/) in headless Chromium,
// through the page's own paths: its set loading (the set-files input, the
// set-drop drop, window.__wai.loadSetFiles) and its decode
// (window.__wai.decodePayload: the payload loaded and inspected, decoded
// with the page's options and set, shown; window.__wai.decodeBytes).
//
//   node web/test/page_fuzz.mjs WAI.WASM NODE_MODULES [CASES [SEED]]
//
// Sets: files that are no member (never read, named as ignored), a second
// file of a member's name, a member past the page's max-memory (the field
// lowered; and a 2 GiB file, sparse, on the real input at the default
// 1 GiB: cost_over_limit, named with its size, never read), a listing past
// it, a listing naming missing files or a stray one, a listing that is no
// JSON, an empty one, no files, a bad limit, members mutated; a payload
// past the limit (the same 2 GiB file on the payload input, a small one
// past a lowered limit): refused, never read. A spy on
// Blob reads records what the page read: each member at most once, nothing
// else. Payloads: the corpus's decodable payloads (one a capability) and
// the examples, bytes flipped, cut, extended, zeroed, spliced (mulberry32,
// seeded as in fuzz_glue.mjs, so a case replays alone).
//
// Invariants: every load and decode ends with a result whose status is one
// libwai names (or the page's invalid_argument for a bad limit field),
// ok exactly when "ok", no outputs when refused; never a page error
// (pageerror: an uncaught exception or rejection), never a hang (each case
// under a timeout); the page shows no markup a file's name carried; and
// after it all the page still decodes hello.wih1 to the digest it gave
// before the hostile cases. Ends with "N passed, N failed".
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync,
  writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./chromium.mjs";
import { mutate, rngOf } from "./mutate.mjs";
import { serve } from "./serve.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasmArg, modulesArg, casesArg, seedArg] = process.argv.slice(2);
if (!modulesArg) {
  console.error("usage: node web/test/page_fuzz.mjs WAI.WASM NODE_MODULES [CASES [SEED]]");
  process.exit(2);
}
const wasm = resolve(wasmArg);
const CASES = Number(casesArg ?? 400);
const SEED = Number(seedArg ?? 20261207);
const CASE_MS = 15000; // a case past this is a hang
const t0 = Date.now();

let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));

// ---- the seeds: one decodable corpus case a capability, and the examples ------
function seeds() {
  const out = [], seen = new Set();
  const folder = (rel) => Object.fromEntries(readdirSync(join(repo, rel)).filter((n) => statSync(join(repo, rel, n)).isFile())
    .sort().map((n) => [n, `/${rel}/${n}`]));
  for (const line of readFileSync(join(repo, "tests/corpus/index.txt"), "utf8").split("\n")) {
    const p = line.trim().split(/\s+/);
    if (p.length < 5 || p[0] !== "decode" || p[2] !== "ok" || seen.has(p[1])) continue;
    seen.add(p[1]);
    out.push({ name: p[1], cap: p[1], payload: `/tests/corpus/${p[4].split(",")[0]}`,
      set: p[6] && p[6] !== "-" ? folder(`tests/corpus/${p[6]}`) : {} });
  }
  out.push({ name: "hello.wih1", payload: "/examples/hello.wih1", set: folder("examples/hello_set") });
  out.push({ name: "hello.wiv1", payload: "/examples/hello.wiv1", set: {} });
  out.push({ name: "coffee.b18f", payload: "/examples/bmshj2018/coffee.b18f", set: folder("examples/bmshj2018/sets/q3") });
  return out;
}

/** fn(...args) in the page, or a failure after ms: a hang. */
async function within(ms, what, fn) {
  let timer;
  const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error(`${what}: no result in ${ms} ms (a hang)`)), ms); });
  try {
    return await Promise.race([fn(), late]);
  } finally {
    clearTimeout(timer);
  }
}

// ---- in the page ------------------------------------------------------------------
// Before the page's own script: every read of a Blob's bytes recorded by
// the File's name; a file of more than 256 MiB is refused to the reader
// (so a page that would read one fails here, not the machine).
function spy() {
  window.__reads = [];
  const big = 256 * 1024 * 1024;
  for (const k of ["arrayBuffer", "text", "stream", "bytes"]) {
    const orig = Blob.prototype[k];
    if (!orig) continue;
    Blob.prototype[k] = function (...a) {
      window.__reads.push(this.name ?? "(a blob)");
      if (this.size > big) {
        const e = new DOMException(`the test refuses to read ${this.size} bytes`, "NotReadableError");
        return k === "stream" ? new ReadableStream({ start: (c) => c.error(e) }) : Promise.reject(e);
      }
      return orig.apply(this, a);
    };
  }
  for (const k of ["readAsArrayBuffer", "readAsText", "readAsDataURL", "readAsBinaryString"]) {
    const orig = FileReader.prototype[k];
    FileReader.prototype[k] = function (b, ...a) {
      window.__reads.push(b?.name ?? "(a blob)");
      return orig.call(this, b, ...a);
    };
  }
}

// Helpers the cases use, defined in the page once.
function pageHelpers() {
  const cache = new Map();
  const get = async (u) => {
    if (!cache.has(u)) cache.set(u, new Uint8Array(await (await fetch(u)).arrayBuffer()));
    return cache.get(u);
  };
  const hex = async (b) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", b))]
    .map((x) => x.toString(16).padStart(2, "0")).join("");
  const files = async (set) => Promise.all(Object.entries(set).map(async ([n, u]) => new File([await get(u)], n)));
  /** A result's shape: the problems with it ([] when it holds). */
  const problems = (r, codes) => {
    const p = [];
    if (!r || typeof r !== "object") return ["no result"];
    if (typeof r.status !== "string" || !codes.includes(r.status)) p.push(`status ${r?.status} is no code the page knows`);
    if (r.ok !== (r.status === "ok")) p.push(`ok ${r.ok} with ${r.status}`);
    if (!Array.isArray(r.outputs)) p.push("no outputs array");
    else {
      if (!r.ok && r.outputs.length) p.push(`${r.status} with ${r.outputs.length} outputs`);
      for (const o of r.outputs)
        if ((o.kind === "frame" || o.kind === "image") && o.data.length !== o.width * o.height * 3)
          p.push(`${o.kind} ${o.width}x${o.height}: ${o.data.length} bytes`);
    }
    return p;
  };
  window.__t = { get, hex, files, problems };
}

async function main() {
  const server = await serve(0, wasm);
  const tmp = mkdtempSync(join(tmpdir(), "wai-page-fuzz-"));
  let browser;
  const errors = [];
  try {
    browser = await launchChromium(modulesArg, { defaultViewport: { width: 1400, height: 900 } });
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(String(e?.message ?? e)));
    await page.evaluateOnNewDocument(spy);
    await page.goto(`${server.url}web/demo/`, { waitUntil: "load" });
    await page.waitForFunction(() => window.__wai, { timeout: 30000 });
    await page.evaluate(pageHelpers);
    // mutate.mjs's functions are self-contained: their source runs in the page
    // as it is (__mutate with all its kinds, the zero-run too).
    await page.evaluate(`window.__rngOf = ${rngOf}; window.__mutate = ${mutate};`);
    const codes = await page.evaluate(async () => (await import("/web/src/statuses.js")).STATUS_CODES);
    check(codes.includes("ok") && codes.includes("cost_over_limit"), `the page's status table: ${codes.length} codes`);
    const known = [...codes, "invalid_argument"];
    const reads = () => page.evaluate(() => window.__reads.splice(0));
    await reads();

    // The known-good digest, from the same page, before anything hostile.
    const hello = { payload: "/examples/hello.wih1", set: seeds().find((s) => s.name === "hello.wih1").set };
    const good = await within(CASE_MS, "the first decode", () => page.evaluate(async () => {
      const r = await window.__wai.decodeExample("hello.wih1");
      return { status: r.status, digest: r.ok ? await window.__t.hex(r.outputs[0].data) : null };
    }));
    check(good.status === "ok" && /^[0-9a-f]{64}$/.test(good.digest), `hello.wih1 before: ${JSON.stringify(good)}`);

    // ---- the set: by name, each member once, within the limit ----------------------
    // setCase: the files (name -> URL, or {bytes} / {text}), the limit
    // field, then the load's result, what was read, and hello.wih1's
    // decode with it.
    // A case that throws or hangs comes back as a load that threw (its
    // checks fail), and the run goes on; after a hang no case runs.
    let stuck = null;
    const setCase = (what, files, { limit = "", decode = true } = {}) => stuck ? Promise.resolve({ load: { status: "threw",
      message: `not run: ${stuck}` }, read: [], note: "", dec: null, setNames: [] }) : within(CASE_MS, what, () =>
      page.evaluate(async (files, limit, decode, payload) => {
        const { get, hex, problems } = window.__t;
        const fs = [];
        for (const [n, v] of files) {
          const b = typeof v === "string" ? await get(v) : v.text !== undefined ? new TextEncoder().encode(v.text)
            : new Uint8Array(v.bytes);
          fs.push(new File([b], n));
        }
        window.__reads.length = 0;
        document.getElementById("max-memory").value = limit;
        const load = await window.__wai.loadSetFiles(fs);
        const read = window.__reads.splice(0);
        const note = document.getElementById("set-note").textContent;
        let dec = null;
        if (decode) {
          try {
            const r = await window.__wai.decodePayload("hello.wih1", await get(payload));
            dec = { status: r?.status, problems: problems(r, [...window.__codes, "invalid_argument"]),
              digest: r?.ok ? await hex(r.outputs[0].data) : null, shown: document.getElementById("status").className };
          } catch (e) {
            dec = { status: "threw", problems: [`the page's decode threw: ${e?.stack ?? e}`] };
          }
        }
        document.getElementById("max-memory").value = "";
        return { load, read, note, dec, setNames: Object.keys(window.__wai.state.set).sort() };
      }, files, limit, decode, hello.payload)).catch((e) => {
      if (/a hang/.test(String(e?.message))) stuck = e.message;
      return { load: { status: "threw", message: String(e?.message ?? e) }, read: [], note: "", dec: null, setNames: [] };
    });
    await page.evaluate((c) => { window.__codes = c; }, codes);
    const members = Object.entries(hello.set);
    const memberBytes = members.filter(([n]) => n !== "listing.json")
      .reduce((a, [n]) => a + statSync(join(repo, "examples/hello_set", n)).size, 0);
    const listingBytes = statSync(join(repo, "examples/hello_set/listing.json")).size;
    const once = (read) => read.length === new Set(read).size;
    const evil = "<img src=x onerror=\"window.__xss=1\">.txt";

    let c = await setCase("strays", [...members, ["notes.txt", { text: "not a member" }],
      [evil, { text: "<b>markup</b>" }], ["decoder.onnx", { bytes: [1, 2, 3] }]]);
    check(c.load.status === "ok" && c.setNames.join() === "entropy.json,g_s.whm,h_s.whm,listing.json",
      `strays: the members alone: ${JSON.stringify(c)}`);
    check(once(c.read) && c.read.sort().join() === "entropy.json,g_s.whm,h_s.whm,listing.json",
      `strays: each member read once, nothing else: ${c.read.join(",")}`);
    check(/ignored: .*notes\.txt \(not a member\)/.test(c.note) && c.note.includes("decoder.onnx (not a member)") &&
      c.note.includes(evil), `strays: named as ignored on the page: ${c.note}`);
    check(c.dec?.status === "ok" && c.dec.digest === good.digest, `strays: hello.wih1 decodes as before: ${JSON.stringify(c.dec)}`);
    check(await page.evaluate(() => window.__xss === undefined && !document.querySelector("#status img, #set-note img")),
      "a file's name is shown as text, never as markup");

    // The same through the drop and the real file input.
    const drop = await within(CASE_MS, "the drop", () => page.evaluate(async (set) => {
      const fs = await window.__t.files({ ...set, "readme.md": "/README.md" });
      window.__reads.length = 0;
      const note = document.getElementById("set-note");
      note.textContent = "\u2026"; // until the drop's load is done
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(f);
      document.getElementById("set-drop").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      while (note.textContent === "\u2026") await new Promise((r) => setTimeout(r, 10));
      return { read: window.__reads.splice(0), note: document.getElementById("set-note").textContent,
        names: Object.keys(window.__wai.state.set).sort() };
    }, hello.set));
    check(once(drop.read) && !drop.read.includes("readme.md") && drop.names.length === 4 &&
      drop.note.includes("readme.md (not a member)"), `the drop reads by name: ${JSON.stringify(drop)}`);

    // The input, with files on disk: a stray, and a 2 GiB member (sparse)
    // at the default limit: refused before a byte of it is read.
    const dir = join(tmp, "set");
    const disk = [];
    mkdirSync(dir);
    for (const [n] of members) {
      writeFileSync(join(dir, n), readFileSync(join(repo, "examples/hello_set", n)));
      disk.push(join(dir, n));
    }
    writeFileSync(join(dir, "notes.txt"), "a stray");
    const input = await page.$("#set-files");
    const upload = async (paths) => {
      await page.evaluate(() => { window.__reads.length = 0; document.getElementById("set-note").textContent = "\u2026"; });
      await input.uploadFile(...paths);
      try {
        await page.waitForFunction(() => document.getElementById("set-note").textContent !== "\u2026", { timeout: CASE_MS });
      } catch {
        return { read: [], note: "(the page never said what it read: a hang)", status: "", names: [] };
      }
      return page.evaluate(() => ({ read: window.__reads.splice(0), note: document.getElementById("set-note").textContent,
        status: document.getElementById("status").textContent, names: Object.keys(window.__wai.state.set).sort() }));
    };
    let u = await upload([...disk, join(dir, "notes.txt")]);
    check(once(u.read) && !u.read.includes("notes.txt") && u.names.length === 4 && u.note.includes("notes.txt (not a member)"),
      `the input reads by name: ${JSON.stringify(u)}`);
    const huge = join(tmp, "g_s.whm");
    const fd = openSync(huge, "w");
    ftruncateSync(fd, 2 ** 31);
    closeSync(fd);
    u = await upload([...disk.filter((p) => !p.endsWith("g_s.whm")), huge]);
    check(!u.read.includes("g_s.whm") && u.names.length === 0 && u.note.includes("cost_over_limit") &&
      u.note.includes("g_s.whm") && u.note.includes((2 ** 31).toLocaleString("en")) && /refused/i.test(u.status),
      `a 2 GiB member at the default limit: refused unread, named with its size: ${JSON.stringify(u)}`);

    // A payload past the limit: refused, unread (the 2 GiB file on the
    // payload input; a small one past a lowered limit).
    await page.evaluate(() => { window.__reads.length = 0; document.getElementById("status").textContent = "\u2026"; });
    await (await page.$("#payload-file")).uploadFile(huge);
    const big = await page.waitForFunction(() => document.getElementById("status").textContent !== "\u2026", { timeout: CASE_MS })
      .then(() => page.evaluate(() => ({ read: window.__reads.splice(0), status: document.getElementById("status").textContent,
        loaded: window.__wai.state.payload !== null }))).catch((e) => ({ read: [], status: String(e.message), loaded: true }));
    check(big.read.length === 0 && !big.loaded && big.status.includes("cost_over_limit") &&
      big.status.includes((2 ** 31).toLocaleString("en")), `a 2 GiB payload: refused unread: ${JSON.stringify(big)}`);
    const small = await within(CASE_MS, "a payload past a lowered limit", () => page.evaluate(async () => {
      document.getElementById("max-memory").value = "100";
      window.__reads.length = 0;
      const r = await window.__wai.loadPayloadFile(new File([await window.__t.get("/examples/hello.wih1")], "hello.wih1"));
      document.getElementById("max-memory").value = "";
      return { ...r, read: window.__reads.splice(0) };
    }));
    check(small.status === "cost_over_limit" && small.read.length === 0 && small.message.includes("hello.wih1"),
      `a payload past a lowered limit: refused unread: ${JSON.stringify(small)}`);

    // Past a lowered limit: the member that passes it is named, nothing
    // after the listing is read; just within it, all is read.
    const total = memberBytes + listingBytes;
    c = await setCase("one byte short", members, { limit: String(total - 1) });
    check(c.load.status === "cost_over_limit" && /set member \S+: [0-9,]+ bytes/.test(c.load.message) &&
      c.read.join() === "listing.json" && c.setNames.length === 0,
      `past the limit by a byte: refused, only the listing read: ${JSON.stringify(c.load)} read ${c.read}`);
    check(c.dec?.status === "set_incomplete" && c.dec.problems.length === 0, `and the decode after it: ${JSON.stringify(c.dec)}`);
    c = await setCase("at the limit", members, { limit: String(total), decode: false });
    check(c.load.status === "ok" && c.read.length === 4 && once(c.read), `a set at the limit: read: ${JSON.stringify(c.load)}`);
    c = await setCase("the listing past it", members, { limit: String(listingBytes - 1), decode: false });
    check(c.load.status === "cost_over_limit" && c.load.message.includes("listing.json") && c.read.length === 0,
      `a listing past the limit: unread: ${JSON.stringify(c.load)} read ${c.read}`);
    c = await setCase("a bad limit", members, { limit: "12abc", decode: false });
    check(c.load.status === "invalid_argument" && c.read.length === 0, `a limit that is no number: ${JSON.stringify(c.load)}`);

    // Listings: missing files, a stray it names, no JSON, nothing at all.
    const listing = JSON.parse(readFileSync(join(repo, "examples/hello_set/listing.json"), "utf8"));
    const withMissing = { ...listing, members: [...listing.members, { name: "missing.bin", bytes: 4, sha256: "00".repeat(32) }] };
    c = await setCase("listing naming a missing file", [...members.filter(([n]) => n !== "listing.json"),
      ["listing.json", { text: JSON.stringify(withMissing) }]]);
    check(c.load.status === "ok" && c.note.includes("listed, not given: missing.bin") && once(c.read),
      `a listing naming a missing file: said: ${c.note}`);
    // No pin: libwai judges the members given (a pinned set would be set_incomplete).
    check(c.dec && c.dec.problems.length === 0, `and its decode ends with a result: ${JSON.stringify(c.dec)}`);
    const listsStray = { ...listing, members: [...listing.members, { name: "notes.txt", bytes: 7, sha256: "00".repeat(32) }] };
    c = await setCase("listing naming a stray", [...members.filter(([n]) => n !== "listing.json"),
      ["listing.json", { text: JSON.stringify(listsStray) }], ["notes.txt", { text: "a stray" }], ["other.txt", { text: "x" }]]);
    check(c.read.includes("notes.txt") && !c.read.includes("other.txt") && once(c.read) && c.note.includes("other.txt (not a member)"),
      `a file the listing names is read, once; another is not: ${c.read.join(",")} · ${c.note}`);
    check(c.dec && c.dec.problems.length === 0, `and its decode ends with a result: ${JSON.stringify(c.dec)}`);
    // A member the listing names, past the limit, whose name is markup
    // (and sorts last): the refusal names it and its size, as text.
    const evil2 = `z${evil}`;
    const listsEvil = JSON.stringify({ ...listing, members: [...listing.members, { name: evil2, bytes: 4096, sha256: "00".repeat(32) }] });
    c = await setCase("a listed member named in markup, past the limit", [...members.filter(([n]) => n !== "listing.json"),
      ["listing.json", { text: listsEvil }], [evil2, { bytes: new Array(4096).fill(60) }]],
    { limit: String(Buffer.byteLength(listsEvil) + memberBytes + 100), decode: false });
    check(c.load.status === "cost_over_limit" && c.load.message.includes(evil2) && c.load.message.includes("4,096 bytes") &&
      c.read.join() === "listing.json", `a listed member past the limit: refused by name and size, unread: ${JSON.stringify(c.load)} read ${c.read}`);
    check(await page.evaluate((evil) => window.__xss === undefined && !document.querySelector("#status img") &&
      document.getElementById("status").textContent.includes(evil), evil2), "the refusal shows the member's name as text");
    for (const [what, text] of [["no JSON", "{not json"], ["no members", "{\"kind\":\"wai.prior.set\"}"],
      ["members not a list", "{\"members\":7}"], ["names not strings", "{\"members\":[{\"name\":5},null,{}]}"],
      ["empty", ""], ["not UTF-8", null]]) {
      const files = [...members.filter(([n]) => n !== "listing.json"),
        ["listing.json", text === null ? { bytes: [0xff, 0xfe, 0x00, 0x80] } : { text }], ["notes.txt", { text: "x" }]];
      c = await setCase(`a listing: ${what}`, files);
      check(c.load.status === "ok" && c.read.length === 4 && !c.read.includes("notes.txt") && once(c.read) &&
        c.dec && c.dec.problems.length === 0, `a listing with ${what}: ${JSON.stringify({ load: c.load, read: c.read, dec: c.dec })}`);
    }
    c = await setCase("no files", []);
    check(c.load.status === "ok" && c.read.length === 0 && c.dec?.status === "set_incomplete" && c.dec.problems.length === 0,
      `no files: an empty set, and the decode refused: ${JSON.stringify(c.dec)}`);
    c = await setCase("a second g_s.whm", [...members, ["g_s.whm", { bytes: [9, 9, 9] }]]);
    check(c.load.status === "ok" && once(c.read) && c.note.includes("g_s.whm (a second file of that name)") &&
      c.dec?.digest === good.digest, `a second file of a member's name: read once, the first kept: ${c.note}`);
    c = await setCase("an empty member", [...members.filter(([n]) => n !== "h_s.whm"), ["h_s.whm", { bytes: [] }]]);
    check(c.load.status === "ok" && c.dec && c.dec.problems.length === 0 && c.dec.status !== "ok",
      `an empty member: ${JSON.stringify(c.dec)}`);

    // ---- the payloads, mutated, through the page's decode -------------------------
    const all = seeds();
    const outcomes = new Map();
    let hang = null;
    let current = null;
    for (let i = 0; i < CASES && !hang; i++) {
      // Every draw here but the mutations (the page's, from the same seed).
      const r = rngOf(SEED * 1000003 + i);
      const s = r.pick(all), other = r.pick(all);
      const c = {
        i, seed: SEED * 1000003 + i, name: s.name, payload: s.payload, other: other.payload, set: s.set,
        // Each seed's set through the page's set loading (a stray beside
        // it; now and then a member mutated), then the payload through
        // decodePayload or decodeBytes, under a max-cost: no case may run
        // for minutes.
        reload: current !== s.name, setSeed: r.random() < 0.2 ? 1 + r.int(1 << 30) : 0,
        mutate: r.random() < 0.9, viaPage: r.random() < 0.7, maxCost: r.pick([1 << 16, 1 << 20, 1 << 24, 1 << 26]),
        capability: r.random() < 0.15 ? r.int(64) : -1,
      };
      try {
        const res = await within(CASE_MS, `case ${i} (${s.name}, seed ${SEED})`, () => page.evaluate(async (c) => {
          const { get, problems } = window.__t;
          if (c.reload || c.setSeed) {
            const fs = await window.__t.files(c.set);
            fs.push(new File([new Uint8Array([1, 2, 3])], "stray.bin"));
            if (c.setSeed && fs.length > 1) {
              const rs = window.__rngOf(c.setSeed), k = rs.int(fs.length - 1);
              fs[k] = new File([window.__mutate(rs, await get(Object.values(c.set)[k]), new Uint8Array(0))], fs[k].name);
            }
            window.__reads.length = 0;
            const load = await window.__wai.loadSetFiles(fs);
            const read = window.__reads.splice(0);
            if (load.status !== "ok" || read.includes("stray.bin") || read.length !== new Set(read).size)
              return { bad: `the set of ${c.name}: ${JSON.stringify(load)}, read ${read}` };
          }
          let payload = await get(c.payload);
          if (c.mutate) payload = window.__mutate(window.__rngOf(c.seed ^ 0x5eed), payload, await get(c.other));
          const $ = (id) => document.getElementById(id);
          const caps = [...$("capability").options].map((o) => o.value);
          $("max-cost").value = String(c.maxCost);
          $("capability").value = c.capability < 0 ? "" : caps[c.capability % caps.length];
          $("use-gpu").checked = false;
          const res = c.viaPage ? await window.__wai.decodePayload(`case${c.i}`, payload)
            : await window.__wai.decodeBytes(payload, { set: window.__wai.state.set, maxCost: c.maxCost, gpu: false });
          const shown = $("status").className;
          $("max-cost").value = "";
          $("capability").value = "";
          const p = problems(res, [...window.__codes, "invalid_argument"]);
          if (c.viaPage && !/\b(ok|bad)\b/.test(shown)) p.push(`the page shows "${shown}" after the decode`);
          return { status: res?.status, how: c.viaPage ? "page" : "bytes", problems: p };
        }, c));
        current = c.setSeed ? null : s.name;
        if (res.bad) check(false, `case ${i}: ${res.bad}`);
        else {
          check(res.problems.length === 0, `case ${i} (${s.name}, seed ${SEED}): ${res.status}: ${res.problems.join("; ")}`);
          const key = `${res.how} ${res.status}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
      } catch (e) {
        const m = String(e?.message ?? e);
        check(false, /a hang/.test(m) ? m : `case ${i} (${s.name}, seed ${SEED}): the page threw: ${m}`);
        if (/a hang/.test(m)) hang = e;
        current = null;
      }
    }
    console.log(`page_fuzz: ${CASES} payload cases over ${all.length} seeds, seed ${SEED}`);
    console.log("outcomes: " + [...outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", "));

    // ---- the page still works ----------------------------------------------------------
    if (hang) check(false, "the page hung: its last decode not run");
    else {
      c = await setCase("the last good decode", [...members, ["notes.txt", { text: "x" }]]);
      check(c.dec?.status === "ok" && c.dec.digest === good.digest,
        `after it all, hello.wih1 from picked files decodes to the digest of before: ${JSON.stringify(c.dec)}`);
      const again = await within(CASE_MS, "the example again", () => page.evaluate(async () => {
        const r = await window.__wai.decodeExample("hello.wih1");
        return r.ok ? window.__t.hex(r.outputs[0].data) : r.status;
      }));
      check(again === good.digest, `and the shipped example too: ${again}`);
    }
  } catch (e) {
    check(false, `the run: ${e.stack ?? e}`);
  } finally {
    check(errors.length === 0, `no page errors: ${errors.slice(0, 5).join("; ")}`);
    if (browser) await browser.close().catch(() => {});
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
console.log(`page_fuzz: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
