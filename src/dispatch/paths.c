/* SPDX-License-Identifier: BSD-2-Clause */
/* The paths of neural-dispatch §1 that exist, this sink's default offer,
 * and the offer's text form (docs/dispatch.md, "Offers"). */
#include "dispatch/path.h"

#include <string.h>

int wai_path_valid(const wai_path *p) {
    if (!p || !wai_unit_name(p->unit) || !wai_backend_name(p->backend) ||
        !wai_arithmetic_name(p->arithmetic))
        return 0;
    switch (p->backend) {
    case WAI_BACKEND_WAI_OPS:
        /* §3: no integer path names the neural processor in this revision;
         * the interpreter on a GPU is the wgsl backend. */
        return p->unit == WAI_UNIT_CPU && p->arithmetic == WAI_ARITHMETIC_INTEGER;
    case WAI_BACKEND_WGSL:
        return p->unit == WAI_UNIT_GPU && p->arithmetic == WAI_ARITHMETIC_INTEGER;
    default:
        /* model-runtime, webnn and onnx-runtime compute in floating point
         * (§1) on whichever unit they drive. */
        return p->arithmetic == WAI_ARITHMETIC_FLOAT;
    }
}

/* The short names, one per path this sink offers by default. */
static const struct {
    const char *token;
    wai_path path;
} shorts[] = {
    {"npu", {WAI_UNIT_NPU, WAI_BACKEND_MODEL_RUNTIME, WAI_ARITHMETIC_FLOAT}},
    {"gpu", {WAI_UNIT_GPU, WAI_BACKEND_WEBNN, WAI_ARITHMETIC_FLOAT}},
    {"cpu", {WAI_UNIT_CPU, WAI_BACKEND_WEBNN, WAI_ARITHMETIC_FLOAT}},
    {"ort", {WAI_UNIT_CPU, WAI_BACKEND_ONNX_RUNTIME, WAI_ARITHMETIC_FLOAT}},
    {"wgsl", {WAI_UNIT_GPU, WAI_BACKEND_WGSL, WAI_ARITHMETIC_INTEGER}},
    {"int", {WAI_UNIT_CPU, WAI_BACKEND_WAI_OPS, WAI_ARITHMETIC_INTEGER}},
};

#define N_SHORTS (sizeof shorts / sizeof shorts[0])

/* The longest token worth reading: "model-runtime" twice over is far
 * longer than any real UNIT/BACKEND/ARITHMETIC. */
#define TOKEN_MAX 48

/* UNIT/BACKEND/ARITHMETIC, each part one of §1's tokens. */
static int parse_full(char *tok, wai_path *out) {
    char *s1 = strchr(tok, '/');
    if (!s1) return 0;
    char *s2 = strchr(s1 + 1, '/');
    if (!s2) return 0;
    *s1 = '\0';
    *s2 = '\0';
    return wai_unit_from_name(tok, &out->unit) && wai_backend_from_name(s1 + 1, &out->backend) &&
           wai_arithmetic_from_name(s2 + 1, &out->arithmetic);
}

static int parse_token(const char *start, size_t len, wai_path *out) {
    char tok[TOKEN_MAX + 1];
    if (len == 0 || len > TOKEN_MAX) return 0;
    memcpy(tok, start, len);
    tok[len] = '\0';
    for (size_t i = 0; i < N_SHORTS; i++)
        if (strcmp(tok, shorts[i].token) == 0) {
            *out = shorts[i].path;
            return 1;
        }
    return parse_full(tok, out) && wai_path_valid(out);
}

wai_status wai_dispatch_parse_offer(const char *list, wai_path *out, size_t cap, size_t *n) {
    if (!list || !out || !n) return WAI_invalid_argument;
    wai_path o[WAI_DISPATCH_MAX_PATHS];
    size_t k = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        wai_path path;
        if (k == WAI_DISPATCH_MAX_PATHS || !parse_token(p, len, &path))
            return WAI_invalid_argument;
        for (size_t i = 0; i < k; i++)
            if (wai_path_same(&o[i], &path)) return WAI_invalid_argument;
        o[k++] = path;
        if (!comma) break;
        p = comma + 1;
    }
    if (k > cap) return WAI_invalid_argument;
    memcpy(out, o, k * sizeof *o);
    *n = k;
    return WAI_ok;
}

/* The order of WAI_DISPATCH_DEFAULT_OFFER: the neural processor, then
 * WebNN's GPU and CPU contexts as a page tries them (§6.2), then ONNX
 * Runtime on the CPU (the reference sink's path, §6), then the integer
 * paths, the GPU's before the CPU's. */
wai_status wai_dispatch_offer_default(wai_path *out, size_t cap, size_t *n) {
    if (!n || (!out && cap)) return WAI_invalid_argument;
    *n = N_SHORTS;
    if (cap < N_SHORTS) return WAI_invalid_argument;
    for (size_t i = 0; i < N_SHORTS; i++) out[i] = shorts[i].path;
    return WAI_ok;
}

void wai_dispatch_options_default(wai_dispatch_options *o) {
    if (!o) return;
    memset(o, 0, sizeof *o);
}
