/* SPDX-License-Identifier: BSD-2-Clause */
/* The caller's side of §4 step 2: the default probe, and the one place a
 * question is put to the caller's probe or, where it has no answer, to the
 * default. What this build computes with is not the probe's to say: the
 * backends registered with a context answer for themselves first
 * (backend/registry.h), and a path no backend serves is unit_absent there. */
#include "wai/wai_dispatch.h"

static const char *const questions[] = {"unit", "program", "shape", "plan", "run"};

const char *wai_dispatch_question_name(wai_dispatch_question q) {
    return (unsigned)q < sizeof questions / sizeof questions[0] ? questions[q] : NULL;
}

static wai_status yes(void *opaque, const wai_capability *cap, const wai_path *path) {
    (void)opaque;
    (void)cap;
    (void)path;
    return WAI_ok;
}

/* Adds nothing to what the backend stated (or did not). */
static wai_status as_stated(void *opaque, const wai_capability *cap, const wai_path *path,
                            wai_placement *out) {
    (void)opaque;
    (void)cap;
    (void)path;
    (void)out;
    return WAI_ok;
}

static const wai_dispatch_probe default_probe = {NULL, yes, yes, yes, as_stated, {NULL}};

const wai_dispatch_probe *wai_dispatch_probe_default(void) { return &default_probe; }

wai_status wai_dispatch_probe_answer(const wai_dispatch_probe *p, wai_dispatch_question q,
                                     const wai_capability *cap, const wai_path *path,
                                     wai_placement *plan) {
    const wai_dispatch_probe *d = &default_probe;
    if (!p) p = d;
    switch (q) {
    case WAI_DISPATCH_UNIT:
        return p->unit ? p->unit(p->opaque, cap, path) : d->unit(NULL, cap, path);
    case WAI_DISPATCH_PROGRAM:
        return p->program ? p->program(p->opaque, cap, path) : d->program(NULL, cap, path);
    case WAI_DISPATCH_SHAPE:
        return p->shape ? p->shape(p->opaque, cap, path) : d->shape(NULL, cap, path);
    case WAI_DISPATCH_PLAN:
        if (!plan) return WAI_invalid_argument;
        return p->plan ? p->plan(p->opaque, cap, path, plan) : d->plan(NULL, cap, path, plan);
    default:
        return WAI_invalid_argument; /* the run is not a probe's */
    }
}
