/* SPDX-License-Identifier: BSD-2-Clause */
/* neural-dispatch §4, step by step: the first offered path that §3 admits,
 * the device can run and the backend does run is the decode's; every other
 * path tried is refused, in the order offered, with the code of the step
 * that refused it. Whoever runs the networks drives it (wai_dispatch_next,
 * wai_dispatch_answer), so nothing here calls back into a decoder; the
 * choice keeps its report. */
#include "wai/wai_dispatch.h"

#include <string.h>

#include "common/alloc.h"
#include "dispatch/path.h"

/* Where a choice is: asking about path `at` (question q), or over. */
typedef enum phase { OVER, ASKING } phase;

struct wai_dispatch {
    wai_allocator alloc;
    phase phase;
    wai_status status;       /* once over */
    size_t at;               /* the path asked about */
    wai_dispatch_question q; /* the question pending on it */
    wai_placement plan;      /* the path's plan so far */
    wai_path offer[WAI_DISPATCH_MAX_PATHS];
    size_t n_offer;
    wai_dispatch_refusal refused[WAI_DISPATCH_MAX_PATHS];
    wai_dispatch_report report;
    int started;
};

wai_status wai_dispatch_create(const wai_allocator *alloc, wai_dispatch **out) {
    if (!out) return WAI_invalid_argument;
    *out = NULL;
    wai_allocator a;
    wai_allocator_resolve(alloc, &a);
    wai_dispatch *d = wai_alloc_zeroed(&a, 1, sizeof *d);
    if (!d) return WAI_out_of_memory;
    d->alloc = a;
    d->status = WAI_invalid_argument; /* no choice yet */
    *out = d;
    return WAI_ok;
}

void wai_dispatch_destroy(wai_dispatch *d) {
    if (!d) return;
    wai_allocator a = d->alloc;
    wai_free(&a, d);
}

/* Every path valid and none twice, checked before any is tried, so a bad
 * offer is refused whole rather than after a path has run. */
static int offer_valid(const wai_dispatch_offer *o) {
    if (o->n > WAI_DISPATCH_MAX_PATHS || (o->n && !o->paths)) return 0;
    for (size_t i = 0; i < o->n; i++) {
        if (!wai_path_valid(&o->paths[i])) return 0;
        for (size_t j = 0; j < i; j++)
            if (wai_path_same(&o->paths[j], &o->paths[i])) return 0;
    }
    return 1;
}

static void end(wai_dispatch *d, wai_status st) {
    d->phase = OVER;
    d->status = st;
}

/* The report's next refusal: the path asked about, and why. */
static void note_refusal(wai_dispatch *d, wai_status reason) {
    wai_dispatch_report *r = &d->report;
    d->refused[r->n_refused].path = d->offer[d->at];
    d->refused[r->n_refused].reason = reason;
    r->n_refused++;
}

/* §3 on the paths from `from` on: the first admitted is asked about (its
 * unit first); the others are refused on the way. */
static void advance(wai_dispatch *d, size_t from) {
    wai_dispatch_report *r = &d->report;
    for (d->at = from; d->at < d->n_offer; d->at++) {
        wai_status reason = wai_dispatch_admit(r->capability, r->needed, &d->offer[d->at]);
        if (reason == WAI_ok) {
            d->phase = ASKING;
            d->q = WAI_DISPATCH_UNIT;
            memset(&d->plan, 0, sizeof d->plan);
            return;
        }
        note_refusal(d, reason);
    }
    /* Every path refused: the capability is one this sink cannot decode
     * for this envelope (§4; integer-payloads §8 routes it on), and the
     * report says why for each path (D10). */
    end(d, r->n_refused ? WAI_not_dispatchable : WAI_invalid_argument);
}

wai_status wai_dispatch_start(wai_dispatch *d, const wai_capability *cap,
                              const wai_dispatch_options *opt) {
    if (!d) return WAI_invalid_argument;
    memset(&d->report, 0, sizeof d->report);
    d->report.capability = cap;
    d->report.refused = d->refused;
    d->started = 1;
    d->n_offer = 0;
    end(d, WAI_invalid_argument);
    wai_tier needed;
    wai_status st = wai_dispatch_demand(cap, opt, &needed);
    if (st != WAI_ok) return st;
    d->report.needed = needed;
    const wai_dispatch_offer *o = opt ? &opt->offer : NULL;
    if (o && !offer_valid(o)) return WAI_invalid_argument;
    if (o && o->n) {
        memcpy(d->offer, o->paths, o->n * sizeof *d->offer);
        d->n_offer = o->n;
    } else {
        wai_dispatch_offer_default(d->offer, WAI_DISPATCH_MAX_PATHS, &d->n_offer);
    }
    advance(d, 0);
    return WAI_ok;
}

