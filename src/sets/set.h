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
} wai_set_member;

struct wai_set {
    wai_allocator alloc;      /* the creating context's, resolved */
    wai_set_member *members;
    size_t n, cap;
    int pinned;
    uint8_t pin[32];
};

#endif
