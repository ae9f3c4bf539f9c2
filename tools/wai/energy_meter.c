/* SPDX-License-Identifier: BSD-2-Clause */
/* RAPL through Linux powercap (energy_meter.h). Each package domain,
 * /sys/class/powercap/intel-rapl:N (AMD's too), counts microjoules in
 * energy_uj and wraps at max_energy_range_uj; a decode's energy is the sum
 * of the packages' differences over it. */
#define _POSIX_C_SOURCE 200809L
#include "energy_meter.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int read_u64(const char *path, uint64_t *v) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long x;
    int ok = fscanf(f, "%llu", &x) == 1;
    fclose(f);
    *v = x;
    return ok;
}

void energy_meter_init(energy_meter *m, const char *root) {
    memset(m, 0, sizeof *m);
    m->root = root ? root : "/sys/class/powercap";
    DIR *d = opendir(m->root);
    if (!d) {
        m->why = "no powercap counters on this machine";
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) && m->n < ENERGY_MAX_DOMAINS) {
        /* Package domains are intel-rapl:N; their subdomains (intel-rapl:N:M)
         * are inside them and counted there. */
        unsigned pkg;
        char tail;
        if (sscanf(e->d_name, "intel-rapl:%u%c", &pkg, &tail) != 1) continue;
        char *p = m->path[m->n];
        uint64_t v, range;
        char range_path[600];
        snprintf(range_path, sizeof range_path, "%s/%s/max_energy_range_uj", m->root, e->d_name);
        snprintf(p, sizeof m->path[0], "%s/%s/energy_uj", m->root, e->d_name);
        if (!read_u64(p, &v) || !read_u64(range_path, &range)) continue;
        m->range[m->n++] = range;
    }
    closedir(d);
    if (m->n == 0) m->why = "no readable RAPL package counter";
}

void energy_meter_begin(energy_meter *m) {
    m->started = 1;
    for (int i = 0; i < m->n; i++)
        if (!read_u64(m->path[i], &m->start[i])) m->started = 0;
    m->t0_us = now_us();
}

void energy_meter_end(energy_meter *m, wai_energy *out) {
    memset(out, 0, sizeof *out);
    uint64_t window = now_us() - m->t0_us;
    uint64_t end[ENERGY_MAX_DOMAINS];
    if (!m->started || m->n == 0) return;
    for (int i = 0; i < m->n; i++)
        if (!read_u64(m->path[i], &end[i])) {
            m->why = "a RAPL counter could not be read again";
            return;
        }
    energy_from_counts(m->start, end, m->range, m->n, window, out);
    if (out->cls == WAI_ENERGY_UNMETERED) m->why = "the RAPL counters did not advance";
}

static void hook_begin(void *opaque) { energy_meter_begin(opaque); }
static void hook_end(void *opaque, wai_energy *out) { energy_meter_end(opaque, out); }

wai_energy_meter energy_meter_hooks(energy_meter *m) {
    wai_energy_meter h = {hook_begin, hook_end, m};
    return h;
}
