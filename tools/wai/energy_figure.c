/* SPDX-License-Identifier: BSD-2-Clause */
/* An energy figure from counter readings (energy_meter.h): plain
 * arithmetic, apart from the reading, so the tests hold it to its rules. */
#include <string.h>

#include "energy_meter.h"

/* The uncertainty the figure declares (docs/receipts.md, "Energy"):
 *  - the counter moves about once a millisecond (Intel SDM, "Package RAPL
 *    Domain"), so each of the two readings may lag by up to 1 ms of
 *    energy: 2 ms over the window, relatively;
 *  - the package counter is a model of the package's power, not a shunt,
 *    and published comparisons against metered supplies put it within a
 *    few percent: 5 % (50000 ppm) beside the window term. */
#define COUNTER_STEP_US 1000u
#define MODEL_PPM 50000u

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

void energy_from_counts(const uint64_t *start, const uint64_t *end, const uint64_t *range, int n,
                        uint64_t window_us, wai_energy *out) {
    memset(out, 0, sizeof *out);
    uint64_t uj = 0;
    for (int i = 0; i < n; i++) {
        /* A counter that wrapped counts on from 0 after its range. */
        uint64_t d = end[i] >= start[i] ? end[i] - start[i]
                   : start[i] <= range[i] ? range[i] - start[i] + end[i] + 1 : 0;
        uj = add_sat(uj, d);
    }
    if (uj == 0) return;   /* nothing counted: unmetered, not a zero figure */
    out->joules_micro = uj;
    out->cls = WAI_ENERGY_ON_CHIP_COUNTER;
    out->window_us = window_us;
    out->filtering = WAI_FILTERING_UNKNOWN;   /* Linux does not say */
    uint64_t w = window_us ? window_us : 1;
    const uint64_t lag = 2ull * COUNTER_STEP_US * 1000000u;   /* 2 ms, in ppm·µs */
    uint64_t ppm = MODEL_PPM + lag / w + (lag % w != 0);
    /* No finer than the unit: relative_ppm × joules_micro >= 288676. */
    uint64_t floor_ppm = uj >= 288676u ? 1 : (288676u + uj - 1) / uj;
    if (ppm < floor_ppm) ppm = floor_ppm;
    out->relative_ppm = ppm > UINT32_MAX ? UINT32_MAX : (uint32_t)ppm;
}

