/* SPDX-License-Identifier: BSD-2-Clause */
/* The energy of a decode or an encode, from the machine's on-chip counter
 * where Linux exposes one (powercap's RAPL package domains), else the
 * unmetered marker: never a figure the machine did not measure
 * (docs/receipts.md, "Energy"). */
#ifndef WAI_TOOLS_ENERGY_METER_H
#define WAI_TOOLS_ENERGY_METER_H

#include <stdint.h>

#include "wai/wai_receipt.h"

#define ENERGY_MAX_DOMAINS 16

typedef struct energy_meter {
    const char *root;                   /* the powercap directory */
    int n;                              /* package domains found */
    char path[ENERGY_MAX_DOMAINS][512]; /* each domain's energy_uj */
    uint64_t range[ENERGY_MAX_DOMAINS]; /* its max_energy_range_uj (the wrap) */
    uint64_t start[ENERGY_MAX_DOMAINS];
    uint64_t t0_us;
    int started;
    const char *why;                    /* why the figure is unmetered, or NULL */
} energy_meter;

/* Finds the package domains under root (NULL: /sys/class/powercap) whose
 * counters this process can read. */
void energy_meter_init(energy_meter *m, const char *root);

/* The meter as the library calls it (begin, end). */
wai_energy_meter energy_meter_hooks(energy_meter *m);

void energy_meter_begin(energy_meter *m);
void energy_meter_end(energy_meter *m, wai_energy *out);

/* The figure of counter readings: the energy (each domain's difference,
 * wrapped at its range), the class OnChipCounter with its uncertainty
 * over window_us, or the unmetered marker when no energy was counted. */
void energy_from_counts(const uint64_t *start, const uint64_t *end, const uint64_t *range, int n,
                        uint64_t window_us, wai_energy *out);

#endif
