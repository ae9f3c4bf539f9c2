// SPDX-License-Identifier: BSD-2-Clause
// Types of libwai's JavaScript API (web/src/index.js, docs/web.md).

/** A status: "ok", or the specs' refusal code verbatim (docs/errors.md). */
export type Status = string;

/** A parameter set: member name -> bytes. */
export type ParameterSet = Record<string, Uint8Array | ArrayBuffer> | Map<string, Uint8Array | ArrayBuffer>;

export interface DecodeOptions {
  /** The capability (default: the one the payload's magic names). */
  capability?: string;
  set?: ParameterSet;
  /** The set's pin: its listing.json's SHA-256 (64 hex digits, or 32 bytes),
   * or a one-file set's file's, then optionally the tier it states
   * (":tier=decode-equivalence", the decode's pinTier); a set that is not
   * the pinned one (a file altered, missing or unlisted) is refused
   * set_incomplete. */
  pin?: string | Uint8Array;
  /** Work limit (multiply-accumulates plus entropy steps); default none. */
  maxCost?: bigint | number;
  /** Declared-memory limit in bytes; default DEFAULT_MAX_MEMORY (1 GiB). */
  maxMemory?: bigint | number;
  /** The envelope's intent ("replicate" needs decode-equivalence). */
  intent?: string;
  /** The pin's tier token. */
  pinTier?: string;
  /** The dispatch offer, e.g. "npu,gpu,cpu,ort,wgsl,int". */
  offer?: string;
}

/** One candidate of a route: a WAI1's capability or fallback, a WAI2's entry. */
export interface RouteCandidate extends Omit<DecodeOptions, "maxCost" | "maxMemory"> {
  payload: Uint8Array | ArrayBuffer;
}

/** A route's result: the last tried candidate's decode, and each tried one's status. */
export type RouteResult = DecodeResult & { route: { capability: string | null; status: string }[] };

/** A pin's digest and the tier it states: 64 hex digits, optionally
 * ":tier=TOKEN" (docs/spec-readings.md, L5b), or 32 bytes; TypeError else. */
export declare function parsePin(pin: string | Uint8Array): { digest: Uint8Array; tier: string | null };

/** integer-payloads §8's routing codes. */
export declare const ROUTING_CODES: string[];
/** Whether a refusal with this code moves a route on. */
export declare function routes(code: string): boolean;

export interface Cost {
  output_bytes: number;
  entropy_steps: number;
  macs: number;
  working_bytes: number;
}

export interface Output {
  kind: "frame" | "image" | "pcm" | "planes";
  width: number;
  height: number;
  index: number;
  /** PCM: samples a second; 0 otherwise. */
  sampleRate: number;
  /** RGB8 for frames and images, i16 samples for PCM, plane bytes for planes. */
  data: Uint8Array | Int16Array;
}

/** The wai-neural-dispatch/1 report (neural-dispatch §5). */
export interface DispatchReport {
  kind: "wai-neural-dispatch/1";
  capability: string;
  needed: string;
  ran: { unit: string; backend: string; arithmetic: string; tier: string; placement: unknown } | null;
  refused: { unit: string; backend: string; arithmetic: string; reason: Status }[];
}

export interface DecodeResult {
  status: Status;
  ok: boolean;
  capability: string | null;
  cost: Cost | null;
  outputs: Output[];
  report: DispatchReport | null;
  /** The entropy stage's BLAKE3 (hex), where the capability has one. */
  symbolsDigest: string | null;
}

export interface InspectResult {
  status: Status;
  ok: boolean;
  checked: "header" | "framing";
  format: string;
  capability: string | null;
  header: Record<string, unknown> | null;
  costStatus: Status;
  cost: Cost | null;
  symbolsDigest: string | null;
}

export interface Capability {
  name: string;
  format: string;
  tier: string;
  decodes: boolean;
  output: string;
  /** Every file some path of the capability reads from a set, each once:
   * its set members, its backends' programs (decoder.webnn.json, ...) and
   * its encoder's members. */
  members: string[];
}

export declare const DEFAULT_MAX_MEMORY: bigint;
/** A set's listing (listing.json): a member, and it names the others. */
export declare const SET_LISTING: "listing.json";

export declare class WaiError extends Error {
  code: Status;
}

