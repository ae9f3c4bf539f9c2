/* SPDX-License-Identifier: BSD-2-Clause */
/* The parameter set object behind include/wai/wai_set.h. */
#ifndef WAI_SETS_SET_H
#define WAI_SETS_SET_H

#include <stddef.h>
#include <stdint.h>

#include "wai/wai_set.h"

typedef struct wai_set_member {
    char *name;
    const uint8_t *data;
    size_t len;
    int owned;               /* data is the set's copy (else the caller's) */
    uint8_t sha256[32];      /* the bytes' SHA-256, taken once when added: a pin's
                              * check and the loaded-set cache's key read it, so
                              * no decode hashes a member again */
} wai_set_member;

struct wai_set {
    wai_allocator alloc;      /* the creating context's, resolved */
    wai_set_member *members;
    size_t n, cap;
    int pinned;
    uint8_t pin[32];
};

/* The SHA-256 of member name's bytes, or NULL when there is none. */
const uint8_t *wai_set_member_sha256(const wai_set *s, const char *name);

#endif
