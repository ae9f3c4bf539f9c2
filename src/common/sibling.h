/* SPDX-License-Identifier: BSD-2-Clause */
/* WAI_SIBLING marks, where it is declared, a function of libwai's inside
 * that the libraries beside it use: the allocator's helpers, the JSON
 * reader and the text builder (libwai_webnn, libwai_receipt), the parsers,
 * tables, loaded sets and network runner of the writers (libwai_write).
 * libwai.so exports them like its API but under the version node
 * WAI_PRIVATE_<version> (its version script is made from these
 * declarations, CMakeLists.txt), and no public header declares them: one
 * copy in the process, used only by libraries of the same build
 * (tests/ci/check-exports.sh counts them apart from the API). */
#ifndef WAI_COMMON_SIBLING_H
#define WAI_COMMON_SIBLING_H

#include "wai/wai.h"

#define WAI_SIBLING WAI_API

#endif
