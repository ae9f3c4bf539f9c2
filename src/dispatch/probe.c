/* The device of this sink as neural-dispatch §4 step 2 asks about it:
 * libwai computes on the CPU, with its integer interpreter (wai-ops) and
 * its native WebNN (src/webnn/, whose contexts are the CPU's only). It has
 * no WGSL kernels and links no model runtime or ONNX Runtime, so every
 * other path is absent, whatever the machine has. */
#include "wai/wai_dispatch.h"

static wai_status unit(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque;
    (void)cap;
    return path->unit == WAI_UNIT_CPU &&
                   (path->backend == WAI_BACKEND_WAI_OPS || path->backend == WAI_BACKEND_WEBNN)
               ? WAI_ok
               : WAI_dispatch_unit_absent;
}

/* wai-ops's program is the set's integer networks, which the decode has
 * found and checked against the payload before it dispatches; webnn's is
 * the set's graph description, which the decoder's own backend checks
 * (decode/backends.c) before this probe is asked. */
static wai_status program(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque;
    (void)cap;
    (void)path;
    return WAI_ok;
}

static wai_status shape(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque;
    (void)cap;
    (void)path;
    return WAI_ok;
}

/* Neither states a plan: each runs every operation on the CPU (WebNN
 * states no placement, neural-dispatch §5). */
static wai_status plan(void *opaque, const wai_capability *cap, const wai_path *path,
                       wai_placement *out) {
    (void)opaque;
    (void)cap;
    (void)path;
    out->stated = 0;
    return WAI_ok;
}

static const wai_dispatch_probe default_probe = {NULL, unit, program, shape, plan, NULL, {NULL}};

const wai_dispatch_probe *wai_dispatch_probe_default(void) { return &default_probe; }
