/* SPDX-License-Identifier: BSD-2-Clause */
/* The status enum: every spec code, verbatim, and its routing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "harness.h"
#include "wai/wai.h"

/* integer-payloads §8's table and neural-dispatch §7's, in their order. */
static const char *const spec_codes[] = {
    "bad_magic", "format_capability_mismatch", "keyframe_capability_mismatch", "version",
    "reserved_nonzero", "field_range", "too_large", "cdf_malformed", "stream_length",
    "nested_length", "trailing", "stream_exhausted", "stream_noncanonical",
    "geometry_mismatch", "model_mismatch", "set_incomplete", "not_dispatchable",
    "unsupported_capability", "payload_malformed", "cost_over_limit",
    "dispatch_tier_refused", "dispatch_arithmetic_mismatch", "dispatch_unit_absent",
    "dispatch_program_absent", "dispatch_shape_mismatch", "dispatch_not_placed",
    "dispatch_backend_failed",
    /* webnn.md's exceptions, by name */
    "TypeError", "InvalidStateError", "OperationError", "NotSupportedError", "DataError",
    "UnknownError",
};

static void test_every_spec_code_has_a_status(void) {
    for (size_t i = 0; i < sizeof spec_codes / sizeof spec_codes[0]; i++) {
        wai_status s;
        if (!CHECK_MSG(wai_status_from_name(spec_codes[i], &s), "no status for %s",
                       spec_codes[i]))
            continue;
        CHECK(strcmp(wai_status_name(s), spec_codes[i]) == 0);
        CHECK(s != WAI_ok);
    }
}

static void test_names_are_verbatim(void) {
    CHECK(strcmp(wai_status_name(WAI_ok), "ok") == 0);
    CHECK(strcmp(wai_status_name(WAI_stream_exhausted), "stream_exhausted") == 0);
    CHECK(strcmp(wai_status_name(WAI_dispatch_tier_refused), "dispatch_tier_refused") == 0);
    CHECK(strcmp(wai_status_name(WAI_out_of_memory), "out_of_memory") == 0);
    CHECK(strcmp(wai_status_name(WAI_io_error), "io_error") == 0);
    CHECK(strcmp(wai_status_name(WAI_invalid_argument), "invalid_argument") == 0);
    CHECK(wai_status_name((wai_status)999) == NULL);
    wai_status s = WAI_ok;
    CHECK(!wai_status_from_name("Stream_Exhausted", &s));
    CHECK(!wai_status_from_name(NULL, &s));
    CHECK(s == WAI_ok);
}

/* Every status a name knows has one line of meaning, distinct from every
 * other's, that is a sentence fragment (no trailing period, no newline):
 * the tool prints it after the code, the page and Python read the same. */
static void test_every_status_has_a_meaning(void) {
    const char *seen[256];
    size_t n = 0;
    for (int v = 0; v < 256; v++) {
        const char *name = wai_status_name((wai_status)v);
        const char *m = wai_status_meaning((wai_status)v);
        CHECK_MSG((name == NULL) == (m == NULL), "status %d: name and meaning disagree", v);
        if (!m) continue;
        size_t len = strlen(m);
        CHECK_MSG(len > 4 && len < 100 && m[len - 1] != '.' && !strchr(m, '\n'),
                  "%s: meaning \"%s\"", name, m);
        for (size_t i = 0; i < n; i++) CHECK_MSG(strcmp(seen[i], m) != 0, "%s: meaning repeated", name);
        if (n < 256) seen[n++] = m;
    }
    CHECK(n >= 40);
    CHECK(strcmp(wai_status_meaning(WAI_set_incomplete),
                 "the parameter set lacks a file this decode reads, or a file differs from "
                 "its listing or pin") == 0);
    CHECK(wai_status_meaning((wai_status)999) == NULL);
}

/* The numeric values are ABI: pin them. */
static void test_values_are_stable(void) {
    CHECK(WAI_bad_magic == 1);
    CHECK(WAI_cost_over_limit == 20);
    CHECK(WAI_dispatch_tier_refused == 32);
    CHECK(WAI_dispatch_backend_failed == 38);
    CHECK(WAI_TypeError == 48 && WAI_UnknownError == 53);
    CHECK(WAI_out_of_memory == 64);
    CHECK(WAI_invalid_argument == 66);
}

/* §8: which refusals are final and which route to another path. */
static void test_routing_kinds(void) {
    CHECK(wai_status_kind_of(WAI_ok) == WAI_KIND_OK);
    CHECK(wai_status_kind_of(WAI_bad_magic) == WAI_KIND_PAYLOAD);
    CHECK(wai_status_kind_of(WAI_model_mismatch) == WAI_KIND_PAYLOAD);
    CHECK(wai_status_kind_of(WAI_payload_malformed) == WAI_KIND_PAYLOAD);
    CHECK(wai_status_kind_of(WAI_set_incomplete) == WAI_KIND_ROUTE);
    CHECK(wai_status_kind_of(WAI_not_dispatchable) == WAI_KIND_ROUTE);
    CHECK(wai_status_kind_of(WAI_unsupported_capability) == WAI_KIND_ROUTE);
    CHECK(wai_status_kind_of(WAI_cost_over_limit) == WAI_KIND_ROUTE);
    CHECK(wai_status_kind_of(WAI_dispatch_not_placed) == WAI_KIND_DISPATCH);
    CHECK(wai_status_kind_of(WAI_io_error) == WAI_KIND_LIBRARY);
    CHECK(wai_status_kind_of(WAI_TypeError) == WAI_KIND_WEBNN &&
          wai_status_kind_of(WAI_UnknownError) == WAI_KIND_WEBNN);
    CHECK(wai_status_kind_of((wai_status)999) == WAI_KIND_UNKNOWN);
}

