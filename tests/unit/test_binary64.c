/* SPDX-License-Identifier: BSD-2-Clause */
/* A receipt's uj_per_kilopixel_op (integer-payloads §15.2): joules_micro ×
 * 1000 / work_pixel_ops in binary64, "%.6f" correctly rounded, computed in
 * integers (src/common/binary64.c), against the machine's own binary64 and
 * printf on 10^6 seeded operands where the compiler evaluates double in
 * double (FLT_EVAL_METHOD 0: not i386's x87), and everywhere against
 * pinned vectors (ties, operands past 2^53, the extremes). */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "common/binary64.h"
#include "harness.h"

#if FLT_EVAL_METHOD == 0
static uint64_t state = 0x756a2f6b706f70u;

static uint64_t rnd(void) {
    uint64_t z = (state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Operands of every size: a bit length drawn first, then the bits. */
static uint64_t operand(void) {
    const unsigned bits = (unsigned)(rnd() % 65);
    if (bits == 0) return 0;
    const uint64_t v = rnd();
    return bits == 64 ? v : (v & (((uint64_t)1 << bits) - 1)) | ((uint64_t)1 << (bits - 1));
}
#endif

static void test_pinned(void) {
    static const struct {
        uint64_t j, w;
        const char *want;
    } v[] = {
        {0, 1, "0.000000"},
        {1, 1, "1000.000000"},
        {1, 3, "333.333333"},
        {2, 3, "666.666667"},
        {1, 1000000000, "0.000001"},
        {1, 2000000000, "0.000000"},            /* 5e-7 as binary64 is under the tie */
        {1, 2000000001, "0.000000"},
        {3, 2000000000, "0.000002"},            /* 1.5e-6 is above it */
        {1, 1, "1000.000000"},
        {UINT64_MAX, 1, "18446744073709551616000.000000"},   /* both rounded */
        {UINT64_MAX, UINT64_MAX, "1000.000000"},
        {1, UINT64_MAX, "0.000000"},
        {9007199254740993u, 1, "9007199254740992000.000000"},  /* 2^53 + 1 rounds to even */
        {123456789, 987654321, "124.999999"},
        {288676, 1, "288676000.000000"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char out[64];
        wai_binary64_muldiv_text(v[i].j, 1000, v[i].w, out);
        CHECK_MSG(strcmp(out, v[i].want) == 0, "%llu*1000/%llu: %s, want %s",
                  (unsigned long long)v[i].j, (unsigned long long)v[i].w, out, v[i].want);
    }
}

static void test_against_the_machine(void) {
#if FLT_EVAL_METHOD == 0
    int bad = 0;
    for (int i = 0; i < 1000000; i++) {
        const uint64_t j = operand(), w = operand() | (rnd() & 1);
        if (w == 0) continue;
        volatile double p = (double)j * 1000.0;
        volatile double q = p / (double)w;
        char want[512], got[64];
        snprintf(want, sizeof want, "%.6f", q);
        wai_binary64_muldiv_text(j, 1000, w, got);
        if (strcmp(got, want) != 0 && bad++ < 10)
            CHECK_MSG(0, "%llu*1000/%llu: %s, the machine %s", (unsigned long long)j,
                      (unsigned long long)w, got, want);
    }
    CHECK_MSG(bad == 0, "%d of 10^6 differ from the machine's binary64", bad);
#else
    harness_skip("FLT_EVAL_METHOD is not 0 here (x87): the machine's binary64 is no reference; "
                 "the pinned vectors stand alone");
#endif
}

void suite_binary64(void) {
    harness_run("binary64_pinned", test_pinned);
    harness_run("binary64_against_the_machine", test_against_the_machine);
}
