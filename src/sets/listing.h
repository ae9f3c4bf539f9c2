/* SPDX-License-Identifier: BSD-2-Clause */
/* A set's listing (docs/spec-readings.md, L5): what a pin over a set of
 * several files covers, and SPEC §3.1's check 5 against the files read. */
#ifndef WAI_SETS_LISTING_H
#define WAI_SETS_LISTING_H

#include <stddef.h>

#include "wai/wai_set.h"

/* Check 5 over every file a path may read: the listing (bytes l) is in its
 * one canonical form and lists every member of set (but set's own
 * WAI_SET_LISTING) with that member's length and SHA-256 (docs/spec-readings.md,
 * L5, L5a). It may list files set does not hold, unless whole (a pinned
 * set: the pin is over every file listed, so each must be there). WAI_ok,
 * or set_incomplete. */
wai_status wai_listing_check(const uint8_t *l, size_t len, const wai_set *set, int whole);

#endif
