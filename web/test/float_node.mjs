// The float capability's page path in node, where there is no WebNN: every
// WebNN path is dispatch_unit_absent and the entropy stage still gives its
// digest (the native one); a decode that needs decode-equivalence asks no
// device at all (a counting stand-in for navigator.ml sees no call).
//
//   node web/test/float_node.mjs WAI.WASM NATIVE_DIGEST
// Ends with "N passed, N failed".
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createWai } from "../src/index.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wasm, native] = process.argv.slice(2);
const wai = await createWai({ wasm: readFileSync(wasm) });
let passed = 0, failed = 0;
const check = (ok, what) => (ok ? passed++ : (failed++, console.log(`FAIL ${what}`)));
const dir = join(repo, "examples", "bmshj2018");
const set = Object.fromEntries(readdirSync(join(dir, "set")).map((n) => [n, readFileSync(join(dir, "set", n))]));
const payload = readFileSync(join(dir, "chelsea.b18f"));

const none = await wai.decodeAsync(payload, { set, ml: null });
check(none.status === "not_dispatchable", `no WebNN: every path refused, ${none.status}`);
check(none.symbolsDigest === native, `no WebNN: the symbols digest ${none.symbolsDigest} is the native ${native}`);
const webnn = none.report?.refused?.filter((r) => r.backend === "webnn") ?? [];
check(webnn.length === 3 && webnn.every((r) => r.reason === "dispatch_unit_absent"),
  `no WebNN: every WebNN path unit_absent: ${JSON.stringify(none.report)}`);

let calls = 0;
const counting = { createContext: async () => { calls++; throw new Error("no"); } };
const rep = await wai.decodeAsync(payload, { set, ml: counting, intent: "replicate" });
check(rep.status === "not_dispatchable" && rep.report?.refused?.every((r) => r.reason === "dispatch_tier_refused" ||
  r.reason === "dispatch_arithmetic_mismatch") && calls === 0,
  `replicate: ${rep.status}, ${calls} contexts asked for`);
check(rep.report?.needed === "decode-equivalence", "replicate: the report needs decode-equivalence");
const failing = await wai.decodeAsync(payload, { set, ml: counting });
check(calls === 3 && failing.report?.refused?.some((r) => r.unit === "gpu" && r.reason === "dispatch_unit_absent"),
  `contexts that cannot be made: ${calls} asked, ${JSON.stringify(failing.report?.refused)}`);
const noProgram = await wai.decodeAsync(payload, {
  set: { "cdfs_q3.json": set["cdfs_q3.json"] }, ml: { createContext: async () => ({}) } });
check(noProgram.report?.refused?.some((r) => r.backend === "webnn" && r.reason === "dispatch_program_absent"),
  `no program: ${JSON.stringify(noProgram.report?.refused)}`);
const cut = await wai.decodeAsync(payload.subarray(0, 100), { set, ml: null });
check(cut.status === "stream_length" || cut.status === "stream_exhausted", `a cut payload: ${cut.status}`);
const big = await wai.decodeAsync(payload, { set, ml: null, maxMemory: 1000 });
check(big.status === "cost_over_limit", `maxMemory 1000: ${big.status}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
