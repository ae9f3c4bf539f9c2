/* A set's listing (docs/spec-readings.md, L5): what a pin over a set of
 * several files covers, and SPEC §3.1's check 5 against the files read. */
#ifndef WAI_SETS_LISTING_H
#define WAI_SETS_LISTING_H

#include <stddef.h>

#include "wai/wai_set.h"

/* Check 5: the listing (bytes l) is in its one canonical form and lists
 * each of the n members named, all present in set, with that member's
 * length and SHA-256. WAI_ok, or set_incomplete. */
wai_status wai_listing_check(const uint8_t *l, size_t len, const wai_set *set,
                             const char *const *names, size_t n);

#endif
