/* SPDX-License-Identifier: BSD-2-Clause */
/* The tokens of neural-dispatch §1 and the determinism tiers, both ways.
 * Tables indexed by the enums' values, so a name is one bounds check. */
#include "wai/wai_dispatch.h"

#include <string.h>

static const char *const tiers[] = {"none", "entropy-consistency", "decode-equivalence"};
static const char *const units[] = {"npu", "gpu", "cpu"};
static const char *const backends[] = {"model-runtime", "webnn", "onnx-runtime", "wai-ops",
                                       "wgsl"};
static const char *const ariths[] = {WAI_ARITHMETIC_INTEGER_TOKEN, WAI_ARITHMETIC_FLOAT_TOKEN};

#define COUNT(t) (sizeof t / sizeof t[0])

/* Enums are compared as unsigned so a negative value from a cast is out of
 * range too, not an index below the table. */
static const char *name_of(const char *const *table, size_t n, unsigned v) {
    return v < n ? table[v] : NULL;
}

static int find(const char *const *table, size_t n, const char *name, unsigned *out) {
    if (!name) return 0;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(table[i], name) == 0) {
            *out = i;
            return 1;
        }
    return 0;
}

const char *wai_tier_name(wai_tier t) { return name_of(tiers, COUNT(tiers), (unsigned)t); }
const char *wai_unit_name(wai_unit u) { return name_of(units, COUNT(units), (unsigned)u); }
const char *wai_backend_name(wai_backend b) {
    return name_of(backends, COUNT(backends), (unsigned)b);
}
const char *wai_arithmetic_name(wai_arithmetic a) {
    return name_of(ariths, COUNT(ariths), (unsigned)a);
}

int wai_tier_from_name(const char *name, wai_tier *out) {
    unsigned v;
    if (!find(tiers, COUNT(tiers), name, &v)) return 0;
    *out = (wai_tier)v;
    return 1;
}

int wai_unit_from_name(const char *name, wai_unit *out) {
    unsigned v;
    if (!find(units, COUNT(units), name, &v)) return 0;
    *out = (wai_unit)v;
    return 1;
}

int wai_backend_from_name(const char *name, wai_backend *out) {
    unsigned v;
    if (!find(backends, COUNT(backends), name, &v)) return 0;
    *out = (wai_backend)v;
    return 1;
}

int wai_arithmetic_from_name(const char *name, wai_arithmetic *out) {
    unsigned v;
    if (!find(ariths, COUNT(ariths), name, &v)) return 0;
    *out = (wai_arithmetic)v;
    return 1;
}
