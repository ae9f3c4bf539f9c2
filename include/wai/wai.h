/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai — exact decoder of WAI integer-codec payloads.
 *
 * Public API conventions (docs/api.md): every function that can fail
 * returns a wai_status; the library never prints, exits or aborts, and keeps
 * no global mutable state.
 *   - Names: functions and types wai_..., macros WAI_...; a status is WAI_
 *     and the spec's code verbatim; every other enumerator WAI_ in upper
 *     case.
 *   - Handles are opaque, made by ..._create and released by ..._destroy;
 *     memory the library hands over (text, buffers) is released by ..._free.
 *   - Text into a caller's buffer (buf, size, *len): *len gets the text's
 *     length without its NUL, always; WAI_ok when the text and its NUL fit,
 *     else WAI_invalid_argument and buf an empty string. A call with size 0
 *     learns the room it needs.
 *   - A pointer a function only reads is const. Headers include each other
 *     as "wai/NAME.h" and compile alone, in C and C++. */
#ifndef WAI_WAI_H
#define WAI_WAI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* WAI_API marks what libwai exports, and nothing else is (the build hides
 * every other symbol; tests/ci/check-exports.sh holds the two equal). On
 * Windows a program using libwai as a DLL defines WAI_DLL (the CMake
 * package does so for the shared library) to import it. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WAI_BUILDING_LIBRARY)
#define WAI_API __declspec(dllexport)
#elif defined(WAI_DLL)
#define WAI_API __declspec(dllimport)
#else
#define WAI_API
#endif
#elif defined(WAI_BUILDING_LIBRARY) && defined(__GNUC__)
#define WAI_API __attribute__((visibility("default")))
#else
#define WAI_API
#endif

/* WAI_VERSION_MAJOR, _MINOR, _PATCH and WAI_VERSION_NUMBER of these
 * headers, written by the build from the project's one version. */
#include "wai/wai_version.h"

/* "MAJOR.MINOR.PATCH" of the library actually linked. */
WAI_API const char *wai_version(void);

/* The linked library's version as one number, MAJOR * 10000 + MINOR * 100 +
 * PATCH: compare it with WAI_VERSION_NUMBER, the headers' own. */
WAI_API unsigned wai_version_number(void);

/* Every outcome of every call. The enumerators after WAI_ are the specs'
 * codes verbatim, so a status names itself in logs exactly as the spec does
 * (wai_status_name). The order below is the spec tables' order; the numeric
 * values are part of the ABI and never change. */
typedef enum wai_status {
    WAI_ok = 0,

    /* integer-payloads §8: refusals of a payload or of its parameter set */
    WAI_bad_magic = 1,
    WAI_format_capability_mismatch = 2,
    WAI_keyframe_capability_mismatch = 3,
    WAI_version = 4,
    WAI_reserved_nonzero = 5,
    WAI_field_range = 6,
    WAI_too_large = 7,
    WAI_cdf_malformed = 8,
    WAI_stream_length = 9,
    WAI_nested_length = 10,
    WAI_trailing = 11,
    WAI_stream_exhausted = 12,
    WAI_stream_noncanonical = 13,
    WAI_geometry_mismatch = 14,
    WAI_model_mismatch = 15,
    WAI_set_incomplete = 16,
    WAI_not_dispatchable = 17,
    WAI_unsupported_capability = 18,
    WAI_payload_malformed = 19,
    WAI_cost_over_limit = 20,

    /* neural-dispatch §7: refusals of a dispatch path */
    WAI_dispatch_tier_refused = 32,
    WAI_dispatch_arithmetic_mismatch = 33,
    WAI_dispatch_unit_absent = 34,
    WAI_dispatch_program_absent = 35,
    WAI_dispatch_shape_mismatch = 36,
    WAI_dispatch_not_placed = 37,
    WAI_dispatch_backend_failed = 38,

    /* webnn.md: the exceptions the WebNN API throws, by their names
     * (include/wai/wai_webnn.h) */
    WAI_TypeError = 48,
    WAI_InvalidStateError = 49,
    WAI_OperationError = 50,
    WAI_NotSupportedError = 51,
    WAI_DataError = 52,
    WAI_UnknownError = 53,

    /* the library's own: not a judgement of the payload */
    WAI_out_of_memory = 64,
    WAI_io_error = 65,
    WAI_invalid_argument = 66,

    /* a receipt of wai.video.int_motion (integer-payloads §15;
     * include/wai/wai_receipt.h says what each found) */
    WAI_receipt_refused = 80,       /* the JSON form's reader refuses it (§15.2) */
    WAI_receipt_inconsistent = 81,  /* not consistent, or its signature fails (§15.1) */
    WAI_receipt_not_rederived = 82  /* the payload (or source) does not give it */
} wai_status;

/* The code's name as the spec writes it ("stream_exhausted"), "ok" for
 * WAI_ok, or NULL for a value that is not a wai_status. */
WAI_API const char *wai_status_name(wai_status s);

/* What the code means, in one line a person reads beside its name ("the
 * payload is malformed"): the one table the
 * tool, the Python module and the page all print. NULL for a value that is
 * not a wai_status. */
WAI_API const char *wai_status_meaning(wai_status s);

