/* The backends this build computes with, by neural-dispatch §1's token: a
 * dispatch path can run a codec's networks only where its backend is here
 * (else the unit, or the backend, is absent: §4 step 2). Today that is
 * wai-ops, the integer interpreter, with the context's kernel table; the
 * floating-point backend joins this list. */
#ifndef WAI_DECODE_BACKENDS_H
#define WAI_DECODE_BACKENDS_H

#include "decode/codec.h"
#include "wai/wai_dispatch.h"

/* 1 when this build can run codec c's networks on path. */
int wai_backend_present(const wai_codec *c, const wai_path *path);

/* Runs the job's §7 steps 5 and 6 on path's backend (one that is
 * present), into out. */
wai_status wai_backend_run(const wai_path *path, wai_job *j, const wai_exec *ex,
                           const wai_kernels *k, uint8_t *out);

#endif
