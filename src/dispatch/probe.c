/* The device of this sink as neural-dispatch §4 step 2 asks about it:
 * libwai runs networks only with its integer interpreter on the CPU. Its
 * floating-point runtimes (WebNN-style, a later issue) and WGSL kernels do
 * not exist yet, and it links no model runtime or ONNX Runtime, so every
 * other path is absent, whatever the machine has. */
#include "wai/wai_dispatch.h"

static wai_status unit(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque;
    (void)cap;
    return path->unit == WAI_UNIT_CPU && path->backend == WAI_BACKEND_WAI_OPS
               ? WAI_ok
               : WAI_dispatch_unit_absent;
}

/* wai-ops's program is the set's integer networks; the decode has found
 * them and checked them against the payload before it dispatches. */
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

/* The interpreter states no plan: it runs every operation where it is. */
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
