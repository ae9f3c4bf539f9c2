/* isqrt of a 128-bit value, digit by digit in base 4 (no division, no
 * rounding to reason about): each step decides one bit of the root. */
#include "common/int128.h"

uint64_t wai_u128_isqrt(wai_u128 n) {
    wai_u128 rem = n, root = wai_u128_make(0, 0);
    /* bit: the largest power of 4 not above n (or 0 when n is 0). */
    wai_u128 bit = wai_u128_make((uint64_t)1 << 62, 0);
    while (!wai_u128_is_zero(bit) && wai_u128_cmp(bit, n) > 0) bit = wai_u128_shr(bit, 2);
    /* Invariant (Hacker's Delight 11-1): root holds the root's bits found so
     * far, shifted so that root + bit <= 2^128 - 1 stays representable
     * (root < 2 * sqrt(n) <= 2^65 while bit <= 2^126). */
    while (!wai_u128_is_zero(bit)) {
        wai_u128 trial = wai_u128_add(root, bit);
        root = wai_u128_shr(root, 1);
        if (wai_u128_cmp(rem, trial) >= 0) {
            rem = wai_u128_sub(rem, trial);
            root = wai_u128_add(root, bit);
        }
        bit = wai_u128_shr(bit, 2);
    }
    return root.lo;
}
