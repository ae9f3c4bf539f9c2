/* See backends.h. */
#include "decode/backends.h"

static int same(const wai_path *a, const wai_path *b) {
    return a->unit == b->unit && a->backend == b->backend && a->arithmetic == b->arithmetic;
}

int wai_backend_present(const wai_codec *c, const wai_path *path) {
    if (!c || !c->ops) return 0;
    for (uint32_t i = 0; i < c->n_paths; i++)
        if (same(&c->paths[i], path)) return 1;
    return 0;
}

wai_status wai_backend_program(const wai_job *j, const wai_path *path) {
    return j->codec->ops->program ? j->codec->ops->program(j, path) : WAI_ok;
}

wai_status wai_backend_shape(const wai_job *j, const wai_path *path) {
    return j->codec->ops->shape ? j->codec->ops->shape(j, path) : WAI_ok;
}

wai_status wai_backend_run(const wai_path *path, wai_job *j, const wai_exec *ex,
                           const wai_kernels *k, uint8_t *out) {
    if (!wai_backend_present(j->codec, path)) return WAI_dispatch_unit_absent;
    j->path = *path;
    return j->codec->ops->run(j, ex, k, out);
}
