/* SPDX-License-Identifier: BSD-2-Clause */
/* The wai tool's energy figure from RAPL readings (tools/wai/energy_figure.c,
 * docs/receipts.md "Energy"): the sum over packages, a counter's wrap, the
 * unmetered marker when nothing was counted, and an uncertainty that always
 * coheres (§15.1's floor) whatever the figure and window. */
#include "energy_meter.h"
#include "harness.h"
#include "receipt/receipt.h"

static void test_counts(void) {
    uint64_t start[2] = {1000, 50}, end[2] = {3000, 70}, range[2] = {1u << 20, 1u << 20};
    wai_energy e;
    energy_from_counts(start, end, range, 2, 1000000, &e);
    CHECK(e.joules_micro == 2020 && e.cls == WAI_ENERGY_ON_CHIP_COUNTER && e.window_us == 1000000);
    /* 5 % and 2 ms over 1 s (2000 ppm): above the floor's 143 (288676 / 2020,
     * rounded up). */
    CHECK(e.relative_ppm == 52000);
    CHECK(e.filtering == WAI_FILTERING_UNKNOWN);
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
    /* A wrap: from 2^20 - 10 over the top to 5 is 16 µJ. */
    start[0] = range[0] - 10, end[0] = 5, start[1] = end[1] = 0;
    energy_from_counts(start, end, range, 2, 100, &e);
    CHECK(e.joules_micro == 16);
    /* 16 µJ at 20050000 ppm (2 ms over 100 µs) already passes the floor. */
    CHECK(e.relative_ppm == 20050000u);
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_ENCODE) == WAI_RECEIPT_FAULT_NONE);
    /* Nothing counted: the unmetered marker, not a zero figure. */
    energy_from_counts(start, start, range, 2, 100, &e);
    CHECK(e.joules_micro == 0 && e.cls == WAI_ENERGY_UNMETERED);
    CHECK(wai_receipt_energy_fault(&e, WAI_RECEIPT_DECODE) == WAI_RECEIPT_FAULT_NONE);
}

/* Whatever the figure and the window, the figure coheres. */
static void test_always_coheres(void) {
    uint64_t range[1] = {UINT64_MAX};
    const uint64_t figures[] = {1, 2, 7, 1000, 288675, 288676, 1u << 30, UINT64_MAX - 1};
    const uint64_t windows[] = {0, 1, 999, 1000000, UINT64_MAX};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
        for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
            uint64_t start[1] = {0}, end[1] = {figures[i]};
            wai_energy e;
            energy_from_counts(start, end, range, 1, windows[k], &e);
            CHECK_MSG(e.joules_micro == figures[i] &&
                          wai_receipt_energy_fault(&e, WAI_RECEIPT_ENCODE) == WAI_RECEIPT_FAULT_NONE,
                      "%llu uJ over %llu us: ppm %lu", (unsigned long long)figures[i],
                      (unsigned long long)windows[k], (unsigned long)e.relative_ppm);
        }
    }
}

void suite_energy_figure(void) {
    harness_run("energy_figure_counts", test_counts);
    harness_run("energy_figure_always_coheres", test_always_coheres);
}
