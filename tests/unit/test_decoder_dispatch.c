/* SPDX-License-Identifier: BSD-2-Clause */
/* The dispatch decides what runs a decode's networks (neural-dispatch §4,
 * docs/dispatch.md): the context's backends answer for themselves first,
 * then a caller's probe in wai_decoder_config is asked about the device,
 * and the chosen path's backend computes; a decode every path refuses
 * allocates no output. (tests/unit/test_bmshj2018.c plugs a backend in.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_util.h"
#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

#define CAP "wai.neural.int_hyper"

typedef struct probe_log {
    char asked[256];
    size_t n;
    wai_status unit_cpu, program_cpu; /* answers for cpu/wai-ops */
    int gpu_present;              /* the device says it has a GPU (for every backend) */
} probe_log;

static void note(probe_log *l, char q, const wai_path *p) {
    if (l->n + 3 < sizeof l->asked) {
        l->asked[l->n++] = q;
        l->asked[l->n++] = (char)('0' + p->backend);
        l->asked[l->n] = '\0';
    }
}

static wai_status p_unit(void *o, const wai_capability *c, const wai_path *p) {
    (void)c;
    probe_log *l = o;
    note(l, 'u', p);
    if (p->unit == WAI_UNIT_GPU) return l->gpu_present ? WAI_ok : WAI_dispatch_unit_absent;
    return p->unit == WAI_UNIT_CPU ? l->unit_cpu : WAI_dispatch_unit_absent;
}

static wai_status p_program(void *o, const wai_capability *c, const wai_path *p) {
    (void)c;
    probe_log *l = o;
    note(l, 'p', p);
    return p->unit == WAI_UNIT_CPU ? l->program_cpu : WAI_ok;
}

typedef struct fixture {
    wai_context *ctx;
    wai_set *set;
    uint8_t *payload;
    size_t len;
} fixture;

static int open_fixture(fixture *f) {
    memset(f, 0, sizeof *f);
    if (!CHECK(wai_context_create(NULL, &f->ctx) == WAI_ok)) return 0;
    f->set = corpus_set(f->ctx, CAP, "neural/hyper/set0");
    f->payload = corpus_file("neural/hyper/image0.wih1", &f->len);
    return CHECK(f->set && f->payload);
}

static void close_fixture(fixture *f) {
    free(f->payload);
    wai_set_destroy(f->set);
    wai_context_destroy(f->ctx);
}

/* One decode with probe pr: its status, whether an output came, the
 * report's JSON. */
static wai_status decode_with(fixture *f, const wai_dispatch_probe *pr, int *has_output,
                              char *report, size_t report_size) {
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP;
    cfg.set = f->set;
    cfg.probe = pr;
    wai_decoder *d;
    if (wai_decoder_create(f->ctx, &cfg, &d) != WAI_ok) return WAI_invalid_argument;
    wai_status st = wai_decoder_send(d, f->payload, f->len, NULL);
    wai_output o;
    *has_output = wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE;
    const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
    report[0] = '\0';
    if (r) wai_dispatch_report_json(r, report, report_size, NULL);
    wai_decoder_destroy(d);
    return st;
}

static void test_caller_probe_decides(void) {
    fixture f;
    if (!open_fixture(&f)) return close_fixture(&f);
    char rep[WAI_DISPATCH_REPORT_JSON_MAX];
    int out;
    probe_log l;
    wai_dispatch_probe pr = {&l, p_unit, p_program, NULL, NULL, {NULL}};

    /* The device runs it on cpu/wai-ops; a GPU the device has is no use,
     * for this context has no WGSL backend (the caller is not even asked
     * about it). */
    memset(&l, 0, sizeof l);
    l.gpu_present = 1;
    CHECK(decode_with(&f, &pr, &out, rep, sizeof rep) == WAI_ok && out);
    char want[8];
    snprintf(want, sizeof want, "u%cp%c", '0' + WAI_BACKEND_WAI_OPS, '0' + WAI_BACKEND_WAI_OPS);
    CHECK_MSG(strcmp(l.asked, want) == 0, "asked %s", l.asked);
    CHECK_MSG(strstr(rep, "{\"unit\": \"gpu\", \"backend\": \"wgsl\", \"arithmetic\": \"integer\", "
                          "\"reason\": \"dispatch_unit_absent\"}") &&
                  strstr(rep, "\"ran\": {\"unit\": \"cpu\", \"backend\": \"wai-ops\""),
              "report %s", rep);

    /* No CPU on the device: every path refused, not_dispatchable with each
     * path's reason in the report, no output. */
    memset(&l, 0, sizeof l);
    l.unit_cpu = WAI_dispatch_unit_absent;
    CHECK(decode_with(&f, &pr, &out, rep, sizeof rep) == WAI_not_dispatchable && !out);
    CHECK_MSG(strstr(rep, "\"ran\": null") && strstr(rep, "\"backend\": \"wai-ops\", "
                                                          "\"arithmetic\": \"integer\", \"reason\": "
                                                          "\"dispatch_unit_absent\""),
              "report %s", rep);

    /* The device errs while answering: the path is refused with
     * backend_failed and the networks never run here. */
    memset(&l, 0, sizeof l);
    l.program_cpu = WAI_dispatch_backend_failed;
    CHECK(decode_with(&f, &pr, &out, rep, sizeof rep) == WAI_not_dispatchable && !out);
    CHECK_MSG(strstr(rep, "\"reason\": \"dispatch_backend_failed\"") && strstr(rep, "\"ran\": null"),
              "report %s", rep);

    /* An offer of cpu/wai-ops alone: the same decode, one path. */
    wai_dispatch_options opt;
    wai_dispatch_options_default(&opt);
    wai_path paths[1];
    CHECK(wai_dispatch_parse_offer("int", paths, 1, &opt.offer.n) == WAI_ok);
    opt.offer.paths = paths;
    wai_decoder_config cfg;
    wai_decoder_config_default(&cfg);
    cfg.capability = CAP;
    cfg.set = f.set;
    cfg.dispatch = &opt;
    wai_decoder *d;
    CHECK(wai_decoder_create(f.ctx, &cfg, &d) == WAI_ok);
    CHECK(wai_decoder_send(d, f.payload, f.len, NULL) == WAI_ok);
    const wai_dispatch_report *r = wai_decoder_dispatch_report(d);
    CHECK(r && r->ran && r->n_refused == 0 && r->ran_path.backend == WAI_BACKEND_WAI_OPS);
    wai_decoder_destroy(d);
    /* A probe breaking its contract (reserved room not NULL) is refused. */
    pr.reserved[0] = &l;
    CHECK(decode_with(&f, &pr, &out, rep, sizeof rep) == WAI_invalid_argument && !out);
    close_fixture(&f);
}

void suite_decoder_dispatch(void) {
    harness_run("decoder_caller_probe_decides", test_caller_probe_decides);
}
