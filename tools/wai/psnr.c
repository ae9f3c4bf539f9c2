/* SPDX-License-Identifier: BSD-2-Clause */
/* See psnr.h. */
#include "psnr.h"

/* log10 x with x = m * 2^e, m in [1, 2): ln m = 2 atanh((m - 1) / (m + 1)),
 * a series in z^2 <= 1/9. */
static double log10_of(double x) {
    int e = 0;
    while (x >= 2.0) {
        x /= 2.0;
        e++;
    }
    while (x < 1.0) {
        x *= 2.0;
        e--;
    }
    double z = (x - 1.0) / (x + 1.0), z2 = z * z, term = z, ln_m = 0.0;
    for (int k = 1; k < 80; k += 2) {
        ln_m += term / k;
        term *= z2;
    }
    const double ln2 = 0.69314718055994530942, ln10 = 2.30258509299404568402;
    return (2.0 * ln_m + e * ln2) / ln10;
}

double cli_psnr(uint64_t sse, uint64_t samples) {
    return 10.0 * log10_of(255.0 * 255.0 * (double)samples / (double)sse);
}
