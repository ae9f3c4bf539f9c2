/* SPDX-License-Identifier: BSD-2-Clause */
/* WAI_SIBLING marks, where it is declared, a function of libwai's inside
 * that the libraries beside it use: the allocator's helpers, the JSON
 * reader and the text builder (libwai_webnn, libwai_receipt), and what
 * the writers share of the formats and the coder: the parsers they check
 * their bytes with, the CDF tables and the rANS steps that split and join
 * copy, the thread pool (libwai_write, which runs networks and decodes
 * only through the public API: wai_network.h, wai_decode.h).
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
