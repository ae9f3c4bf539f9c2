/* SPDX-License-Identifier: BSD-2-Clause */
/* WAI_SIBLING marks what libwai lends the libraries beside it
 * (libwai_webnn, libwai_receipt) of its inside: the allocator's helpers,
 * the JSON reader and the text builder. They are exported from libwai.so
 * like its API, but under the version node WAI_PRIVATE (cmake/wai.map)
 * and declared in no public header: one copy in the process, used only
 * by libraries built from the same tree (tests/ci/check-exports.sh counts
 * them apart from the API). */
#ifndef WAI_COMMON_SIBLING_H
#define WAI_COMMON_SIBLING_H

#include "wai/wai.h"

#define WAI_SIBLING WAI_API

#endif
