/* SPDX-License-Identifier: BSD-2-Clause */
/* wai_decode_route (integer-payloads §8): the four routing codes move on to
 * the next candidate, every other status ends the route with no fallback
 * tried, and each tried candidate's status is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "wai/wai_decode.h"
#include "wai/wai_set.h"

typedef struct fixture {
    wai_context *ctx;
    wai_set *set;
    uint8_t *wih1, *wiv1;
    size_t wih1_len, wiv1_len;
} fixture;

static int open_fixture(fixture *f) {
    memset(f, 0, sizeof *f);
    wai_settings st;
    wai_settings_default(&st);
    st.n_threads = 1;
    if (!CHECK(wai_context_create(&st, &f->ctx) == WAI_ok)) return 0;
    if (!CHECK(wai_set_create(f->ctx, &f->set) == WAI_ok)) return 0;
    static const char *members[] = {"g_s.whm", "h_s.whm", "entropy.json"};
    for (size_t i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "corpus/neural/hyper/set0/%s", members[i]);
        size_t len;
        uint8_t *b = harness_read_file(path, &len);
        if (!CHECK(b && wai_set_add(f->set, members[i], b, len) == WAI_ok)) return free(b), 0;
        free(b);
    }
    f->wih1 = harness_read_file("corpus/neural/hyper/image0.wih1", &f->wih1_len);
    f->wiv1 = harness_read_file("corpus/motion/valid/clip00.wiv1", &f->wiv1_len);
    return CHECK(f->wih1 && f->wiv1);
}

static void close_fixture(fixture *f) {
    free(f->wih1);
    free(f->wiv1);
    wai_set_destroy(f->set);
    wai_context_destroy(f->ctx);
}

static wai_route_candidate image(const fixture *f, const wai_set *set, size_t len) {
    wai_route_candidate c;
    memset(&c, 0, sizeof c);
    c.payload = f->wih1;
    c.len = len;
    c.set = set;
    return c;
}

static wai_route_candidate clip(const fixture *f) {
    wai_route_candidate c;
    memset(&c, 0, sizeof c);
    c.capability = "wai.video.int_motion";
    c.payload = f->wiv1;
    c.len = f->wiv1_len;
    return c;
}

/* The outputs the route's decoder holds. */
static size_t outputs(wai_decoder *d) {
    size_t n = 0;
    wai_output o;
    while (d && wai_decoder_receive(d, &o) == WAI_ok && o.kind != WAI_OUTPUT_NONE) n++;
    return n;
}

static wai_status route(fixture *f, const wai_decoder_config *base, wai_route_candidate *c,
                        size_t n, size_t *ended, wai_status *sts, size_t *n_out) {
    wai_decoder *d = NULL;
    wai_status st = wai_decode_route(f->ctx, base, c, n, &d, ended, sts);
    *n_out = outputs(d);
    wai_decoder_destroy(d);
    return st;
}

static void test_each_routing_code_moves_on(void) {
    fixture f;
    if (!open_fixture(&f)) return close_fixture(&f);
    wai_status sts[2];
    size_t ended = 9, n_out = 0;
    /* set_incomplete: the image without its set; the clip decodes. */
    wai_route_candidate c[2] = {image(&f, NULL, f.wih1_len), clip(&f)};
    CHECK(route(&f, NULL, c, 2, &ended, sts, &n_out) == WAI_ok);
    CHECK(ended == 1 && sts[0] == WAI_set_incomplete && sts[1] == WAI_ok && n_out > 1);
    /* not_dispatchable: only the neural processor offered, which cannot
     * hold decode-equivalence. */
    wai_path npu = {WAI_UNIT_NPU, WAI_BACKEND_MODEL_RUNTIME, WAI_ARITHMETIC_FLOAT};
    wai_dispatch_options opt;
    wai_dispatch_options_default(&opt);
    opt.offer.n = 1;
    opt.offer.paths = &npu;
    c[0] = image(&f, f.set, f.wih1_len);
    c[0].dispatch = &opt;
    CHECK(route(&f, NULL, c, 2, &ended, sts, &n_out) == WAI_ok);
    CHECK(ended == 1 && sts[0] == WAI_not_dispatchable && sts[1] == WAI_ok);
    /* unsupported_capability: a capability this sink does not decode. */
    c[0] = image(&f, f.set, f.wih1_len);
    c[0].capability = "wai.video.unknown";
    CHECK(route(&f, NULL, c, 2, &ended, sts, &n_out) == WAI_ok);
    CHECK(ended == 1 && sts[0] == WAI_unsupported_capability && n_out > 1);
    /* cost_over_limit: the limit the sink applies, to both: the clip too
     * is over it, so the route ends on it. */
    wai_decoder_config base;
    wai_decoder_config_default(&base);
    base.max_cost = 1;
    c[0] = image(&f, f.set, f.wih1_len);
    CHECK(route(&f, &base, c, 2, &ended, sts, &n_out) == WAI_cost_over_limit);
    CHECK(ended == 1 && sts[0] == WAI_cost_over_limit && sts[1] == WAI_cost_over_limit && n_out == 0);
    close_fixture(&f);
}

static void test_other_codes_stop(void) {
    fixture f;
    if (!open_fixture(&f)) return close_fixture(&f);
    wai_status sts[2] = {WAI_ok, WAI_ok};
    size_t ended = 9, n_out = 0;
    /* A cut payload with its set: stream_length, final; the clip is not
     * tried. */
    wai_route_candidate c[2] = {image(&f, f.set, f.wih1_len - 5), clip(&f)};
    CHECK(route(&f, NULL, c, 2, &ended, sts, &n_out) == WAI_stream_length);
    CHECK(ended == 0 && sts[0] == WAI_stream_length && sts[1] == WAI_ok && n_out == 0);
    /* The first candidate decodes: the route ends there. */
    c[0] = image(&f, f.set, f.wih1_len);
    CHECK(route(&f, NULL, c, 2, &ended, sts, &n_out) == WAI_ok && ended == 0 && n_out == 1);
    /* Arguments. */
    wai_decoder *d = (wai_decoder *)&f;
    CHECK(wai_decode_route(f.ctx, NULL, c, 0, &d, NULL, NULL) == WAI_invalid_argument && !d);
    c[1].reserved[3] = 1;
    CHECK(wai_decode_route(f.ctx, NULL, c, 2, &d, NULL, NULL) == WAI_invalid_argument && !d);
    CHECK(wai_decode_route(NULL, NULL, c, 1, &d, NULL, NULL) == WAI_invalid_argument);
    close_fixture(&f);
}

void suite_route(void) {
    harness_run("route/each_routing_code_moves_on", test_each_routing_code_moves_on);
    harness_run("route/other_codes_stop", test_other_codes_stop);
}
