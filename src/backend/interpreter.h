/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai's integer interpreter as a backend like any other: a const
 * wai_backend_ops on cpu/wai-ops/integer, every context's first entry
 * (backend/registry.h). Its network callback runs a public
 * wai_network_job (include/wai/wai_backend.h) on the context's kernels,
 * layer by layer, reporting each layer's input bound as a plug-in does;
 * inside a decode the registry binds it to the decoder's kernels and kept
 * arena directly, the same runner without the job's copies. */
#ifndef WAI_BACKEND_INTERPRETER_H
#define WAI_BACKEND_INTERPRETER_H

#include "wai/wai_backend.h"

extern const wai_backend_ops wai_backend_interpreter;

#endif