export declare class Decoder {
  /** "ok", or why the decoder cannot decode (an offer that does not parse). */
  status: Status;
  /** Made with `gpu: true` on a Wai with a GPU device: decodes through
   * sendAsync only. */
  gpu: boolean;
  send(payload: Uint8Array | ArrayBuffer): DecodeResult;
  /** A clip's outputs one at a time, each decoded when asked for (a
   * streaming decoder: about two frames of memory), from frame `start` (the
   * frames before it decoded, not copied out; index keeps the frame's
   * number), at most `count`. A refusal part-way throws WaiError after the
   * frames before it: they belong to a refused clip. Integer decoders only. */
  frames(payload: Uint8Array | ArrayBuffer, opts?: { start?: number; count?: number }): Generator<Output, void, undefined>;
  /** send(), the integer networks on the page's GPU for a GPU decoder
   * (docs/wgsl.md); one at a time per module. */
  sendAsync(payload: Uint8Array | ArrayBuffer): Promise<DecodeResult & { timing?: Record<string, number> }>;
  close(): void;
}

export declare class Wai {
  decode(payload: Uint8Array | ArrayBuffer, options?: DecodeOptions): DecodeResult;
  /** The first candidate the sink can decode through (integer-payloads §8):
   * routing refusals move on, any other ends the route. */
  route(candidates: RouteCandidate[], options?: { maxCost?: bigint | number; maxMemory?: bigint | number }): RouteResult;
  /** Every capability, a float one's networks on the page's WebNN
   * (options.ml: default navigator.ml; null for none), an integer one's on
   * the page's GPU where it has one (options.gpu false: the CPU). */
  /** ort: the onnxruntime-node module for the cpu/onnx-runtime/float path
   * (null: none; default in node: the package where it resolves, an
   * optional peer dependency; in a browser: none).
   * webnnDevices: also return what MLGraph.devices (a proposed WebNN
   * extension) says of the graph each plan answered with, as it says it, in
   * the result's webnnDevices; it is never a plan: WebNN states no
   * placement, the report names the unit the context was made for,
   * placement null, either way. A float decode's steps: "decoder" (the
   * decoder's own send, where the engine has JSPI) or "host-loop". */
  decodeAsync(payload: Uint8Array | ArrayBuffer, options?: DecodeOptions & { ml?: unknown; gpu?: boolean; webnnDevices?: boolean; ort?: unknown }):
    Promise<DecodeResult & { timing?: Record<string, number | string | null>;
      webnnDevices?: { unit: string; devices: string[] | null }[];
      steps?: "decoder" | "host-loop" }>;
  createDecoder(options?: DecodeOptions & { gpu?: boolean }): Decoder;
  /** The gpu/wgsl/integer path here: the device's name, or why there is none. */
  readonly gpuInfo: { device: string } | { reason: string };
  /** The level the CPU path's integer kernels run at: "wasm128" (SIMD128)
   * or "portable". */
  readonly cpuLevel: CpuLevel;
  /** The threads the CPU path's kernels split over: 1, plus the workers
   * serving (docs/web.md, "Threads"). */
  readonly threads: number;
  inspect(payload: Uint8Array | ArrayBuffer, options?: { capability?: string; set?: ParameterSet }): InspectResult;
  capabilities(): Capability[];
  /** Every name some capability's path reads from a set (capabilities()'s
   * members together), sorted: what a program filling a set from files
   * reads, besides the listing (SET_LISTING) and the names it lists. */
  memberNames(): string[];
  close(): void;
}

export declare function createWai(options?: {
  wasm?: BufferSource | Response | string | URL;
  /** The WebGPU entry whose adapter runs the integer networks (default
   * navigator.gpu; null: none). */
  gpu?: unknown;
  /** Each layer's GPU time in wai.gpu.device.layerLog (timestamp queries). */
  gpuProfile?: boolean;
  /** The CPU path kernels' cap: "portable" (the C loops alone) or "host"
   * (the default: the module's best, "wasm128"). */
  cpuLevel?: CpuLevel;
  /** The CPU path's threads: a count or "auto" (the cores, at most 8);
   * default 1. More than one loads the threads module and starts workers,
   * where the page is cross-origin isolated (else 1). */
  threads?: number | "auto";
  /** The threads module (default dist/wai-threads.wasm beside wasm). */
  wasmThreads?: BufferSource | Response | string | URL;
}): Promise<Wai>;
/** The integer kernels' instruction set levels (wai_cpu_level). */
export type CpuLevel = "host" | "portable" | "avx2" | "avx512" | "avx512bw" | "avx512vnni" | "wasm128" | "neon";
export declare const CPU_LEVELS: readonly CpuLevel[];
export declare function toImageData(output: Output): ImageData;
/** What a code means, from libwai's one table in C (the tool and the
 * Python module print the same); "" before the first createWai. */
export declare function describeStatus(code: Status): string;
/** The codes libwai names, in its table's order (filled by createWai). */
export declare const STATUS_CODES: readonly Status[];