/* Parses a name back (exact match); returns 0 and leaves *out alone when the
 * name is not a code. */
WAI_API int wai_status_from_name(const char *name, wai_status *out);

/* How a refusal routes (integer-payloads §8). */
typedef enum wai_status_kind {
    WAI_KIND_OK = 0,
    WAI_KIND_PAYLOAD,   /* final: the payload or its set is refused; no fallback */
    WAI_KIND_ROUTE,     /* the sink cannot decode through the capability:
                           set_incomplete, not_dispatchable,
                           unsupported_capability, cost_over_limit */
    WAI_KIND_DISPATCH,  /* a dispatch path was refused (neural-dispatch §7) */
    WAI_KIND_LIBRARY,   /* out of memory, I/O, invalid argument */
    WAI_KIND_UNKNOWN,
    WAI_KIND_WEBNN,     /* a WebNN call was refused or failed (webnn.md) */
    WAI_KIND_RECEIPT    /* a receipt was refused, inconsistent or not re-derived */
} wai_status_kind;

WAI_API wai_status_kind wai_status_kind_of(wai_status s);

/* ---- allocation ---------------------------------------------------------
 * Every allocation the library makes goes through one allocator, so an
 * embedder can account for memory or fail allocations on purpose. NULL
 * members mean libc's malloc/free. */
typedef struct wai_allocator {
    void *(*alloc)(void *opaque, size_t size);
    void (*free)(void *opaque, void *ptr);
    void *opaque;
} wai_allocator;

/* ---- instruction set levels ---------------------------------------------
 * The levels libwai's integer kernels have loops for, each needing the CPU
 * features of its own and of the levels below it in its architecture's
 * order (x86-64: portable, avx2, avx512, avx512bw, avx512vnni; wasm32:
 * portable, wasm128; aarch64: portable, neon). Every level
 * gives the same bytes (docs/integer-operators.md, "Fast kernels"): a cap
 * serves tests and benchmarks, and a caller who distrusts a level. */
typedef enum wai_cpu_level {
    WAI_CPU_HOST = 0,             /* no cap: the best level this CPU runs */
    WAI_CPU_PORTABLE = 1,         /* the portable C loops, on every CPU */
    WAI_CPU_X86_AVX2 = 2,         /* x86-64 AVX2 */
    WAI_CPU_X86_AVX512 = 3,       /* and AVX-512 F, DQ and CD */
    WAI_CPU_X86_AVX512BW = 4,     /* and BW */
    WAI_CPU_X86_AVX512VNNI = 5,   /* and VNNI */
    WAI_CPU_WASM_SIMD128 = 6,     /* WebAssembly SIMD128 */
    WAI_CPU_ARM_NEON = 7          /* AArch64 Advanced SIMD (NEON) */
} wai_cpu_level;

/* "host", "portable", "avx2", "avx512", "avx512bw", "avx512vnni", "wasm128",
 * "neon"; NULL for a value outside the enum. */
WAI_API const char *wai_cpu_level_name(wai_cpu_level l);

/* Exact parse of a name; 0 (and *out untouched) when it is none. */
WAI_API int wai_cpu_level_from_name(const char *name, wai_cpu_level *out);

/* ---- context ------------------------------------------------------------
 * A context owns what decodes share: the allocator, the thread count, the
 * kernel tables of the CPU's level, the loaded-set cache and the backends
 * (include/wai/wai_backend.h). The cache is locked, so decoders of one
 * context may run on several threads (where the platform has threads; not
 * on wasm32-wasi); each decoder is used from one thread at a time. */
typedef struct wai_settings {
    wai_allocator allocator;
    unsigned n_threads;              /* 0: one per core */
    uint64_t set_cache_budget;       /* bytes; default 256 MiB, 0 keeps nothing */
    wai_cpu_level cpu_level;         /* the highest level the kernels may use: HOST (no
                                      * cap, the default), or a level of this build's
                                      * architecture (above the CPU's: the CPU's); one of
                                      * another architecture is invalid_argument */
    uint8_t reserved[60];            /* zero; room to grow without an ABI break */
} wai_settings;

typedef struct wai_context wai_context;

/* Fills *s with the defaults. */
WAI_API void wai_settings_default(wai_settings *s);

WAI_API wai_status wai_context_create(const wai_settings *s, wai_context **out);
WAI_API void wai_context_destroy(wai_context *ctx);

/* For platforms where libwai cannot start threads (wasm32: WASI has no
 * thread creation): a thread the host started (a Web Worker, a node
 * worker_thread, running the same module over the same shared memory)
 * gives itself to ctx's worker pool, runs ctx's kernel shares, and returns
 * WAI_ok when ctx is destroyed. Up to n_threads - 1 threads are taken;
 * one more, or a call where the build starts its own threads, returns
 * invalid_argument at once. Until a thread has come every share runs on
 * the caller, and the bytes are the same at every count (docs/web.md,
 * "Threads"). The thread must not be stopped while it serves. */
WAI_API wai_status wai_context_serve(wai_context *ctx);

/* The level ctx's kernels run at: its cap, or the CPU's best below it. */
WAI_API wai_cpu_level wai_context_cpu_level(const wai_context *ctx);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_H */