int wai_dispatch_next(wai_dispatch *d, wai_path *path, wai_dispatch_question *q) {
    if (!d || d->phase != ASKING) return 0;
    if (path) *path = d->offer[d->at];
    if (q) *q = d->q;
    return 1;
}

static uint64_t on_unit(const wai_placement *p, wai_unit u) {
    return u == WAI_UNIT_NPU ? p->npu : u == WAI_UNIT_GPU ? p->gpu : p->cpu;
}

/* Each question's own refusal. */
static const wai_status refusal_of[] = {WAI_dispatch_unit_absent, WAI_dispatch_program_absent,
                                        WAI_dispatch_shape_mismatch, WAI_dispatch_not_placed,
                                        WAI_dispatch_backend_failed};

static void refuse(wai_dispatch *d, wai_status reason) {
    note_refusal(d, reason);
    advance(d, d->at + 1);
}

static void ran(wai_dispatch *d, wai_status st) {
    wai_dispatch_report *r = &d->report;
    r->ran = 1;
    r->ran_path = d->offer[d->at];
    r->placement = d->plan;
    /* §3: a path holds the registered tier, never more; an integer path is
     * admitted only for a capability registered at decode-equivalence,
     * which the CPU (and a GPU under determinism-tiers §5) keeps. */
    r->held = wai_dispatch_registered_tier(r->capability);
    end(d, st);
}

void wai_dispatch_answer(wai_dispatch *d, wai_status a, const wai_placement *plan) {
    if (!d || d->phase != ASKING) return;
    const wai_dispatch_question q = d->q;
    if (a == WAI_ok) {
        if (q == WAI_DISPATCH_PLAN) {
            if (plan) d->plan = *plan;
            /* A plan with nothing on the path's unit is not a run there (§5). */
            if (d->plan.stated && on_unit(&d->plan, d->offer[d->at].unit) == 0) {
                refuse(d, WAI_dispatch_not_placed);
                return;
            }
        }
        if (q == WAI_DISPATCH_RUN) ran(d, WAI_ok);
        else d->q = (wai_dispatch_question)(q + 1);
        return;
    }
    /* A backend error refuses the path whichever question it came from. */
    if (a == refusal_of[q] || a == WAI_dispatch_backend_failed) {
        refuse(d, a);
        return;
    }
    /* A code no question gives, or a dispatch code this question cannot:
     * the answer broke the contract. Any other status ends the choice
     * (D9); from the run, the path ran. */
    if (!wai_status_name(a) || wai_status_kind_of(a) == WAI_KIND_DISPATCH) {
        end(d, WAI_invalid_argument);
        return;
    }
    if (q == WAI_DISPATCH_RUN) ran(d, a);
    else end(d, a);
}

wai_status wai_dispatch_status(const wai_dispatch *d) {
    if (!d || d->phase != OVER) return WAI_invalid_argument;
    return d->status;
}

const wai_dispatch_report *wai_dispatch_report_of(const wai_dispatch *d) {
    return d && d->started ? &d->report : NULL;
}

wai_status wai_dispatch_choose(wai_dispatch *d, const wai_capability *cap,
                               const wai_dispatch_options *opt, const wai_dispatch_probe *probe) {
    for (size_t i = 0; probe && i < sizeof probe->reserved / sizeof *probe->reserved; i++)
        if (probe->reserved[i]) return WAI_invalid_argument;
    wai_status st = wai_dispatch_start(d, cap, opt);
    if (st != WAI_ok) return st;
    wai_path path;
    wai_dispatch_question q;
    while (wai_dispatch_next(d, &path, &q)) {
        wai_placement plan = {0};
        wai_status a = q == WAI_DISPATCH_RUN
                           ? WAI_ok /* the caller runs the networks on the chosen path */
                           : wai_dispatch_probe_answer(probe, q, cap, &path, &plan);
        wai_dispatch_answer(d, a, &plan);
    }
    return wai_dispatch_status(d);
}