static void test_context_lifecycle(void) {
    wai_settings s;
    wai_settings_default(&s);
    CHECK(s.n_threads == 0);
    CHECK(s.set_cache_budget == (uint64_t)256 << 20);
    wai_context *ctx = NULL;
    CHECK(wai_context_create(&s, &ctx) == WAI_ok && ctx);
    wai_context_destroy(ctx);
    CHECK(wai_context_create(NULL, &ctx) == WAI_ok && ctx);
    wai_context_destroy(ctx);
    wai_context_destroy(NULL);
    CHECK(wai_context_create(&s, NULL) == WAI_invalid_argument);

    s.reserved[3] = 1; /* reserved space must be zero */
    CHECK(wai_context_create(&s, &ctx) == WAI_invalid_argument && ctx == NULL);
    s.reserved[3] = 0;

    harness_alloc h = {0};
    wai_allocator counting = harness_allocator(&h);
    s.allocator.alloc = counting.alloc; /* half an allocator */
    CHECK(wai_context_create(&s, &ctx) == WAI_invalid_argument);
    s.allocator = counting;
    CHECK(wai_context_create(&s, &ctx) == WAI_ok);
    CHECK(h.calls == 3 && h.live == 3); /* the context, its set cache and its pool */
    wai_context_destroy(ctx);
    CHECK(h.live == 0);
    for (size_t n = 1; n <= 3; n++) { /* each allocation failing in turn */
        h.failed = 0;
        h.fail_at = h.calls + n;
        CHECK(wai_context_create(&s, &ctx) == WAI_out_of_memory && ctx == NULL && h.failed);
        CHECK(h.live == 0);
    }
}

/* integer-payloads §7: a size past 64 bits is past every cap. */
static void test_checked_sizes(void) {
    CHECK(wai_sat_mul(0, UINT64_MAX) == 0);
    CHECK(wai_sat_mul((uint64_t)1 << 32, (uint64_t)1 << 32) == UINT64_MAX);
    CHECK(wai_sat_mul((uint64_t)1 << 31, (uint64_t)1 << 32) == (uint64_t)1 << 63);
    CHECK(wai_sat_mul3(65536, 65536, 65536) == (uint64_t)1 << 48);
    CHECK(wai_sat_mul3(UINT32_MAX, UINT32_MAX, 3) == UINT64_MAX);
    CHECK(wai_sat_add(UINT64_MAX - 1, 1) == UINT64_MAX);
    CHECK(wai_sat_add(UINT64_MAX, 1) == UINT64_MAX);
    uint64_t r = 7;
    CHECK(!wai_mul_u64(UINT64_MAX, 2, &r) && r == 7);
    CHECK(wai_mul_u64(UINT32_MAX, UINT32_MAX, &r) && r == 0xFFFFFFFE00000001ull);
    CHECK(!wai_add_u64(UINT64_MAX, 1, &r));
    CHECK(wai_ceil_div(0, 3) == 0 && wai_ceil_div(7, 3) == 3 && wai_ceil_div(6, 3) == 2);
    CHECK(wai_ceil_div(UINT64_MAX, 1) == UINT64_MAX);
    /* A frame 2^13 x 2^13 x 3 is past the element cap; 2^12 x 2^12 x 3 is under. */
    CHECK(wai_sat_mul3(8192, 8192, 3) > WAI_CAP_ELEMENTS);
    CHECK(wai_sat_mul3(4096, 4096, 3) <= WAI_CAP_ELEMENTS);
    /* R4: the cap itself is allowed. */
    CHECK(wai_sat_mul(1 << 13, 1 << 13) == WAI_CAP_ELEMENTS);
}

/* One version, from the build: the headers' and the library's agree. */
static void test_version(void) {
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", WAI_VERSION_MAJOR, WAI_VERSION_MINOR,
             WAI_VERSION_PATCH);
    CHECK(strcmp(wai_version(), want) == 0 && strcmp(wai_version(), WAI_VERSION_STRING) == 0);
    CHECK(wai_version_number() == WAI_VERSION_NUMBER &&
          WAI_VERSION_NUMBER == WAI_VERSION_MAJOR * 10000 + WAI_VERSION_MINOR * 100 +
                                    WAI_VERSION_PATCH);
}

void suite_status(void) {
    harness_run("status/version", test_version);
    harness_run("status/every_spec_code", test_every_spec_code_has_a_status);
    harness_run("status/names_verbatim", test_names_are_verbatim);
    harness_run("status/values_stable", test_values_are_stable);
    harness_run("status/meanings", test_every_status_has_a_meaning);
    harness_run("status/routing_kinds", test_routing_kinds);
    harness_run("status/context_lifecycle", test_context_lifecycle);
    harness_run("status/checked_sizes", test_checked_sizes);
}
