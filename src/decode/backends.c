/* See backends.h. */
#include "decode/backends.h"

int wai_backend_present(const wai_codec *c, const wai_path *path) {
    return c && c->ops && path->unit == WAI_UNIT_CPU && path->backend == WAI_BACKEND_WAI_OPS &&
           path->arithmetic == WAI_ARITHMETIC_INTEGER;
}

wai_status wai_backend_run(const wai_path *path, wai_job *j, const wai_exec *ex,
                           const wai_kernels *k, uint8_t *out) {
    if (!wai_backend_present(j->codec, path)) return WAI_dispatch_unit_absent;
    return j->codec->ops->run(j, ex, k, out);
}
