/* SPDX-License-Identifier: BSD-2-Clause */
/* Every n below 2^32 through the inverse GDN's value loop of every level
 * this CPU has whose loop differs from the portable one, against a running
 * root (r grows by one where (r + 1)² <= n): the seeded root of
 * docs/integer-operators.md, "The root from a seed", checked on its whole
 * domain. With beta = 0, gf = 0, x = 2^12 and afrac = 12 the value is
 * isqrt(sum). About 15 s a level in Release. Prints "N passed, N failed",
 * with ", 1 skipped" on a CPU whose levels all use the portable loop. */
#include <stdint.h>
#include <stdio.h>

#include "ops/cores.h"
#include "ops/cpu.h"

int main(void) {
    const wai_cores *portable = wai_cores_portable();
    int passed = 0, failed = 0;
    wai_igdn_value_fn done[8];
    int ndone = 0;
    for (int isa = 0; isa <= wai_cpu_isa(); isa++) {
        wai_cores c;
        wai_cores_init(&c, isa);
        int seen = c.igdn_value == portable->igdn_value;
        for (int k = 0; k < ndone; k++) seen |= done[k] == c.igdn_value;
        if (seen) continue;
        done[ndone++] = c.igdn_value;
        int64_t x[16], y[16];
        uint64_t sum[16], r = 0, wrong = 0;
        for (int t = 0; t < 16; t++) x[t] = 4096;
        for (uint64_t n0 = 0; n0 < ((uint64_t)1 << 32); n0 += 16) {
            for (int t = 0; t < 16; t++) sum[t] = n0 + (uint64_t)t;
            c.igdn_value(y, x, sum, 16, 0, 0, 12);
            for (int t = 0; t < 16; t++) {
                while ((r + 1) * (r + 1) <= sum[t]) r++;
                if ((uint64_t)y[t] != r && wrong++ < 3)
                    printf("  level %d: isqrt(%llu) gave %lld\n", isa,
                           (unsigned long long)sum[t], (long long)y[t]);
            }
        }
        printf("level %d: every n below 2^32, %llu roots wrong\n", isa, (unsigned long long)wrong);
        if (wrong) failed++;
        else passed++;
    }
    /* The seeded root is AVX-512's: a CPU without it has no loop of its own
     * to check, and says so rather than passing with nothing run. */
    if (ndone == 0) {
        printf("no level of this CPU has its own inverse GDN value loop\n");
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
