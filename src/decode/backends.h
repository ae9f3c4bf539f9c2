/* The backends this build computes with, by neural-dispatch §1's token: a
 * dispatch path can run a codec's networks only where its row lists the
 * path (decode/codecs.c), and else the unit, or the backend, is absent (§4
 * step 2). This build has wai-ops, the integer interpreter with the
 * context's kernel table, and webnn, the native WebNN on the CPU (the
 * floating-point backend, src/webnn/). */
#ifndef WAI_DECODE_BACKENDS_H
#define WAI_DECODE_BACKENDS_H

#include "decode/codec.h"
#include "wai/wai_dispatch.h"

/* 1 when this build can run codec c's networks on path. */
int wai_backend_present(const wai_codec *c, const wai_path *path);

/* The backend's own answers for the job's set on path: its program, and
 * whether the program takes the payload's shape (WAI_ok: yes). */
wai_status wai_backend_program(const wai_job *j, const wai_path *path);
wai_status wai_backend_shape(const wai_job *j, const wai_path *path);

/* Runs the job's §7 steps 5 and 6 on path's backend (one that is
 * present), into out. */
wai_status wai_backend_run(const wai_path *path, wai_job *j, const wai_exec *ex,
                           const wai_kernels *k, uint8_t *out);

#endif
