/* SPDX-License-Identifier: BSD-2-Clause */
/* Format detection, the capability registry, and §2 steps 1-2. */
#include <string.h>

#include "harness.h"
#include "wai/wai_format.h"

static wai_status framing(const char *cap, const char *bytes, size_t len) {
    return wai_check_framing(wai_capability_find(cap), (const uint8_t *)bytes, len);
}

static void test_detect(void) {
    CHECK(wai_format_detect((const uint8_t *)"WIV1\x01", 5) == WAI_FORMAT_WIV1);
    CHECK(wai_format_detect((const uint8_t *)"WIC1", 4) == WAI_FORMAT_WIC1);
    CHECK(wai_format_detect((const uint8_t *)"WIM1", 4) == WAI_FORMAT_WIM1);
    CHECK(wai_format_detect((const uint8_t *)"WIV", 3) == WAI_FORMAT_NONE);
    CHECK(wai_format_detect((const uint8_t *)"wiv1", 4) == WAI_FORMAT_NONE);
    CHECK(wai_format_detect((const uint8_t *)"{\"fr", 4) == WAI_FORMAT_NONE);
    CHECK(wai_format_detect(NULL, 0) == WAI_FORMAT_NONE);
    CHECK(strcmp(wai_format_name(WAI_FORMAT_WCF1), "WCF1") == 0);
    CHECK(strcmp(wai_format_name(WAI_FORMAT_INT_SYNTH), "int_synth") == 0);
    CHECK(strcmp(wai_format_name(WAI_FORMAT_NONE), "none") == 0);
    int seven = 0;
    for (int f = 0; f <= WAI_FORMAT_INT_SYNTH; f++) seven += wai_format_is_section2((wai_format)f);
    CHECK(seven == 7);
    CHECK(!wai_format_is_section2(WAI_FORMAT_WIM1));
}

static void test_registry(void) {
    CHECK(wai_capability_count() == 12);
    for (size_t i = 0; i < wai_capability_count(); i++) {
        const wai_capability *c = wai_capability_at(i);
        CHECK(wai_capability_find(c->name) == c);
        /* Every row is integer but the floating-point one neural-dispatch
         * §6 dispatches (test_dispatch.c checks classes against tiers). */
        int flt = strcmp(c->name, "wai.neural.bmshj2018") == 0;
        CHECK(strcmp(c->registry_class, flt ? "Neural" : "NeuralIntegerExact") == 0);
        CHECK(strcmp(c->tier, flt ? "none" : "decode-equivalence") == 0);
    }
    CHECK(wai_capability_at(wai_capability_count()) == NULL);
    CHECK(wai_capability_find("wai.video.int_motion.") == NULL);
    CHECK(wai_capability_find(NULL) == NULL);
    /* §9's members, in order. */
    const wai_capability *h = wai_capability_find("wai.neural.int_hyper");
    CHECK(strcmp(h->set_members[0], "g_s.whm") == 0 &&
          strcmp(h->set_members[1], "h_s.whm") == 0 &&
          strcmp(h->set_members[2], "entropy.json") == 0 && h->set_members[3] == NULL);
    CHECK(wai_capability_find("wai.video.int_motion")->set_members[0] == NULL);
}

static void test_detect_capability_by_keyframe(void) {
    const uint8_t k0[] = {'W', 'I', 'V', '1', 1, 1, 0, 0};
    const uint8_t k1[] = {'W', 'I', 'V', '1', 1, 1, 1, 0};
    const uint8_t k7[] = {'W', 'I', 'V', '1', 1, 1, 7, 0};
    const uint8_t f1[] = {'W', 'I', 'F', '1', 1, 0, 1, 0};
    CHECK(strcmp(wai_capability_detect(k0, 8)->name, "wai.video.int_motion") == 0);
    CHECK(strcmp(wai_capability_detect(k1, 8)->name, "wai.video.int_hyper") == 0);
    CHECK(strcmp(wai_capability_detect(k7, 8)->name, "wai.video.int_motion") == 0);
    CHECK(strcmp(wai_capability_detect(k1, 6)->name, "wai.video.int_motion") == 0);
    CHECK(strcmp(wai_capability_detect(f1, 8)->name, "wai.video.int_hyper.frame") == 0);
    CHECK(strcmp(wai_capability_detect((const uint8_t *)"WIA1", 4)->name,
                 "wai.audio.int_codec") == 0);
    CHECK(wai_capability_detect((const uint8_t *)"XXXX", 4) == NULL);
}

/* §2 step 1, and reading R1: a payload shorter than its magic is bad_magic. */
static void test_magic_step(void) {
    CHECK(framing("wai.video.int_motion", "WIV1\x01", 5) == WAI_ok);
    CHECK(framing("wai.video.int_motion", "", 0) == WAI_bad_magic);
    CHECK(framing("wai.video.int_motion", "WIV", 3) == WAI_bad_magic);
    CHECK(framing("wai.video.int_motion", "WIH1\x01", 5) == WAI_format_capability_mismatch);
    CHECK(framing("wai.video.int_motion", "WIC1\x01", 5) == WAI_format_capability_mismatch);
    CHECK(framing("wai.video.int_motion", "WIF1\x01", 5) == WAI_format_capability_mismatch);
    /* WIM1 is not one of the seven magics. */
    CHECK(framing("wai.video.int_motion", "WIM1\x01", 5) == WAI_bad_magic);
    /* A tool's JSON form lands on bad_magic (§10). */
    CHECK(framing("wai.video.int_motion", "{\"frames\": []}", 14) == WAI_bad_magic);
    CHECK(framing("wai.audio.int_codec", "WIS1\x01", 5) == WAI_format_capability_mismatch);
}

/* §2 step 2: the version byte present (stream_length), then 1 (version). */
static void test_version_step(void) {
    CHECK(framing("wai.video.int_motion", "WIV1", 4) == WAI_stream_length);
    CHECK(framing("wai.video.int_motion", "WIV1\x02", 5) == WAI_version);
    CHECK(framing("wai.video.int_motion", "WIV1\x00", 5) == WAI_version);
    CHECK(framing("wai.video.int_cond", "WIC1\x01", 5) == WAI_ok);
}

/* §14: WIM1's first checks are its length, then its magic: payload_malformed. */
static void test_wim1_framing(void) {
    char wim1[36] = "WIM1";
    CHECK(framing("wai.neural.int_mlicpp", wim1, 36) == WAI_ok);
    CHECK(framing("wai.neural.int_mlicpp", wim1, 35) == WAI_payload_malformed);
    wim1[0] = 'X';
    CHECK(framing("wai.neural.int_mlicpp", wim1, 36) == WAI_payload_malformed);
    CHECK(framing("wai.neural.int_synth", "", 0) == WAI_ok);
    CHECK(wai_check_framing(NULL, NULL, 0) == WAI_invalid_argument);
}

void suite_formats(void) {
    harness_run("formats/detect", test_detect);
    harness_run("formats/registry", test_registry);
    harness_run("formats/detect_capability", test_detect_capability_by_keyframe);
    harness_run("formats/magic_step", test_magic_step);
    harness_run("formats/version_step", test_version_step);
    harness_run("formats/wim1_framing", test_wim1_framing);
}
