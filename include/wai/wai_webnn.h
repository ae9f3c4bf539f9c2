/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_webnn, libwai's native WebNN: a library of its own (CMake target
 * wai::wai_webnn, pkg-config wai_webnn), the one that computes in floating
 * point and links oneDNN where it was found, so libwai needs libc alone.
 *
 * This header is what a player needs of it: the backend it registers with
 * a context, so that wai.neural.bmshj2018 decodes on the CPU. The WebNN
 * graph API itself (ML contexts, builders, operators, graphs from a
 * description, a latent program's steps, the encoders' analysis) is
 * include/wai/wai_ml.h. */
#ifndef WAI_WAI_WEBNN_H
#define WAI_WAI_WEBNN_H

#include <stdint.h>

#include "wai/wai.h"
#include "wai/wai_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* WAI_WEBNN_API marks what libwai_webnn exports (tests/ci/check-exports.sh
 * holds the library to this header and wai_ml.h). A Windows program using it as a DLL
 * defines WAI_WEBNN_DLL. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WAI_BUILDING_WEBNN_LIBRARY)
#define WAI_WEBNN_API __declspec(dllexport)
#elif defined(WAI_WEBNN_DLL)
#define WAI_WEBNN_API __declspec(dllimport)
#else
#define WAI_WEBNN_API
#endif
#elif defined(WAI_BUILDING_WEBNN_LIBRARY) && defined(__GNUC__)
#define WAI_WEBNN_API __attribute__((visibility("default")))
#else
#define WAI_WEBNN_API
#endif

/* ---- the backend: a latent capability's program on the CPU ---------------
 * cpu/webnn/float for a decoder: register it with a context,
 *
 *     wai_context_add_backend(ctx, wai_webnn_backend());
 *
 * and a wai.neural.bmshj2018 decode runs its synthesis here: the set's
 * decoder.webnn.json and decoder.f32 (a graph description and its
 * weights) opened once per loaded set, its graph built on one ML context
 * of the wai_context once per latent shape, kept with the set in the
 * context's loaded-set cache (docs/bmshj2018.md). Without it,
 * cpu/webnn/float is dispatch_unit_absent, as any absent unit. */
WAI_WEBNN_API const wai_backend_ops *wai_webnn_backend(void);

/* What the backend of ctx has done so far: ML contexts created, graphs
 * built, runs. WAI_invalid_argument when it is not registered there. */
typedef struct wai_webnn_backend_stats {
    uint64_t contexts, graphs, runs;
    uint64_t reserved[5];
} wai_webnn_backend_stats;
WAI_WEBNN_API wai_status wai_webnn_backend_stats_of(const wai_context *ctx,
                                                    wai_webnn_backend_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* WAI_WAI_WEBNN_H */
