/* neural-dispatch §4: the first offered path that §3 admits, the device can
 * run and the backend does run is the decode's; every other path tried is
 * refused, in the order offered, with the code of the step that refused it. */
#include "wai/wai_dispatch.h"

#include <string.h>

/* RAN_END: the path's backend ran and ended the choice (a payload refused
 * by its streams, or out of memory): the path ran, and the decode fails. */
typedef enum verdict { GO, REFUSE, END, RAN_END } verdict;

/* A probe's answer: yes (GO), a refusal of this path (REFUSE, *out the
 * reason), or the end of the whole choice (END, *out the status). A
 * backend error refuses the path whichever question it came from (§4
 * step 3). A dispatch code the question cannot give is a broken probe. */
static verdict judge(wai_status s, wai_status own, wai_status *out) {
    if (s == WAI_ok) return GO;
    if (s == own || s == WAI_dispatch_backend_failed) {
        *out = s;
        return REFUSE;
    }
    if (!wai_status_name(s) || wai_status_kind_of(s) == WAI_KIND_DISPATCH)
        *out = WAI_invalid_argument;
    else
        *out = s;
    return END;
}

static uint64_t on_unit(const wai_placement *p, wai_unit u) {
    return u == WAI_UNIT_NPU ? p->npu : u == WAI_UNIT_GPU ? p->gpu : p->cpu;
}

/* Asks the caller's probe, or the default probe where the caller left the
 * question out. */
#define ASK(pr, fn, ...)                                                          \
    ((pr)->fn ? (pr)->fn((pr)->opaque, __VA_ARGS__)                              \
              : wai_dispatch_probe_default()->fn(NULL, __VA_ARGS__))

/* §4 steps 2 and 3 for one admitted path. */
static verdict try_path(const wai_dispatch_probe *pr, const wai_capability *cap,
                        const wai_path *path, wai_placement *placement, wai_status *out) {
    verdict v = judge(ASK(pr, unit, cap, path), WAI_dispatch_unit_absent, out);
    if (v != GO) return v;
    v = judge(ASK(pr, program, cap, path), WAI_dispatch_program_absent, out);
    if (v != GO) return v;
    v = judge(ASK(pr, shape, cap, path), WAI_dispatch_shape_mismatch, out);
    if (v != GO) return v;
    memset(placement, 0, sizeof *placement);
    v = judge(ASK(pr, plan, cap, path, placement), WAI_dispatch_not_placed, out);
    if (v != GO) return v;
    /* A plan with nothing on the path's unit is not a run there (§5). */
    if (placement->stated && on_unit(placement, path->unit) == 0) {
        *out = WAI_dispatch_not_placed;
        return REFUSE;
    }
    if (!pr->run) return GO; /* the caller runs the networks on the chosen path */
    v = judge(pr->run(pr->opaque, cap, path), WAI_dispatch_backend_failed, out);
    return v == END && *out != WAI_invalid_argument ? RAN_END : v;
}

/* Every path valid and none twice, checked before any is tried, so a bad
 * offer is refused whole rather than after a path has run. */
static int offer_valid(const wai_dispatch_offer *o) {
    if (o->n > WAI_DISPATCH_MAX_PATHS) return 0;
    for (size_t i = 0; i < o->n; i++) {
        if (!wai_path_valid(&o->paths[i])) return 0;
        for (size_t j = 0; j < i; j++)
            if (o->paths[j].unit == o->paths[i].unit &&
                o->paths[j].backend == o->paths[i].backend &&
                o->paths[j].arithmetic == o->paths[i].arithmetic)
                return 0;
    }
    return 1;
}

wai_status wai_dispatch_choose(const wai_capability *cap, wai_tier needed,
                               const wai_dispatch_offer *offer, const wai_dispatch_probe *probe,
                               wai_dispatch_report *report) {
    if (!report) return WAI_invalid_argument;
    memset(report, 0, sizeof *report);
    report->capability = cap;
    report->needed = needed;
    if (!cap || !offer || !wai_tier_name(needed) || !offer_valid(offer))
        return WAI_invalid_argument;
    for (size_t i = 0; probe && i < sizeof probe->reserved / sizeof *probe->reserved; i++)
        if (probe->reserved[i]) return WAI_invalid_argument;
    wai_dispatch_offer def_offer;
    if (offer->n == 0) {
        wai_dispatch_offer_default(&def_offer);
        offer = &def_offer;
    }
    if (!probe) probe = wai_dispatch_probe_default();
    for (size_t i = 0; i < offer->n; i++) {
        const wai_path *path = &offer->paths[i];
        wai_status reason = wai_dispatch_admit(cap, needed, path);
        verdict v = reason == WAI_ok ? try_path(probe, cap, path, &report->placement, &reason)
                                     : REFUSE;
        if (v == END) {
            memset(&report->placement, 0, sizeof report->placement);
            return reason;
        }
        if (v == REFUSE) {
            report->refused[report->n_refused].path = *path;
            report->refused[report->n_refused].reason = reason;
            report->n_refused++;
            continue;
        }
        report->ran = 1;
        report->ran_path = *path;
        /* §3: a path holds the registered tier, never more; an integer path
         * is admitted only for a capability registered at
         * decode-equivalence, which the CPU (and a GPU under determinism-
         * tiers §5) keeps. */
        report->held = wai_dispatch_registered_tier(cap);
        return v == RAN_END ? reason : WAI_ok;
    }
    memset(&report->placement, 0, sizeof report->placement);
    return report->refused[0].reason; /* the path the sink preferred */
}

wai_status wai_dispatch(const wai_capability *cap, const wai_dispatch_options *opt,
                        const wai_dispatch_probe *probe, wai_dispatch_report *report) {
    if (!report) return WAI_invalid_argument;
    wai_tier needed;
    wai_status s = wai_dispatch_demand(cap, opt, &needed);
    if (s != WAI_ok) {
        memset(report, 0, sizeof *report);
        return s;
    }
    wai_dispatch_offer def_offer;
    const wai_dispatch_offer *offer = opt ? &opt->offer : NULL;
    if (!offer) {
        def_offer.n = 0;
        offer = &def_offer;
    }
    return wai_dispatch_choose(cap, needed, offer, probe, report);
}
